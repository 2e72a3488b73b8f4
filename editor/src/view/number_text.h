// A number as a panel shows it. Plain C++ (tested headless).
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

namespace paper::editor {

/// value as format prints it (a printf format taking one double), with no minus sign when
/// it prints as zero: a joint at rest read "-0.0°", a tiny negative that is not there.
/// Below 1e-6 a value is taken as 0 first: "%.4g" printed a resting joint's numerical noise
/// as "-5.331e-07".
inline std::string numberText(double value, const char* format) {
    if (std::abs(value) < 1e-6) value = 0.0;
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    std::string out = text;
    if (!out.empty() && out.front() == '-' && out.find_first_not_of("0.", 1) == std::string::npos) out.erase(0, 1);
    return out;
}

}  // namespace paper::editor
