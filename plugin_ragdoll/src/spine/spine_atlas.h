// The texture atlas a Spine skeleton's attachments cut their images from: libGDX's text
// atlas, in both of its forms (Spine's "Atlas export format" page):
//
//   old (libGDX, Spine 3.x)            4.x
//   page1.png                          page1.png
//   size: 640,480                        size: 640, 480
//   format: RGBA8888                     filter: Linear, Linear
//   filter: Linear,Linear                pma: true
//   repeat: none                       head
//   head                                 bounds: 2, 21, 103, 81
//     rotate: false                      offsets: 2, 2, 107, 85
//     xy: 2, 21                          rotate: 90
//     size: 103, 81
//     orig: 107, 85
//     offset: 2, 2
//     index: -1
//
// A page starts after a blank line (or at the top); its first line is the image file,
// relative to the atlas. A line with a ':' is a property of the current page or region;
// any other line names a new region of the current page. Region sizes are of the image
// before rotation; `rotate: true` means 90 (the region is stored in the page turned 90°
// counter-clockwise), a number is degrees. `orig`/`offset` (or `offsets: x, y, origW,
// origH`) describe whitespace the packer stripped: the packed pixels sit at (offsetX,
// offsetY) from the bottom-left of an origW × origH image.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "rig/rig.h"

namespace ragdoll {

struct AtlasPage {
    std::string file;        ///< as written: relative to the atlas
    int width = 0, height = 0;  ///< pixels; 0 when the atlas does not say
    std::string format = "RGBA8888";
    std::string filter;      ///< "min,mag" as written; empty when not given
    bool pma = false;        ///< premultiplied alpha
    int line = 0;
};

struct AtlasRegion {
    std::string name;
    int page = -1;           ///< index in SpineAtlas::pages
    int x = 0, y = 0;        ///< top-left of the stored pixels in the page, pixels (y down)
    int width = 0, height = 0;  ///< of the packed image before rotation, pixels
    int degrees = 0;         ///< how the region is turned in the page, counter-clockwise: 0, 90, 180, 270
    int offsetX = 0, offsetY = 0;  ///< packed pixels from the bottom-left of the original
    int originalWidth = 0, originalHeight = 0;  ///< the image before whitespace was stripped
    int index = -1;          ///< frame of a sequence; -1 for none
    int line = 0;

    /// The stored pixels in the page: width × height, swapped when turned a quarter.
    PixelRect pageRect() const {
        const bool quarter = degrees == 90 || degrees == 270;
        return {x, y, quarter ? height : width, quarter ? width : height};
    }
};

struct SpineAtlas {
    std::vector<AtlasPage> pages;
    std::vector<AtlasRegion> regions;
    std::string path;  ///< for messages

    /// The region with this name (the lowest index when a sequence has several), or nullptr.
    const AtlasRegion* find(std::string_view name) const;
};

/// The page PNG's pixels per atlas pixel along x and y: its size over the page's declared
/// `size:` (1 when the atlas does not say). Spine's runtimes take a region's texture
/// coordinates as its rectangle over the declared size, so a PNG of another size (the art
/// exported again at 2x) is cut at the same fractions of the image.
std::array<double, 2> pngScale(const AtlasPage& page, std::array<int, 2> pngSize);

/// The region's stored pixels in its page PNG: pageRect() scaled by pngScale, each edge
/// rounded to the nearest pixel (at least one pixel wide and high, inside the PNG).
PixelRect pngRect(const AtlasRegion& region, const AtlasPage& page, std::array<int, 2> pngSize);

struct AtlasLoadResult {
    bool ok = false;
    SpineAtlas atlas;
    std::vector<Diagnostic> diagnostics;  ///< "FILE:LINE: error: ..."
};

/// Reads an atlas from text; fileName is for messages. Every problem is reported; any error
/// fails the whole atlas.
AtlasLoadResult parseAtlas(std::string_view text, const std::string& fileName);
AtlasLoadResult loadAtlasFile(const std::string& path);

/// Whether text reads as a libGDX atlas: its first line that is not blank names a PNG page.
/// For the readers of other formats, to say what a file given to them is.
bool looksLikeAtlas(std::string_view text);

}  // namespace ragdoll
