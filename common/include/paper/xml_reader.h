// What the engine's level loader and the ragdoll plugin's rig loader share about reading a
// user's XML file: diagnostics in the compiler's format, a reporter that prefixes them with
// the element they are about, a strict attribute reader and the file reading itself. Both
// loaders check every element and go on after an error, so an author gets the whole list
// of problems in one go.
//
// Header-only, on the standard library and tinyxml2 alone: the plugin core compiles
// against the engine's public headers but must not link the engine.
#pragma once

#include <tinyxml2.h>

#include "paper/diagnostic.h"
#include "paper/spelling.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace paper {

/// The text between single quotes, as messages show what the file said.
/// Appended piece by piece: g++ 12 at -O3 warns falsely (-Wstringop-overflow) about
/// "'" + std::string(text) where this is compiled out of line.
inline std::string inQuotes(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 2);
    out += '\'';
    out += text;
    out += '\'';
    return out;
}

/// Appends diagnostics for one file, prefixed with the element they are about.
class Reporter {
public:
    /// Both are kept by reference: they must outlive the reporter.
    Reporter(const std::string& file, std::vector<Diagnostic>& out) : file_(file), out_(out) {}

    /// An error at a line (0: about the whole file), message as given.
    void error(int line, std::string message) { add(Severity::Error, line, std::move(message)); }
    /// A warning at a line (0: about the whole file), message as given.
    void warning(int line, std::string message) { add(Severity::Warning, line, std::move(message)); }
    /// An error at the element's line, as "<name>: message".
    void error(const tinyxml2::XMLElement& element, const std::string& message) {
        error(element.GetLineNum(), std::string(element.Name()) + ": " + message);
    }
    /// A warning at the element's line, as "<name>: message".
    void warning(const tinyxml2::XMLElement& element, const std::string& message) {
        warning(element.GetLineNum(), std::string(element.Name()) + ": " + message);
    }
    /// Errors reported so far through this reporter.
    int errorCount() const { return errorCount_; }

private:
    void add(Severity severity, int line, std::string message) {
        if (severity == Severity::Error) ++errorCount_;
        out_.push_back(Diagnostic{severity, file_, line, std::move(message)});
    }

    const std::string& file_;
    std::vector<Diagnostic>& out_;
    int errorCount_ = 0;
};

/// Largest |value| accepted for a number that is not a length (mass, friction, scale):
/// anything bigger is a typo.
inline constexpr double kMaxPlainMagnitude = 1.0e6;

/// Whether a missing attribute is an error.
enum class Need { Required, Optional };

/// What a number must satisfy, checked on the value as written in the file.
enum class Range {
    Any,
    Positive,        ///< > 0
    NonNegative,     ///< >= 0
    UnitInterval,    ///< [0, 1]
    StiffnessRange,  ///< (0, 1]: a rig joint's stiffness
    HalfTurn,        ///< [-180, 180] degrees: a rig joint's limits
};

/// What the two loaders differ in when reading attributes.
struct AttributeRules {
    double maxLengthMetres;      ///< larger |length| is refused
    const char* lengthTooLarge;  ///< the requirement then shown, e.g. "is too large (more than 1e6 m)"
    const char* ignoredNote;     ///< appended to "unknown attribute 'x' ignored"; "" for none
};

/// "#rrggbb" or "#rrggbbaa" as channels 0–255 (alpha 255 when not given); nullopt for
/// anything else, the empty text included.
inline std::optional<std::array<unsigned char, 4>> parseHexColor(std::string_view text) {
    std::array<unsigned char, 4> channels{0, 0, 0, 255};
    if ((text.size() != 7 && text.size() != 9) || text[0] != '#') return std::nullopt;
    for (size_t i = 0; 1 + 2 * i < text.size(); ++i) {
        const char* first = text.data() + 1 + 2 * i;
        auto [end, status] = std::from_chars(first, first + 2, channels[i], 16);
        if (status != std::errc{} || end != first + 2) return std::nullopt;
    }
    return channels;
}

/// Reads one element's attributes. It remembers which attributes were asked for, so
/// whatever else the element carries is reported as unknown; callers therefore read every
/// attribute even after one failed. Every failure is reported and answered with the
/// caller's fallback, so reading goes on.
class AttributeReader {
public:
    /// unitsPerMetre is the file's scale: how many of its length units make a metre.
    AttributeReader(const tinyxml2::XMLElement& element, Reporter& report, double unitsPerMetre,
                    const AttributeRules& rules)
        : element_(element), report_(report), unitsPerMetre_(unitsPerMetre), rules_(rules) {}

