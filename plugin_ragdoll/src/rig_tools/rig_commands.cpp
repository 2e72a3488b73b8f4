#include "rig_tools/rig_commands.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <string_view>
#include <system_error>

#include "paper/text_width.h"
#include "rig_tools/rig_check_json.h"
#include "rig_tools/rig_drop.h"
#include "rig_tools/rig_generator.h"
#include "character/character_assets.h"
#include "rig/rig_loader.h"
#include "rig/rig_saver.h"
#include "spine/spine_import.h"
#include "spine/spine_physics.h"
#include "paper/command_line.h"
#include "paper/file_checks.h"
#include "paper/spelling.h"
#include "paper/xml_reader.h"

namespace ragdoll {

namespace {

namespace fs = std::filesystem;

constexpr int kExitOk = 0;
constexpr int kExitBadFile = 1;
constexpr int kExitUsage = 2;
constexpr int kExitDropFailed = 3;
/// Most frames `rig drop` runs: 100000 frames are 28 simulated minutes, far past any rest.
constexpr int kMaxFrames = 100000;
/// Fastest sideways push `rig drop --push` accepts, m/s (the solver's tested extreme is 50).
constexpr double kMaxPush = 50.0;

/// decimals after the point; as long as the number needs (1e300 has 301 digits before it).
std::string fixed(double value, int decimals) {
    std::string text(size_t(std::snprintf(nullptr, 0, "%.*f", decimals, value)), '\0');
    std::snprintf(text.data(), text.size() + 1, "%.*f", decimals, value);
    return text;
}

/// Three significant digits: "1.21e-06", "0.000412".
std::string significant(double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.3g", value);
    return buffer;
}

/// text, then spaces up to width columns (printf's %-Ns, for text of any length), counted by
/// how wide it shows (paper/text_width.h): a name such as 'tête' or '腿.L' keeps its row in line.
using paper::padded;

/// Up to 4 decimals without trailing zeros: "20", "19.95", "0.1235".
std::string brief(double value) {
    std::string text = fixed(value, 4);
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
    return text == "-0" ? "0" : text;
}

/// The --scale range `rig import` accepts, Spine units per metre: 1e-300 made every length
/// too large for the rig file, and the import then blamed the file it wrote.
constexpr double kMinScale = 1e-3, kMaxScale = 1e6;
constexpr const char* kScaleRange = "0.001 to 1e6";  ///< kMinScale to kMaxScale, as the help and errors say it
/// The ending every rig file has: the editor lists rigs to open by it.
constexpr const char* kRigEnding = ".rig.xml";

/// Each command's usage: its synopsis and what it does (`rig --help` and every usage error
/// print these for all), its options with their defaults and its exit statuses (`rig COMMAND
/// --help` prints them for that one).
struct CommandUsage {
    const char* name;
    const char* synopsis;
    const char* description;
    const char* exitStatus;
};
constexpr CommandUsage kCommandUsages[] = {
    {"check", "paperdoll rig check FILE... [--json]\n",
     "  check      validate rig files: every error with FILE:LINE, or one summary line per rig\n"
     "             (bones, bodies, joints, mass, images, sprites), then each image's size; --json:\n"
     "             one JSON document with every bone's world start and end at rest, every body\n"
     "             and joint, every sprite's world quad and every mesh's world vertices\n",
     "exit status: 0 every rig passed, 1 a rig has errors or cannot be read, 2 bad usage\n"},
    {"drop", "paperdoll rig drop FILE [--frames N] [--push M/S] [--json]\n",
     "  drop       drop the rig from 1 m onto flat ground with a sideways push (default 1 m/s),\n"
     "             step N frames at 1/60 s (default 300) and report joint stretch, limit\n"
     "             violation, frames until at rest and explosions\n",
     "exit status: 0 within the limits, 1 bad or unreadable rig, 2 bad usage, 3 drop outside the limits\n"},
    {"generate", "paperdoll rig generate IN OUT [--force]\n",
     "  generate   add bodies and joints to a rig that has only bones; writes OUT (never IN;\n"
     "             an existing OUT only with --force)\n",
     "exit status: 0 written, 1 bad or unreadable IN, or OUT not written, 2 bad usage (OUT exists\n"
     "             without --force, is in a folder that is not there, or does not end in .rig.xml)\n"},
    {"import",
     "paperdoll rig import SKELETON.json OUT.rig.xml [--atlas FILE] [--skin NAME]\n"
     "                            [--scale UNITS_PER_METRE] [--force] [--loop NAME...]\n",
     "  import     make a rig from a Spine skeleton (JSON 3.8 or 4.0-4.2, its .atlas and page PNGs):\n"
     "             sprites, one clip per animation, bodies and joints guessed (a table of them is\n"
     "             printed); without --scale the setup pose is taken as 1.8 m tall; --loop names\n"
     "             the animations to loop (default: names with idle, walk or run)\n",
     "exit status: 0 imported, 1 bad or unreadable skeleton, atlas or page (nothing written),\n"
     "             2 bad usage (OUT exists without --force, is in a folder that is not there or\n"
     "             does not end in .rig.xml; a --skin or --loop name the skeleton lacks)\n"},
};
constexpr const char* kExitStatus = "exit status: 0 ok, 1 bad or unreadable file, 2 bad usage, 3 drop outside the limits\n";

/// A command's options, each with its default and range, for `rig COMMAND --help`.
std::string optionsHelp(const std::string& command) {
    if (command == "check")
        return "options:\n"
               "  --json          print one JSON document instead of the summary lines: each rig's bones,\n"
               "                  bodies, joints, sprites and meshes at rest (or its errors), and \"ok\"\n";
    if (command == "drop") {
        const DropOptions defaults;
        return "options:\n"
               "  --frames N      frames of 1/60 s to step, 1 to " + std::to_string(kMaxFrames) + " (default " +
               std::to_string(defaults.frames) + ")\n"
               "  --push M/S      the sideways speed given at the drop, -" + brief(kMaxPush) + " to " + brief(kMaxPush) +
               " m/s (default " + brief(defaults.push) + ")\n"
               "  --json          print one JSON object instead of the table: the measures, the limits\n"
               "                  they are held to and \"pass\" (or the rig's errors)\n";
    }
    if (command == "generate")
        return "OUT must end in .rig.xml (or be a device or pipe to write into).\n"
               "options:\n"
               "  --force         overwrite OUT when it exists (IN is never overwritten)\n";
    return std::string("OUT must end in .rig.xml; the clips (OUT's name, then .ANIMATION.anim.xml) and copies of\n"
                       "the atlas pages are written beside it.\n"
                       "options:\n"
                       "  --atlas FILE    the libGDX atlas (default: SKELETON with .atlas in place of .json)\n"
                       "  --skin NAME     a skin whose attachments go over the default skin's (default: the\n"
                       "                  default skin alone)\n"
                       "  --scale N       Spine units per metre, ") +
           kScaleRange + " (default: the setup\n"
           "                  pose taken as " + brief(kImportHeightMetres) + " m tall)\n"
           "  --force         overwrite OUT and the clips and page copies beside it (never a file the\n"
           "                  import reads)\n"
           "  --loop NAME...  the animations whose clips loop, every name after it up to the next\n"
           "                  option or --; the rest play once (default: names with idle, walk or run)\n";
}

/// Every command's synopsis, a line (or two) each.
std::string synopses() {
    std::string text;
    for (const CommandUsage& c : kCommandUsages) text += (text.empty() ? "usage: " : "       ") + std::string(c.synopsis);
    return text;
}

/// Every command's synopsis, then what each does.
std::string fullUsage() {
    std::string text = synopses() + "\n";
    for (const CommandUsage& c : kCommandUsages) text += c.description;
    return text + "\n`paperdoll rig COMMAND --help` lists a command's options and their defaults.\n" + kExitStatus;
}

/// One command's synopsis, what it does, its options and its exit statuses.
std::string commandHelp(const CommandUsage& usage) {
    return "usage: " + std::string(usage.synopsis) + "\n" + usage.description + "\n" + optionsHelp(usage.name) + "\n" +
           usage.exitStatus;
}

/// One command's synopsis and what it does, or nullptr for an unknown command.
const CommandUsage* commandUsage(const std::string& name) {
    for (const CommandUsage& c : kCommandUsages)
        if (name == c.name) return &c;
    return nullptr;
}

/// Why OUT's name is refused: a rig is a *.rig.xml file (the editor's Open lists only those,
/// and the rig's name and its clips' names are OUT's less that ending); "" when it is one.
std::string notRigName(const std::string& out) {
    if (std::string_view(out).ends_with(kRigEnding) && fs::path(out).filename().string().size() > std::string_view(kRigEnding).size())
        return "";
    return "OUT '" + out + "' must end in " + kRigEnding + " (the editor lists rigs by that ending)";
}

int usageError(std::ostream& err, const std::string& message) {
    // The synopses alone: the whole usage (20 lines) buried the one line that matters.
    err << "paperdoll rig: error: " << message << "\n" << synopses() << "(`paperdoll rig --help` says what each does)\n";
    return kExitUsage;
}

void printDiagnostics(std::ostream& err, const std::vector<Diagnostic>& diagnostics) {
    for (const Diagnostic& d : diagnostics) err << d.format() << "\n";
}

/// A rig file as `rig check` and `rig drop` see it: as the player loads it, so that a rig
/// they pass is one it plays — the rig, the clips it names (a clip that does not load is an
/// error, its unknown attributes warnings), a body on every bone. A rig with no bodies yet,
/// the skeleton `rig generate` reads, is not played: its own diagnostics alone.
struct CheckedRig {
    RigLoadResult loaded;
    /// Errors and warnings together, in the order a compiler lists them (the rig file's by
    /// line, then each clip's): a warning never hides an error among other lines.
    std::vector<Diagnostic> diagnostics;

