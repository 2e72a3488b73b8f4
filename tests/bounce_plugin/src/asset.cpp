#include "asset.h"

#include <tinyxml2.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace bounce {

namespace {

using tinyxml2::XMLElement;

bool readText(const std::string& path, std::string& text) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return false;
    std::ostringstream all;
    all << file.rdbuf();
    text = all.str();
    return true;
}

/// Collects "FILE:LINE: error: …" lines.
struct Problems {
    const std::string& path;
    std::string& text;
    void add(int line, const std::string& message) {
        text += (text.empty() ? "" : "\n") + path + ":" + std::to_string(line) + ": error: " + message;
    }
};

/// The attribute `name` of e as a finite number from lo to hi; false (reported) otherwise.
bool readNumber(const XMLElement& e, const char* name, double lo, double hi, double& out, Problems& problems) {
    const std::string where = std::string("<") + e.Name() + "> ";
    const char* text = e.Attribute(name);
    if (!text) {
        problems.add(e.GetLineNum(), where + "needs the attribute '" + name + "'");
        return false;
    }
    const char* end = text + std::strlen(text);
    double value = 0.0;
    auto [ptr, ec] = std::from_chars(text, end, value);
    if (ec != std::errc() || ptr != end || !std::isfinite(value)) {
        problems.add(e.GetLineNum(), where + "'" + name + "' is not a number: '" + text + "'");
        return false;
    }
    if (value < lo || value > hi) {
        std::ostringstream range;
        range << where << "'" << name << "' must be from " << lo << " to " << hi << ", got " << text;
        problems.add(e.GetLineNum(), range.str());
        return false;
    }
    out = value;
    return true;
}

/// "#rrggbb" into rgb.
bool parseColor(const char* text, std::uint8_t rgb[3]) {
    if (std::strlen(text) != 7 || text[0] != '#') return false;
    unsigned value = 0;
    auto [ptr, ec] = std::from_chars(text + 1, text + 7, value, 16);
    if (ec != std::errc() || ptr != text + 7) return false;
    rgb[0] = std::uint8_t(value >> 16), rgb[1] = std::uint8_t(value >> 8), rgb[2] = std::uint8_t(value);
    return true;
}

/// Replaces the value of attribute `name` in the start tag beginning at text[tag] ('<').
bool patchAttribute(std::string& text, size_t tag, const std::string& name, const std::string& value) {
    size_t i = tag + 1;
    auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (i < text.size() && !isSpace(text[i]) && text[i] != '>' && text[i] != '/') ++i;  // the element's name
    for (;;) {
        while (i < text.size() && isSpace(text[i])) ++i;
        if (i >= text.size() || text[i] == '>' || text[i] == '/') return false;
        const size_t nameStart = i;
        while (i < text.size() && text[i] != '=' && !isSpace(text[i])) ++i;
        const std::string attribute = text.substr(nameStart, i - nameStart);
        while (i < text.size() && (isSpace(text[i]) || text[i] == '=')) ++i;
        if (i >= text.size()) return false;
        const char quote = text[i];
        const size_t valueStart = i + 1, valueEnd = text.find(quote, valueStart);
        if (valueEnd == std::string::npos) return false;
        if (attribute == name) {
            text.replace(valueStart, valueEnd - valueStart, value);
            return true;
        }
        i = valueEnd + 1;
    }
}

/// Where the element that starts on `line` begins in text.
size_t tagOnLine(const std::string& text, int line, const char* element) {
    size_t at = 0;
    for (int l = 1; l < line; ++l) {
        at = text.find('\n', at);
        if (at == std::string::npos) return at;
        ++at;
    }
    return text.find(std::string("<") + element, at);
}

/// The shortest decimal that reads back as exactly value ("45", "0.16").
std::string shortest(double value) {
    char buffer[32];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, ec == std::errc() ? end : buffer);
}

}  // namespace