    /// True when the element carries the attribute (read it too, or it is reported unknown).
    bool has(const char* name) const { return element_.Attribute(name) != nullptr; }

    /// A string; a required one must not be empty.
    std::string text(const char* name, Need need) {
        const char* raw = find(name, need);
        if (!raw) return {};
        if (need == Need::Required && *raw == '\0') fail(name, "must not be empty", "''");
        return raw;
    }

    /// The index of the value in allowed; 0 (the first, the default) when absent or unknown.
    int choice(const char* name, std::initializer_list<const char*> allowed) {
        const char* raw = find(name, Need::Optional);
        if (!raw) return 0;
        std::string supported;
        int index = 0;
        for (const char* option : allowed) {
            if (std::string_view(raw) == option) return index;
            supported += (supported.empty() ? "" : ", ") + std::string(option);
            ++index;
        }
        report_.error(element_, "attribute '" + std::string(name) + "' has unknown value " + inQuotes(raw) +
                                    " (supported: " + supported + ")");
        return 0;
    }

    /// The number as written (file units, degrees); nullopt when absent or invalid. No
    /// magnitude limit: for values the caller converts and bounds itself (angles).
    std::optional<double> number(const char* name, Need need, Range range) {
        const char* raw = find(name, need);
        if (!raw) return std::nullopt;
        return checkedNumber(name, raw, range);
    }

    /// A number that is not a length (mass, friction, scale): no unit conversion, at most
    /// kMaxPlainMagnitude.
    double plain(const char* name, Need need, Range range, double fallback) {
        std::optional<double> value = number(name, need, range);
        if (!value) return fallback;
        if (std::abs(*value) > kMaxPlainMagnitude) {
            fail(name, "is too large (more than 1e6)", element_.Attribute(name));
            return fallback;
        }
        return *value;
    }

    /// A position or size in the file's units, returned in metres (value / unitsPerMetre).
    double length(const char* name, Need need, Range range, double fallback) {
        std::optional<double> value = number(name, need, range);
        if (!value) return fallback;
        double metres = *value / unitsPerMetre_;
        if (std::abs(metres) > rules_.maxLengthMetres) {
            // In the file's units the value alone would read as metres: its metres beside it.
            std::string shown = element_.Attribute(name);
            if (unitsPerMetre_ != 1.0) {
                char inMetres[48];
                std::snprintf(inMetres, sizeof inMetres, " (%g m)", metres);
                shown += inMetres;
            }
            fail(name, rules_.lengthTooLarge, shown);
            return fallback;
        }
        return metres;
    }

    /// A whole number in [min, max].
    int wholeNumber(const char* name, Need need, int min, int max, int fallback) {
        const char* raw = find(name, need);
        if (!raw) return fallback;
        std::string_view view(raw);
        long long value = 0;
        auto [end, status] = std::from_chars(view.data(), view.data() + view.size(), value);
        if (status != std::errc{} || end != view.data() + view.size()) {
            fail(name, "must be a whole number", inQuotes(raw));
            return fallback;
        }
        if (value < min || value > max) {
            fail(name, "must be between " + std::to_string(min) + " and " + std::to_string(max), raw);
            return fallback;
        }
        return static_cast<int>(value);
    }

    /// "#rrggbb" or "#rrggbbaa", kept as written; empty when absent or invalid
    /// (parseHexColor() gives the channels).
    std::string color(const char* name) {
        const char* raw = find(name, Need::Optional);
        if (!raw) return {};
        if (!parseHexColor(raw)) {
            fail(name, "must be '#rrggbb' or '#rrggbbaa'", inQuotes(raw));
            return {};
        }
        return raw;
    }

    /// Warns about every attribute of the element that was not asked for.
    void warnUnknownAttributes() {
        for (const tinyxml2::XMLAttribute* a = element_.FirstAttribute(); a; a = a->Next()) {
            const std::string_view name(a->Name());
            if (std::find(known_.begin(), known_.end(), name) != known_.end()) continue;
            // A slip off an attribute the element takes ('angular_dampng'): most likely that one.
            report_.warning(element_, "unknown attribute '" + std::string(name) + "' ignored" + rules_.ignoredNote +
                                          didYouMean(name, known_));
        }
    }

