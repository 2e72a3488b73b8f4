// The bounce world: balls (circles) under gravity bouncing off static convex terrain, off
// each other and off paddles hinged at the emitters. Its own tiny physics: a fixed step in
// substeps, sequential impulses for contacts, then positions pushed out of overlaps. Plain
// double arithmetic in a fixed order, so the same inputs give the same bits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "asset.h"

namespace bounce {

struct Vec {
    double x = 0.0, y = 0.0;
};

struct Piece {  // a static convex polygon, counter-clockwise
    std::vector<Vec> points;
    double friction = 0.5, restitution = 0.0;
};

struct Ball {
    std::uint64_t id = 0;  // stable: handles are made from it
    int emitter = 0;
    Vec position, velocity;
    double radius = 0.1, restitution = 0.5;
};

struct Paddle {
    double angle = 0.0;            // degrees from the +x axis (parent angle and rest offset are 0)
    double angularVelocity = 0.0;  // degrees per second, over the last substep
};

struct Emitter {
    std::string name;
    Vec position;        // the spawn point: where balls appear and the paddle's hinge
    EmitterAsset asset;  // as the file says, with the edits made since (radius, limits, length)
    double emitSpeed = 0.0;  // m/s upward, for balls emitted from now on
    Paddle paddle;
};

struct Settings {
    double gravity = 9.81;           // m/s², downward
    double restitutionScale = 1.0;   // multiplies every bounce's restitution (capped at 1)
};

/// What the player holds this step.
struct Controls {
    bool paddleUp = false, paddleDown = false;
};

inline constexpr double kPaddleRadius = 0.04;  // the paddle's half thickness, metres
inline constexpr double kKickSpeed = 3.0;      // m/s upward, for a kick and a shake

struct World {
    Settings settings;
    std::vector<Piece> terrain;
    std::vector<Emitter> emitters;
    std::vector<Ball> balls;
    std::uint64_t nextBallId = 0;

    /// One more ball from emitter e; `slot` stacks a level's first balls above each other.
    void emit(int e, int slot = 0);
    void step(double dt, const Controls& controls);
    /// The paddle's tip, world metres.
    Vec paddleTip(const Emitter& e) const;

    /// The versioned state blob ("BNCE"): settings, edits, paddles and balls, bit for bit.
    std::vector<std::uint8_t> save() const;
    /// Takes a blob saved from a world of the same level; false with why, unchanged, otherwise.
    bool load(const std::uint8_t* data, std::size_t size, std::string& why);
};

}  // namespace bounce
