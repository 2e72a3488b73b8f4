// What the rig loader and saver share about the file: the one conversion between file
// numbers and internal ones (so a value the saver writes reads back bit-identical), and
// a scanner that finds where each element and attribute sits in the file's text (so the
// saver can change one value without rewriting, reindenting or reordering anything else:
// tinyxml2's printer would drop blank lines and attribute spacing, so an unchanged rig
// could never save byte-identical through it).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ragdoll::rigxml {

/// How a number in the file maps to the definition.
enum class Quantity {
    Plain,   ///< no conversion (mass, damping, fractions, stiffness)
    Length,  ///< file units → metres (also gravity: units/s² → m/s²)
    Angle,   ///< degrees → radians
};

/// The file's number in internal units.
double toInternal(double fileValue, Quantity quantity, double unitsPerMetre);
/// The shortest decimal text that toInternal() turns back into exactly `value` (plain
/// notation while it stays readable); never "-0".
std::string formatNumber(double value, Quantity quantity, double unitsPerMetre);
/// A number as std::from_chars reads it (no locale, no leading spaces); nullopt if the whole
/// text is not one number.
std::optional<double> parseNumber(std::string_view text);

/// & < > " ' as entities, for attribute values.
std::string escapeAttribute(std::string_view value);

struct ScannedAttribute {
    std::string name;
    size_t begin = 0;       ///< the whitespace before the name
    size_t valueBegin = 0;  ///< after the opening quote
    size_t valueEnd = 0;    ///< at the closing quote
};

struct ScannedElement {
    std::string name;
    size_t begin = 0;            ///< at '<'
    size_t attributesEnd = 0;    ///< after the last attribute (or the name): where a new one goes
    size_t tagEnd = 0;           ///< after the start tag's '>'
    size_t end = 0;              ///< after the element (its end tag, or the start tag when empty)
    bool selfClosing = false;
    std::vector<ScannedAttribute> attributes;

    const ScannedAttribute* find(std::string_view attribute) const;
};

struct ScannedDocument {
    bool ok = false;
    ScannedElement root;
    std::vector<ScannedElement> children;  ///< the root's child elements, in order
};

/// Locates the root element and its children in well-formed XML (checked by tinyxml2
/// first: this scanner is lenient and only needs positions).
ScannedDocument scanDocument(std::string_view text);

}  // namespace ragdoll::rigxml
