// A character (README "Characters"): a rig driven by clips and IK, and the same rig as
// a physical ragdoll, with the switches between them.
//
//   ANIMATED    clip + two-bone IK drive the skeleton; a body per rig body is driven after
//               its bone, so the drawn figure pushes props and wakes them; every bone's
//               velocity is tracked each step.
//   BLEND       the ragdoll's bodies are dynamic and a PD drive, scaled by (1 − weight)
//               per bone, pulls them toward the animated pose (weight 0: they follow it).
//   RAGDOLL     bodies only: built at the current pose with the tracked velocities, so
//               momentum carries on; the following bodies are removed before they exist.
//   GETTING_UP  bodies gone, the following ones back; the root moves under where the body lies,
//               the get-up clip starts at the frame nearest the pose it lies in, and the
//               shown pose blends from the last physics pose into it, kept out of the
//               terrain (feet and hands planted by IK, the whole figure lifted clear).
//
// The character owns its bodies and joints in the world it was made in; destroying it (or
// any switch) removes exactly what it made. Call preStep before World::step and postStep
// after it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "anim/clip_player.h"
#include "anim/pose.h"
#include "character/character_assets.h"
#include "character/drawn_shapes.h"
#include "character/net_role.h"
#include "rig/rig_builder.h"
#include "rig/rig_tuning.h"
#include "solver/world.h"

namespace ragdoll {

struct CharacterDef {
    std::string name;
    Vec2 position;              ///< feet, world metres
    bool facingRight = true;
    NetRole role = NetRole::Standalone;
    /// Negative and unique per character: its bodies (ragdoll and following) never touch each other,
    /// and its ground probes ignore them.
    std::int32_t collisionGroup = -1;
};

/// What the player (or AI) asks of a character this step.
struct CharacterControls {
    int move = 0;        ///< -1 left, 0 stand, +1 right
    bool run = false;
    bool jump = false;   ///< an edge: jump now if standing
};

/// How the character is drawn; captured when it goes limp and restored when it stands.
struct Appearance {
    /// ABGR: rgb is a colour the rig's colours wash toward, a how much of their own colour
    /// stays (255: untouched). A wash shows on any colour, where a multiplier would only
    /// darken a black figure further.
    std::uint32_t tint = 0xffffffffu;
    double scale = 1.0;                ///< line widths and head size
};

class Character {
public:
    Character(World& world, std::shared_ptr<const CharacterAssets> assets, const CharacterDef& def);
    ~Character();
    Character(const Character&) = delete;
    Character& operator=(const Character&) = delete;

    void preStep(double dt, const CharacterControls& controls);
    void postStep(double dt);

    // Switches. Each returns false (and changes nothing) when it does not apply: a proxy
    // never switches by itself, and e.g. getUp needs bodies to get up from.
    /// ANIMATED/BLEND → RAGDOLL. impulse (N·s, world) goes to every body's centre of mass.
    bool enterRagdoll(Vec2 impulse = {});
    /// ANIMATED → BLEND at the weight (bodies built as for a ragdoll), or a new weight in BLEND.
    bool enterBlend(double weight);
    /// BLEND at weight 0 → ANIMATED (bodies destroyed, the following ones back).
    bool leaveBlend();
    /// RAGDOLL/BLEND → GETTING_UP.
    bool getUp();
    /// R: ANIMATED/BLEND/GETTING_UP → RAGDOLL, RAGDOLL → GETTING_UP.
    bool toggleRagdoll();
    /// An impulse to every body now (RAGDOLL/BLEND); in ANIMATED or GETTING_UP the hit knocks
    /// it into RAGDOLL with the impulse.
    bool hit(Vec2 impulse);

    /// Blend weight 0 (keyframed) .. 1 (physics) for a bone and every bone below it (Unreal's
    /// "all bodies below"); bone -1 = the whole character.
    void setBlendWeight(double weight, int bone = -1);

    /// An arm reaching for a world point (side 0 left, 1 right), by two-bone IK after the
    /// clip, the elbow bending the way the rig's limits allow; clearReach lets the clip have it.
    void setReachTarget(int side, Vec2 target);
    void clearReach(int side);
    double blendWeight(int bone = -1) const;  ///< the bone's (or the root's)

