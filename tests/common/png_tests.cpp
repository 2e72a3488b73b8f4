// paper::decodePng and paper::loadPng: images written by stb_image_write (a different
// encoder from the libpng decoder under test) come back as the exact RGBA pixels written;
// what is not a PNG, cut short, damaged or too large is refused with the cause.

#include <catch2/catch.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "paper/png_image.h"
#include "test_png.h"

namespace fs = std::filesystem;

namespace {

struct Decoded {
    bool ok = false;
    paper::PngImage image;
    std::string error;
};

Decoded decode(const std::vector<std::uint8_t>& bytes) {
    Decoded d;
    d.ok = paper::decodePng(bytes.data(), bytes.size(), d.image, d.error);
    return d;
}

/// 3 × 2 pixels, every one different, in `channels` bytes each.
std::vector<std::uint8_t> distinctPixels(int channels) {
    std::vector<std::uint8_t> pixels;
    for (int i = 0; i < 6; ++i)
        for (int c = 0; c < channels; ++c) pixels.push_back(std::uint8_t(40 * i + 11 * c + (c == 3 ? 7 : 0)));
    return pixels;
}

}  // namespace

TEST_CASE("an RGBA PNG decodes to its pixels, rows top to bottom", "[png]") {
    const std::vector<std::uint8_t> pixels = distinctPixels(4);
    const Decoded d = decode(testpng::encode(3, 2, 4, pixels));
    INFO(d.error);
    REQUIRE(d.ok);
    CHECK(d.error.empty());
    CHECK(d.image.width == 3);
    CHECK(d.image.height == 2);
    CHECK(d.image.rgba == pixels);  // straight alpha: no premultiplying
    // Pixel (2, 1), the last: 40·5 + 11·c, alpha 200 + 33 + 7.
    CHECK(d.image.rgba[20] == 200);
    CHECK(d.image.rgba[21] == 211);
    CHECK(d.image.rgba[22] == 222);
    CHECK(d.image.rgba[23] == 240);
}

TEST_CASE("RGB and grey PNGs decode to opaque RGBA", "[png]") {
    const std::vector<std::uint8_t> rgb = distinctPixels(3);
    const Decoded colour = decode(testpng::encode(3, 2, 3, rgb));
    INFO(colour.error);
    REQUIRE(colour.ok);
    REQUIRE(colour.image.rgba.size() == 24);
    for (size_t p = 0; p < 6; ++p) {
        CAPTURE(p);
        CHECK(colour.image.rgba[4 * p + 0] == rgb[3 * p + 0]);
        CHECK(colour.image.rgba[4 * p + 1] == rgb[3 * p + 1]);
        CHECK(colour.image.rgba[4 * p + 2] == rgb[3 * p + 2]);
        CHECK(colour.image.rgba[4 * p + 3] == 255);
    }

    const Decoded grey = decode(testpng::encode(2, 1, 2, {90, 255, 30, 128}));
    INFO(grey.error);
    REQUIRE(grey.ok);
    CHECK(grey.image.rgba == std::vector<std::uint8_t>{90, 90, 90, 255, 30, 30, 30, 128});
}

TEST_CASE("palette and interlaced PNGs decode to their pixels", "[png]") {
    // Written by tests/fuzz/make_png_corpus.py (stb writes neither kind).
    const std::string corpus = std::string(PAPERDOLL_PNG_CORPUS_DIR) + "/";
    paper::PngImage image;
    std::string error;
    REQUIRE(paper::loadPng(corpus + "palette_7x3.png", image, error));
    REQUIRE(image.width == 7);
    REQUIRE(image.height == 3);
    // Index (x + y) mod 3 into red, green, blue; tRNS alphas 255, 128, 0.
    const std::uint8_t palette[3][4] = {{255, 0, 0, 255}, {0, 255, 0, 128}, {0, 0, 255, 0}};
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 7; ++x) {
            CAPTURE(x, y);
            const std::uint8_t* p = &image.rgba[size_t(4 * (y * 7 + x))];
            const std::uint8_t* want = palette[(x + y) % 3];
            CHECK(std::vector<std::uint8_t>(p, p + 4) == std::vector<std::uint8_t>(want, want + 4));
        }

    REQUIRE(paper::loadPng(corpus + "interlaced_rgb_11x9.png", image, error));
    REQUIRE(image.width == 11);
    REQUIRE(image.height == 9);
    for (int y = 0; y < 9; ++y)
        for (int x = 0; x < 11; ++x) {
            CAPTURE(x, y);
            const std::uint8_t* p = &image.rgba[size_t(4 * (y * 11 + x))];
            const int base = 17 * x + 29 * y;  // the script's gradient
            CHECK(int(p[0]) == base % 256);
            CHECK(int(p[1]) == (base + 53) % 256);
            CHECK(int(p[2]) == (base + 106) % 256);
            CHECK(int(p[3]) == 255);
        }
}

