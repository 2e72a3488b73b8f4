// The PNG decoder (paper::decodePng, libpng) on arbitrary bytes: rig images come from users
// and third parties. An image it accepts has a size within the limit and exactly its RGBA
// bytes; one it refuses says why and holds nothing.
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
    return 0;
}