    /// Loaded as the player loads it: the rig loads and has bodies to play, or it is broken
    /// (its clips are checked too, as far as its errors allow, so every error is listed at once).
    bool asPlayed() const { return !loaded.rig || !loaded.rig->bodies.empty(); }
    bool ok() const { return loaded.rig && !hasErrors(diagnostics); }
    void print(std::ostream& err) const { printDiagnostics(err, diagnostics); }
    std::vector<std::string> of(Severity severity) const {
        std::vector<std::string> out;
        for (const Diagnostic& d : diagnostics)
            if (d.severity == severity) out.push_back(d.format());
        return out;
    }
};

CheckedRig checkRig(const std::string& file) {
    CheckedRig c{loadRigFile(file), {}};
    if (c.asPlayed()) loadCharacterAssets(file, c.diagnostics);
    else c.diagnostics = c.loaded.diagnostics;
    return c;
}

/// Positional arguments, or an unknown option (returned in `bad`). "--" ends options.
std::vector<std::string> positionals(const std::vector<std::string>& args, size_t from, std::string& bad) {
    std::vector<std::string> out;
    bool optionsDone = false;
    for (size_t i = from; i < args.size(); ++i) {
        if (!optionsDone && args[i] == "--") {
            optionsDone = true;
        } else if (!optionsDone && args[i].size() > 1 && args[i][0] == '-') {
            bad = args[i];
            return out;
        } else {
            out.push_back(args[i]);
        }
    }
    return out;
}

/// "3 images", "1 image".
std::string count(size_t n, const char* singular, const char* plural) {
    return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

/// What a rig holds, on one line.
std::string summaryLine(const std::string& path, const RigDefinition& rig) {
    return path + ": rig '" + rig.name + "': " + count(rig.bones.size(), "bone", "bones") + ", " +
           count(rig.bodies.size(), "body", "bodies") + ", " + count(rig.joints.size(), "joint", "joints") + ", " +
           brief(rig.totalMass()) + " kg; " + count(rig.images.size(), "image", "images") + ", " +
           count(rig.sprites.size(), "sprite", "sprites") +
           (rig.meshes.empty() ? "" : ", " + count(rig.meshes.size(), "mesh", "meshes"));
}

/// One indented line per image: its file and its size in pixels.
std::string imageLines(const RigDefinition& rig) {
    std::string out;
    for (const RigImage& image : rig.images)
        out += "  image '" + image.name + "': " + image.file + ", " + std::to_string(image.width) + " x " +
               std::to_string(image.height) + " px\n";
    return out;
}

int runCheck(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::vector<std::string> rest;
    bool json = false, optionsDone = false;
    for (const std::string& arg : args) {
        optionsDone = optionsDone || arg == "--";
        if (!optionsDone && arg == "--json") json = true;
        else rest.push_back(arg);
    }
    std::string bad;
    std::vector<std::string> files = positionals(rest, 1, bad);
    if (!bad.empty()) return usageError(err, "unknown option '" + bad + "' for 'rig check'");
    if (files.empty()) return usageError(err, "'rig check' needs at least one FILE");
    int failed = 0;
    if (json) out << "{\"rigs\":[";
    for (size_t i = 0; i < files.size(); ++i) {
        const std::string& file = files[i];
        const CheckedRig checked = checkRig(file);
        checked.print(err);
        const RigDefinition* rig = checked.ok() ? checked.loaded.rig.get() : nullptr;
        if (json)
            out << (i == 0 ? "" : ",")
                << (rig ? rigCheckJson(file, *rig, checked.of(Severity::Warning)) : rigCheckErrorJson(file, checked.of(Severity::Error)));
        else if (rig) out << summaryLine(file, *rig) << "\n" << imageLines(*rig);
        if (!rig) ++failed;
    }
    if (json) out << "],\"ok\":" << (failed == 0 ? "true" : "false") << "}\n";
    if (failed > 0) {
        err << "paperdoll rig: " << failed << " of " << files.size() << " rig file" << (files.size() == 1 ? "" : "s")
            << " failed the check\n";
        return kExitBadFile;
    }
    return kExitOk;
}

std::optional<double> parseDouble(const std::string& text) {
    double value = 0.0;
    auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (status != std::errc{} || end != text.data() + text.size() || text.empty() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::string jsonString(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            case '\r': out += "\\r"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buffer[8];
                    std::snprintf(buffer, sizeof buffer, "\\u%04x", unsigned(c));
                    out += buffer;
                } else {
                    out += c;
                }
        }
    }
    return out + "\"";
}

/// A number for JSON: shortest round trip, and never NaN/inf (not valid JSON).
std::string jsonNumber(double value) {
    if (!std::isfinite(value)) return "null";
    char buffer[64];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, size_t(result.ptr - buffer));
}

void printDropJson(std::ostream& out, const std::string& file, const DropReport& r) {
    out << "{\"file\":" << jsonString(file) << ",\"rig\":" << jsonString(r.rig) << ",\"frames\":" << r.frames
        << ",\"dt\":" << jsonNumber(r.dt) << ",\"push_m_s\":" << jsonNumber(r.push) << ",\"bodies\":" << r.bodies << ",\"joints\":" << r.joints
        << ",\"mass_kg\":" << jsonNumber(r.mass) << ",\"max_stretch_m\":" << jsonNumber(r.maxStretch)
        << ",\"max_limit_violation_deg\":" << jsonNumber(r.maxLimitViolationDegrees) << ",\"rest_frame\":" << (r.restFrame < 0 ? "null" : std::to_string(r.restFrame))
        << ",\"rest_seconds\":" << (r.restFrame < 0 ? "null" : jsonNumber(r.seconds()))
        << ",\"fastest_body_at_end\":" << jsonString(r.fastestBody) << ",\"fastest_speed_at_end_m_s\":" << jsonNumber(r.fastestSpeed)
        << ",\"exploded\":" << (r.exploded ? "true" : "false")
        << ",\"explosion\":" << (r.exploded ? jsonString(r.explosion) : "null")
        << ",\"limits\":{\"max_stretch_m\":" << jsonNumber(kDropMaxStretch)
        << ",\"max_limit_violation_deg\":" << jsonNumber(kDropMaxLimitViolationDegrees)
        << ",\"rest_seconds\":" << jsonNumber(kDropMaxRestSeconds) << "}"
        << ",\"pass\":" << (r.passed() ? "true" : "false") << "}\n";
}

void printDropTable(std::ostream& out, const std::string& file, const DropReport& r) {
    auto verdict = [](bool ok) { return ok ? "ok" : "FAIL"; };
    char line[256];
    out << "rig '" << r.rig << "' (" << file << "): " << count(size_t(r.bodies), "body", "bodies") << ", "
        << count(size_t(r.joints), "joint", "joints") << ", "
        << brief(r.mass) << " kg; dropped 1 m onto flat ground pushed " << brief(r.push) << " m/s sideways, "
        << r.frames << " frames at 1/" << brief(1.0 / r.dt) << " s\n";
    std::snprintf(line, sizeof line, "  %-22s %-22s %-18s %s\n", "max joint stretch", (significant(r.maxStretch) + " m").c_str(),
                  "limit 0.001 m", verdict(r.stretchOk()));
    out << line;
    std::snprintf(line, sizeof line, "  %-22s %-22s %-18s %s\n", "max limit violation",
                  (fixed(r.maxLimitViolationDegrees, 3) + " deg").c_str(), "limit 1 deg", verdict(r.limitsOk()));
    out << line;
    std::string rest = r.restFrame < 0 ? std::string("never")
                                       : std::to_string(r.restFrame) + " frames (" + fixed(r.seconds(), 2) + " s)";
    std::snprintf(line, sizeof line, "  %-22s %-22s %-18s %s\n", "at rest after", rest.c_str(), "limit 5 s",
                  verdict(r.restOk()));
    out << line;
    if (r.restFrame < 0 && !r.exploded)
        out << "  (still moving at the last frame: '" << r.fastestBody << "' at " << significant(r.fastestSpeed) << " m/s)\n";
    std::snprintf(line, sizeof line, "  %-22s %-22s %-18s %s\n", "exploded", r.exploded ? "yes" : "no", "",
                  verdict(!r.exploded));
    out << line;
    if (r.exploded) out << "  (" << r.explosion << ")\n";
    out << (r.passed() ? "PASS" : "FAIL") << "\n";
}

int runDrop(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::vector<std::string> files;
    DropOptions options;
    bool json = false, optionsDone = false;
    std::set<std::string> given;  ///< the value options seen: a second would win without a word
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (optionsDone || arg.size() < 2 || arg[0] != '-') {
            files.push_back(arg);
            continue;
        }
        if (arg == "--") {
            optionsDone = true;
            continue;
        }
        const paper::TypedOption option = paper::splitOption(arg);
        if ((option.name == "--frames" || option.name == "--push") && !given.insert(option.name).second)
            return usageError(err, option.name + " is given twice");
        if (option.name == "--json" && !option.hasValue) {
            json = true;
        } else if (option.name == "--frames") {
            std::string value = option.value;
            if (!option.hasValue) {
                if (i + 1 >= args.size()) return usageError(err, "--frames needs a number of frames");
                value = args[++i];
            }
            long long frames = 0;
            auto [end, status] = std::from_chars(value.data(), value.data() + value.size(), frames);
            if (status != std::errc{} || end != value.data() + value.size() || value.empty())
                return usageError(err, "--frames must be a whole number, got '" + value + "'");
            if (frames < 1 || frames > kMaxFrames)
                return usageError(err, "--frames must be between 1 and " + std::to_string(kMaxFrames) + ", got " + value);
            options.frames = int(frames);
        } else if (option.name == "--push") {
            std::string value = option.value;
            if (!option.hasValue) {
                if (i + 1 >= args.size()) return usageError(err, "--push needs a speed in m/s");
                value = args[++i];
            }
            std::optional<double> push = parseDouble(value);
            if (!push || std::abs(*push) > kMaxPush)
                return usageError(err, "--push must be a speed between -" + brief(kMaxPush) + " and " + brief(kMaxPush) +
                                           " m/s, got '" + value + "'");
            options.push = *push;
        } else {
            return usageError(err, "unknown option '" + arg + "' for 'rig drop'");
        }
    }
    if (files.empty()) return usageError(err, "'rig drop' needs a FILE");
    if (files.size() > 1) return usageError(err, "'rig drop' takes one FILE, got " + std::to_string(files.size()));
    const std::string& file = files[0];
    const CheckedRig checked = checkRig(file);
    checked.print(err);
    // With --json a rig that cannot be dropped still gives a document, as `rig check` does.
    auto refused = [&](const std::vector<std::string>& errors) {
        if (json) {
            out << "{\"file\":" << jsonString(file) << ",\"errors\":[";
            for (size_t i = 0; i < errors.size(); ++i) out << (i == 0 ? "" : ",") << jsonString(errors[i]);
            out << "],\"pass\":false}\n";
        }
        return kExitBadFile;
    };
    if (!checked.ok()) return refused(checked.of(Severity::Error));
    const std::shared_ptr<const RigDefinition>& rig = checked.loaded.rig;
    if (rig->bodies.empty()) {
        const std::string why = file + ": rig '" + rig->name + "' has no bodies, nothing to drop (run `paperdoll rig generate` first)";
        err << "paperdoll rig: error: " << why << "\n";
        return refused({why});
    }
    DropReport report = dropRig(*rig, options);
    if (json) printDropJson(out, file, report);
    else printDropTable(out, file, report);
    return report.passed() ? kExitOk : kExitDropFailed;
}

