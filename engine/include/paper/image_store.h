// The images plugins draw with (cut-out art): decoded once per file, kept premultiplied for
// blending, handed out as small ids that stay valid across plugin reloads (the same file
// gives the same id). The renderer uploads each as a texture the first time it is drawn;
// headless runs decode and validate, and never touch GL.
#pragma once

#include <string>
#include <vector>

#include "paper/png_image.h"

namespace paper {

class ImageStore {
public:
    /// The image in the PNG file at path: its id (> 0), decoded on the first call. 0 with the
    /// cause (paper::loadPng's) in error.
    int load(const std::string& path, std::string& error);
    /// The image with that id, RGBA with premultiplied alpha; null for an id it never gave.
    const PngImage* image(int id) const;
    /// The file an id was loaded from ("" for an id it never gave).
    const std::string& path(int id) const;
    int count() const { return int(images_.size()); }
    /// Whether the file at path is one of the images loaded (by its canonical path).
    bool holds(const std::string& path) const;

private:
    struct Entry {
        std::string key;  ///< the file's canonical path
        std::string path;
        PngImage pixels;
    };
    std::vector<Entry> images_;  ///< id i + 1
};

}  // namespace paper
