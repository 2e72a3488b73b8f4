// The PNG decoder (paper::decodePng, libpng) on arbitrary bytes: rig images come from users
// and third parties. An image it accepts has a size within the limit and exactly its RGBA
// bytes, and premultiplies as the engine's image store (engine/src/render/image_store.cpp,
// which loads the same files for the renderer) does it; one it refuses says why and holds
// nothing.
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
    FUZZ_CHECK(image.width >= 1 && image.width <= paper::kMaxImageSide);
    FUZZ_CHECK(image.height >= 1 && image.height <= paper::kMaxImageSide);
    FUZZ_CHECK(image.rgba.size() == std::size_t(image.width) * std::size_t(image.height) * 4);
    paper::premultiplyAlpha(image);
    for (std::size_t i = 0; i < image.rgba.size(); i += 4)
        FUZZ_CHECK(image.rgba[i] <= image.rgba[i + 3] && image.rgba[i + 1] <= image.rgba[i + 3] &&
                   image.rgba[i + 2] <= image.rgba[i + 3]);
    return 0;
}
