#include "spine/spine_import.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>

#include "paper/png_image.h"
#include "paper/file_checks.h"
#include "paper/spelling.h"
#include "paper/xml_reader.h"
#include "rig/rig_loader.h"
#include "rig/rig_saver.h"
#include "spine/spine_json.h"
#include "spine/spine_rig_build.h"

namespace ragdoll {

namespace {

namespace fs = std::filesystem;

constexpr int kExitOk = 0, kExitBadFile = 1, kExitUsage = 2;

/// The import's diagnostics, held and then printed as a compiler lists them: by file (in the
/// order first met: the skeleton, the atlas, OUT) and by line within each, whatever order the
/// checks found them in (the baked clips' warnings came after the parts', lines back).
struct Reporter {
    explicit Reporter(std::ostream& out) : err(out) {}
    std::ostream& err;
    std::vector<Diagnostic> held;
    int errors = 0;
    void print(const std::vector<Diagnostic>& diagnostics) {
        for (const Diagnostic& d : diagnostics) {
            held.push_back(d);
            errors += d.severity == Severity::Error;
        }
    }
    void error(const std::string& file, int line, const std::string& message) {
        print({{Severity::Error, file, line, message}});
    }
    /// Prints what is held, in order, and returns status.
    int done(int status) {
        std::vector<std::string> files;
        for (const Diagnostic& d : held)
            if (std::find(files.begin(), files.end(), d.file) == files.end()) files.push_back(d.file);
        auto rank = [&](const Diagnostic& d) { return std::find(files.begin(), files.end(), d.file) - files.begin(); };
        std::stable_sort(held.begin(), held.end(), [&](const Diagnostic& a, const Diagnostic& b) {
            return rank(a) != rank(b) ? rank(a) < rank(b) : a.line < b.line;
        });
        for (const Diagnostic& d : held) err << d.format() << "\n";
        held.clear();
        return status;
    }
    /// A bad argument (exit 2), said after what is held.
    int refuse(const std::string& message) {
        done(kExitUsage);
        err << "paperdoll rig: error: " << message << "\n";
        return kExitUsage;
    }
};

/// With no --atlas and no SKELETON.atlas, an atlas beside the skeleton under a longer name
/// (Spine can export NAME.atlas.txt), for the error to point to; empty when there is none.
std::string atlasBeside(const fs::path& json) {
    const fs::path folder = json.has_parent_path() ? json.parent_path() : fs::path(".");
    const std::string prefix = json.stem().string() + ".atlas";
    std::vector<std::string> found;
    std::error_code status;
    for (fs::directory_iterator it(folder, status), end; !status && it != end; it.increment(status)) {
        const std::string name = it->path().filename().string();
        std::error_code ignored;
        if (name.size() > prefix.size() && name.starts_with(prefix) && it->is_regular_file(ignored)) found.push_back(name);
    }
    std::sort(found.begin(), found.end());
    return found.empty() ? std::string() : found.front();
}

/// The diagnostics of the rig the import makes, but for a page image's missing alpha: that is
/// said at the atlas page, the art to mend (the rig's <image> is its copy).
std::vector<Diagnostic> notSaidAtThePage(const std::vector<Diagnostic>& diagnostics) {
    std::vector<Diagnostic> kept;
    for (const Diagnostic& d : diagnostics)
        if (d.severity == Severity::Error || !d.message.ends_with(kNoAlphaWarning)) kept.push_back(d);
    return kept;
}

/// "1 mesh", "2 meshes".
std::string counted(size_t count, const char* one, const char* many) { return std::to_string(count) + " " + (count == 1 ? one : many); }

/// A page image's bytes, to copy or compare (the loaders' file reader; why it failed is not needed here).
std::optional<std::string> readPageBytes(const fs::path& path) {
    std::vector<Diagnostic> ignored;
    paper::Reporter report(path.string(), ignored);
    return paper::readUserFile(path.string(), "page image", report);
}

/// A hidden name beside a file: ".NAME" + suffix in the same folder (so a rename between
/// the two stays on one filesystem and is atomic).
fs::path besideName(const fs::path& path, const char* suffix) {
    // Appended piece by piece: g++ 12 warns falsely (-Wstringop-overflow) about "." + name.
    std::string name = ".";
    name += path.filename().string();
    name += suffix;
    return path.parent_path() / name;
}

/// Whether anything (a file, a folder, a dangling link) is at path.
bool somethingAt(const fs::path& path) {
    std::error_code status;
    return fs::symlink_status(path, status).type() != fs::file_type::not_found && !status;
}

/// One file the import writes, and how far its writing got (for undoing it).
struct PlannedWrite {
    fs::path target, temp, backup;
    std::string bytes;
    bool tempWritten = false;  ///< temp holds bytes
    bool backedUp = false;     ///< the file that was at target is now at backup
    bool placed = false;       ///< temp has been renamed to target
};

PlannedWrite planWrite(const fs::path& target, std::string bytes) {
    return {target, besideName(target, ".import-tmp"), besideName(target, ".import-backup"), std::move(bytes)};
}

/// Why a file could not be written, in words: the system's (errno) for most causes, the
/// folder named when it is the folder that is missing.
std::string writeFailure(const fs::path& target, int error) {
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::error_code status;
    if (error == ENOENT && !fs::is_directory(folder, status))
        return "the folder '" + folder.string() + "' does not exist";
    return std::strerror(error);
}

/// The temporary file, written and synced (so the rename over an old file never leaves an
/// empty one after a crash). Through POSIX calls, to say why it failed: a full disk, a
/// read-only or missing folder.
bool writeTemp(PlannedWrite& w, std::string& error) {
    int failure = 0;
    const int fd = ::open(w.temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        failure = errno;
    } else {
        w.tempWritten = true;  // created: removed by the undo if anything fails
        if (!writeAll(fd, w.bytes) || ::fsync(fd) != 0) failure = errno;
        if (::close(fd) != 0 && failure == 0) failure = errno;
    }
    if (failure == 0) return true;
    error = "cannot write " + w.target.string() + " (through its temporary file " + w.temp.filename().string() +
            "): " + writeFailure(w.target, failure);
    return false;
}

/// Puts back what was at each target before the import: a replaced file is renamed back
/// over the new one, a new file is removed, temporaries are removed. Returns "" when all
/// is back, else where the old files that could not be put back are now (to be said).
std::string undoWrites(std::vector<PlannedWrite>& writes) {
    std::string stranded;
    std::error_code ignored;
    for (auto w = writes.rbegin(); w != writes.rend(); ++w) {
        if (w->backedUp) {
            std::error_code status;
            fs::rename(w->backup, w->target, status);
            if (status) stranded += "; the old " + w->target.string() + " could not be put back: it is " + w->backup.string();
        } else if (w->placed) {
            fs::remove(w->target, ignored);
        }
        if (w->tempWritten && !w->placed) fs::remove(w->temp, ignored);
    }
    return stranded;
}

/// Writes every file or none: all temporaries first (a failure there touches no target),
/// then each existing target is moved aside to its backup and its temporary renamed into
/// place; a failure there moves every backup back. The backups are removed at the end.
/// So a failed import (a full disk, a read-only folder) leaves the old files as they were.
bool writeAllOrNothing(std::vector<PlannedWrite>& writes, std::string& error) {
    // On a failure: everything undone, and the message says so (or what could not be undone).
    auto fail = [&](const std::string& why) {
        const std::string stranded = undoWrites(writes);
        error = why + (stranded.empty() ? " (no file was changed)" : stranded);
        return false;
    };
    for (PlannedWrite& w : writes) {
        std::string why;
        if (!writeTemp(w, why)) return fail(why);
    }
    for (PlannedWrite& w : writes) {
        std::error_code status;
        if (somethingAt(w.target)) {
            fs::rename(w.target, w.backup, status);
            if (status)
                return fail("cannot replace " + w.target.string() + ": moving it aside to " + w.backup.string() + " failed: " +
                            status.message());
            w.backedUp = true;
        }
        fs::rename(w.temp, w.target, status);
        if (status) return fail("cannot write " + w.target.string() + ": renaming " + w.temp.string() + " to it failed: " + status.message());
        w.placed = true;
    }
    std::error_code ignored;
    for (const PlannedWrite& w : writes)
        if (w.backedUp) fs::remove(w.backup, ignored);
    return true;
}

}  // namespace

std::vector<Diagnostic> checkAtlasPages(const SpineAtlas& atlas, const std::vector<std::array<int, 2>>& pageSizes,
                                        const std::string& atlasPath) {
    std::vector<Diagnostic> found;
    auto error = [&](int line, const std::string& message) { found.push_back({Severity::Error, atlasPath, line, message}); };
    auto warning = [&](int line, const std::string& message) { found.push_back({Severity::Warning, atlasPath, line, message}); };
    for (size_t p = 0; p < atlas.pages.size(); ++p) {
        const AtlasPage& page = atlas.pages[p];
        const auto [width, height] = pageSizes[p];
        if (width <= 0) continue;  // not read: the reader said why
        if (page.width > 0 && (page.width != width || page.height != height)) {
            const std::array<double, 2> scale = pngScale(page, pageSizes[p]);
            warning(page.line, "page '" + page.file + "' says " + std::to_string(page.width) + " x " + std::to_string(page.height) +
                                   " but the PNG is " + std::to_string(width) + " x " + std::to_string(height) +
                                   ": its regions are scaled by " + shortNumber(scale[0], 4) + " x " + shortNumber(scale[1], 4) +
                                   " to the PNG, as Spine's runtimes do");
        }
        if (page.pma) warning(page.line, "page '" + page.file + "' is premultiplied (pma); drawn as straight alpha");
        for (size_t q = 0; q < p; ++q)
            if (fs::path(atlas.pages[q].file).filename() == fs::path(page.file).filename())
                error(page.line, "two pages share the file name '" + fs::path(page.file).filename().string() +
                                     "' (the pages are copied beside OUT by name)");
    }
    for (const AtlasRegion& region : atlas.regions) {
        const auto [width, height] = pageSizes[size_t(region.page)];
        const PixelRect r = pngRect(region, atlas.pages[size_t(region.page)], pageSizes[size_t(region.page)]);
        if (width > 0 && (r.x + r.width > width || r.y + r.height > height))
            error(region.line, "region '" + region.name + "' reaches outside its page image (" + std::to_string(width) + " x " +
                                   std::to_string(height) + ")");
    }
    return found;
}

int runSpineImport(const SpineImportOptions& options, std::ostream& out, std::ostream& err) {
    Reporter report(err);
    std::error_code status;
    const fs::path outPath(options.outPath);
    // OUT's folder is looked at before the import: the whole import ran, then its first
    // write failed naming a temporary file.
    if (outPath.has_parent_path() && !fs::is_directory(outPath.parent_path(), status))
        return report.refuse("OUT '" + options.outPath + "': " + paper::cannotWrite(options.outPath));
    if (!options.force && fs::exists(outPath, status))
        return report.refuse("OUT '" + options.outPath + "' already exists; pass --force to overwrite it");

    // Read: the skeleton, the atlas, the page images.
    SpineLoadResult loaded = loadSpineJsonFile(options.skeletonPath);
    report.print(loaded.diagnostics);
    if (!loaded.ok) return report.done(kExitBadFile);
    const SpineSkeleton& skeleton = loaded.skeleton;
    const std::string& json = options.skeletonPath;
    // --loop replaces the default choice of looping clips: a misspelt name would silently
    // stop idle and walk looping.
    if (options.loops)
        for (const std::string& name : *options.loops) {
            bool found = false;
            std::string names;
            for (const SpineAnimation& animation : skeleton.animations) {
                found = found || animation.name == name;
                names += (names.empty() ? "'" : ", '") + animation.name + "'";
            }
            if (!found)
                return report.refuse("--loop " + paper::inQuotes(name) + ": " + json + " has no animation by that name (" +
                                     (names.empty() ? std::string("it has none") : "it has " + names) + ")");
        }
    // A skin the file lacks is a bad argument, as an animation for --loop is.
    if (!options.skin.empty() && !skeleton.findSkin(options.skin)) {
        std::vector<std::string> skins;
        std::string names;
        for (const SpineSkin& skin : skeleton.skins) {
            skins.push_back(skin.name);
            names += (names.empty() ? "'" : ", '") + skin.name + "'";
        }
        return report.refuse("--skin " + paper::inQuotes(options.skin) + ": " + json + " has no skin by that name (" +
                             (names.empty() ? std::string("it has none") : "it has " + names) + ")" +
                             paper::didYouMean(options.skin, skins));
    }
    if (options.loops) {
        // --loop jump alone stopped idle and walk looping, unsaid: a walk then played once.
        std::string stopped;
        int count = 0;
        for (const SpineAnimation& animation : skeleton.animations)
            if (loopsByDefault(animation.name) &&
                std::find(options.loops->begin(), options.loops->end(), animation.name) == options.loops->end())
                stopped += (count++ ? ", " : "") + paper::inQuotes(animation.name);
        if (count > 0)
            report.print({{Severity::Warning, json, 0,
                           "--loop names every clip that loops: " + stopped + (count == 1 ? " loops" : " loop") +
                               " by default and will not (name " + (count == 1 ? "it" : "them") +
                               " to --loop too to keep " + (count == 1 ? "it" : "them") + " looping)"}});
    }
    const std::string atlasPath =
        options.atlasPath.empty() ? fs::path(json).replace_extension(".atlas").string() : options.atlasPath;
    AtlasLoadResult atlasLoaded = loadAtlasFile(atlasPath);
    if (!atlasLoaded.ok && options.atlasPath.empty() && !somethingAt(atlasPath) && !atlasLoaded.diagnostics.empty()) {
        const std::string beside = atlasBeside(json);
        if (!beside.empty())
            atlasLoaded.diagnostics.front().message +=
                "; " + beside + " is beside the skeleton: pass it as --atlas FILE (--atlas " +
                (fs::path(atlasPath).parent_path() / beside).string() + ")";
    }
    report.print(atlasLoaded.diagnostics);
    if (!atlasLoaded.ok) return report.done(kExitBadFile);
    const SpineAtlas& atlas = atlasLoaded.atlas;
    const fs::path atlasDir = fs::path(atlasPath).parent_path();
    std::vector<paper::PngImage> pageImages(atlas.pages.size());
    std::vector<std::array<int, 2>> pageSizes(atlas.pages.size(), {0, 0});
    for (size_t p = 0; p < atlas.pages.size(); ++p) {
        const AtlasPage& page = atlas.pages[p];
        std::string why;
        if (!paper::loadPng((atlasDir / page.file).string(), pageImages[p], why)) {
            report.error(atlasPath, page.line, "page '" + page.file + "': cannot read " + (atlasDir / page.file).string() + ": " + why);
            continue;
        }
        pageSizes[p] = {pageImages[p].width, pageImages[p].height};
        if (!pageImages[p].hasAlpha)
            report.print({{Severity::Warning, atlasPath, page.line, "page '" + page.file + "' " + kNoAlphaWarning}});
    }
    report.print(checkAtlasPages(atlas, pageSizes, atlasPath));
    // A page unreadable or named twice, a region off its page: nothing is built or written.
    if (report.errors > 0) return report.done(kExitBadFile);
    SpineBuildInput input;
    input.skeleton = &skeleton;
    input.atlas = &atlas;
    input.pageSizes = pageSizes;
    input.jsonPath = json;
    input.atlasPath = atlasPath;
    input.atlasDir = atlasDir.string();
    input.outPath = options.outPath;
    input.options = options;
    SpineBuild build = buildSpineRig(input);
    report.print(notSaidAtThePage(build.diagnostics));
    if (!build.ok) return report.done(kExitBadFile);
    const std::vector<int>& imageOfPage = build.imageOfPage;

    // Write: page images (unless the same file is already there), clips, the rig last.
    const fs::path outDir = outPath.has_parent_path() ? outPath.parent_path() : fs::path(".");
    std::vector<PlannedWrite> writes;
    // What the import leaves beside OUT, written now or already there: OUT must be none of
    // them (named like the page's copy, the rig went over the art the rig draws from).
    std::vector<std::pair<fs::path, std::string>> besideOut;
    for (size_t p = 0; p < atlas.pages.size(); ++p) {
        if (imageOfPage[p] < 0) continue;
        const fs::path from = atlasDir / atlas.pages[p].file, to = outDir / fs::path(atlas.pages[p].file).filename();
        besideOut.push_back({to, "the atlas page's copy"});
        std::optional<std::string> bytes = readPageBytes(from);
        if (!bytes) {
            report.error(atlasPath, atlas.pages[p].line, "cannot read " + from.string());
            return report.done(kExitBadFile);
        }
        if (fs::exists(to, status) && readPageBytes(to) == bytes) continue;
        if (fs::exists(to, status) && !options.force)
            return report.refuse("'" + to.string() + "' exists and is not the atlas page; pass --force to overwrite it");
        writes.push_back(planWrite(to, std::move(*bytes)));
    }
    for (const BakedClip& clip : build.clips) {
        const fs::path to = outDir / clip.file;
        besideOut.push_back({to, "a clip"});
        if (fs::exists(to, status) && !options.force)
            return report.refuse("'" + to.string() + "' already exists; pass --force to overwrite it");
        writes.push_back(planWrite(to, clip.text));
    }
    writes.push_back(planWrite(outPath, build.rigText));
    // --force replaces what the import wrote before, never what it reads: an OUT spelt like
    // the atlas or a page would have put the rig over the art, and its clips beside it.
    std::vector<std::pair<std::string, std::string>> inputs = {{json, "the skeleton"}, {atlasPath, "the atlas"}};
    for (const AtlasPage& page : atlas.pages) inputs.push_back({(atlasDir / page.file).string(), "the atlas page"});
    for (const PlannedWrite& w : writes)
        for (const auto& [input, what] : inputs)
            if (paper::sameFile(w.target.string(), input))
                return report.refuse("the import would write " + w.target.string() + " over " + what + " '" + input +
                                     "' it reads; choose another OUT");
    for (const auto& [file, what] : besideOut)
        if (paper::sameFile(outPath.string(), file.string()))
            return report.refuse("OUT '" + options.outPath + "' is where the import writes " + what +
                                 " beside the rig; choose another OUT (a name ending in .rig.xml)");
    // Into a device or a pipe (/dev/null) a file renamed over it would replace it, and the
    // clips and page beside it would land in its folder: the import writes real files.
    for (const PlannedWrite& w : writes)
        if (fs::exists(w.target, status) && !fs::is_regular_file(w.target, status) && !fs::is_directory(w.target, status))
            return report.refuse("'" + w.target.string() +
                                 "' is not a regular file (a device or a pipe); the import writes the rig, its clips and its "
                                 "art as files: choose another OUT");
    // A folder where a file goes would be moved aside and then left behind: refused first.
    for (const PlannedWrite& w : writes)
        if (fs::is_directory(w.target, status)) {
            report.error(options.outPath, 0, "not imported: " + w.target.string() + " is a directory");
            return report.done(kExitBadFile);
        }
    std::string why;
    if (!writeAllOrNothing(writes, why)) {
        report.error(options.outPath, 0, "not imported: " + why);
        return report.done(kExitBadFile);
    }

    // Report what was written, read back from the file.
    RigLoadResult final = loadRigFile(options.outPath);
    report.print(notSaidAtThePage(final.diagnostics));
    if (!final.rig) return report.done(kExitBadFile);
    report.done(kExitOk);
    const RigDefinition& result = *final.rig;
    out << "imported " << json << " (Spine " << skeleton.version << ", skin '"
        << (options.skin.empty() ? std::string("default") : options.skin) << "') into " << options.outPath << "\n";
    out << "  scale: " << shortNumber(build.scale, 4) << " units per metre"
        << (options.scale ? std::string(" (--scale)")
                          : " (the setup pose is " + shortNumber(build.height, 2) + " units tall, taken as " +
                                shortNumber(kImportHeightMetres, 2) + " m)")
        << "\n";
    std::string helpers;
    for (const std::string& name : build.helpers) helpers += (helpers.empty() ? "" : ", ") + name;
    out << "  " << counted(skeleton.bones.size(), "Spine bone", "Spine bones") << " -> "
        << counted(result.bones.size(), "rig bone with a body", "rig bones with bodies")
        << (helpers.empty() ? std::string() : "; without a part, riding on their nearest body: " + helpers) << "\n";
    out << "  " << counted(result.sprites.size(), "sprite", "sprites") << " and " << counted(result.meshes.size(), "mesh", "meshes")
        << " on " << counted(result.images.size(), "image", "images") << ", " << shortNumber(result.totalMass(), 2) << " kg, "
        << counted(result.joints.size(), "joint", "joints") << "\n";
    out << "guesses to tune (bodies and joint limits; in the editor, or in the rig file):\n";
    for (const std::string& line : build.table) out << line << "\n";
    out << "clips:\n";
    for (const BakedClip& clip : build.clips) {
        std::string roles;
        for (const std::string& role : clip.roles) roles += (roles.empty() ? "" : ", ") + role;
        out << "  " << clip.animation << " -> " << clip.file << " (" << (clip.loop ? "loop" : "once") << ", " << clip.keys
            << " keys at " << shortNumber(clip.rate, 0) << " Hz, within " << shortNumber(clip.maxError, 3) << " deg; as '" << roles << "')\n";
    }
    return kExitOk;
}

}  // namespace ragdoll
