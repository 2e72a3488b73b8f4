/* The plugin boundary: a C ABI between the Paperdoll engine and its plugins.
 *
 * A plugin is a shared library exporting exactly one symbol, paperGetPluginApi, which
 * returns a table of function pointers. The engine hands the plugin a table of services.
 * Only C types cross: no STL, no exceptions, no C++ objects; plugin state lives behind an
 * opaque PaperPluginInstance the engine holds. Both tables start with the ABI version and
 * their own size, and each side refuses a table whose version or size it does not know.
 *
 * Versioning: PAPER_PLUGIN_ABI_VERSION changes whenever any struct or function signature
 * here changes. Adding members at the end of a table is still a change (the size differs).
 *
 * Reasons (every `char* error, size_t errorCapacity` pair): the callee writes a NUL-terminated
 * reason for the user, cut to errorCapacity - 1 bytes when it is longer. No reason has to be
 * lost to the cut: a call returning int32_t returns 0 on success and otherwise the capacity
 * the whole reason needs (its length + 1), so a caller that gets more than it gave calls again
 * with that much (the refused call changed nothing, so asking again is safe). A callee built
 * before this rule returns 1; a caller then treats a reason that fills its buffer as cut and
 * asks again with a larger one, which is also how a NULL from create is read.
 */
#ifndef PAPER_PLUGIN_API_H
#define PAPER_PLUGIN_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PAPER_PLUGIN_ABI_VERSION 9u
#define PAPER_PLUGIN_ENTRY_SYMBOL "paperGetPluginApi"

#if defined(_WIN32)
#define PAPER_PLUGIN_EXPORT __declspec(dllexport)
#else
#define PAPER_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* ---- plain data ------------------------------------------------------------------ */

typedef struct PaperVec2 {
    float x, y; /* metres, y up */
} PaperVec2;

typedef struct PaperColor {
    uint8_t r, g, b, a;
} PaperColor;

typedef enum PaperLogLevel { PAPER_LOG_INFO = 0, PAPER_LOG_WARNING = 1, PAPER_LOG_ERROR = 2 } PaperLogLevel;

/* A static convex terrain piece or a dynamic prop, as the engine's level holds them. */
typedef struct PaperTerrainPiece {
    const PaperVec2* points; /* counter-clockwise, convex, 3..8 */
    int32_t pointCount;
    float friction, restitution;
    int32_t line; /* the level file's line of its element; 0 when it came from no file */
} PaperTerrainPiece;

typedef struct PaperProp {
    const char* name;      /* the level's name for it, or "prop0", "prop1", … in file order */
    PaperVec2 position;    /* centre, metres */
    float angle;           /* radians */
    PaperVec2 halfExtents; /* metres */
    float mass, friction, restitution;
    PaperColor color;
    int32_t line; /* the level file's line of its element; 0 when it came from no file */
} PaperProp;

typedef struct PaperSpawn {
    const char* name;
    const char* asset;   /* the file the spawn names (one of the plugin's asset types), or "" */
    PaperVec2 position;  /* metres */
    int32_t facingRight;
    int32_t line; /* the level file's line of its element; 0 when it came from no file */
} PaperSpawn;

typedef struct PaperLevelDesc {
    const PaperTerrainPiece* terrain;
    int32_t terrainCount;
    const PaperProp* props;
    int32_t propCount;
    const PaperSpawn* spawns;
    int32_t spawnCount;
    /* The level's file, "" when none: with the elements' lines, what a plugin's warning
       about a placement names ("FILE:LINE: warning: …", which the engine's log shows as is). */
    const char* path;
} PaperLevelDesc;

/* An input action the plugin declares (PaperPluginApi.actions). The engine binds the keys,
   lists the actions in the player's help and HUD, and lets scripts press them by name. */
typedef struct PaperActionDesc {
    const char* name;  /* identifier, e.g. "jump": scripts say `action press jump` */
    const char* label; /* for people, short: "jump" */
    const char* keys;  /* default keys as SDL key names, '|' between them: "Left Shift|Right Shift" */
} PaperActionDesc;