bool readAsset(const std::string& path, EmitterAsset& out, std::string& errors) {
    errors.clear();
    Problems problems{path, errors};
    std::string text;
    if (!readText(path, text)) {
        errors = path + ": error: cannot open: " + std::strerror(errno);
        return false;
    }
    tinyxml2::XMLDocument doc;
    if (doc.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS) {
        problems.add(doc.ErrorLineNum(), std::string("malformed XML (") + doc.ErrorName() + ")");
        return false;
    }
    const XMLElement* root = doc.RootElement();
    if (!root || std::strcmp(root->Name(), "bounce") != 0) {
        problems.add(root ? root->GetLineNum() : 1, "the root element must be <bounce>");
        return false;
    }
    EmitterAsset asset;
    asset.path = path;
    double count = 0.0;
    readNumber(*root, "radius", 0.01, 1.0, asset.radius, problems);
    readNumber(*root, "restitution", 0.0, 1.0, asset.restitution, problems);
    if (readNumber(*root, "count", 0.0, 100.0, count, problems)) {
        if (count != std::floor(count)) problems.add(root->GetLineNum(), "<bounce> 'count' must be a whole number");
        asset.count = int(count);
    }
    if (const char* color = root->Attribute("color"); color && !parseColor(color, asset.color))
        problems.add(root->GetLineNum(), std::string("<bounce> 'color' must be #rrggbb, got '") + color + "'");
    const XMLElement* paddle = root->FirstChildElement("paddle");
    if (!paddle) {
        problems.add(root->GetLineNum(), "<bounce> needs a <paddle lower=\"…\" upper=\"…\" length=\"…\"/>");
    } else {
        const bool lower = readNumber(*paddle, "lower", -180.0, 180.0, asset.lower, problems);
        const bool upper = readNumber(*paddle, "upper", -180.0, 180.0, asset.upper, problems);
        if (lower && upper && asset.lower > asset.upper)
            problems.add(paddle->GetLineNum(), "<paddle> 'lower' (" + shortest(asset.lower) + ") is above 'upper' (" +
                                                   shortest(asset.upper) + ")");
        readNumber(*paddle, "length", 0.05, 5.0, asset.length, problems);
    }
    if (!errors.empty()) return false;
    out = asset;
    return true;
}

bool writeAsset(const EmitterAsset& edited, const std::string& target, std::string& error) {
    // The file as it is now: only values that differ from it are rewritten.
    EmitterAsset file;
    std::string text;
    if (!readAsset(edited.path, file, error) || !readText(edited.path, text)) return false;
    tinyxml2::XMLDocument doc;
    doc.Parse(text.c_str(), text.size());
    const int rootLine = doc.RootElement()->GetLineNum();
    const int paddleLine = doc.RootElement()->FirstChildElement("paddle")->GetLineNum();
    struct Edit {
        int line;
        const char* element;
        const char* name;
        double before, after;
    };
    for (const Edit& e : {Edit{rootLine, "bounce", "radius", file.radius, edited.radius},
                          Edit{paddleLine, "paddle", "lower", file.lower, edited.lower},
                          Edit{paddleLine, "paddle", "upper", file.upper, edited.upper},
                          Edit{paddleLine, "paddle", "length", file.length, edited.length}}) {
        if (e.before == e.after) continue;
        const size_t tag = tagOnLine(text, e.line, e.element);
        if (tag == std::string::npos || !patchAttribute(text, tag, e.name, shortest(e.after))) {
            error = edited.path + ":" + std::to_string(e.line) + ": error: cannot find <" + e.element + "> '" + e.name + "'";
            return false;
        }
    }
    // Beside the target, so the rename is atomic; a name of this process's own.
    const std::string temp = target + ".tmp-" + std::to_string(getpid());
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) {
            error = "cannot write '" + temp + "': " + std::strerror(errno);
            std::remove(temp.c_str());
            return false;
        }
    }
    if (std::rename(temp.c_str(), target.c_str()) != 0) {
        error = "cannot replace '" + target + "': " + std::strerror(errno);
        std::remove(temp.c_str());
        return false;
    }
    return true;
}

}  // namespace bounce