/// Widens each generated joint's limits, on a side the rig's clips go past, to the furthest
/// angle they reach plus kClipLimitMargin, as the Spine import does: a clip keying an arm
/// past the guessed ±140° was clamped in play. A clip that does not load is left to the
/// rig's own check. Returns a line per joint widened, for the summary.
std::vector<std::string> widenLimitsForClips(RigDefinition& rig, const std::string& rigPath) {
    constexpr double kSampleSeconds = 1.0 / 120.0;
    const double tolerance = kClipLimitTolerance * kPi / 180.0;
    std::vector<double> low(rig.joints.size(), 0.0), high(rig.joints.size(), 0.0);
    std::vector<std::string> lowClip(rig.joints.size()), highClip(rig.joints.size());
    LocalPose pose;
    for (const RigClip& entry : rig.clips) {
        const ClipLoadResult loaded = loadClipFile(paper::pathBeside(fs::path(rigPath).parent_path(), entry.file), rig);
        if (!loaded.clip) continue;
        for (double t = 0.0; t <= loaded.clip->duration + 0.5 * kSampleSeconds; t += kSampleSeconds) {
            sampleClip(*loaded.clip, rig, std::min(t, loaded.clip->duration), pose);
            for (size_t j = 0; j < rig.joints.size(); ++j) {
                const int child = rig.joints[j].child;
                const double angle = wrapAngle(pose.angles[size_t(child)] - rig.bones[size_t(child)].localAngle);
                if (angle < low[j]) low[j] = angle, lowClip[j] = entry.name;
                if (angle > high[j]) high[j] = angle, highClip[j] = entry.name;
            }
        }
    }
    std::vector<std::string> widened;
    const double margin = kClipLimitMargin * kPi / 180.0;
    for (size_t j = 0; j < rig.joints.size(); ++j) {
        RigJoint& joint = rig.joints[j];
        if (!joint.limited) continue;
        const bool pastLower = low[j] < joint.lower - tolerance, pastUpper = high[j] > joint.upper + tolerance;
        if (pastLower) joint.lower = writtenLimit(std::max(-180.0, (low[j] - margin) * 180.0 / kPi));
        if (pastUpper) joint.upper = writtenLimit(std::min(180.0, (high[j] + margin) * 180.0 / kPi));
        if (pastLower || pastUpper)
            widened.push_back(joint.fileName + " widened to hold clip '" + (pastLower ? lowClip[j] : highClip[j]) + "'" +
                              (pastLower && pastUpper && lowClip[j] != highClip[j] ? " and '" + highClip[j] + "'" : ""));
    }
    return widened;
}