/* Input for one fixed step: the actions, and the mouse in world coordinates. */
typedef struct PaperInput {
    uint64_t pressed;   /* bit i: action i (PaperPluginApi.actions[i]) went down since the last step */
    uint64_t held;      /* bit i: action i is down */
    PaperVec2 mouseWorld;
    int32_t mouseDown;  /* bit 0 left, 1 middle, 2 right (held) */
} PaperInput;

/* ---- reflection, in Unreal's spirit: tools build their panels from these ----------- */

/* A figure the plugin reports every step (PaperPluginApi.stats; values from getStats). */
enum { PAPER_STAT_INTEGER = 1, /* written as an integer */
       PAPER_STAT_HUD = 2,     /* shown on the player's HUD */
       PAPER_STAT_PLOT = 4 };  /* plotted by the editor */

typedef struct PaperStatDesc {
    const char* name;    /* its key in --stats-json's "physics", e.g. "max_stretch_m" */
    const char* label;   /* for people: "stretch" */
    const char* unit;    /* the unit it is shown in: "mm", or "" */
    double displayScale; /* shown = value × displayScale (metres → mm: 1000) */
    int32_t flags;       /* PAPER_STAT_* */
} PaperStatDesc;

/* Objects: the plugin's things, of kinds it declares (PaperPluginApi.kinds), each with
   reflected properties. Tools know none of the kinds; they read these conventions:
   - a kind whose properties include "pivot" (vec2, world metres), "lower" and "upper"
     (degrees from the rest pose), "angle" (the current angle, degrees), "parent_angle"
     (degrees, world), "rest_offset" (degrees) and "mirrored" (bool) has angle limits a
     gizmo can drag. The world direction of angle a is parent_angle + rest_offset + a, or
     parent_angle − rest_offset − a when mirrored;
   - a kind whose properties include "a", "b" (vec2, world metres), "radius" (metres) and
     "shape" ("capsule", "circle" or "box") has an outline a tool can draw and pick;
   - such an object with a writable "selected" (bool) is told when a tool selects it
     (1) and when the selection moves on (0), so the plugin can mark what it draws of it;
   - the player's view follows the outlines of the objects whose owner is object 0 of their
     kind's ownerKind, of every such kind (what the plugin made of the level's first spawn,
     which its input drives). */
enum { PAPER_KIND_SETTINGS = 1 }; /* one object: the plugin's settings */

typedef struct PaperObjectKindDesc {
    const char* name;     /* identifier, e.g. "joint" */
    const char* label;    /* for people: "Joint" */
    const char* statsKey; /* key of this kind's list in --stats-json's "physics" (no stat's name), or NULL */
    int32_t ownerKind;    /* the kind of the objects these belong to (PaperObjectInfo.owner), or -1 */
    int32_t flags;        /* PAPER_KIND_* */
} PaperObjectKindDesc;

typedef struct PaperObjectInfo {
    uint64_t handle;      /* stays valid across reloads */
    const char* name;
    int32_t owner;        /* index of the object of kind ownerKind this belongs to, or -1 */
} PaperObjectInfo;

typedef enum PaperPropertyType {
    PAPER_PROPERTY_FLOAT = 0,
    PAPER_PROPERTY_INT = 1,
    PAPER_PROPERTY_BOOL = 2,
    PAPER_PROPERTY_STRING = 3, /* read only */
    PAPER_PROPERTY_VEC2 = 4    /* read only */
} PaperPropertyType;

enum { PAPER_PROPERTY_READ_ONLY = 1,
       PAPER_PROPERTY_HIDDEN = 2,       /* not listed in an inspector (tools read it by name) */
       PAPER_PROPERTY_HUD = 4,          /* shown on the player's HUD beside the object's name */
       PAPER_PROPERTY_NOT_IN_STATS = 8  /* left out of the kind's list in --stats-json */ };

