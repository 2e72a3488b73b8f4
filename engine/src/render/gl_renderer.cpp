#include "paper/gl_renderer.h"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace paper {

namespace {

const char* kVertexShader = R"(#version 330 core
layout(location = 0) in vec2 position;
layout(location = 1) in vec4 color;
layout(location = 2) in vec2 uv;
layout(location = 3) in float silhouette;
layout(location = 4) in vec4 uvBounds;
uniform mat4 worldToClip;
uniform bool linearLight;  // decode the sRGB colours: the framebuffer blends in linear light
out vec4 vColor;
out vec2 vUv;
out float vSilhouette;
flat out vec4 vUvBounds;
void main() {
    gl_Position = worldToClip * vec4(position, 0.0, 1.0);
    vec3 rgb = color.rgb;
    if (linearLight)  // the sRGB transfer function, IEC 61966-2-1
        rgb = mix(rgb / 12.92, pow((rgb + 0.055) / 1.055, vec3(2.4)), step(vec3(0.04045), rgb));
    vColor = vec4(rgb * color.a, color.a);  // premultiplied, as the images are
    vUv = uv;
    vSilhouette = silhouette;
    vUvBounds = uvBounds;
}
)";

// Every batch samples an image: shapes a white texel, cut-out art its own texture; both
// premultiplied, so one blending function serves all.
const char* kFragmentShader = R"(#version 330 core
in vec4 vColor;
in vec2 vUv;
in float vSilhouette;
flat in vec4 vUvBounds;
uniform sampler2D image;
out vec4 fragColor;
void main() {
    // Kept half a texel inside the region the draw cuts out, so a linear filter reaches no
    // texel of a neighbouring part of the atlas (clamp-to-edge for the region). Half a texel
    // of the full-size image: the one a part drawn at its size or larger is sampled from.
    // Drawn smaller, the mipmaps' texels are wider, but an inset of their half grew every
    // part's silhouette by the band it replicated (the paper doll's outlines thickened).
    vec2 inset = 0.5 / vec2(textureSize(image, 0));
    vec2 middle = 0.5 * (vUvBounds.xy + vUvBounds.zw);
    vec2 low = min(vUvBounds.xy + inset, middle), high = max(vUvBounds.zw - inset, middle);
    // The level of detail from the unclamped coordinates: clamped, they stop changing along
    // the edge, and the edge would be sampled from the full-size image.
    vec4 texel = textureGrad(image, clamp(vUv, low, high), dFdx(vUv), dFdy(vUv));
    // A silhouette keeps only the texel's coverage: premultiplied, (a, a, a, a).
    fragColor = mix(texel, vec4(texel.a), vSilhouette) * vColor;
}
)";

/// A texture from RGBA8 premultiplied pixels, linear filtering with mipmaps (parts are drawn
/// much smaller than their art when zoomed out). An sRGB texture is decoded to linear light
/// before it is filtered, so its mipmaps and edges average light, not encoded numbers.
GLuint makeTexture(int width, int height, const std::uint8_t* rgba, bool srgb) {
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return texture;
}

GLuint compile(GLenum stage, const char* source, std::string& error) {
    GLuint shader = glCreateShader(stage);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = {};
        glGetShaderInfoLog(shader, sizeof log, nullptr, log);
        error = std::string("shader compile failed: ") + log;
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

}  // namespace

GlRenderer::~GlRenderer() {
    if (program_) glDeleteProgram(program_);
    if (vbo_) glDeleteBuffers(1, &vbo_);
    if (ibo_) glDeleteBuffers(1, &ibo_);
    if (vao_) glDeleteVertexArrays(1, &vao_);
    for (GLuint texture : textures_)
        if (texture) glDeleteTextures(1, &texture);
}

bool GlRenderer::init(std::string& error) {
    GLuint vs = compile(GL_VERTEX_SHADER, kVertexShader, error);
    if (!vs) return false;
    GLuint fs = compile(GL_FRAGMENT_SHADER, kFragmentShader, error);
    if (!fs) {
        glDeleteShader(vs);
        return false;
    }
    program_ = glCreateProgram();
    glAttachShader(program_, vs);
    glAttachShader(program_, fs);
    glLinkProgram(program_);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint linked = 0;
    glGetProgramiv(program_, GL_LINK_STATUS, &linked);
    if (!linked) {
        error = "shader link failed";
        return false;
    }
    matrixLocation_ = glGetUniformLocation(program_, "worldToClip");
    imageLocation_ = glGetUniformLocation(program_, "image");
    linearLightLocation_ = glGetUniformLocation(program_, "linearLight");
    GLint encoding = GL_LINEAR;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_BACK_LEFT, GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING, &encoding);
    srgb_ = encoding == GL_SRGB;

    glGenVertexArrays(1, &vao_);
    glGenBuffers(1, &vbo_);
    glGenBuffers(1, &ibo_);
    glBindVertexArray(vao_);
    glBindBuffer(GL_ARRAY_BUFFER, vbo_);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo_);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, sizeof(DrawVertex), (void*)offsetof(DrawVertex, position));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(DrawVertex), (void*)offsetof(DrawVertex, rgba));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, sizeof(DrawVertex), (void*)offsetof(DrawVertex, uv));
    glEnableVertexAttribArray(3);
    glVertexAttribPointer(3, 1, GL_FLOAT, GL_FALSE, sizeof(DrawVertex), (void*)offsetof(DrawVertex, silhouette));
    glEnableVertexAttribArray(4);  // uvMin and uvMax, side by side
    glVertexAttribPointer(4, 4, GL_FLOAT, GL_FALSE, sizeof(DrawVertex), (void*)offsetof(DrawVertex, uvMin));
    glBindVertexArray(0);
    const std::uint8_t white[4] = {255, 255, 255, 255};
    textures_.assign(1, makeTexture(1, 1, white, srgb_));
    return true;
}