int runGenerate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::vector<std::string> rest;
    bool force = false, optionsDone = false;
    for (const std::string& arg : args) {
        optionsDone = optionsDone || arg == "--";
        if (!optionsDone && arg == "--force") force = true;
        else rest.push_back(arg);
    }
    std::string bad;
    std::vector<std::string> files = positionals(rest, 1, bad);
    if (!bad.empty()) return usageError(err, "unknown option '" + bad + "' for 'rig generate'");
    if (files.size() != 2)
        return usageError(err, "'rig generate' needs IN and OUT, got " + std::to_string(files.size()) + " argument" +
                                   (files.size() == 1 ? "" : "s"));
    const std::string& in = files[0];
    const std::string& outPath = files[1];
    if (paper::sameFile(in, outPath))
        return usageError(err, "OUT '" + outPath + "' is the input file; generate never overwrites IN");
    std::error_code status;
    if (!force && fs::exists(outPath, status) && !fs::is_directory(outPath, status))
        return usageError(err, "OUT '" + outPath + "' already exists; pass --force to overwrite it");
    // Said before reading IN, as the player says a missing folder for its output.
    if (fs::path(outPath).has_parent_path() && !fs::is_directory(fs::path(outPath).parent_path(), status))
        return usageError(err, "OUT '" + outPath + "': " + paper::cannotWrite(outPath));
    // A device or a pipe is written into as it is (a directory is said when saving).
    const bool intoAFile = !fs::exists(outPath, status) || fs::is_regular_file(outPath, status);
    if (const std::string why = notRigName(outPath); intoAFile && !why.empty()) return usageError(err, why);

    RigLoadResult loaded = loadRigFile(in);
    // Only errors: a bones-only rig always warns that it has no bodies, which is the point.
    if (!loaded.rig) {
        printDiagnostics(err, loaded.diagnostics);
        return kExitBadFile;
    }
    GeneratedRig generated = generateBodiesAndJoints(*loaded.rig);
    const std::vector<std::string> widened = widenLimitsForClips(generated.rig, in);
    RigSaveResult saved = saveRig(generated.rig, outPath, force);
    printDiagnostics(err, saved.diagnostics);
    if (!saved.ok) return kExitBadFile;

    // Read back what was written: the summary is of the file, not of memory (of the text
    // written, into a device or a pipe, which cannot be read back).
    RigLoadResult written = fs::is_regular_file(outPath, status) ? loadRigFile(outPath) : loadRigFromText(saved.text, outPath);
    printDiagnostics(err, written.diagnostics);
    if (!written.rig) return kExitBadFile;
    const RigDefinition& rig = *written.rig;
    if (generated.replacedBodies > 0 || generated.replacedJoints > 0)
        out << "replaced the " << count(size_t(generated.replacedBodies), "body", "bodies") << " and "
            << count(size_t(generated.replacedJoints), "joint", "joints") << " of " << in << "\n";
    out << "wrote " << summaryLine(outPath, rig) << " (generated from " << in << ")\n";
    // Names can be any length: padded columns, never a fixed buffer that would cut them.
    const std::vector<BoneKind> kinds = classifyBones(rig);
    for (const RigBody& body : rig.bodies) {
        const RigBone& bone = rig.bones[size_t(body.bone)];
        out << "  " << padded(bone.fileName, 16) << ' ' << padded(boneKindName(kinds[size_t(body.bone)]), 10) << ' '
            << padded(shapeName(body.shape), 8) << " radius " << padded(fixed(body.radius, 3) + " m", 9) << ' '
            << brief(body.mass) << " kg\n";
    }
    for (const RigJoint& joint : rig.joints) {
        std::string limits = "free";
        if (joint.limited) {
            limits = "[";
            limits += brief(joint.lower * 180.0 / kPi);
            limits += ", ";
            limits += brief(joint.upper * 180.0 / kPi);
            limits += "] deg";
        }
        out << "  " << padded(joint.fileName, 16) << ' ' << rig.bones[size_t(joint.parent)].fileName << " -> "
            << rig.bones[size_t(joint.child)].fileName << ' ' << limits << "\n";
    }
    for (const std::string& line : widened) out << "  " << line << "\n";
    return kExitOk;
}