    /// The raw value (nullptr when absent, reported when required), marked as known: for
    /// an attribute kind only one loader reads.
    const char* find(const char* name, Need need) {
        known_.push_back(name);
        const char* raw = element_.Attribute(name);
        if (!raw && need == Need::Required)
            report_.error(element_, "missing required attribute '" + std::string(name) + "'");
        return raw;
    }

    /// Reports "attribute 'name' <requirement>, got <shown>".
    void fail(const char* name, const std::string& requirement, const std::string& shown) {
        report_.error(element_, "attribute '" + std::string(name) + "' " + requirement + ", got " + shown);
    }

private:
    /// nullopt when invalid (and then reported). std::from_chars rather than strtod: it
    /// ignores the locale and does not skip leading spaces, so "1,5" or " 1" fail instead
    /// of being half read.
    std::optional<double> checkedNumber(const char* name, const char* raw, Range range) {
        std::string_view view(raw);
        double value = 0.0;
        auto [end, status] = std::from_chars(view.data(), view.data() + view.size(), value);
        if (status == std::errc::result_out_of_range) {
            fail(name, "is out of range", inQuotes(raw));
            return std::nullopt;
        }
        if (status != std::errc{} || end != view.data() + view.size()) {
            fail(name, "must be a number", inQuotes(raw));
            return std::nullopt;
        }
        if (!std::isfinite(value)) {
            fail(name, "must be a finite number", inQuotes(raw));
            return std::nullopt;
        }
        const char* requirement = nullptr;
        switch (range) {
            case Range::Any: break;
            case Range::Positive: if (!(value > 0.0)) requirement = "must be > 0"; break;
            case Range::NonNegative: if (value < 0.0) requirement = "must be >= 0"; break;
            case Range::UnitInterval: if (value < 0.0 || value > 1.0) requirement = "must be between 0 and 1"; break;
            case Range::StiffnessRange:
                if (!(value > 0.0) || value > 1.0) requirement = "must be > 0 and <= 1 (1 = rigid)";
                break;
            case Range::HalfTurn:
                if (value < -180.0 || value > 180.0) requirement = "must be between -180 and 180 degrees";
                break;
        }
        if (requirement) {
            fail(name, requirement, raw);
            return std::nullopt;
        }
        return value;
    }

    const tinyxml2::XMLElement& element_;
    Reporter& report_;
    double unitsPerMetre_;
    AttributeRules rules_;
    std::vector<std::string_view> known_;
};

/// The detail of tinyxml2's ErrorStr(), "Error=XML_ERROR_… ErrorID=7 (0x7) Line number=2:
/// detail" ("XMLElement name=bone" for an element), or empty.
inline std::string_view xmlErrorDetail(const tinyxml2::XMLDocument& document) {
    const std::string_view full = document.ErrorStr();
    const size_t lineField = full.find("Line number=");
    const size_t detail = lineField == std::string_view::npos ? lineField : full.find(": ", lineField);
    return detail == std::string_view::npos ? std::string_view{} : full.substr(detail + 2);
}
inline constexpr std::string_view kXmlErrorElementPrefix = "XMLElement name=";

/// tinyxml2's error in words: the enum name replaced, the detail kept.
inline std::string describeXmlError(const tinyxml2::XMLDocument& document) {
    std::string what;
    switch (document.ErrorID()) {
        case tinyxml2::XML_ERROR_PARSING_ELEMENT: what = "broken element (unclosed '<' or missing '>'?)"; break;
        case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE:
            what = "broken attribute (missing quotes, '=' or a repeated name?)";
            break;
        case tinyxml2::XML_ERROR_PARSING_TEXT: what = "broken text or entity"; break;
        case tinyxml2::XML_ERROR_PARSING_CDATA: what = "unterminated CDATA section"; break;
        case tinyxml2::XML_ERROR_PARSING_COMMENT: what = "unterminated comment"; break;
        case tinyxml2::XML_ERROR_PARSING_DECLARATION: what = "broken <?xml ...?> declaration"; break;
        case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT: what = "closing tag does not match the open element"; break;
        case tinyxml2::XML_ERROR_PARSING:
            // tinyxml2 says this of a file cut short inside an element as of stray bytes.
            what = "an element never closed (its closing tag missing, or the file cut short), or a '<' that starts "
                   "no element (a binary file?)";
            break;
        case tinyxml2::XML_ERROR_PARSING_UNKNOWN: what = "broken '<!' markup"; break;
        case tinyxml2::XML_ERROR_EMPTY_DOCUMENT: what = "no element in the file"; break;
        default: what = tinyxml2::XMLDocument::ErrorIDToName(document.ErrorID()); break;
    }
    if (const std::string_view text = xmlErrorDetail(document); text.starts_with(kXmlErrorElementPrefix))
        what += " in <" + std::string(text.substr(kXmlErrorElementPrefix.size())) + ">";
    else if (!text.empty())
        what += ": " + std::string(text);
    return what;
}

