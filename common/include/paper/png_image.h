// PNG images users bring (cut-out art, atlases), decoded with libpng: Debian's package gets
// the security updates a decoder of third-party files needs. Any PNG libpng reads comes out
// as 8-bit RGBA; anything it cannot read, or larger than kMaxImageSide a side, is refused
// with the cause.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace paper {

/// The largest width or height accepted, pixels (a 8192² RGBA image is 256 MiB).
inline constexpr int kMaxImageSide = 8192;

/// 8-bit RGBA, straight (not premultiplied) alpha, rows top to bottom.
struct PngImage {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgba;  ///< width × height × 4 bytes
    /// Whether the file holds transparency (an alpha channel, or a tRNS chunk for its
    /// palette or grey or RGB colours): without it every alpha byte is 255, and art cut out
    /// of it shows its whole rectangle.
    bool hasAlpha = false;
};

/// Decodes a PNG held in memory. False with the cause in error ("not a PNG", "truncated",
/// "8200 x 100 pixels: larger than 8192 a side", libpng's reason); image is then empty.
bool decodePng(const void* data, std::size_t size, PngImage& image, std::string& error);

/// Multiplies each pixel's colour by its alpha in linear light, and stores the result sRGB
/// encoded again: a renderer sampling it as an sRGB texture gets colour × alpha in linear
/// light, what filtering and blending there want (no dark fringe from a clear pixel's
/// colour at the edge of a part, no darkened half-covered edge).
void premultiplyAlpha(PngImage& image);

/// Reads and decodes a file. False with the cause (a missing file, a directory, or what
/// decodePng says); the cause does not repeat the path.
bool loadPng(const std::string& path, PngImage& image, std::string& error);

}  // namespace paper
