// The SDL2 window with an OpenGL 3.3 core context and Dear ImGui wired to both.
// Only windowed runs create one; headless runs never initialise SDL at all.
#pragma once

#include <string>
#include <vector>

#include "paper/math.h"
#include "paper/screen_text.h"

struct SDL_Window;
union SDL_Event;

namespace paper {

class InputMap;

struct WindowDef {
    std::string title = "Paperdoll";
    int width = 1280;   ///< pixels
    int height = 720;   ///< pixels
    bool vsync = true;
    int msaaSamples = 4;  ///< 0 disables multisampling
    int minWidth = 0, minHeight = 0;  ///< pixels the user may not shrink the window below (0: SDL's own)
};

class Window {
public:
    Window() = default;
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;
    ~Window();

    /// Opens the window, the GL context and ImGui; false with a message on failure.
    bool open(const WindowDef& def, std::string& error);

    /// Drains SDL's queue into input (keys, mouse, wheel) unless ImGui wants them.
    /// Returns false once the user asked to close the window.
    bool pollEvents(InputMap& input);
    /// Starts an ImGui frame; call once per rendered frame before any ImGui call.
    void beginImGuiFrame();
    /// Renders ImGui's draw data over what was drawn.
    void renderImGui();
    /// Draws texts into the frame now, with ImGui's font, so whatever is drawn after covers
    /// them (labels under the characters). Only between beginImGuiFrame and renderImGui.
    static void drawTextNow(std::vector<ScreenText> texts);
    void swap();

    /// Drawable size in pixels (may exceed the window size on high-DPI screens).
    Vec2 framebufferSize() const;
    /// The GL renderer string, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    const char* glRenderer() const;

private:
    SDL_Window* window_ = nullptr;
    void* glContext_ = nullptr;
    bool imguiReady_ = false;
};

}  // namespace paper
