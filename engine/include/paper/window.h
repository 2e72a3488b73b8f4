// The SDL2 window with an OpenGL 3.3 core context and Dear ImGui wired to both.
// Only windowed runs create one; headless runs never initialise SDL at all.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "paper/math.h"
#include "paper/screen_text.h"

struct SDL_Window;
union SDL_Event;

namespace paper {

class InputMap;
class ExtraGlyphs;

struct WindowDef {
    std::string title = "Paperdoll";
    int width = 1280;   ///< pixels
    int height = 720;   ///< pixels
    bool vsync = true;
    int msaaSamples = 4;  ///< 0 disables multisampling
    int minWidth = 0, minHeight = 0;  ///< pixels the user may not shrink the window below (0: SDL's own)
};

/// Makes the glyphs of UTF-8 text drawable in the open window from its next prepareFonts on:
/// ImGui's own font draws ASCII and Latin-1 only, and a name such as 'предплечье_L' is drawn
/// with glyphs from the machine's fonts (platform/fonts.h). Panels call it with the names,
/// paths and messages they draw; text already seen costs a scan of its bytes. One window's:
/// ImGui's context, and so its font, is one per process. Nothing without a window.
void wantGlyphs(std::string_view text);

class Window {
public:
    Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;
    ~Window();

    /// Opens the window, the GL context and ImGui; false with a message on failure.
    bool open(const WindowDef& def, std::string& error);

    /// Drains SDL's queue into input (keys, mouse, wheel) unless ImGui wants them.
    /// Returns false once the user asked to close the window.
    bool pollEvents(InputMap& input);
    /// Merges the glyphs wanted since the last frame into ImGui's font; call before each
    /// frame's beginImGuiFrame. Returns a sentence naming the code points no font on the
    /// machine draws (each said once), or nothing.
    std::string prepareFonts();
    /// Starts an ImGui frame; call once per rendered frame before any ImGui call.
    void beginImGuiFrame();
    /// Renders ImGui's draw data over what was drawn.
    void renderImGui();
    /// Draws texts into the frame now, with ImGui's font, so whatever is drawn after covers
    /// them (labels under the characters). Only between beginImGuiFrame and renderImGui. Their
    /// glyphs are wanted (wantGlyphs) for the frames after.
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
    std::unique_ptr<ExtraGlyphs> glyphs_;  ///< what paper::wantGlyphs collects while this window is open
};

}  // namespace paper
