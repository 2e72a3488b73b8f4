#include "rig/rig_art_loader.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <system_error>

#include "paper/png_image.h"
#include "rig/rig_loader.h"
#include "rig/rig_xml.h"

namespace ragdoll::rigload {

namespace {

using paper::AttributeReader;
using paper::inQuotes;
using paper::Need;
using paper::Range;
using tinyxml2::XMLElement;

/// "x y w h": four whole numbers separated by spaces, x and y >= 0, w and h > 0. The
/// bounds against the image are checked once the image is known.
std::optional<PixelRect> parseRect(std::string_view text) {
    long long values[4] = {};
    size_t at = 0;
    for (long long& value : values) {
        while (at < text.size() && text[at] == ' ') ++at;
        const char* first = text.data() + at;
        auto [end, status] = std::from_chars(first, text.data() + text.size(), value);
        if (status == std::errc::result_out_of_range && *first != '-') value = paper::kMaxImageSide + 1;  // past any image
        else if (status != std::errc{} || end == first) return std::nullopt;
        at = size_t(end - text.data());
        if (at < text.size() && text[at] != ' ') return std::nullopt;  // "1.5", "2px"
    }
    while (at < text.size() && text[at] == ' ') ++at;
    if (at != text.size()) return std::nullopt;
    // Beyond the largest image nothing can fit: such a value is held just past it, so x + w
    // cannot overflow and the rect is refused as reaching outside its image (its text quoted).
    for (long long& value : values) value = std::min<long long>(value, paper::kMaxImageSide + 1);
    if (values[0] < 0 || values[1] < 0 || values[2] <= 0 || values[3] <= 0) return std::nullopt;
    return PixelRect{int(values[0]), int(values[1]), int(values[2]), int(values[3])};
}

/// The smallest rectangle within rect holding every texel at least half opaque; zero size
/// when there is none (or no alpha to look at).
PixelRect opaqueWithin(const std::vector<std::uint8_t>& alpha, int imageWidth, const PixelRect& rect) {
    constexpr std::uint8_t kHalfOpaque = 128;
    int left = rect.x + rect.width, right = rect.x - 1, top = rect.y + rect.height, bottom = rect.y - 1;
    if (alpha.size() < size_t(imageWidth) * size_t(rect.y + rect.height)) return {};
    for (int y = rect.y; y < rect.y + rect.height; ++y) {
        const std::uint8_t* row = alpha.data() + size_t(y) * size_t(imageWidth);
        for (int x = rect.x; x < rect.x + rect.width; ++x) {
            if (row[x] < kHalfOpaque) continue;
            left = std::min(left, x);
            right = std::max(right, x);
            top = std::min(top, y);
            bottom = std::max(bottom, y);
        }
    }
    if (right < left) return {};
    return {left, top, right - left + 1, bottom - top + 1};
}

}  // namespace

double readAngle(AttributeReader& in, const char* name, Range range, double fallback) {
    std::optional<double> degrees = in.number(name, Need::Optional, range);
    return degrees ? rigxml::toInternal(*degrees, rigxml::Quantity::Angle, 1.0) : fallback;
}

void warnChildElements(paper::Reporter& report, const XMLElement& element) {
    for (const XMLElement* child = element.FirstChildElement(); child; child = child->NextSiblingElement())
        report.warning(child->GetLineNum(), "unknown element '" + std::string(child->Name()) + "' in <" +
                                                element.Name() + "> ignored (kept on save)");
}

void ArtParser::readImage(const XMLElement& element, int ordinal) {
    AttributeReader in = reader(element);
    RigImage image;
    std::vector<std::uint8_t>& alpha = alpha_.emplace_back();  // parallel to rig_.images
    image.line = element.GetLineNum();
    image.element = ordinal;
    image.name = in.text("name", Need::Required);
    image.file = in.text("file", Need::Required);
    in.warnUnknownAttributes();
    warnChildElements(report_, element);
    if (!image.name.empty()) {
        const int first = rig_.findImage(image.name);
        if (first >= 0)
            report_.error(element, "duplicate name " + inQuotes(image.name) + " (first at line " +
                                       std::to_string(rig_.images[size_t(first)].line) + ")");
    }
    if (!image.file.empty()) {
        // Relative to the rig file, wherever the program runs (an absolute file stays as is).
        image.path = (std::filesystem::path(rig_.path).parent_path() / image.file).string();
        paper::PngImage png;
        std::string why;
        if (paper::loadPng(image.path, png, why)) {
            image.width = png.width;
            image.height = png.height;
            alpha.resize(png.rgba.size() / 4);
            for (size_t i = 0; i < alpha.size(); ++i) alpha[i] = png.rgba[4 * i + 3];
            if (!png.hasAlpha)
                report_.warning(image.line, "image " + inQuotes(image.name) + ": " + image.file + " " + kNoAlphaWarning);
        } else {
            const std::string where = image.path == image.file ? "" : " (read as " + image.path + ")";
            report_.error(element, "file " + inQuotes(image.file) + where + ": " + why);
        }
    }
    rig_.images.push_back(std::move(image));
}

void ArtParser::readSprite(const XMLElement& element, int ordinal) {
    AttributeReader in = reader(element);
    RigSprite sprite;
    SpriteRecord record;
    sprite.line = element.GetLineNum();
    sprite.element = ordinal;
    sprite.order = int(rig_.sprites.size());
    record.boneName = in.text("bone", Need::Required);
    record.imageName = in.text("image", Need::Required);
    if (const char* raw = in.find("rect", Need::Optional)) {
        record.hasRect = true;
        record.rectText = raw;
        if (std::optional<PixelRect> rect = parseRect(raw)) {
            sprite.rect = *rect;
            record.rectValid = true;
        } else {
            in.fail("rect", "must be 'x y width height': four whole numbers of pixels, x and y >= 0, width and height > 0",
                    inQuotes(raw));
        }
    }
    record.hasX = in.has("x");
    sprite.centre.x = in.length("x", Need::Optional, Range::Any, 0.0);
    sprite.centre.y = in.length("y", Need::Optional, Range::Any, 0.0);
    sprite.angle = readAngle(in, "angle", Range::Any, 0.0);
    sprite.width = in.length("width", Need::Required, Range::Positive, 0.0);
    sprite.height = in.length("height", Need::Required, Range::Positive, 0.0);
    const int flip = in.choice("flip", {"none", "x", "y", "xy"});
    sprite.flipX = flip == 1 || flip == 3;
    sprite.flipY = flip == 2 || flip == 3;
    sprite.z = in.wholeNumber("z", Need::Optional, -kMaxPartZ, kMaxPartZ, 0);
    const std::string color = in.color("color");
    if (!color.empty()) sprite.color = *paper::parseHexColor(color);
    in.warnUnknownAttributes();
    warnChildElements(report_, element);
    rig_.sprites.push_back(std::move(sprite));
    spriteRecords_.push_back(std::move(record));
}

void ArtParser::resolve(const std::map<std::string, int>& boneIndex) {
    for (size_t i = 0; i < rig_.sprites.size(); ++i) {
        RigSprite& sprite = rig_.sprites[i];
        const SpriteRecord& record = spriteRecords_[i];
        if (!record.boneName.empty()) {  // empty: reported as missing already
            auto it = boneIndex.find(sanitiseName(record.boneName));
            if (it != boneIndex.end())
                sprite.bone = it->second;
            else
                report_.error(sprite.line, "sprite: bone " + inQuotes(record.boneName) + " is not a bone of this rig" +
                                               didYouMeanBone(rig_, record.boneName));
        }
        if (!record.imageName.empty()) {
            sprite.image = rig_.findImage(record.imageName);
            if (sprite.image < 0)
                report_.error(sprite.line,
                              "sprite: image " + inQuotes(record.imageName) + " is not an <image> of this rig" +
                                  didYouMeanImage(rig_, record.imageName));
        }
        if (sprite.bone >= 0 && !record.hasX) sprite.centre.x = 0.5 * rig_.bones[size_t(sprite.bone)].length;
        if (sprite.image < 0) continue;
        const RigImage& image = rig_.images[size_t(sprite.image)];
        if (image.width == 0) continue;  // unreadable: reported at the image
        if (!record.hasRect) {
            sprite.rect = {0, 0, image.width, image.height};
        } else if (record.rectValid && (sprite.rect.x + sprite.rect.width > image.width ||
                                        sprite.rect.y + sprite.rect.height > image.height)) {
            report_.error(sprite.line, "sprite: rect " + inQuotes(record.rectText) + " reaches outside image " +
                                           inQuotes(image.name) + " (" + std::to_string(image.width) + " x " +
                                           std::to_string(image.height) + " pixels)");
            continue;
        }
        sprite.opaque = opaqueWithin(alpha_[size_t(sprite.image)], image.width, sprite.rect);
    }
    alpha_.clear();
}

}  // namespace ragdoll::rigload