void GlRenderer::beginFrame(int width, int height, Color clear) {
    glViewport(0, 0, width, height);
    glClearColor(clear.r / 255.0f, clear.g / 255.0f, clear.b / 255.0f, clear.a / 255.0f);
    glClear(GL_COLOR_BUFFER_BIT);
}

unsigned GlRenderer::texture(int image, const ImageStore* images) {
    if (image <= 0 || !images) return textures_.empty() ? 0 : textures_[0];
    if (size_t(image) >= textures_.size()) textures_.resize(size_t(image) + 1, 0);
    if (!textures_[size_t(image)]) {
        const PngImage* pixels = images->image(image);
        if (!pixels) return textures_[0];
        textures_[size_t(image)] = makeTexture(pixels->width, pixels->height, pixels->rgba.data(), srgb_);
    }
    return textures_[size_t(image)];
}

void GlRenderer::draw(const DrawList& list, const Camera& camera, const ImageStore* images) {
    if (list.indices().empty()) return;
    size_t vertexBytes = list.vertices().size() * sizeof(DrawVertex);
    size_t indexBytes = list.indices().size() * sizeof(std::uint32_t);

    glUseProgram(program_);
    float matrix[16];
    camera.worldToClipMatrix(matrix);
    glUniformMatrix4fv(matrixLocation_, 1, GL_FALSE, matrix);
    glUniform1i(imageLocation_, 0);
    glUniform1i(linearLightLocation_, srgb_ ? 1 : 0);
    if (srgb_) glEnable(GL_FRAMEBUFFER_SRGB);  // off again below: the UI drawn after blends as it always has
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);  // premultiplied (the shader and the images)
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);  // fans and rings come in either winding

    glBindVertexArray(vao_);
    glBindBuffer(GL_ARRAY_BUFFER, vbo_);
    // Grow the buffers geometrically and orphan them each frame, so uploads never stall.
    if (vertexBytes > vboBytes_) vboBytes_ = vertexBytes * 2;
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(vboBytes_), nullptr, GL_STREAM_DRAW);
    glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(vertexBytes), list.vertices().data());
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo_);
    if (indexBytes > iboBytes_) iboBytes_ = indexBytes * 2;
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(iboBytes_), nullptr, GL_STREAM_DRAW);
    glBufferSubData(GL_ELEMENT_ARRAY_BUFFER, 0, GLsizeiptr(indexBytes), list.indices().data());
    glActiveTexture(GL_TEXTURE0);
    for (const DrawBatch& batch : list.batches()) {
        glBindTexture(GL_TEXTURE_2D, texture(batch.image, images));
        glDrawElements(GL_TRIANGLES, GLsizei(batch.indexCount), GL_UNSIGNED_INT,
                       (void*)(std::uintptr_t(batch.firstIndex) * sizeof(std::uint32_t)));
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindVertexArray(0);
    glUseProgram(0);
    glDisable(GL_FRAMEBUFFER_SRGB);
}

void GlRenderer::finish() { glFinish(); }

bool saveFramebufferPng(const std::string& path, int width, int height, std::string& error, const ImageStore* drawn) {
    if (width <= 0 || height <= 0) {
        error = "empty framebuffer";
        return false;
    }
    if (drawn && drawn->holds(path)) {
        error = "'" + path + "' is art this run draws (an image a plugin loaded): a screenshot would replace it";
        return false;
    }
    std::vector<unsigned char> pixels(size_t(width) * size_t(height) * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    // GL's rows run bottom-up; PNG's top-down. Force opaque: the window has no alpha.
    std::vector<unsigned char> flipped(pixels.size());
    size_t rowBytes = size_t(width) * 4;
    for (int y = 0; y < height; ++y)
        std::memcpy(&flipped[size_t(y) * rowBytes], &pixels[size_t(height - 1 - y) * rowBytes], rowBytes);
    for (size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;
    // Encoded in memory and written here, where every error is seen: stbi_write_png ignores
    // a failed write or close, and a screenshot onto a full disk was reported as taken.
    std::vector<unsigned char> png;
    auto append = [](void* context, void* data, int size) {
        auto& out = *static_cast<std::vector<unsigned char>*>(context);
        const auto* bytes = static_cast<const unsigned char*>(data);
        out.insert(out.end(), bytes, bytes + size);
    };
    if (!stbi_write_png_to_func(append, &png, width, height, 4, flipped.data(), int(rowBytes))) {
        error = "cannot encode '" + path + "' as a PNG";
        return false;
    }
    errno = 0;
    std::FILE* file = std::fopen(path.c_str(), "wb");
    bool written = file && std::fwrite(png.data(), 1, png.size(), file) == png.size();
    const int writeErrno = errno;
    if (file && std::fclose(file) != 0) written = false;
    if (!written) {
        error = "cannot write '" + path + "': " + std::strerror(writeErrno ? writeErrno : errno ? errno : EIO);
        return false;
    }
    return true;
}

}  // namespace paper
