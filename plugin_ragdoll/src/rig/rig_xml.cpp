#include "rig/rig_xml.h"

#include <charconv>
#include <cmath>
#include <initializer_list>
#include <system_error>

#include "solver/math.h"

namespace ragdoll::rigxml {

namespace {

double fromInternal(double value, Quantity quantity, double unitsPerMetre) {
    switch (quantity) {
        case Quantity::Plain: return value;
        case Quantity::Length: return value * unitsPerMetre;
        case Quantity::Angle: return value * (180.0 / kPi);
    }
    return value;
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/// XML name characters, leniently (the document was validated by tinyxml2 already).
bool isNameChar(char c) { return !isSpace(c) && c != '/' && c != '>' && c != '=' && c != '<' && c != '"' && c != '\''; }

}  // namespace

double toInternal(double fileValue, Quantity quantity, double unitsPerMetre) {
    switch (quantity) {
        case Quantity::Plain: return fileValue;
        case Quantity::Length: return fileValue / unitsPerMetre;
        case Quantity::Angle: return fileValue * (kPi / 180.0);
    }
    return fileValue;
}

std::optional<double> parseNumber(std::string_view text) {
    double value = 0.0;
    auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (status != std::errc{} || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return value;
}

std::string formatNumber(double value, Quantity quantity, double unitsPerMetre) {
    if (value == 0.0) return "0";
    const double fileValue = fromInternal(value, quantity, unitsPerMetre);
    auto readsBack = [&](std::string_view text) {
        std::optional<double> parsed = parseNumber(text);
        return parsed && toInternal(*parsed, quantity, unitsPerMetre) == value;
    };
    char buffer[64];
    // Plain notation with as few decimals as reproduce the value: "45", "0.16", "-980".
    const double magnitude = std::abs(fileValue);
    if (magnitude >= 1e-4 && magnitude < 1e15) {
        for (int decimals = 0; decimals <= 17; ++decimals) {
            auto result = std::to_chars(buffer, buffer + sizeof buffer, fileValue, std::chars_format::fixed, decimals);
            std::string_view text(buffer, size_t(result.ptr - buffer));
            if (result.ec == std::errc{} && readsBack(text)) return std::string(text);
        }
    }
    // The conversion can round: the neighbours of the file value may be the one that maps
    // back exactly. The shortest form of each, nearest first.
    double up = fileValue, down = fileValue;
    for (int step = 0; step < 4; ++step) {
        for (double candidate : {up, down}) {
            auto result = std::to_chars(buffer, buffer + sizeof buffer, candidate);
            std::string_view text(buffer, size_t(result.ptr - buffer));
            if (readsBack(text)) return std::string(text);
        }
        up = std::nextafter(up, INFINITY);
        down = std::nextafter(down, -INFINITY);
    }
    auto result = std::to_chars(buffer, buffer + sizeof buffer, fileValue);
    return std::string(buffer, size_t(result.ptr - buffer));
}

std::string escapeAttribute(std::string_view value) {
    std::string out;
    out.reserve(value.size());
    for (char c : value) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default: out += c; break;
        }
    }
    return out;
}

const ScannedAttribute* ScannedElement::find(std::string_view attribute) const {
    for (const ScannedAttribute& a : attributes)
        if (a.name == attribute) return &a;
    return nullptr;
}

ScannedDocument scanDocument(std::string_view text) {
    ScannedDocument doc;
    const size_t n = text.size();
    auto skipPast = [&](size_t from, std::string_view terminator) {
        size_t at = text.find(terminator, from);
        return at == std::string_view::npos ? n : at + terminator.size();
    };
    int depth = 0;  // open elements
    bool rootSeen = false;
    size_t i = 0;
    while (i < n) {
        size_t lt = text.find('<', i);
        if (lt == std::string_view::npos) break;
        std::string_view rest = text.substr(lt);
        if (rest.starts_with("<!--")) {
            i = skipPast(lt + 4, "-->");
        } else if (rest.starts_with("<![CDATA[")) {
            i = skipPast(lt + 9, "]]>");
        } else if (rest.starts_with("<?")) {
            i = skipPast(lt + 2, "?>");
        } else if (rest.starts_with("<!")) {
            // <!DOCTYPE …> with an optional internal subset in brackets.
            int brackets = 0;
            i = lt + 2;
            while (i < n && !(text[i] == '>' && brackets == 0)) {
                if (text[i] == '[') ++brackets;
                if (text[i] == ']') --brackets;
                ++i;
            }
            ++i;
        } else if (rest.starts_with("</")) {
            i = skipPast(lt + 2, ">");
            --depth;
            if (depth == 1 && !doc.children.empty()) doc.children.back().end = i;
            if (depth == 0) {
                doc.root.end = i;
                doc.ok = true;
                return doc;
            }
        } else {
            ScannedElement element;
            element.begin = lt;
            size_t p = lt + 1;
            while (p < n && isNameChar(text[p])) ++p;
            element.name = std::string(text.substr(lt + 1, p - lt - 1));
            element.attributesEnd = p;
            for (;;) {
                size_t spaceBegin = p;
                while (p < n && isSpace(text[p])) ++p;
                if (p >= n) return doc;
                if (text[p] == '>' || text[p] == '/') break;
                ScannedAttribute attribute;
                attribute.begin = spaceBegin;
                size_t nameBegin = p;
                while (p < n && isNameChar(text[p])) ++p;
                attribute.name = std::string(text.substr(nameBegin, p - nameBegin));
                while (p < n && isSpace(text[p])) ++p;
                if (p >= n || text[p] != '=') return doc;
                ++p;
                while (p < n && isSpace(text[p])) ++p;
                if (p >= n || (text[p] != '"' && text[p] != '\'')) return doc;
                char quote = text[p];
                attribute.valueBegin = p + 1;
                size_t close = text.find(quote, p + 1);
                if (close == std::string_view::npos) return doc;
                attribute.valueEnd = close;
                p = close + 1;
                element.attributesEnd = p;
                element.attributes.push_back(std::move(attribute));
            }
            element.selfClosing = text[p] == '/';
            const bool opens = !element.selfClosing;
            i = skipPast(p, ">");
            element.tagEnd = i;
            if (element.selfClosing) element.end = i;
            if (depth == 0 && !rootSeen) {
                rootSeen = true;
                doc.root = element;
                if (element.selfClosing) {
                    doc.ok = true;
                    return doc;
                }
            } else if (depth == 1) {
                doc.children.push_back(std::move(element));
            }
            if (opens) ++depth;
        }
    }
    return doc;
}

}  // namespace ragdoll::rigxml
