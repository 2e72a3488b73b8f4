// The engine's images for plugins (paper/image_store.h): one decode per file, premultiplied.
#include <catch2/catch.hpp>

#include <stb_image_write.h>

#include <filesystem>
#include <fstream>

#include "paper/image_store.h"
#include "run_process.h"

namespace fs = std::filesystem;
using namespace paper;

TEST_CASE("an image is decoded once per file, premultiplied, and a bad one is refused with its cause", "[render][image]") {
    const fs::path dir = test::makeTempDir();
    const std::string file = (dir / "part.png").string();
    const unsigned char texels[8] = {200, 100, 50, 255, 200, 100, 50, 51};  // opaque, then 20% alpha
    REQUIRE(stbi_write_png(file.c_str(), 2, 1, 4, texels, 8));
    ImageStore store;
    std::string error;
    const int id = store.load(file, error);
    REQUIRE(id == 1);
    CHECK(store.load((dir / "." / "part.png").string(), error) == id);  // the same file, spelled otherwise
    CHECK(store.count() == 1);
    const PngImage* image = store.image(id);
    REQUIRE(image);
    CHECK((image->width == 2 && image->height == 1));
    // Premultiplied in linear light, sRGB encoded again: 200 is 0.578 linear, times 0.2 is
    // 0.116, encoded 95 (in sRGB numbers, 200 × 0.2 would be 40: too dark once decoded).
    CHECK(std::vector<int>(image->rgba.begin(), image->rgba.end()) == std::vector<int>{200, 100, 50, 255, 95, 44, 19, 51});
    CHECK(store.path(id) == file);
    CHECK(store.image(2) == nullptr);

    CHECK(store.load((dir / "missing.png").string(), error) == 0);
    CHECK(error == "file not found");
    std::ofstream(dir / "text.png") << "hello";
    CHECK(store.load((dir / "text.png").string(), error) == 0);
    CHECK_THAT(error, Catch::Contains("not a PNG file"));
    // A PNG cut short: its signature and header, but no image data.
    std::ifstream whole(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(whole)), {});
    std::ofstream(dir / "cut.png", std::ios::binary) << bytes.substr(0, 40);
    CHECK(store.load((dir / "cut.png").string(), error) == 0);
    CHECK(error == "truncated: the file ends before the image does");
    CHECK(store.count() == 1);
    fs::remove_all(dir);
}
