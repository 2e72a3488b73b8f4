#include "paper/png_image.h"

#include "paper/spelling.h"

#include <png.h>
#include <zlib.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>
#include <vector>

namespace paper {

namespace {

constexpr std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

/// A chunk's length, its first 4 bytes (big-endian).
std::uint32_t chunkLength(const std::uint8_t* chunk) {
    return std::uint32_t(chunk[0]) << 24 | std::uint32_t(chunk[1]) << 16 | std::uint32_t(chunk[2]) << 8 | chunk[3];
}

/// How many of the file's bytes to hand libpng, or 0 when a chunk claims more bytes than
/// the file has left after its header: the file was cut short. Checked before libpng sees
/// the data, because libpng 1.6.39 allocates (and fills) a text chunk's claimed length, up
/// to 2 GiB, before it finds the data missing: fuzz_png found 75- and 317-byte files that
/// took 1.2 and 1.8 GB and seconds to refuse. With every chunk inside the file, what libpng
/// allocates for one is bounded by its size. A file cut inside its closing IEND chunk (or
/// before it, after whole chunks) holds its whole image: it is read without the cut end,
/// as one with no IEND at all is (libpng stops when the image is read).
std::size_t usableBytes(const std::uint8_t* data, std::size_t size) {
    std::size_t at = sizeof kSignature;
    while (size - at >= 8) {  // a chunk's length and type
        const std::uint32_t length = chunkLength(data + at);
        if (length > 0x7fffffffu) return size;  // not a PNG length at all: libpng says so
        const bool end = std::memcmp(data + at + 4, "IEND", 4) == 0;
        const std::size_t left = size - at - 8;
        if (left < std::size_t(length) + 4) return end ? at : 0;  // its data and CRC
        if (end) return size;
        at += 12 + std::size_t(length);
    }
    return at;  // a piece of a chunk header after whole chunks: left out
}

/// Whether the file says its colour space (a gAMA, sRGB or iCCP chunk) where libpng reads it:
/// before PLTE and the image data (after them libpng ignores one as out of place).
bool saysColourSpace(const std::uint8_t* data, std::size_t size) {
    for (std::size_t at = sizeof kSignature; size - at >= 8;) {
        const std::uint32_t length = chunkLength(data + at);
        const std::uint8_t* type = data + at + 4;
        if (std::memcmp(type, "PLTE", 4) == 0 || std::memcmp(type, "IDAT", 4) == 0 || size - at - 8 < std::size_t(length) + 4)
            return false;
        if (std::memcmp(type, "gAMA", 4) == 0 || std::memcmp(type, "sRGB", 4) == 0 || std::memcmp(type, "iCCP", 4) == 0)
            return true;
        at += 12 + std::size_t(length);
    }
    return false;
}

/// A 16-bit PNG that says nothing of its colour space (saysColourSpace): libpng's
/// simplified API takes its samples as linear light and encodes them to sRGB on the way to 8
/// bits (a torso's 70 came out 142: art drawn washed out), where art tools write them
/// sRGB-encoded, as in an 8-bit file. Such a file gets an sRGB chunk after its header, so
/// that its samples are only scaled to 8 bits. Empty when the file needs none.
std::vector<std::uint8_t> taggedSrgbIfUntagged16Bit(const std::uint8_t* data, std::size_t size) {
    constexpr std::size_t kHeaderEnd = sizeof kSignature + 12 + 13;  // IHDR: its 13 bytes of data
    constexpr std::size_t kBitDepth = sizeof kSignature + 8 + 8;
    if (size < kHeaderEnd || std::memcmp(data + sizeof kSignature + 4, "IHDR", 4) != 0 || data[kBitDepth] != 16 ||
        saysColourSpace(data, size))
        return {};
    const std::uint8_t body[5] = {'s', 'R', 'G', 'B', 0};  // rendering intent: perceptual
    const std::uint32_t crc = std::uint32_t(crc32(crc32(0L, Z_NULL, 0), body, sizeof body));
    const std::uint8_t chunk[13] = {0, 0, 0, 1, body[0], body[1], body[2], body[3], body[4],
                                    std::uint8_t(crc >> 24), std::uint8_t(crc >> 16), std::uint8_t(crc >> 8), std::uint8_t(crc)};
    std::vector<std::uint8_t> tagged(data, data + kHeaderEnd);
    tagged.insert(tagged.end(), chunk, chunk + sizeof chunk);
    tagged.insert(tagged.end(), data + kHeaderEnd, data + size);
    return tagged;
}

/// Why libpng gave up, in words: its message for a file cut short is about its reader
/// ("read beyond end of data"), so that one is said as what it means for the file.
std::string failure(const png_image& png) {
    const std::string message = png.message;
    if (message == "read beyond end of data") return "truncated: the file ends before the image does";
    return "not a readable PNG: " + message;
}

}  // namespace

bool decodePng(const void* data, std::size_t size, PngImage& image, std::string& error) {
    image = {};
    if (size < sizeof kSignature || std::memcmp(data, kSignature, sizeof kSignature) != 0) {
        error = "not a PNG file (its first bytes are not the PNG signature)";
        return false;
    }
    size = usableBytes(static_cast<const std::uint8_t*>(data), size);
    if (size == 0) {
        error = "truncated: the file ends before the image does";
        return false;
    }
    const std::vector<std::uint8_t> tagged = taggedSrgbIfUntagged16Bit(static_cast<const std::uint8_t*>(data), size);
    if (!tagged.empty()) {
        data = tagged.data();
        size = tagged.size();
    }
    // libpng's simplified API: it converts every format to the one asked for and reports a
    // failure as a message, without longjmp reaching our frames.
    png_image png;
    std::memset(&png, 0, sizeof png);
    png.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&png, data, size)) {
        error = failure(png);
        return false;
    }
    if (png.width == 0 || png.height == 0 || png.width > std::uint32_t(kMaxImageSide) ||
        png.height > std::uint32_t(kMaxImageSide)) {
        error = std::to_string(png.width) + " x " + std::to_string(png.height) + " pixels: larger than " +
                std::to_string(kMaxImageSide) + " a side";
        png_image_free(&png);
        return false;
    }
    // The format libpng read from the header: it has the alpha flag for an alpha channel and
    // for a tRNS chunk alike (the RGBA asked for below has it either way).
    const bool hasAlpha = (png.format & PNG_FORMAT_FLAG_ALPHA) != 0;
    png.format = PNG_FORMAT_RGBA;
    std::vector<std::uint8_t> pixels(PNG_IMAGE_SIZE(png));
    if (!png_image_finish_read(&png, nullptr, pixels.data(), 0, nullptr)) {
        error = failure(png);
        png_image_free(&png);
        return false;
    }
    image.width = int(png.width);
    image.height = int(png.height);
    image.rgba = std::move(pixels);
    image.hasAlpha = hasAlpha;
    return true;
}

