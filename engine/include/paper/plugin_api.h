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

#define PAPER_PLUGIN_ABI_VERSION 5u
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
} PaperTerrainPiece;

typedef struct PaperProp {
    const char* name;      /* the level's name for it, or "prop0", "prop1", … in file order */
    PaperVec2 position;    /* centre, metres */
    float angle;           /* radians */
    PaperVec2 halfExtents; /* metres */
    float mass, friction, restitution;
    PaperColor color;
} PaperProp;

typedef struct PaperSpawn {
    const char* name;
    const char* rigPath; /* a file the engine's readFile service can open */
    PaperVec2 position;  /* feet, metres */
    int32_t facingRight;
} PaperSpawn;

typedef struct PaperLevelDesc {
    const PaperTerrainPiece* terrain;
    int32_t terrainCount;
    const PaperProp* props;
    int32_t propCount;
    const PaperSpawn* spawns;
    int32_t spawnCount;
} PaperLevelDesc;

/* The game actions a player (or a script) drives; bit i of PaperInput's masks is action i.
   The engine owns the key bindings (README "The playable harness"). */
typedef enum PaperAction {
    PAPER_ACTION_LEFT = 0,        /* walk left (arrow) */
    PAPER_ACTION_RIGHT = 1,       /* walk right (arrow) */
    PAPER_ACTION_RUN = 2,         /* held with a walk direction: run (Shift) */
    PAPER_ACTION_JUMP = 3,        /* Space */
    PAPER_ACTION_TOGGLE_RAGDOLL = 4, /* R */
    PAPER_ACTION_HIT_LEFT = 5,    /* 1: a hit impulse from the left */
    PAPER_ACTION_HIT_RIGHT = 6,   /* 2: from the right */
    PAPER_ACTION_HIT_ABOVE = 7,   /* 3: from above */
    PAPER_ACTION_BLEND_DOWN = 8,  /* B: lower the physics blend weight */
    PAPER_ACTION_BLEND_UP = 9,    /* N: raise it */
    PAPER_ACTION_GET_UP = 10,     /* G */
    PAPER_ACTION_NET_ROLE = 11,   /* Tab: cycle the net role preview */
    PAPER_ACTION_COUNT = 12
} PaperAction;

/* Input for one fixed step: the actions, and the mouse in world coordinates. */
typedef struct PaperInput {
    uint64_t pressed;   /* bit i: action i went down since the last step */
    uint64_t held;      /* bit i: action i is down */
    PaperVec2 mouseWorld;
    int32_t mouseDown;  /* bit 0 left, 1 middle, 2 right (held) */
} PaperInput;

/* What the plugin reports for HUDs, --stats-json and plots. */
typedef struct PaperPhysicsStats {
    int32_t bodies, joints, contacts, awakeBodies;
    double maxStretchMetres;        /* joint anchor separation, at the end of the last step */
    double maxLimitViolationDegrees;
    double stepMilliseconds;        /* the plugin's own step */
    /* The largest figures seen at the end of any step since the level was loaded. */
    double runMaxStretchMetres;
    double runMaxLimitViolationDegrees;
    /* How deep any character's drawn parts reach into terrain or props, metres: at the end of
       the last step, and the deepest at the end of any step since the level was loaded. */
    double maxVisualDepthMetres;
    double runMaxVisualDepthMetres;
} PaperPhysicsStats;

/* A prop as the simulation has it now. */
typedef struct PaperPropInfo {
    const char* name;    /* the level's (PaperProp.name) */
    PaperVec2 position;  /* centre, metres */
    double angle;        /* radians */
    int32_t awake;       /* 0 while asleep */
} PaperPropInfo;

/* A character as HUDs, --stats-json and the editor see it. */
typedef struct PaperCharacterInfo {
    const char* name;     /* the level's spawn name */
    const char* mode;     /* "animated", "blend", "ragdoll" or "getting_up" */
    const char* netRole;  /* "standalone", "host" or "proxy" */
    const char* clip;     /* the clip playing (the get-up clip while getting up), or "" */
    float blendWeight;    /* 0 = keyframed .. 1 = physics */
    PaperVec2 position;   /* feet (root), world metres */
    int32_t bodies;       /* bodies the character owns right now (its ragdoll, or those following its bones) */
} PaperCharacterInfo;

/* ---- reflection, in Unreal's spirit: the editor builds panels from these ---------- */