int runImport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    SpineImportOptions options;
    std::vector<std::string> files;
    bool optionsDone = false, inLoop = false;
    std::set<std::string> given;  ///< the value options seen: a second would win without a word
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const bool isOption = !optionsDone && arg.size() > 1 && arg[0] == '-';
        if (!isOption) {
            if (inLoop) options.loops->push_back(arg);
            else files.push_back(arg);
            continue;
        }
        inLoop = false;
        if (arg == "--") {
            optionsDone = true;
            continue;
        }
        const paper::TypedOption option = paper::splitOption(arg);
        // An option's value: after '=' or the next argument.
        auto value = [&](std::string& into) {
            if (option.hasValue) {
                into = option.value;
                return true;
            }
            if (i + 1 >= args.size()) return false;
            into = args[++i];
            return true;
        };
        if ((option.name == "--atlas" || option.name == "--skin" || option.name == "--scale") &&
            !given.insert(option.name).second)
            return usageError(err, option.name + " is given twice");
        if (option.name == "--force" && !option.hasValue) {
            options.force = true;
        } else if (option.name == "--atlas") {
            if (!value(options.atlasPath)) return usageError(err, "--atlas needs a FILE");
        } else if (option.name == "--skin") {
            if (!value(options.skin) || options.skin.empty()) return usageError(err, "--skin needs a NAME");
        } else if (option.name == "--scale") {
            std::string text;
            if (!value(text)) return usageError(err, "--scale needs a number of units per metre");
            std::optional<double> scale = parseDouble(text);
            if (!scale || *scale < kMinScale || *scale > kMaxScale)
                return usageError(err, "--scale must be a number of units per metre from " + std::string(kScaleRange) + ", got '" +
                                           text + "'");
            options.scale = *scale;
        } else if (option.name == "--loop") {
            if (option.hasValue && option.value.empty()) return usageError(err, "--loop needs an animation NAME");
            if (!options.loops) options.loops.emplace();
            if (option.hasValue) options.loops->push_back(option.value);
            inLoop = true;
        } else {
            return usageError(err, "unknown option '" + arg + "' for 'rig import'");
        }
    }
    // "--loop" and no name after it would loop nothing, not what was meant.
    if (options.loops && options.loops->empty()) return usageError(err, "--loop needs an animation NAME (or several)");
    if (files.size() != 2) {
        // What was taken as what: --loop takes every name after it, OUT among them when it
        // comes later, and "got 1 argument" left that to be guessed.
        auto listed = [](const std::vector<std::string>& names) {
            std::string text;
            for (const std::string& name : names) text += (text.empty() ? "" : ", ") + paper::inQuotes(name);
            return text;
        };
        std::string message = "'rig import' needs SKELETON.json and OUT.rig.xml, got " +
                              (files.empty() ? std::string("no file") : listed(files));
        if (files.size() < 2 && options.loops && !options.loops->empty())
            message += "; --loop took " + listed(*options.loops) +
                       " as animation names (it takes every name after it): put --loop after OUT, or end its names with --";
        return usageError(err, message);
    }
    options.skeletonPath = files[0];
    options.outPath = files[1];
    if (paper::sameFile(options.skeletonPath, options.outPath))
        return usageError(err, "OUT '" + options.outPath + "' is the skeleton file");
    if (const std::string why = notRigName(options.outPath); !why.empty()) return usageError(err, why);
    return runSpineImport(options, out, err);
}

}  // namespace

int runRigCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::vector<std::string> words = args;
    if (!words.empty() && words[0] == "rig") words.erase(words.begin());
    if (words.empty()) return usageError(err, "missing command");
    const std::string& command = words[0];
    if (command == "help" || command == "--help" || command == "-h") {
        out << fullUsage();
        return kExitOk;
    }
    // `rig COMMAND --help` (or -h) anywhere before a "--": that command's usage alone.
    if (const CommandUsage* usage = commandUsage(command))
        for (size_t i = 1; i < words.size() && words[i] != "--"; ++i)
            if (words[i] == "--help" || words[i] == "-h") {
                out << commandHelp(*usage);
                return kExitOk;
            }
    if (command == "check") return runCheck(words, out, err);
    if (command == "drop") return runDrop(words, out, err);
    if (command == "generate") return runGenerate(words, out, err);
    if (command == "import") return runImport(words, out, err);
    return usageError(err, "unknown command '" + command + "'" + paper::didYouMean(command, {"check", "drop", "generate", "import"}));
}

}  // namespace ragdoll
