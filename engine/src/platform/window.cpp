#include "paper/window.h"

#include <SDL.h>
#include <glad/gl.h>
#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>

#include <cstring>

#include "paper/input.h"
#include "platform/fonts.h"
#include "platform/leak_check.h"

namespace paper {

namespace {
/// The open window's glyphs, for paper::wantGlyphs (one ImGui context per process).
ExtraGlyphs* gOpenWindowGlyphs = nullptr;
}  // namespace

void wantGlyphs(std::string_view text) {
    if (gOpenWindowGlyphs) gOpenWindowGlyphs->want(text);
}

Window::Window() = default;

Window::~Window() {
    if (gOpenWindowGlyphs == glyphs_.get()) gOpenWindowGlyphs = nullptr;
    keepLibrariesMappedForLeakCheck();
    if (imguiReady_) {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplSDL2_Shutdown();
        ImGui::DestroyContext();
    }
    if (glContext_) SDL_GL_DeleteContext(glContext_);
    if (window_) SDL_DestroyWindow(window_);
    if (window_ || glContext_) SDL_QuitSubSystem(SDL_INIT_VIDEO);
}

namespace {
/// How often, and how far apart, a display that refused the connection is asked again.
constexpr int kDisplayRetries = 5;
constexpr Uint32 kDisplayRetryMilliseconds = 200;
}  // namespace

bool Window::open(const WindowDef& def, std::string& error) {
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
        error = std::string("cannot start SDL video: ") + SDL_GetError() +
                " (no display? run under xvfb-run, set SDL_VIDEODRIVER=offscreen, or use --headless)";
        return false;
    }
    // With no display SDL falls back to its offscreen driver by itself: a window nobody sees,
    // and a run without --frames that never ends. Offscreen only when asked for.
    const char* asked = SDL_getenv("SDL_VIDEODRIVER");
    auto fellBack = [&] {
        const char* driver = SDL_GetCurrentVideoDriver();
        return driver && std::strcmp(driver, "offscreen") == 0 && !(asked && std::strstr(asked, "offscreen"));
    };
    // A display that is there may refuse a connection for a moment (an X server busy with
    // other clients: seen once in 560 windowed test runs): asked again before giving up.
    const char* display = SDL_getenv("DISPLAY");
    for (int retry = 0; retry < kDisplayRetries && fellBack() && display && *display; ++retry) {
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        SDL_Delay(kDisplayRetryMilliseconds);
        if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
            error = std::string("cannot start SDL video: ") + SDL_GetError();
            return false;
        }
    }
    if (fellBack()) {
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        error = std::string("no display to open a window on") +
                (display && *display ? std::string(" (DISPLAY=") + display + " did not answer)" : std::string()) +
                " (run under a display or xvfb-run, set SDL_VIDEODRIVER=offscreen to render without one, or use "
                "--headless)";
        return false;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, def.msaaSamples > 0 ? 1 : 0);
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, def.msaaSamples);
    // Asked for, not required: the renderer blends in linear light where it is granted.
    SDL_GL_SetAttribute(SDL_GL_FRAMEBUFFER_SRGB_CAPABLE, 1);

    Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
    window_ = SDL_CreateWindow(def.title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, def.width,
                               def.height, flags);
    if (!window_ && def.msaaSamples > 0) {
        // Some drivers offer no multisampled visual; a jagged window beats no window.
        SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, 0);
        SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, 0);
        window_ = SDL_CreateWindow(def.title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, def.width,
                                   def.height, flags);
    }
    if (!window_) {
        error = std::string("cannot create window: ") + SDL_GetError();
        return false;
    }
    if (def.minWidth > 0 && def.minHeight > 0) SDL_SetWindowMinimumSize(window_, def.minWidth, def.minHeight);
    glContext_ = SDL_GL_CreateContext(window_);
    if (!glContext_) {
        error = std::string("cannot create an OpenGL 3.3 core context: ") + SDL_GetError();
        return false;
    }
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(SDL_GL_GetProcAddress))) {
        error = "cannot load OpenGL functions";
        return false;
    }
    SDL_GL_SetSwapInterval(def.vsync ? 1 : 0);
    if (def.msaaSamples > 0) glEnable(GL_MULTISAMPLE);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini littering the working directory
    ImGui::StyleColorsDark();
    if (!ImGui_ImplSDL2_InitForOpenGL(window_, glContext_) || !ImGui_ImplOpenGL3_Init("#version 330")) {
        error = "cannot initialise Dear ImGui";
        return false;
    }
    imguiReady_ = true;
    glyphs_ = std::make_unique<ExtraGlyphs>();
    gOpenWindowGlyphs = glyphs_.get();
    return true;
}

static int keycodeOf(const SDL_Event& event) { return int(event.key.keysym.sym); }

