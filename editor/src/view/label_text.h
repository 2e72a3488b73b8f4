// A plugin's labels for people in the editor's sentences. Plain C++ (tested headless).
#pragma once

#include <string>

namespace paper::editor {

/// label as a word in running text: "Saves the rig with its edits", "not a rig file". A
/// plugin writes its labels as titles ("Rig", "Bounce emitter": the File menu's "Open
/// Rig..."); mid-sentence their first letter is small, unless the label starts with an
/// abbreviation ("PNG image": two capitals).
inline std::string inRunningText(std::string label) {
    const auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
    const bool abbreviation = label.size() > 1 && upper(label[0]) && upper(label[1]);
    if (!label.empty() && upper(label[0]) && !abbreviation) label[0] = char(label[0] - 'A' + 'a');
    return label;
}

/// noun with its indefinite article: "a rig", "an emitter" (by its first letter: a vowel
/// sound spelt otherwise, "an hour", is not told apart).
inline std::string withArticle(const std::string& noun) {
    const bool vowel = !noun.empty() && std::string("aeiouAEIOU").find(noun[0]) != std::string::npos;
    return (vowel ? "an " : "a ") + noun;
}

/// text at the start of a sentence: its first letter a capital ("Rig or bounce emitter
/// files beside this one").
inline std::string atSentenceStart(std::string text) {
    if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = char(text[0] - 'a' + 'A');
    return text;
}

}  // namespace paper::editor