typedef struct PaperPropertyInfo {
    const char* name;     /* stable identifier, e.g. "lower" */
    const char* label;    /* for people, e.g. "Lower limit" */
    const char* unit;     /* e.g. "°", or "" */
    int32_t type;         /* PaperPropertyType */
    int32_t flags;        /* PAPER_PROPERTY_* */
    double minValue, maxValue;
    double value;         /* float, int, bool. Doubles: a limit set to 100° saves as "100" */
    PaperVec2 vector;     /* vec2 */
    const char* text;     /* string */
} PaperPropertyInfo;

/* A command an object of a kind runs (runObjectCommand), e.g. a hit or a weight. */
typedef enum PaperArgumentType { PAPER_ARGUMENT_NONE = 0, PAPER_ARGUMENT_FLOAT = 1 } PaperArgumentType;

typedef struct PaperCommandDesc {
    int32_t kind;         /* the objects that run it: index into PaperPluginApi.kinds */
    const char* name;     /* identifier, e.g. "hit_left" */
    const char* label;    /* for people: "Hit from the left" */
    int32_t argument;     /* PaperArgumentType */
    double minValue, maxValue; /* a float argument's range */
    const char* property; /* a float command's current value is this property's, or NULL */
} PaperCommandDesc;

/* A kind of file the plugin opens (a spawn's asset), edits through its objects and saves. */
typedef struct PaperAssetTypeDesc {
    const char* name;    /* identifier, e.g. "puppet" */
    const char* label;   /* for people: "Puppet" */
    const char* pattern; /* file name pattern: "*.puppet.xml" */
} PaperAssetTypeDesc;

/* ---- the engine's services, handed to the plugin ---------------------------------- */

enum { PAPER_IMAGE_SILHOUETTE = 1 }; /* drawImage: the tint where the image is opaque */
#define PAPER_MAX_TRIANGLE_VERTICES 196608 /* drawTriangles: 65536 triangles a call at most */

/* A range of a job-service task (enqueueTask): runs items [begin, end) on worker `worker`,
   0 <= worker < jobWorkerCount; two ranges running at once have different workers. */
typedef void (*PaperTaskFn)(int32_t begin, int32_t end, int32_t worker, void* taskContext);

/* What draw draws: the world as a player sees it (art), and a view of its skeleton for
   tools (bones: thin lines and joint dots over the art). */
enum { PAPER_DRAW_ART = 1, PAPER_DRAW_BONES = 2 };

