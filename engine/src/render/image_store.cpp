#include "paper/image_store.h"

#include <filesystem>
#include <system_error>

namespace paper {

int ImageStore::load(const std::string& path, std::string& error) {
    std::error_code ec;
    std::string key = std::filesystem::weakly_canonical(path, ec).string();
    if (ec) key = path;
    for (size_t i = 0; i < images_.size(); ++i)
        if (images_[i].key == key) return int(i) + 1;
    Entry entry{key, path, {}};
    if (!loadPng(path, entry.pixels, error)) return 0;
    // Premultiplied: linear filtering and blending then never bleed a transparent pixel's
    // colour into the edge of a part (the dark fringe straight alpha gives).
    std::vector<std::uint8_t>& rgba = entry.pixels.rgba;
    for (size_t i = 0; i + 3 < rgba.size(); i += 4) {
        const unsigned a = rgba[i + 3];
        for (size_t c = 0; c < 3; ++c) rgba[i + c] = std::uint8_t((rgba[i + c] * a + 127) / 255);
    }
    images_.push_back(std::move(entry));
    return int(images_.size());
}

const PngImage* ImageStore::image(int id) const {
    return id >= 1 && id <= int(images_.size()) ? &images_[size_t(id - 1)].pixels : nullptr;
}

const std::string& ImageStore::path(int id) const {
    static const std::string none;
    return id >= 1 && id <= int(images_.size()) ? images_[size_t(id - 1)].path : none;
}

}  // namespace paper