namespace {

// The sRGB transfer function (IEC 61966-2-1): encoded 0..1 to linear light and back.
double srgbToLinear(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }
double linearToSrgb(double c) { return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055; }

}  // namespace

void premultiplyAlpha(PngImage& image) {
    double linear[256];
    for (int v = 0; v < 256; ++v) linear[v] = srgbToLinear(v / 255.0);
    std::vector<std::uint8_t>& rgba = image.rgba;
    for (size_t i = 0; i + 3 < rgba.size(); i += 4) {
        const unsigned a = rgba[i + 3];
        if (a == 255) continue;
        for (size_t c = 0; c < 3; ++c)
            rgba[i + c] = std::uint8_t(std::lround(255.0 * linearToSrgb(linear[rgba[i + c]] * a / 255.0)));
    }
}

bool loadPng(const std::string& path, PngImage& image, std::string& error) {
    image = {};
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (!std::filesystem::exists(status)) {
        error = "file not found" + didYouMeanFile(path);
        return false;
    }
    if (!std::filesystem::is_regular_file(status)) {
        error = std::filesystem::is_directory(status) ? "a directory, not an image" : "not a regular file";
        return false;
    }
    // A file larger than the largest image could possibly compress to is not read whole.
    constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t(kMaxImageSide) * kMaxImageSide * 4 + (1u << 20);
    if (std::filesystem::file_size(path, ec) > kMaxFileBytes) {
        error = "larger than any " + std::to_string(kMaxImageSide) + "-pixel image could be";
        return false;
    }
    std::ifstream file(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (!file.good() && !file.eof()) {
        error = "cannot be read";
        return false;
    }
    return decodePng(bytes.data(), bytes.size(), image, error);
}

}  // namespace paper
