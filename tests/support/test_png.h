// PNG files for tests, written with stb_image_write (the writer the engine's screenshots
// use; decoding is libpng's, so the tests do not check a decoder against itself). Every
// image a test reads is made here, from pixels the test chose.
#pragma once

#include <stb_image_write.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace testpng {

/// The PNG encoding of width × height pixels of `channels` bytes each (1 grey, 2 grey and
/// alpha, 3 RGB, 4 RGBA), rows top to bottom.
inline std::vector<std::uint8_t> encode(int width, int height, int channels, const std::vector<std::uint8_t>& pixels) {
    std::vector<std::uint8_t> bytes;
    auto append = [](void* context, void* data, int size) {
        auto* out = static_cast<std::vector<std::uint8_t>*>(context);
        const auto* first = static_cast<const std::uint8_t*>(data);
        out->insert(out->end(), first, first + size);
    };
    if (!stbi_write_png_to_func(append, &bytes, width, height, channels, pixels.data(), width * channels)) bytes.clear();
    return bytes;
}

/// width × height pixels, every one `pixel` (channels = pixel.size()).
inline std::vector<std::uint8_t> filled(int width, int height, const std::vector<std::uint8_t>& pixel) {
    std::vector<std::uint8_t> pixels;
    pixels.reserve(size_t(width) * size_t(height) * pixel.size());
    for (int i = 0; i < width * height; ++i) pixels.insert(pixels.end(), pixel.begin(), pixel.end());
    return pixels;
}

inline void writeBytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

/// A width × height opaque grey PNG at path, saved with an alpha channel (all opaque), as
/// cut-out art is: a file without one is warned about where a rig or an atlas uses it.
inline void writeGrey(const std::filesystem::path& path, int width, int height) {
    writeBytes(path, encode(width, height, 2, filled(width, height, {128, 255})));
}

/// The first `size` bytes of a PNG: its end (and so part of its image data) cut off.
inline std::vector<std::uint8_t> truncated(std::vector<std::uint8_t> bytes, size_t size) {
    bytes.resize(std::min(size, bytes.size()));
    return bytes;
}

/// The PNG with one byte of its image data flipped: the IDAT chunk's CRC no longer matches.
inline std::vector<std::uint8_t> corrupted(std::vector<std::uint8_t> bytes) {
    // Signature (8) + IHDR (4 length, 4 type, 13 data, 4 CRC) = 33; then stb writes IDAT.
    const size_t idatData = 33 + 8;
    if (bytes.size() > idatData + 2) bytes[idatData + 2] ^= 0xff;
    return bytes;
}

}  // namespace testpng