bool Window::pollEvents(InputMap& input) {
    bool keepOpen = true;
    const ImGuiIO& io = ImGui::GetIO();
    Vec2 windowSize{}, drawable = framebufferSize();
    int w = 0, h = 0;
    SDL_GetWindowSize(window_, &w, &h);
    windowSize = {float(w), float(h)};
    // Mouse positions go to the app in drawable pixels, the camera's unit.
    Vec2 scale{windowSize.x > 0 ? drawable.x / windowSize.x : 1.0f, windowSize.y > 0 ? drawable.y / windowSize.y : 1.0f};

    SDL_Event event;
    while (SDL_PollEvent(&event)) {
        ImGui_ImplSDL2_ProcessEvent(&event);
        switch (event.type) {
        case SDL_QUIT:
            keepOpen = false;
            break;
        case SDL_WINDOWEVENT:
            if (event.window.event == SDL_WINDOWEVENT_CLOSE) keepOpen = false;
            break;
        case SDL_KEYDOWN:
        case SDL_KEYUP:
            // Releases always pass, so a key held when ImGui took focus cannot stick.
            if (event.type == SDL_KEYUP || !io.WantCaptureKeyboard) input.keyEvent(keycodeOf(event), event.type == SDL_KEYDOWN);
            break;
        case SDL_MOUSEMOTION:
            input.mouseMove({float(event.motion.x) * scale.x, float(event.motion.y) * scale.y});
            break;
        case SDL_MOUSEBUTTONDOWN:
        case SDL_MOUSEBUTTONUP: {
            bool down = event.type == SDL_MOUSEBUTTONDOWN;
            if (down && io.WantCaptureMouse) break;
            if (event.button.button == SDL_BUTTON_LEFT) input.mouseButton(MouseButton::Left, down);
            if (event.button.button == SDL_BUTTON_MIDDLE) input.mouseButton(MouseButton::Middle, down);
            if (event.button.button == SDL_BUTTON_RIGHT) input.mouseButton(MouseButton::Right, down);
            break;
        }
        case SDL_MOUSEWHEEL:
            if (!io.WantCaptureMouse) input.mouseWheel(event.wheel.preciseY);
            break;
        default:
            break;
        }
    }
    return keepOpen;
}

std::string Window::prepareFonts() {
    std::string said;
    if (!glyphs_) return said;
    // The texture is made from the atlas the first frame; after that, made again from the new one.
    const bool uploaded = ImGui::GetIO().Fonts->TexID != nullptr;
    if (glyphs_->rebuild(said) && uploaded) {
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    return said;
}

void Window::beginImGuiFrame() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();
}

void Window::renderImGui() {
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Window::drawTextNow(std::vector<ScreenText> texts) {
    if (texts.empty()) return;
    std::vector<Vec2> sizes;
    for (const ScreenText& t : texts) {
        wantGlyphs(t.text);
        ImVec2 size = ImGui::CalcTextSize(t.text.c_str(), t.text.c_str() + t.text.size());
        sizes.push_back({size.x, size.y});
    }
    stackOverlapping(texts, sizes);
    // A draw list of its own, rendered at once: ImGui's lists are all drawn at the end of the
    // frame, over the world, and these must go under part of it.
    ImGuiIO& io = ImGui::GetIO();
    ImDrawList list(ImGui::GetDrawListSharedData());
    list._ResetForNewFrame();
    list.PushTextureID(io.Fonts->TexID);
    list.PushClipRectFullScreen();
    for (const ScreenText& t : texts)
        list.AddText({t.position.x, t.position.y}, IM_COL32(t.color.r, t.color.g, t.color.b, t.color.a),
                     t.text.c_str(), t.text.c_str() + t.text.size());
    list.PopClipRect();
    list.PopTextureID();
    ImDrawList* lists[] = {&list};
    ImDrawData data;
    data.Valid = true;
    data.CmdLists = lists;
    data.CmdListsCount = 1;
    data.TotalVtxCount = list.VtxBuffer.Size;
    data.TotalIdxCount = list.IdxBuffer.Size;
    data.DisplayPos = {0.0f, 0.0f};
    data.DisplaySize = io.DisplaySize;
    data.FramebufferScale = io.DisplayFramebufferScale;
    ImGui_ImplOpenGL3_RenderDrawData(&data);
}

void Window::swap() { SDL_GL_SwapWindow(window_); }

Vec2 Window::framebufferSize() const {
    int w = 0, h = 0;
    SDL_GL_GetDrawableSize(window_, &w, &h);
    return {float(w), float(h)};
}

const char* Window::glRenderer() const { return reinterpret_cast<const char*>(glGetString(GL_RENDERER)); }

}  // namespace paper
