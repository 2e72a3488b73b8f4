#include "spine/spine_import.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>

#include "paper/png_image.h"
#include "paper/xml_reader.h"
#include "rig/rig_loader.h"
#include "spine/spine_json.h"
#include "spine/spine_rig_build.h"

namespace ragdoll {

namespace {

namespace fs = std::filesystem;

constexpr int kExitOk = 0, kExitBadFile = 1, kExitUsage = 2;

struct Reporter {
    std::ostream& err;
    int errors = 0;
    void print(const std::vector<Diagnostic>& diagnostics) {
        for (const Diagnostic& d : diagnostics) {
            err << d.format() << "\n";
            errors += d.severity == Severity::Error;
        }
    }
    void error(const std::string& file, int line, const std::string& message) {
        print({{Severity::Error, file, line, message}});
    }
};

/// A page image's bytes, to copy or compare (the loaders' file reader; why it failed is not needed here).
std::optional<std::string> readPageBytes(const fs::path& path) {
    std::vector<Diagnostic> ignored;
    paper::Reporter report(path.string(), ignored);
    return paper::readUserFile(path.string(), "page image", report);
}

/// Writes through a temporary file beside the target, renamed over it.
bool writeFile(const fs::path& path, const std::string& bytes, std::string& error) {
    // Appended piece by piece: g++ 12 warns falsely (-Wstringop-overflow) about "." + name.
    std::string tempName = ".";
    tempName += path.filename().string();
    tempName += ".import-tmp";
    const fs::path temp = path.parent_path() / tempName;
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out << bytes;
        out.flush();
        if (!out) {
            error = "cannot write " + temp.string();
            std::error_code ignored;
            fs::remove(temp, ignored);
            return false;
        }
    }
    std::error_code status;
    fs::rename(temp, path, status);
    if (status) {
        error = "cannot rename " + temp.string() + " to " + path.string() + ": " + status.message();
        fs::remove(temp, status);
        return false;
    }
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
        if (page.width > 0 && (page.width != width || page.height != height))
            warning(page.line, "page '" + page.file + "' says " + std::to_string(page.width) + " x " + std::to_string(page.height) +
                                   " but the PNG is " + std::to_string(width) + " x " + std::to_string(height) +
                                   " (the PNG's size is used)");
        if (page.pma) warning(page.line, "page '" + page.file + "' is premultiplied (pma); drawn as straight alpha");
        for (size_t q = 0; q < p; ++q)
            if (fs::path(atlas.pages[q].file).filename() == fs::path(page.file).filename())
                error(page.line, "two pages share the file name '" + fs::path(page.file).filename().string() +
                                     "' (the pages are copied beside OUT by name)");
    }
    for (const AtlasRegion& region : atlas.regions) {
        const PixelRect r = region.pageRect();
        const auto [width, height] = pageSizes[size_t(region.page)];
        if (width > 0 && (r.x + r.width > width || r.y + r.height > height))
            error(region.line, "region '" + region.name + "' reaches outside its page image (" + std::to_string(width) + " x " +
                                   std::to_string(height) + ")");
    }
    return found;
}

int runSpineImport(const SpineImportOptions& options, std::ostream& out, std::ostream& err) {
    Reporter report{err};
    std::error_code status;
    const fs::path outPath(options.outPath);
    if (!options.force && fs::exists(outPath, status)) {
        err << "paperdoll rig: error: OUT '" << options.outPath << "' already exists; pass --force to overwrite it\n";
        return kExitUsage;
    }

    // Read: the skeleton, the atlas, the page images.
    SpineLoadResult loaded = loadSpineJsonFile(options.skeletonPath);
    report.print(loaded.diagnostics);
    if (!loaded.ok) return kExitBadFile;
    const SpineSkeleton& skeleton = loaded.skeleton;
    const std::string& json = options.skeletonPath;
    const std::string atlasPath =
        options.atlasPath.empty() ? fs::path(json).replace_extension(".atlas").string() : options.atlasPath;
    AtlasLoadResult atlasLoaded = loadAtlasFile(atlasPath);
    report.print(atlasLoaded.diagnostics);
    if (!atlasLoaded.ok) return kExitBadFile;
    const SpineAtlas& atlas = atlasLoaded.atlas;
    const fs::path atlasDir = fs::path(atlasPath).parent_path();
    std::vector<paper::PngImage> pageImages(atlas.pages.size());
    std::vector<std::array<int, 2>> pageSizes(atlas.pages.size(), {0, 0});
    for (size_t p = 0; p < atlas.pages.size(); ++p) {
        const AtlasPage& page = atlas.pages[p];
        std::string why;
        if (!paper::loadPng((atlasDir / page.file).string(), pageImages[p], why))
            report.error(atlasPath, page.line, "page '" + page.file + "': cannot read " + (atlasDir / page.file).string() + ": " + why);
        else
            pageSizes[p] = {pageImages[p].width, pageImages[p].height};
    }
    report.print(checkAtlasPages(atlas, pageSizes, atlasPath));
    // A page unreadable or named twice, a region off its page: nothing is built or written.
    if (report.errors > 0) return kExitBadFile;
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
    report.print(build.diagnostics);
    if (!build.ok) return kExitBadFile;
    const std::vector<int>& imageOfPage = build.imageOfPage;

    // Write: page images (unless the same file is already there), clips, the rig last.
    const fs::path outDir = outPath.has_parent_path() ? outPath.parent_path() : fs::path(".");
    std::vector<std::pair<fs::path, std::string>> writes;
    for (size_t p = 0; p < atlas.pages.size(); ++p) {
        if (imageOfPage[p] < 0) continue;
        const fs::path from = atlasDir / atlas.pages[p].file, to = outDir / fs::path(atlas.pages[p].file).filename();
        std::optional<std::string> bytes = readPageBytes(from);
        if (!bytes) {
            report.error(atlasPath, atlas.pages[p].line, "cannot read " + from.string());
            return kExitBadFile;
        }
        if (fs::exists(to, status) && readPageBytes(to) == bytes) continue;
        if (fs::exists(to, status) && !options.force) {
            err << "paperdoll rig: error: '" << to.string() << "' exists and is not the atlas page; pass --force to overwrite it\n";
            return kExitUsage;
        }
        writes.emplace_back(to, std::move(*bytes));
    }
    for (const BakedClip& clip : build.clips) {
        const fs::path to = outDir / clip.file;
        if (fs::exists(to, status) && !options.force) {
            err << "paperdoll rig: error: '" << to.string() << "' already exists; pass --force to overwrite it\n";
            return kExitUsage;
        }
        writes.emplace_back(to, clip.text);
    }
    writes.emplace_back(outPath, build.rigText);
    std::vector<fs::path> written;
    for (const auto& [path, bytes] : writes) {
        std::string why;
        if (!writeFile(path, bytes, why)) {
            report.error(options.outPath, 0, "not imported: " + why);
            for (const fs::path& done : written) fs::remove(done, status);
            return kExitBadFile;
        }
        written.push_back(path);
    }

    // Report what was written, read back from the file.
    RigLoadResult final = loadRigFile(options.outPath);
    report.print(final.diagnostics);
    if (!final.rig) return kExitBadFile;
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
    out << "  " << skeleton.bones.size() << " Spine bones -> " << result.bones.size() << " rig bones with bodies"
        << (helpers.empty() ? std::string() : "; without a part, riding on their nearest body: " + helpers) << "\n";
    out << "  " << result.sprites.size() << " sprites and " << result.meshes.size() << " meshes on " << result.images.size() << " image(s), "
        << shortNumber(result.totalMass(), 2) << " kg, " << result.joints.size() << " joints\n";
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
