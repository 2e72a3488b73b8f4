// OpenGL 3.3 core backend for the DrawList: one shader, one dynamic vertex and index
// buffer, one draw call per list. Needs a current GL context (platform/window).
#pragma once

#include <string>

#include "paper/camera.h"
#include "paper/draw_list.h"

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
    void draw(const DrawList& list, const Camera& camera);

private:
    unsigned program_ = 0, vao_ = 0, vbo_ = 0, ibo_ = 0;
    int matrixLocation_ = -1;
    size_t vboBytes_ = 0, iboBytes_ = 0;
};

/// Reads the current framebuffer (before swap) and writes it as a PNG; false with a
/// message on failure.
bool saveFramebufferPng(const std::string& path, int width, int height, std::string& error);

}  // namespace paper
