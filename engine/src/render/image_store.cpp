#include "paper/image_store.h"

#include <filesystem>
#include <system_error>

namespace paper {

namespace {
std::string keyOf(const std::string& path) {
    std::error_code ec;
    std::string key = std::filesystem::weakly_canonical(path, ec).string();
    return ec ? path : key;
}
}  // namespace

bool ImageStore::holds(const std::string& path) const {
    const std::string key = keyOf(path);
    for (const Entry& entry : images_)
        if (entry.key == key) return true;
    return false;
}

int ImageStore::load(const std::string& path, std::string& error) {
    const std::string key = keyOf(path);
    for (size_t i = 0; i < images_.size(); ++i)
        if (images_[i].key == key) return int(i) + 1;
    Entry entry{key, path, {}};
    if (!loadPng(path, entry.pixels, error)) return 0;
    premultiplyAlpha(entry.pixels);  // the renderer blends premultiplied
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
