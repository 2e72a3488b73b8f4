// OpenGL 3.3 core backend for the DrawList: one shader, one dynamic vertex and index
// buffer, one draw call per batch (a run of triangles on one image). Images become
// textures the first time they are drawn. Needs a current GL context (platform/window).
//
// Colour is blended in linear light when the framebuffer is sRGB encoded (the window asks
// for one): vertex colours and images are sRGB, decoded before they are mixed and encoded
// again as they are written, so a half-covered edge or a translucent shadow has the
// brightness it should. Without an sRGB framebuffer it blends the encoded values, as
// most 2D renderers do.
#pragma once

#include <string>
#include <vector>

#include "paper/camera.h"
#include "paper/draw_list.h"
#include "paper/image_store.h"

namespace paper {

class GlRenderer {
public:
    GlRenderer() = default;
    GlRenderer(const GlRenderer&) = delete;
    GlRenderer& operator=(const GlRenderer&) = delete;
    ~GlRenderer();

    /// Compiles the shader and creates buffers; false with a message on failure.
    bool init(std::string& error);
    void beginFrame(int framebufferWidth, int framebufferHeight, Color clear);
    /// Draws the list; images: where its batches' image ids come from (null: plain colour only).
    void draw(const DrawList& list, const Camera& camera, const ImageStore* images = nullptr);
    /// Waits until everything drawn so far has been rendered (to time it).
    void finish();
    /// Whether it blends in linear light (the framebuffer is sRGB encoded); known after init.
    bool linearBlending() const { return srgb_; }

private:
    /// The texture of an image id (uploaded now if it is new); image 0 is one white texel.
    unsigned texture(int image, const ImageStore* images);

    unsigned program_ = 0, vao_ = 0, vbo_ = 0, ibo_ = 0;
    int matrixLocation_ = -1, imageLocation_ = -1, linearLightLocation_ = -1;
    std::vector<unsigned> textures_;  ///< by image id; 0 until uploaded
    size_t vboBytes_ = 0, iboBytes_ = 0;
    bool srgb_ = false;
};

/// Reads the current framebuffer (before swap) and writes it as a PNG; false with a
/// message on failure. A file among `drawn` (the art the run draws) is refused: a screenshot
/// named as an image a plugin drew with would replace it.
bool saveFramebufferPng(const std::string& path, int width, int height, std::string& error,
                        const ImageStore* drawn = nullptr);

}  // namespace paper