/// The root's required `format`, which must be "1" (the only one this version reads). False,
/// reported, for another: nothing else in such a file can be trusted.
inline bool readFormatOne(AttributeReader& in, Reporter& report, const tinyxml2::XMLElement& root) {
    const std::string format = in.text("format", Need::Required);
    if (format.empty() || format == "1") return true;
    report.error(root, "unsupported format " + inQuotes(format) + " (this version reads format 1)");
    return false;
}

/// Where tinyxml2's "closing tag does not match" lies: it names the element left open (and
/// its line), not the closing tag that broke it, which may be many lines on (a misspelt
/// closing tag at the end of a file was reported at its first line). Scans the text from that element's start tag
/// for the first closing tag at its depth; false when the text does not show one.
inline bool findMismatchedClose(std::string_view text, int openLine, std::string_view openName, int& line,
                                std::string& closeName) {
    size_t at = 0;
    for (int l = 1; l < openLine; ++l) {
        at = text.find('\n', at);
        if (at == std::string_view::npos) return false;
        ++at;
    }
    // Its start tag: the name whole (`<bone` is not `<bone2`).
    const std::string start = "<" + std::string(openName);
    for (at = text.find(start, at); at != std::string_view::npos; at = text.find(start, at + 1)) {
        const size_t after = at + start.size();
        if (after < text.size() && std::string_view(" \t\r\n/>").find(text[after]) != std::string_view::npos) break;
    }
    if (at == std::string_view::npos) return false;
    auto tagEnd = [&](size_t from) {  // the '>' closing a tag, past quoted attribute values
        char quote = 0;
        for (size_t i = from; i < text.size(); ++i) {
            if (quote) quote = text[i] == quote ? 0 : quote;
            else if (text[i] == '"' || text[i] == '\'') quote = text[i];
            else if (text[i] == '>') return i;
        }
        return std::string_view::npos;
    };
    size_t end = tagEnd(at);
    int depth = 0;
    while (end != std::string_view::npos && (at = text.find('<', end + 1)) != std::string_view::npos) {
        const std::string_view rest = text.substr(at);
        if (rest.starts_with("<!--")) end = text.find("-->", at);
        else if (rest.starts_with("<![CDATA[")) end = text.find("]]>", at);
        else if (rest.starts_with("<?")) end = text.find("?>", at);
        else if (rest.starts_with("<!")) end = text.find('>', at);
        else if (rest.starts_with("</")) {
            end = text.find('>', at);
            if (depth-- > 0) continue;
            const size_t nameEnd = std::min(end, text.find_first_of(" \t\r\n", at));
            closeName = std::string(text.substr(at + 2, nameEnd - at - 2));
            line = 1 + int(std::count(text.begin(), text.begin() + long(at), '\n'));
            return closeName != openName;
        } else {
            end = tagEnd(at);
            if (end != std::string_view::npos && text[end - 1] != '/') ++depth;
        }
    }
    return false;
}

