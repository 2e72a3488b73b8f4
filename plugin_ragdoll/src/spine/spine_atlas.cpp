#include "spine/spine_atlas.h"

#include <cctype>

#include <charconv>
#include <optional>

#include "paper/xml_reader.h"

namespace ragdoll {

namespace {

/// Largest page side or coordinate accepted: beyond it a number is a typo, not a texture.
constexpr int kMaxAtlasPixels = 1 << 16;

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
    return text;
}

std::vector<std::string_view> splitValues(std::string_view text) {
    std::vector<std::string_view> out;
    size_t start = 0;
    while (true) {
        size_t comma = text.find(',', start);
        out.push_back(trim(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
        if (comma == std::string_view::npos) return out;
        start = comma + 1;
    }
}

class AtlasParser {
public:
    AtlasParser(const std::string& file, AtlasLoadResult& result) : file_(file), result_(result) {}

    void error(int line, const std::string& message) {
        result_.diagnostics.push_back({Severity::Error, file_, line, message});
    }
    void warning(int line, const std::string& message) {
        result_.diagnostics.push_back({Severity::Warning, file_, line, message});
    }

    /// `count` whole numbers in [minimum, kMaxAtlasPixels]; false (reported) otherwise.
    bool integers(int line, std::string_view key, std::string_view value, int* out, size_t count, int minimum) {
        std::vector<std::string_view> parts = splitValues(value);
        if (parts.size() != count) {
            error(line, std::string(key) + ": needs " + std::to_string(count) + " numbers, got '" + std::string(value) + "'");
            return false;
        }
        for (size_t i = 0; i < count; ++i) {
            int number = 0;
            auto [end, status] = std::from_chars(parts[i].data(), parts[i].data() + parts[i].size(), number);
            if (status != std::errc{} || end != parts[i].data() + parts[i].size() || parts[i].empty() || number < minimum ||
                number > kMaxAtlasPixels) {
                error(line, std::string(key) + ": '" + std::string(parts[i]) + "' is not a whole number from " +
                                std::to_string(minimum) + " to " + std::to_string(kMaxAtlasPixels));
                return false;
            }
            out[i] = number;
        }
        return true;
    }

    void pageProperty(int line, std::string_view key, std::string_view value) {
        AtlasPage& page = result_.atlas.pages.back();
        if (key == "size") {
            int size[2];
            if (integers(line, key, value, size, 2, 0)) page.width = size[0], page.height = size[1];
        } else if (key == "format") {
            page.format = std::string(value);
        } else if (key == "filter") {
            page.filter = std::string(value);
        } else if (key == "pma") {
            page.pma = value == "true";
            if (value != "true" && value != "false") error(line, "pma: must be true or false, got '" + std::string(value) + "'");
        } else if (key != "repeat" && key != "scale") {
            warning(line, "page '" + page.file + "': unknown property '" + std::string(key) + "' (ignored)");
        }
    }

    void regionProperty(int line, std::string_view key, std::string_view value) {
        AtlasRegion& region = result_.atlas.regions.back();
        int v[4];
        if (key == "rotate") {
            if (value == "true") {
                region.degrees = 90;
            } else if (value == "false") {
                region.degrees = 0;
            } else if (integers(line, key, value, v, 1, -360)) {
                const int degrees = ((v[0] % 360) + 360) % 360;
                if (degrees % 90 != 0)
                    error(line, "region '" + region.name + "': rotate: " + std::string(value) +
                                    " degrees; only quarter turns (0, 90, 180, 270) are supported");
                region.degrees = degrees;
            }
        } else if (key == "xy") {
            if (integers(line, key, value, v, 2, 0)) region.x = v[0], region.y = v[1];
        } else if (key == "size") {
            if (integers(line, key, value, v, 2, 0)) region.width = v[0], region.height = v[1], sized_ = true;
        } else if (key == "bounds") {
            if (integers(line, key, value, v, 4, 0))
                region.x = v[0], region.y = v[1], region.width = v[2], region.height = v[3], sized_ = true;
        } else if (key == "orig") {
            if (integers(line, key, value, v, 2, 0)) region.originalWidth = v[0], region.originalHeight = v[1];
        } else if (key == "offset") {
            if (integers(line, key, value, v, 2, 0)) region.offsetX = v[0], region.offsetY = v[1];
        } else if (key == "offsets") {
            if (integers(line, key, value, v, 4, 0))
                region.offsetX = v[0], region.offsetY = v[1], region.originalWidth = v[2], region.originalHeight = v[3];
        } else if (key == "index") {
            if (integers(line, key, value, v, 1, -1)) region.index = v[0];
        } else if (key != "split" && key != "pad") {
            warning(line, "region '" + region.name + "': unknown property '" + std::string(key) + "' (ignored)");
        }
    }

    /// What can only be checked once a region's properties are all read.
    void finishRegion() {
        if (result_.atlas.regions.empty() || finished_) return;
        finished_ = true;
        AtlasRegion& region = result_.atlas.regions.back();
        const AtlasPage& page = result_.atlas.pages[size_t(region.page)];
        if (!sized_ || region.width == 0 || region.height == 0) {
            error(region.line, "region '" + region.name + "' has no size (needs 'bounds', or 'xy' and 'size')");
            return;
        }
        if (region.originalWidth == 0 && region.originalHeight == 0) {
            region.originalWidth = region.width;
            region.originalHeight = region.height;
        }
        if (region.offsetX + region.width > region.originalWidth || region.offsetY + region.height > region.originalHeight)
            error(region.line, "region '" + region.name + "': the packed image (offset " + std::to_string(region.offsetX) +
                                   ", " + std::to_string(region.offsetY) + ", size " + std::to_string(region.width) + " x " +
                                   std::to_string(region.height) + ") reaches outside its original size " +
                                   std::to_string(region.originalWidth) + " x " + std::to_string(region.originalHeight));
        const PixelRect rect = region.pageRect();
        if (page.width > 0 && page.height > 0 &&
            (rect.x + rect.width > page.width || rect.y + rect.height > page.height))
            error(region.line, "region '" + region.name + "' (" + std::to_string(rect.x) + ", " + std::to_string(rect.y) +
                                   ", " + std::to_string(rect.width) + " x " + std::to_string(rect.height) +
                                   " in the page) reaches outside page '" + page.file + "' (" +
                                   std::to_string(page.width) + " x " + std::to_string(page.height) + ")");
    }

    void parse(std::string_view text) {
        bool expectPage = true;
        int lineNumber = 0;
        size_t start = 0;
        while (start <= text.size()) {
            size_t end = text.find('\n', start);
            if (end == std::string_view::npos) end = text.size();
            const std::string_view line = trim(text.substr(start, end - start));
            ++lineNumber;
            start = end + 1;
            if (line.empty()) {
                finishRegion();
                expectPage = true;
                continue;
            }
            const size_t colon = line.find(':');
            if (expectPage) {
                // 4.x may put atlas-wide "key: value" lines before the first page; none matter here.
                if (colon != std::string_view::npos && result_.atlas.pages.empty()) continue;
                result_.atlas.pages.push_back({std::string(line), 0, 0, "RGBA8888", "", false, lineNumber});
                expectPage = false;
                inRegion_ = false;
                continue;
            }
            if (colon == std::string_view::npos) {
                finishRegion();
                AtlasRegion region;
                region.name = std::string(line);
                region.page = int(result_.atlas.pages.size()) - 1;
                region.line = lineNumber;
                result_.atlas.regions.push_back(region);
                inRegion_ = true;
                finished_ = false;
                sized_ = false;
                continue;
            }
            const std::string_view key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
            if (inRegion_) regionProperty(lineNumber, key, value);
            else pageProperty(lineNumber, key, value);
        }
        finishRegion();
        if (result_.atlas.pages.empty()) error(0, "no pages: an atlas starts with the file name of its first page image");
        else if (result_.atlas.regions.empty()) error(0, "no regions: the atlas names no images");
    }

private:
    const std::string& file_;
    AtlasLoadResult& result_;
    bool inRegion_ = false, finished_ = true, sized_ = false;
};

}  // namespace

const AtlasRegion* SpineAtlas::find(std::string_view name) const {
    const AtlasRegion* best = nullptr;
    for (const AtlasRegion& region : regions)
        if (region.name == name && (!best || region.index < best->index)) best = &region;
    return best;
}

AtlasLoadResult parseAtlas(std::string_view text, const std::string& fileName) {
    AtlasLoadResult result;
    result.atlas.path = fileName;
    // A binary file read line by line gives a page and regions of garbage names and a
    // warning per "key:" it happens to hold: one error instead, saying what the file is.
    if (std::optional<std::string> kind = paper::notTextFile(text, "the atlas is the .atlas text file that names it")) {
        result.diagnostics.push_back({Severity::Error, fileName, 0, "not a libGDX text atlas (" + *kind + ")"});
        return result;
    }
    // A byte-order mark is not part of the first page's name.
    text = paper::withoutByteOrderMark(text);
    // JSON or XML read line by line would be a page named '{' and a warning per line.
    const std::string_view start = paper::fromFirstCharacter(text);
    if (start.starts_with('{') || start.starts_with('[') || start.starts_with('<')) {
        result.diagnostics.push_back(
            {Severity::Error, fileName, 0,
             start.starts_with('<') ? "not a libGDX text atlas (it is XML, a rig or a level)"
                                : "not a libGDX text atlas (it is JSON, likely the skeleton: the atlas is the .atlas file "
                                  "Spine exports beside it)"});
        return result;
    }
    AtlasParser(fileName, result).parse(text);
    result.ok = !hasErrors(result.diagnostics);
    return result;
}

std::array<double, 2> pngScale(const AtlasPage& page, std::array<int, 2> pngSize) {
    if (page.width <= 0 || page.height <= 0 || pngSize[0] <= 0 || pngSize[1] <= 0) return {1.0, 1.0};
    return {double(pngSize[0]) / page.width, double(pngSize[1]) / page.height};
}

namespace {

/// One side of a rectangle, from atlas pixels to the PNG's: edges scaled in whole numbers
/// (an edge at the declared size lands exactly on the PNG's), rounded half up.
void scaleSpan(int& start, int& length, int declared, int png) {
    if (declared <= 0 || png <= 0 || declared == png) return;
    auto scaled = [&](long long edge) { return int((2 * edge * png + declared) / (2 * static_cast<long long>(declared))); };
    int from = scaled(start), to = scaled(static_cast<long long>(start) + length);
    if (to == from) {  // a sliver shrunk to nothing keeps one pixel
        if (to < png) ++to;
        else --from;
    }
    start = from;
    length = to - from;
}

}  // namespace

PixelRect pngRect(const AtlasRegion& region, const AtlasPage& page, std::array<int, 2> pngSize) {
    PixelRect rect = region.pageRect();
    scaleSpan(rect.x, rect.width, page.width, pngSize[0]);
    scaleSpan(rect.y, rect.height, page.height, pngSize[1]);
    return rect;
}

bool looksLikeAtlas(std::string_view text) {
    text = paper::fromFirstCharacter(text);
    std::string_view line = text.substr(0, text.find('\n'));
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    if (line.size() < 5) return false;
    std::string extension(line.substr(line.size() - 4));
    for (char& c : extension) c = char(std::tolower(static_cast<unsigned char>(c)));
    return extension == ".png";
}

AtlasLoadResult loadAtlasFile(const std::string& path) {
    // The user's file through the one reader every loader uses: a directory, a device
    // (/dev/zero would never end) or a missing file is refused with the cause.
    AtlasLoadResult result;
    paper::Reporter report(path, result.diagnostics);
    std::optional<std::string> text = paper::readUserFile(path, "atlas", report);
    if (!text) return result;
    return parseAtlas(*text, path);
}

}  // namespace ragdoll