    // Net role.
    NetRole role() const { return role_; }
    /// Switching to Proxy drops any bodies first (a proxy owns none); to Host/Standalone
    /// it simulates from where it stands.
    void setRole(NetRole role);
    ReplicatedCharacterState replicate() const;
    /// A proxy shows this from its next step on.
    void applyReplicated(const ReplicatedCharacterState& state);

    // What it looks like now.
    CharacterMode mode() const { return mode_; }
    const std::string& name() const { return name_; }
    const CharacterAssets& assets() const { return *assets_; }
    const std::shared_ptr<const CharacterAssets>& shared() const { return assets_; }
    /// A def that makes a character like this one, standing where this one stands.
    CharacterDef def() const { return {name_, root_, facingRight_, role_, group_}; }
    /// The character's own copy of its rig, with the edits made through it (saveRig writes it).
    const RigDefinition& rig() const { return rig_; }
    /// The rig was written to its file as text: that is the file's text from now on, and its
    /// values are the file's (what a hot reload compares the edits with).
    void rigSaved(std::string text);
    /// The tuning as the rig's file has it (read, or last saved).
    const RigTuning& fileTuning() const { return fileTuning_; }
    const std::vector<BonePose>& bonePoses() const { return poses_; }  ///< world, per rig bone
    Vec2 root() const { return root_; }
    bool facingRight() const { return facingRight_; }
    bool grounded() const { return grounded_; }
    /// The clip posing the character (the drive's target in BLEND); none while limp.
    const Clip* clip() const { return mode_ == CharacterMode::Ragdoll && role_ != NetRole::Proxy ? nullptr : player_.clip(); }
    Appearance& appearance() { return appearance_; }
    const Appearance& appearance() const { return appearance_; }

    // What it owns in the world.
    const Ragdoll& ragdoll() const { return ragdoll_; }
    /// The bodies driven after the bones while animated or getting up (index-aligned
    /// with the rig's bodies), empty otherwise.
    const std::vector<BodyId>& animatedBodies() const { return animated_; }
    int bodyCount() const;
    /// The mass (kg) of the props the following bodies touched in the last step, or that its
    /// walk goes on pushing: what the walk slows for (a character shares its momentum with
    /// what it pushes).
    double pushedMass() const { return pushedMass_; }
    std::int32_t collisionGroup() const { return group_; }

    /// Per bone, the tracked velocity of the bone's origin (m/s) and its angular velocity
    /// (rad/s) in ANIMATED (also the drive's targets in BLEND).
    const std::vector<Vec2>& boneLinearVelocities() const { return animLinear_; }
    const std::vector<double>& boneAngularVelocities() const { return animAngular_; }

    // Tuning (rig_tuning.h): edits to the character's rig, applied live to its ragdoll and
    // used by every ragdoll built from now on. False (nothing changed) when out of range.
    /// Limits in radians, rig sense; a free joint reports [−π, π].
    double jointLower(int joint) const { return lowerLimit(rig_.joints[size_t(joint)]); }
    double jointUpper(int joint) const { return upperLimit(rig_.joints[size_t(joint)]); }
    bool setJointLimits(int joint, double lower, double upper);
    /// jointProperties()/bodyProperties() by index, in their units.
    bool setJointProperty(int joint, int index, double value);
    bool setBodyProperty(int body, int index, double value);
    /// Whether the bones are drawn mirrored (facing left): the joint gizmos' frame.
    bool drawnMirrored() const;
    /// Current angle of a joint, rest-relative, in the rig's (unmirrored) sense, radians.
    double jointAngle(int joint) const;

    /// Moves the character (ANIMATED) to stand at position, e.g. after a level reload.
    void teleport(Vec2 position, bool facingRight);