typedef enum PaperPropertyType { PAPER_PROPERTY_FLOAT = 0, PAPER_PROPERTY_INT = 1, PAPER_PROPERTY_BOOL = 2 } PaperPropertyType;

typedef struct PaperPropertyInfo {
    const char* name;     /* stable identifier, e.g. "solver.substeps" */
    const char* label;    /* for humans, e.g. "Substeps" */
    const char* unit;     /* e.g. "m/s²", or "" */
    int32_t type;         /* PaperPropertyType */
    double minValue, maxValue;
    double value;
} PaperPropertyInfo;

/* A joint as the editor's gizmos see it; the handle stays valid across reloads. Angles are
   in the rig's sense: 0 is the rest pose, counter-clockwise for a character facing +x. The
   world direction of joint angle a is parentAngle + restOffset + a, or, for a character
   drawn mirrored (facing left), parentAngle − restOffset − a. */
typedef struct PaperJointInfo {
    uint64_t handle;
    const char* name;
    PaperVec2 pivot;          /* world, metres */
    /* Angles are doubles: a limit set to 100° must save as "100", not 100.0000005. */
    double parentAngle;       /* the parent bone's current world angle, radians (gizmo frame) */
    double restOffset;        /* the child's rest angle relative to the parent, radians */
    int32_t mirrored;         /* 1 when the character is drawn facing left */
    int32_t character;        /* index of its character (getCharacter) */
    double lowerLimit, upperLimit; /* radians relative to the rest pose */
    double currentAngle;      /* radians relative to the rest pose */
    int32_t limitEnabled;
    float stiffness, damping;
    int32_t collideConnected;
} PaperJointInfo;

typedef enum PaperShapeType { PAPER_SHAPE_CAPSULE = 0, PAPER_SHAPE_CIRCLE = 1, PAPER_SHAPE_BOX = 2 } PaperShapeType;

/* A character's body as the editor sees it (picking, outlines, the inspector), whether or
   not it is simulated right now: while animated it sits on its animated bone. The handle
   stays valid across reloads. */
typedef struct PaperBodyInfo {
    uint64_t handle;
    const char* name;     /* its bone's name */
    int32_t character;    /* index of its character (getCharacter) */
    int32_t shape;        /* PaperShapeType */
    PaperVec2 a, b;       /* world, metres: the capsule's (or box's) centre line; a circle's centre twice */
    double radius;        /* metres; a box's half thickness */
    int32_t simulated;    /* 1 while a physics body exists (ragdoll, blend) */
} PaperBodyInfo;

/* What the per-object properties (objectPropertyCount …) are about. */
typedef enum PaperObjectKind { PAPER_OBJECT_JOINT = 0, PAPER_OBJECT_BODY = 1 } PaperObjectKind;

/* ---- the engine's services, handed to the plugin ---------------------------------- */

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
    /* Reads a whole file; the returned buffer is freed with freeFile. Returns 0 on success,
       else writes a reason into error and returns the capacity it needs (see "Reasons"). */
    int32_t (*readFile)(void* context, const char* path, char** data, size_t* size, char* error, size_t errorCapacity);
    void (*freeFile)(void* context, char* data);
    /* Seconds since the engine started, monotonic. */
    double (*timeSeconds)(void* context);
    /* Text for the user: stream 1 = standard output (results), 2 = standard error. */
    void (*print)(void* context, int32_t stream, const char* text);
} PaperEngineServices;

/* ---- the plugin's table ------------------------------------------------------------ */

typedef struct PaperPluginInstance PaperPluginInstance;

/* The plugin's functions, listed once: this list declares the table's members, and the
   engine's loader checks it (a required entry may not be NULL) and names what is missing.
   X(required, return type, name, (parameters)); required is 1, or 0 for an entry that may be
   NULL (runCommand, with commands). Strings a function returns stay valid until the next
   call on the instance. */