/// Parses a user's file and returns its root element, which must be <rootName>; on any
/// problem (an empty file, malformed XML, no root, another root) reports it and returns
/// null. Further top-level elements are warnings: tinyxml2 accepts them, XML does not.
inline const tinyxml2::XMLElement* parseRootElement(std::string_view text, const char* rootName,
                                                   tinyxml2::XMLDocument& document, Reporter& report) {
    const std::string expected = std::string("<") + rootName + ">";
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        report.error(0, "file is empty; expected a " + expected + " element");
        return nullptr;
    }
    if (document.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
        int line = 0;
        std::string closeName;
        const std::string_view detail = xmlErrorDetail(document);
        if (document.ErrorID() == tinyxml2::XML_ERROR_MISMATCHED_ELEMENT && detail.starts_with(kXmlErrorElementPrefix)) {
            const std::string openName(detail.substr(kXmlErrorElementPrefix.size()));
            if (findMismatchedClose(text, document.ErrorLineNum(), openName, line, closeName)) {
                report.error(line, "malformed XML: closing tag </" + closeName + "> does not match the open element <" +
                                       openName + "> (line " + std::to_string(document.ErrorLineNum()) + ")");
                return nullptr;
            }
        }
        report.error(document.ErrorLineNum(), "malformed XML: " + describeXmlError(document));
        return nullptr;
    }
    const tinyxml2::XMLElement* root = document.RootElement();
    if (!root) {
        report.error(0, "no root element; expected " + expected);
        return nullptr;
    }
    if (std::string_view(root->Name()) != rootName) {
        report.error(root->GetLineNum(), "root element is <" + std::string(root->Name()) + ">, expected " + expected);
        return nullptr;
    }
    for (const tinyxml2::XMLElement* extra = root->NextSiblingElement(); extra; extra = extra->NextSiblingElement())
        report.warning(extra->GetLineNum(),
                       "unknown element '" + std::string(extra->Name()) + "' after " + expected + " ignored");
    return root;
}

/// What a user's file is by its first bytes, for a reader of text given something else: a
/// PNG image (its signature), UTF-16 text (its byte-order mark), other binary data (a NUL
/// byte anywhere), or text.
enum class FileKind { Text, Png, Utf16, Binary };
inline FileKind sniffFileKind(std::string_view bytes) {
    constexpr std::string_view kPngSignature("\x89PNG\r\n\x1a\n", 8);
    if (bytes.starts_with(kPngSignature)) return FileKind::Png;
    if (bytes.starts_with("\xff\xfe") || bytes.starts_with("\xfe\xff")) return FileKind::Utf16;
    if (bytes.find('\0') != std::string_view::npos) return FileKind::Binary;
    return FileKind::Text;
}

/// The text without a UTF-8 byte-order mark (some editors save one).
inline std::string_view withoutByteOrderMark(std::string_view text) {
    constexpr std::string_view kUtf8Bom = "\xef\xbb\xbf";
    if (text.starts_with(kUtf8Bom)) text.remove_prefix(kUtf8Bom.size());
    return text;
}

/// The text from its first character that is not blank (after any byte-order mark): what
/// says a file's kind at a glance, '<' XML, '{' or '[' JSON.
inline std::string_view fromFirstCharacter(std::string_view text) {
    text = withoutByteOrderMark(text);
    const size_t first = text.find_first_not_of(" \t\r\n");
    return first == std::string_view::npos ? std::string_view() : text.substr(first);
}

/// Why bytes that should be a text file are not one ("it is a PNG image: " + pngHint, UTF-16,
/// binary), or nullopt for text: what readers of text formats say instead of a parser's error.
inline std::optional<std::string> notTextFile(std::string_view bytes, const std::string& pngHint) {
    switch (sniffFileKind(bytes)) {
        case FileKind::Png: return "it is a PNG image: " + pngHint;
        case FileKind::Utf16: return std::string("it is UTF-16 text: save it as UTF-8");
        case FileKind::Binary: return std::string("it is a binary file: it holds NUL bytes");
        case FileKind::Text: break;
    }
    return std::nullopt;
}

/// The whole file at path; nullopt after reporting "cannot open <what>: why" at line 0
/// (what: "level", "rig").
inline std::optional<std::string> readUserFile(const std::string& path, const char* what, Reporter& report) {
    namespace fs = std::filesystem;
    std::string cannot = "cannot open " + std::string(what) + ": ";
    std::error_code status;
    fs::file_type type = fs::status(path, status).type();
    if (type == fs::file_type::not_found) {
        report.error(0, cannot + "file not found" + didYouMeanFile(path));
        return std::nullopt;
    }
    if (status) {
        report.error(0, cannot + status.message());
        return std::nullopt;
    }
    if (type == fs::file_type::directory) {
        report.error(0, cannot + "it is a directory, not a file");
        return std::nullopt;
    }
    if (type != fs::file_type::regular) {
        report.error(0, cannot + "not a regular file");
        return std::nullopt;
    }
    std::ifstream file(path, std::ios::binary);
    std::string text;
    if (file.is_open()) text.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    if (!file.is_open() || file.bad()) {
        report.error(0, cannot + "the file could not be read");
        return std::nullopt;
    }
    return text;
}

}  // namespace paper
