// The PNG decoder (paper::decodePng, libpng) on arbitrary bytes: rig images come from users
// and third parties. An image it accepts has a size within the limit and exactly its RGBA
// bytes, and premultiplies as the engine's image store (engine/src/render/image_store.cpp,
// which loads the same files for the renderer) does it; one it refuses says why and holds
// nothing.
#include <array>
#include <cmath>
#include <string>

#include "fuzz_target.h"
#include "paper/png_image.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    paper::PngImage image;
    std::string error;
    if (!paper::decodePng(data, size, image, error)) {
        FUZZ_CHECK(!error.empty());
        FUZZ_CHECK(image.width == 0 && image.height == 0 && image.rgba.empty());
        return 0;
    }
    gFuzzInputTaken = true;
    FUZZ_CHECK(image.width >= 1 && image.width <= paper::kMaxImageSide);
    FUZZ_CHECK(image.height >= 1 && image.height <= paper::kMaxImageSide);
    FUZZ_CHECK(image.rgba.size() == std::size_t(image.width) * std::size_t(image.height) * 4);
    // Premultiplied in linear light and sRGB encoded, no colour is brighter than its alpha
    // is once encoded (the sRGB transfer function, IEC 61966-2-1, is increasing).
    static const std::array<int, 256> encodedAlpha = [] {
        std::array<int, 256> out{};
        for (int a = 0; a < 256; ++a) {
            const double c = a / 255.0;
            out[size_t(a)] = int(std::lround(255.0 * (c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055)));
        }
        return out;
    }();
    paper::premultiplyAlpha(image);
    for (std::size_t i = 0; i < image.rgba.size(); i += 4) {
        const int most = encodedAlpha[image.rgba[i + 3]];
        FUZZ_CHECK(image.rgba[i] <= most && image.rgba[i + 1] <= most && image.rgba[i + 2] <= most);
    }
    return 0;
}