#define PAPER_PLUGIN_FUNCTIONS(X) \
    /* Lifecycle. create returns NULL on failure with a reason in error. */ \
    X(1, PaperPluginInstance*, create, (const PaperEngineServices* services, char* error, size_t errorCapacity)) \
    X(1, void, destroy, (PaperPluginInstance* instance)) \
    /* Builds the world of a level (terrain, props, characters). Returns 0, or refuses (see \
       "Reasons" above) and leaves the instance as it was. */ \
    X(1, int32_t, loadLevel, (PaperPluginInstance* instance, const PaperLevelDesc* level, char* error, size_t errorCapacity)) \
    X(1, void, tick, (PaperPluginInstance* instance, double dt, const PaperInput* input)) \
    X(1, void, draw, (PaperPluginInstance* instance)) \
    /* State for hot reload: a versioned, self-describing blob. saveState writes at most \
       capacity bytes and returns the size it needs (call with capacity 0 to ask). loadState \
       returns 0, or refuses with a reason ("Reasons" above) and leaves the instance as it was. */ \
    X(1, size_t, saveState, (PaperPluginInstance* instance, void* buffer, size_t capacity)) \
    X(1, int32_t, loadState, (PaperPluginInstance* instance, const void* data, size_t size, char* error, size_t errorCapacity)) \
    X(1, void, getStats, (PaperPluginInstance* instance, PaperPhysicsStats* stats)) \
    /* Reflection: settings by index, joints and characters. */ \
    X(1, int32_t, propertyCount, (PaperPluginInstance* instance)) \
    X(1, int32_t, getProperty, (PaperPluginInstance* instance, int32_t index, PaperPropertyInfo* info)) \
    X(1, int32_t, setProperty, (PaperPluginInstance* instance, int32_t index, double value)) \
    X(1, int32_t, jointCount, (PaperPluginInstance* instance)) \
    X(1, int32_t, getJoint, (PaperPluginInstance* instance, int32_t index, PaperJointInfo* info)) \
    X(1, int32_t, setJointLimits, (PaperPluginInstance* instance, uint64_t handle, double lower, double upper)) \
    X(1, int32_t, characterCount, (PaperPluginInstance* instance)) \
    X(1, int32_t, getCharacter, (PaperPluginInstance* instance, int32_t index, PaperCharacterInfo* info)) \
    /* The blend weight (0 keyframed .. 1 physics) of a character; above 0 it is an active \
       ragdoll. Returns 0, or 1 when it does not apply. */ \
    X(1, int32_t, setBlendWeight, (PaperPluginInstance* instance, int32_t character, float weight)) \
    /* Writes a character's rig, with the limits and properties edited through this table, to \
       path (NULL: the file it was read from) atomically, keeping everything else in the file \
       as it was. Returns 0, or refuses with the reason ("Reasons" above; the file on disk is \
       then untouched). */ \
    X(1, int32_t, saveRig, (PaperPluginInstance* instance, int32_t character, const char* path, char* error, size_t errorCapacity)) \
    X(1, int32_t, bodyCount, (PaperPluginInstance* instance)) \
    X(1, int32_t, getBody, (PaperPluginInstance* instance, int32_t index, PaperBodyInfo* info)) \
    /* The inspector: properties of one joint or body (kind PaperObjectKind, handle from \
       getJoint/getBody), e.g. "lower" in degrees or "mass" in kg. A set applies live (to a \
       simulated ragdoll at once, and to every one built after), travels with the state across \
       a reload and is written by saveRig; setting the old value back undoes it. \
       setObjectProperty returns 0, or 1 when the handle, index or value does not apply \
       (nothing changes). */ \
    X(1, int32_t, objectPropertyCount, (PaperPluginInstance* instance, int32_t kind, uint64_t handle)) \
    X(1, int32_t, getObjectProperty, (PaperPluginInstance* instance, int32_t kind, uint64_t handle, int32_t index, PaperPropertyInfo* info)) \
    X(1, int32_t, setObjectProperty, (PaperPluginInstance* instance, int32_t kind, uint64_t handle, int32_t index, double value)) \
    /* The level's props, in level order. getProp returns 0, or 1 for a bad index. */ \
    X(1, int32_t, propCount, (PaperPluginInstance* instance)) \
    X(1, int32_t, getProp, (PaperPluginInstance* instance, int32_t index, PaperPropInfo* info)) \
    /* Commandlets (see commands): the words after the program name; prints through \
       services->print and returns the process's exit status. */ \
    X(0, int32_t, runCommand, (const PaperEngineServices* services, int32_t argc, const char* const* argv))

typedef struct PaperPluginApi {
    uint32_t abiVersion; /* PAPER_PLUGIN_ABI_VERSION the plugin was built with */
    uint32_t structSize; /* sizeof(PaperPluginApi) as the plugin compiled it */
    const char* name;    /* e.g. "ragdoll" */
    const char* version; /* e.g. "0.3.1" */
    /* Commandlets, in Unreal's manner: `paperdoll <command> <args…>` runs one of these
       without a window or an instance. Their names, space separated ("rig"), or NULL (then
       runCommand is NULL too). */
    const char* commands;
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