TEST_CASE("16-bit PNGs decode to the 8-bit values they hold, as their colour space says", "[png]") {
    // Written by tests/fuzz/make_png_corpus.py: each sample an 8-bit value v as v * 257. An
    // untagged 16-bit file was taken as linear light and encoded to sRGB (70 became 142: art
    // drawn washed out); art tools write such files sRGB-encoded, as 8-bit ones.
    const std::string corpus = std::string(PAPERDOLL_PNG_CORPUS_DIR) + "/";
    paper::PngImage untagged, srgb, late, linear;
    std::string error;
    REQUIRE(paper::loadPng(corpus + "rgba16_4x2.png", untagged, error));
    REQUIRE(paper::loadPng(corpus + "rgba16_srgb_4x2.png", srgb, error));
    REQUIRE(paper::loadPng(corpus + "rgba16_late_srgb_4x2.png", late, error));  // its sRGB after PLTE: untagged
    REQUIRE(paper::loadPng(corpus + "rgba16_linear_4x2.png", linear, error));
    REQUIRE(untagged.width == 4);
    REQUIRE(untagged.height == 2);
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 4; ++x)
            for (int c = 0; c < 4; ++c) {
                CAPTURE(x, y, c);
                const size_t i = size_t(4 * (y * 4 + x) + c);
                const int v = (17 * x + 29 * y + 53 * c) % 256;  // the script's gradient
                CHECK(int(untagged.rgba[i]) == v);
                CHECK(int(srgb.rgba[i]) == v);
                CHECK(int(late.rgba[i]) == v);
            }
    // One that says it is linear light (gAMA 1.0) is encoded to sRGB, as it should be: its
    // red 29 (pixel 0, 1) reads 0.114 of full light, 95 encoded.
    CHECK(int(linear.rgba[size_t(4 * 4)]) == 95);
}

TEST_CASE("what is not a whole, sane PNG is refused with the cause", "[png]") {
    const std::vector<std::uint8_t> good = testpng::encode(16, 16, 4, testpng::filled(16, 16, {10, 20, 30, 255}));
    REQUIRE(decode(good).ok);

    const std::string text = "<rig name=\"not an image\"/>";
    Decoded notPng = decode(std::vector<std::uint8_t>(text.begin(), text.end()));
    CHECK_FALSE(notPng.ok);
    CHECK(notPng.error == "not a PNG file (its first bytes are not the PNG signature)");
    CHECK(notPng.image.rgba.empty());
    CHECK(decode({}).error == "not a PNG file (its first bytes are not the PNG signature)");

    // Cut inside the header chunk and inside the image data.
    for (size_t size : {size_t(20), good.size() / 2}) {
        CAPTURE(size);
        Decoded cut = decode(testpng::truncated(good, size));
        CHECK_FALSE(cut.ok);
        CHECK(cut.error == "truncated: the file ends before the image does");
        CHECK(cut.image.width == 0);
    }

    // Cut anywhere in the closing IEND chunk (12 bytes), or before it: the image is whole,
    // and is read as it is with the chunk.
    for (size_t cut = 0; cut <= 12; ++cut) {
        CAPTURE(cut);
        Decoded ended = decode(testpng::truncated(good, good.size() - cut));
        CHECK(ended.ok);
        CHECK(ended.image.rgba == decode(good).image.rgba);
    }

    Decoded damaged = decode(testpng::corrupted(good));
    CHECK_FALSE(damaged.ok);
    CHECK(damaged.error.starts_with("not a readable PNG: IDAT: "));

    // 8192 a side is the limit: one more pixel either way is refused before decoding.
    CHECK(decode(testpng::encode(8192, 1, 1, testpng::filled(8192, 1, {7}))).ok);
    CHECK(decode(testpng::encode(9000, 1, 1, testpng::filled(9000, 1, {7}))).error ==
          "9000 x 1 pixels: larger than 8192 a side");
    CHECK(decode(testpng::encode(1, 8193, 1, testpng::filled(1, 8193, {7}))).error ==
          "1 x 8193 pixels: larger than 8192 a side");
}

/// The process's peak resident memory so far, MiB.
double peakMiB() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;  // kilobytes on Linux
}

TEST_CASE("a chunk claiming more bytes than the file holds is refused before libpng allocates them", "[png]") {
    // What fuzz_png found (tests/fuzz/regressions/png/): a text chunk header claiming 1 GiB
    // in a file of a hundred bytes made libpng 1.6.39 allocate and fill the gigabyte.
    std::vector<std::uint8_t> bytes = testpng::encode(9, 2, 1, testpng::filled(9, 2, {60}));
    REQUIRE(decode(bytes).ok);
    const std::uint8_t bomb[8] = {0x40, 0x00, 0x00, 0x00, 'z', 'T', 'X', 't'};
    bytes.insert(bytes.begin() + 33, bomb, bomb + 8);  // after the signature and IHDR
    const double before = peakMiB();
    const Decoded d = decode(bytes);
    CHECK_FALSE(d.ok);
    CHECK(d.error == "truncated: the file ends before the image does");
    CHECK(peakMiB() - before < 64.0);
}

TEST_CASE("loadPng reads a file and says why one cannot be used", "[png]") {
    const fs::path dir = fs::temp_directory_path() / ("png_tests_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    testpng::writeBytes(dir / "two.png", testpng::encode(2, 1, 3, {1, 2, 3, 4, 5, 6}));
    paper::PngImage image;
    std::string error;
    REQUIRE(paper::loadPng((dir / "two.png").string(), image, error));
    CHECK(image.rgba == std::vector<std::uint8_t>{1, 2, 3, 255, 4, 5, 6, 255});

    CHECK_FALSE(paper::loadPng((dir / "none.png").string(), image, error));
    CHECK(error == "file not found");
    CHECK_FALSE(paper::loadPng(dir.string(), image, error));
    CHECK(error == "a directory, not an image");
    fs::remove_all(dir);
}