typedef struct PaperEngineServices {
    uint32_t abiVersion; /* PAPER_PLUGIN_ABI_VERSION of the engine */
    uint32_t structSize; /* sizeof(PaperEngineServices) as the engine compiled it */
    void* context;       /* passed back to every service */

    void (*log)(void* context, int32_t level, const char* message);
    /* World-space drawing for the current frame (only valid inside draw). */
    void (*drawLine)(void* context, PaperVec2 a, PaperVec2 b, float width, PaperColor color);
    void (*drawCircle)(void* context, PaperVec2 center, float radius, PaperColor color);
    void (*drawCapsule)(void* context, PaperVec2 a, PaperVec2 b, float radius, PaperColor color);
    void (*drawPolygon)(void* context, const PaperVec2* points, int32_t count, PaperColor color);
    /* Images for cut-out art; the engine owns them. loadImage decodes a PNG file once (the
       same file gives the same handle, across reloads too; headless runs decode it as well)
       and sets *image to its handle (> 0); it returns 0, or refuses with the reason as
       "Reasons" says. drawImage draws a quad of it for the current frame (only inside draw):
       four corners round it in world metres, each with its texture coordinates (0..1 from
       the image's top-left), the image's colours multiplied by tint — or, with
       PAPER_IMAGE_SILHOUETTE in flags, the tint alone wherever the image is opaque (a
       shadow, a rim). Drawn in order with the shapes; consecutive quads of one image are one
       batch. */
    int32_t (*loadImage)(void* context, const char* path, int32_t* image, char* error, size_t errorCapacity);
    void (*drawImage)(void* context, int32_t image, const PaperVec2* corners, const PaperVec2* uvs, PaperColor tint,
                      int32_t flags);
    /* Textured triangles of an image for the current frame (only inside draw): vertexCount
       vertices (a multiple of 3, at most PAPER_MAX_TRIANGLE_VERTICES), three per triangle,
       each a position in world metres with its texture coordinates (0..1 from the image's
       top-left); tint and flags as for drawImage. For art that deforms (meshes). */
    void (*drawTriangles)(void* context, int32_t image, const PaperVec2* positions, const PaperVec2* uvs,
                          int32_t vertexCount, PaperColor tint, int32_t flags);
    /* Seconds since the engine started, monotonic. */
    double (*timeSeconds)(void* context);
    /* Text for the user: stream 1 = standard output (results), 2 = standard error. */
    void (*print)(void* context, int32_t stream, const char* text);
    /* The job service: the engine's worker threads, for work that splits into independent
       ranges (Box2D v3's enqueue/finish task callbacks). jobWorkerCount is how many threads
       a task may run on, the caller's included (1: none beside it). enqueueTask splits
       itemCount items into ranges of at least minRange items, starts them on the workers and
       returns a handle for finishTask, or NULL when it ran the whole task before returning.
       finishTask runs ranges on the calling thread too and returns once every range has
       run. Call both from the thread the engine called the plugin on; tasks must not call
       services. A crash inside a range on a worker thread ends the process (the crash guard
       covers the calling thread only). All three are NULL where the engine offers no job
       service (commandlets): the plugin then runs its work on the calling thread. */
    int32_t (*jobWorkerCount)(void* context);
    void* (*enqueueTask)(void* context, PaperTaskFn task, int32_t itemCount, int32_t minRange, void* taskContext);
    void (*finishTask)(void* context, void* task);
} PaperEngineServices;

/* ---- the plugin's table ------------------------------------------------------------ */

typedef struct PaperPluginInstance PaperPluginInstance;

/* The plugin's functions, listed once: this list declares the table's members, and the
   engine's loader checks it (a required entry may not be NULL) and names what is missing,
   and the engine's host wraps each. X(required, return type, name, (parameters)); required
   is 1, or 0 for an entry that may be NULL. Strings a function returns stay valid until the
   next call on the instance. */