    // The state blob (scene.cpp): everything that defines what happens next.
    struct SavedState;
    void save(SavedState& out) const;
    /// False (nothing changed) when the state does not fit this character's rig.
    bool load(const SavedState& in, std::string& error);

private:
    void stepLocomotion(double dt, const CharacterControls& controls);
    void stepProxy(double dt);
    void stepGettingUp(double dt);
    /// Starts the get-up clip (front or back) at the frame whose pose is nearest getUpFrom_.
    void chooseGetUpStart();
    /// Whether a ragdoll in these poses lies with its chest to the ground (it gets up from the
    /// front), else on its back.
    bool liesFaceDown(const std::vector<BonePose>& poses) const;
    /// Moves the shown pose rigidly out of the terrain it reaches into (clips are authored
    /// for flat ground; IK plants the feet only); with `heavyProps` (walking), out of props
    /// too heavy to push too.
    void keepPoseOutOfTerrain(bool heavyProps = false);
    /// At a spawn: the root moved sideways with the pose out of a wall the standing figure
    /// reaches into, so its position and its walk start where it is drawn.
    void standClearOfTerrain();
    /// After the step: holds the shown pose (and the walk) back from props it still reaches
    /// into, sideways.
    void keepPoseOutOfProps();
    /// Samples the clip player, plants the feet (when grounded) and places the pose in the
    /// world: animPoses_, and the tracked velocities from the previous animPoses_.
    void computeAnimatedPose(double dt, bool plantFeet, bool plantHands = false);
    void driveBodies(double dt);
    void snapFollowingBodies();
    void readBodies();
    bool buildBodies();
    /// Moves the new ragdoll rigidly out of any terrain its pose reaches into.
    void liftOutOfTerrain();
    void destroyBodies();
    /// Gives the simulated joint (if any) the rig's values for it.
    void applyJointLive(int joint);
    void createAnimatedBodies();
    /// Gives following body `body` its rig body's shape (heavier, not meeting the terrain).
    void shapeAnimatedBody(int body);
    void destroyAnimatedBodies();
    /// Drives the following bodies to the shown pose by the end of the step.
    void moveAnimatedBodies(double dt);
    /// pushedMass_ from the props the following bodies touch now or the walk goes on into;
    /// props they touched during the step are held to a push's speed, and those walked into
    /// set going at the pace walker and props share.
    void pushProps(double dt);
    /// The ground height under x (a probe around the feet), or false when there is none;
    /// `found`, when given, gets the probe's hit (the body, the ground's normal).
    bool groundAt(double x, double nearY, double& groundY, RayHit* found = nullptr) const;
    /// Feet inside the terrain (a spawn or a teleport below the ground's surface) lifted to
    /// its surface above them, else feet as they are.
    Vec2 outOfTerrain(Vec2 feet);
    /// Rig space to the world: the root bone's rest x over the root, mirrored about it when
    /// facing left (CharacterAssets::rootRestX).
    Vec2 toWorld(Vec2 rigPoint) const;
    /// Where near x a figure getting up from ground height `ground`, to face right or left,
    /// from the front or the back, has room to: the nearest x within tuning::kGetUpRoomSearch
    /// whose ground is within a step of it and where that get-up clip's reach
    /// (CharacterAssets::getUpReach) from knee height to under the standing figure's top is
    /// clear of the terrain (lying under a table, its top). False when there is none.
    bool roomToStand(double x, double ground, bool facingRight, bool fromFront, Vec2& feet);
    /// Whether the walk in direction dir (±1) is stopped within reach (m): a wall at knee
    /// height, too little headroom there (a ray up from knee height to under the standing
    /// figure's top meeting an underside: a beam, a slanted ceiling; stairs are none), or
    /// ground rising there steeper than tuning::kMaxSlope (a stair's tread is flat).
    bool blockedAhead(double dir, double reach) const;
    /// What the character's probes (ground, walls, headroom) see: terrain and props.
    Filter probeFilter() const;
    /// kg from which a prop is met as terrain (tuning::kImmovablePropMassRatio).
    double immovablePropMass() const;
    /// Terrain, or a prop too heavy for the walk to push.
    bool immovable(BodyId body) const;
    double toWorldAngle(double rigAngle) const;
    Vec2 toRig(Vec2 worldPoint) const;
    const Clip& clipOf(ClipRole role) const { return assets_->clip(role); }

    World* world_;
    std::shared_ptr<const CharacterAssets> assets_;
    std::string name_;
    std::int32_t group_;
    NetRole role_;
    CharacterMode mode_ = CharacterMode::Animated;
    RigDefinition rig_;  ///< the assets' rig with this character's edits
    /// The tuning as the rig's file has it (read, or last saved): the values save() does
    /// not count as edits, so a hot reload keeps the file's own where they are unedited.
    RigTuning fileTuning_;

    // Locomotion.
    Vec2 root_;
    Vec2 rootVelocity_;
    bool facingRight_ = true;
    bool grounded_ = true;
    ClipPlayer player_;

    // Poses, world space, per bone. poses_ is what is shown; animPoses_ what the clip and
    // IK say (the drive's target in BLEND); previousAnim_ the step before, for velocities.
    LocalPose local_;
    std::vector<BonePose> rigPoses_, animPoses_, previousAnim_, poses_;
    std::vector<Vec2> animLinear_;
    std::vector<double> animAngular_;
    bool haveAnimHistory_ = false;

    // Physics.
    Ragdoll ragdoll_;
    bool ragdollMirrored_ = false;
    std::vector<BodyId> animated_;  ///< following the bones, per rig body, while animated or getting up
    double pushedMass_ = 0.0;
    std::vector<BodyId> pushed_;    ///< the props pushProps found, reused
    std::vector<BodyId> walkedInto_;  ///< of them, those the walk goes into (reused)
    /// m/s along x the clip walks this step before a push shares it: set by stepLocomotion,
    /// zero at each step's start (a get-up ending, a wall), read by pushProps after the step.
    double walkPace_ = 0.0;
    std::vector<BodyId> scratch_;   ///< broadphase queries, reused
    std::vector<DrawnShape> drawn_;  ///< the shown pose's drawn parts, reused
    std::vector<DrawnShape> shifted_;  ///< drawn_ moved, to try a way out of a prop (reused)
    std::vector<double> blendWeights_;  ///< per bone

    bool reaching_[2] = {false, false};
    Vec2 reachTarget_[2];

    // Getting up.
    std::vector<BonePose> getUpFrom_, previousShown_;
    double getUpShift_ = 0.0;  ///< m the props it gets up among have moved the shown pose sideways
    double getUpTime_ = 0.0;

    Appearance appearance_, savedAppearance_;
    ReplicatedCharacterState replicated_;
    Vec2 replicatedVelocity_;
};

/// Everything save()/load() carry across a hot reload.
struct Character::SavedState {
    CharacterMode mode = CharacterMode::Animated;
    NetRole role = NetRole::Standalone;
    Vec2 root, rootVelocity;
    bool facingRight = true, grounded = true, haveAnimHistory = false, ragdollMirrored = false;
    int currentClip = -1, previousClip = -1;  ///< ClipRole, -1 none
    double currentTime = 0.0, previousTime = 0.0, fadeTime = 0.0, fadeDuration = 0.0, speed = 1.0;
    std::vector<BonePose> previousAnim, poses, getUpFrom;
    double getUpTime = 0.0;
    double getUpShift = 0.0;
    std::vector<double> blendWeights;
    RigTuning tuning;
    /// The tuning as the rig's file had it (Character::fileTuning_); empty in a blob from
    /// before it was kept. load() takes from `tuning` only what differs from it (the edits)
    /// and keeps its own rig's values for the rest: a file changed on disk since keeps its
    /// changes where they were not edited.
    RigTuning fileTuning;
    Appearance appearance, savedAppearance;
    ReplicatedCharacterState replicated;
    Vec2 replicatedVelocity;
    std::vector<BodySnapshot> bodies;  ///< the ragdoll's, in rig body order (empty: none)
    std::vector<BodySnapshot> animatedBodies;  ///< the following ones, likewise (empty: none)
    /// The ragdoll's joints' limit warm starts (World::jointLimitWarmStart), in rig joint
    /// order (empty: none, or a blob from before they were kept).
    std::vector<double> limitWarmStarts;
    /// Each bone's tracked velocity (what a switch to ragdoll hands its bodies); empty in a
    /// blob from before they were kept (then zero).
    std::vector<Vec2> boneLinear;
    std::vector<double> boneAngular;
    double pushedMass = 0.0;  ///< kg of props pushed after the last step (Character::pushedMass)
    bool reaching[2] = {false, false};
    Vec2 reachTarget[2];
};

/// Linear momentum (kg·m/s) and angular momentum about the centre of mass (kg·m²/s) of a
/// set of bone poses moving with the given velocities, with the rig's body masses and
/// inertias — what a ragdoll built from them will carry.
struct Momentum {
    Vec2 linear;
    double angular = 0.0;
    Vec2 centerOfMass;
    double mass = 0.0;
};
Momentum skeletonMomentum(const RigDefinition& rig, const std::vector<BonePose>& poses,
                          const std::vector<Vec2>& linear, const std::vector<double>& angular);
Momentum bodiesMomentum(const World& world, const std::vector<BodyId>& bodies);

}  // namespace ragdoll