#define PAPER_PLUGIN_FUNCTIONS(X) \
    /* Lifecycle. create returns NULL on failure with a reason in error. */ \
    X(1, PaperPluginInstance*, create, (const PaperEngineServices* services, char* error, size_t errorCapacity)) \
    X(1, void, destroy, (PaperPluginInstance* instance)) \
    /* Builds the world of a level. Returns 0, or refuses (see "Reasons" above) and leaves the \
       instance as it was. */ \
    X(1, int32_t, loadLevel, (PaperPluginInstance* instance, const PaperLevelDesc* level, char* error, size_t errorCapacity)) \
    X(1, void, tick, (PaperPluginInstance* instance, double dt, const PaperInput* input)) \
    /* Draws the frame through the services' draw calls: the layers asked for (PAPER_DRAW_*). */ \
    X(1, void, draw, (PaperPluginInstance* instance, uint32_t layers)) \
    /* State for hot reload: a versioned, self-describing blob. saveState writes at most \
       capacity bytes and returns the size it needs (call with capacity 0 to ask). At a reload \
       loadState gets that blob, empty or not, and returns 0, or refuses with a reason \
       ("Reasons" above) and leaves the instance as it was. */ \
    X(1, size_t, saveState, (PaperPluginInstance* instance, void* buffer, size_t capacity)) \
    X(1, int32_t, loadState, (PaperPluginInstance* instance, const void* data, size_t size, char* error, size_t errorCapacity)) \
    /* The figures of the last step: values[i] for stats[i], count = statCount. */ \
    X(1, void, getStats, (PaperPluginInstance* instance, double* values, int32_t count)) \
    /* Objects of a kind (index into kinds), in a stable order; getObject returns 0, or 1 for \
       a bad kind or index. */ \
    X(1, int32_t, objectCount, (PaperPluginInstance* instance, int32_t kind)) \
    X(1, int32_t, getObject, (PaperPluginInstance* instance, int32_t kind, int32_t index, PaperObjectInfo* info)) \
    /* An object's properties (0 for a handle that names nothing). A set applies live, travels \
       with the state across a reload and is written by saveAsset; setting the old value back \
       undoes it. get and set return 0, or 1 when the handle, index or value does not apply \
       (nothing changes). */ \
    X(1, int32_t, propertyCount, (PaperPluginInstance* instance, int32_t kind, uint64_t handle)) \
    X(1, int32_t, getProperty, (PaperPluginInstance* instance, int32_t kind, uint64_t handle, int32_t index, PaperPropertyInfo* info)) \
    X(1, int32_t, setProperty, (PaperPluginInstance* instance, int32_t kind, uint64_t handle, int32_t index, double value)) \
    /* Runs commands[command] on the object of the command's kind with that handle, with its \
       argument (ignored when it takes none). Returns 0, or refuses with the reason ("Reasons" \
       above). */ \
    X(1, int32_t, runObjectCommand, (PaperPluginInstance* instance, uint64_t handle, int32_t command, double argument, char* error, size_t errorCapacity)) \
    /* Writes the asset the level's spawns opened from `asset`, with the edits made through \
       this table, to path (NULL: back to asset) atomically, keeping everything else in the \
       file as it was. Returns 0, or refuses with the reason (the file is then untouched). */ \
    X(1, int32_t, saveAsset, (PaperPluginInstance* instance, const char* asset, const char* path, char* error, size_t errorCapacity)) \
    /* Whether a file is an asset the plugin can open, with no instance: 0, or the reason \
       (every problem, each with its file and line) as "Reasons" above says. */ \
    X(0, int32_t, checkAsset, (const PaperEngineServices* services, const char* path, char* error, size_t errorCapacity)) \
    /* Commandlets (see commandlets): the words after the program name; prints through \
       services->print and returns the process's exit status. */ \
    X(0, int32_t, runCommand, (const PaperEngineServices* services, int32_t argc, const char* const* argv))

typedef struct PaperPluginApi {
    uint32_t abiVersion; /* PAPER_PLUGIN_ABI_VERSION the plugin was built with */
    uint32_t structSize; /* sizeof(PaperPluginApi) as the plugin compiled it */
    const char* name;    /* e.g. "shapes" */
    const char* version; /* e.g. "0.3.1" */
    /* Commandlets, in Unreal's manner: `paperdoll <command> <args…>` runs one of these
       without a window or an instance. Their names, space separated, or NULL (then
       runCommand is NULL too). */
    const char* commandlets;
    /* What the plugin declares; each array stays valid while the library is loaded. */
    const PaperActionDesc* actions;       int32_t actionCount;     /* at most 64 */
    const PaperStatDesc* stats;           int32_t statCount;
    const PaperObjectKindDesc* kinds;     int32_t kindCount;
    const PaperCommandDesc* commands;     int32_t commandCount;
    const PaperAssetTypeDesc* assetTypes; int32_t assetTypeCount;
#define PAPER_DECLARE_FUNCTION(required, returns, name, parameters) returns(*name) parameters;
    PAPER_PLUGIN_FUNCTIONS(PAPER_DECLARE_FUNCTION)
#undef PAPER_DECLARE_FUNCTION
} PaperPluginApi;

/* The one exported symbol. engineAbiVersion lets a plugin build for several versions pick
   the table that matches; a plugin that cannot returns NULL. */
typedef const PaperPluginApi* (*PaperGetPluginApiFn)(uint32_t engineAbiVersion);

#ifdef __cplusplus
}
#endif

#endif /* PAPER_PLUGIN_API_H */
