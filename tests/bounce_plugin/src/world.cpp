#include "world.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace bounce {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kSubsteps = 4;
constexpr int kIterations = 6;
// An approach slower than this does not bounce, so a ball settles instead of buzzing.
constexpr double kRestingSpeed = 0.3;
constexpr double kBallFriction = 0.2;
constexpr double kSlop = 0.0005;          // overlap left alone, metres (keeps contacts stable)
constexpr int kPushPasses = 3;            // a ball pushed into the ground by the one on it comes out again
constexpr double kPaddleSpeed = 240.0;    // degrees per second while a key is held

Vec operator+(Vec a, Vec b) { return {a.x + b.x, a.y + b.y}; }
Vec operator-(Vec a, Vec b) { return {a.x - b.x, a.y - b.y}; }
Vec operator*(double s, Vec v) { return {s * v.x, s * v.y}; }
double dot(Vec a, Vec b) { return a.x * b.x + a.y * b.y; }
double length(Vec v) { return std::sqrt(dot(v, v)); }

Vec closestOnSegment(Vec p, Vec a, Vec b) {
    const Vec ab = b - a;
    const double t = std::clamp(dot(p - a, ab) / std::max(dot(ab, ab), 1e-12), 0.0, 1.0);
    return a + t * ab;
}

/// Ball a touching something: the normal points from the other thing toward a.
struct Contact {
    int a = 0, b = -1;  // b: the other ball, or -1 for terrain and paddles (immovable)
    Vec normal;
    double depth = 0.0;
    Vec surfaceVelocity;  // of the immovable thing at the contact (a moving paddle)
    double friction = 0.0, restitution = 0.0;
    double bounce = 0.0, normalImpulse = 0.0, tangentImpulse = 0.0;
};

double mass(const Ball& b) { return b.radius * b.radius; }  // uniform density: area, π aside

/// Circle against a counter-clockwise convex polygon.
bool touchPiece(const Ball& ball, const Piece& piece, Vec& normal, double& depth) {
    const size_t n = piece.points.size();
    double deepest = -1e300;
    Vec faceNormal;
    for (size_t i = 0; i < n; ++i) {
        const Vec edge = piece.points[(i + 1) % n] - piece.points[i];
        const Vec outward = (1.0 / std::max(length(edge), 1e-12)) * Vec{edge.y, -edge.x};
        const double separation = dot(ball.position - piece.points[i], outward);
        if (separation > deepest) deepest = separation, faceNormal = outward;
    }
    if (deepest > ball.radius) return false;
    if (deepest <= 0.0) {  // the centre is inside: out through the nearest face
        normal = faceNormal, depth = ball.radius - deepest;
        return true;
    }
    double nearest = 1e300;
    for (size_t i = 0; i < n; ++i) {
        const Vec q = closestOnSegment(ball.position, piece.points[i], piece.points[(i + 1) % n]);
        const double d = length(ball.position - q);
        if (d < nearest) nearest = d, normal = (1.0 / std::max(d, 1e-12)) * (ball.position - q);
    }
    depth = ball.radius - nearest;
    return depth > 0.0;
}

std::vector<Contact> findContacts(const World& w) {
    std::vector<Contact> contacts;
    for (int i = 0; i < int(w.balls.size()); ++i) {
        const Ball& ball = w.balls[size_t(i)];
        for (const Piece& piece : w.terrain) {
            Contact c;
            c.a = i;
            if (!touchPiece(ball, piece, c.normal, c.depth)) continue;
            c.friction = std::sqrt(kBallFriction * piece.friction);
            c.restitution = std::max(ball.restitution, piece.restitution);
            contacts.push_back(c);
        }
        for (const Emitter& e : w.emitters) {
            const Vec q = closestOnSegment(ball.position, e.position, w.paddleTip(e));
            const double d = length(ball.position - q), depth = ball.radius + kPaddleRadius - d;
            if (depth <= 0.0) continue;
            const double radians = e.paddle.angle * kPi / 180.0, spin = e.paddle.angularVelocity * kPi / 180.0;
            Contact c;
            c.a = i;
            c.normal = d > 1e-9 ? (1.0 / d) * (ball.position - q) : Vec{-std::sin(radians), std::cos(radians)};
            c.depth = depth;
            c.surfaceVelocity = spin * Vec{-(q.y - e.position.y), q.x - e.position.x};
            c.friction = kBallFriction, c.restitution = ball.restitution;
            contacts.push_back(c);
        }
        for (int j = i + 1; j < int(w.balls.size()); ++j) {
            const Ball& other = w.balls[size_t(j)];
            const Vec between = ball.position - other.position;
            const double d = length(between), depth = ball.radius + other.radius - d;
            if (depth <= 0.0) continue;
            Contact c;
            c.a = i, c.b = j;
            c.normal = d > 1e-9 ? (1.0 / d) * between : Vec{0.0, 1.0};  // coincident: the later one goes down
            c.depth = depth;
            c.friction = kBallFriction, c.restitution = std::max(ball.restitution, other.restitution);
            contacts.push_back(c);
        }
    }
    return contacts;
}

void solveVelocities(World& w, std::vector<Contact>& contacts) {
    auto relative = [&](const Contact& c) {
        const Vec other = c.b >= 0 ? w.balls[size_t(c.b)].velocity : c.surfaceVelocity;
        return w.balls[size_t(c.a)].velocity - other;
    };
    for (Contact& c : contacts) {
        const double approach = dot(relative(c), c.normal);
        const double restitution = std::min(1.0, c.restitution * w.settings.restitutionScale);
        c.bounce = approach < -kRestingSpeed ? -restitution * approach : 0.0;
    }
    for (int iteration = 0; iteration < kIterations; ++iteration) {
        for (Contact& c : contacts) {
            Ball& a = w.balls[size_t(c.a)];
            const double inverseA = 1.0 / mass(a), inverseB = c.b >= 0 ? 1.0 / mass(w.balls[size_t(c.b)]) : 0.0;
            const double effectiveMass = 1.0 / (inverseA + inverseB);
            auto apply = [&](Vec impulse) {
                a.velocity = a.velocity + inverseA * impulse;
                if (c.b >= 0) w.balls[size_t(c.b)].velocity = w.balls[size_t(c.b)].velocity - inverseB * impulse;
            };
            // Normal: push apart until the separating speed is the bounce, never pull.
            double impulse = effectiveMass * (c.bounce - dot(relative(c), c.normal));
            const double total = std::max(c.normalImpulse + impulse, 0.0);
            impulse = total - c.normalImpulse, c.normalImpulse = total;
            apply(impulse * c.normal);
            // Friction: oppose sliding, at most friction × the normal impulse (Coulomb).
            const Vec tangent{-c.normal.y, c.normal.x};
            double friction = -effectiveMass * dot(relative(c), tangent);
            const double limit = c.friction * c.normalImpulse;
            const double totalFriction = std::clamp(c.tangentImpulse + friction, -limit, limit);
            friction = totalFriction - c.tangentImpulse, c.tangentImpulse = totalFriction;
            apply(friction * tangent);
        }
    }
}

/// Moves overlapping balls apart (positions only: no energy is added to velocities).
void pushApart(World& w) {
    for (const Contact& c : findContacts(w)) {
        const double correction = std::max(c.depth - kSlop, 0.0) * 0.8;
        Ball& a = w.balls[size_t(c.a)];
        if (c.b < 0) {
            a.position = a.position + correction * c.normal;
            continue;
        }
        Ball& b = w.balls[size_t(c.b)];
        const double shareA = mass(b) / (mass(a) + mass(b));
        a.position = a.position + (correction * shareA) * c.normal;
        b.position = b.position - (correction * (1.0 - shareA)) * c.normal;
    }
}

// The blob's byte order is the machine's: it only travels between builds on one machine.
struct Writer {
    std::vector<std::uint8_t> bytes;
    template <class T>
    void put(T value) {
        const auto* p = reinterpret_cast<const std::uint8_t*>(&value);
        bytes.insert(bytes.end(), p, p + sizeof value);
    }
};

struct Reader {
    const std::uint8_t* data;
    std::size_t size, at = 0;
    bool ok = true;
    template <class T>
    T get() {
        T value{};
        if (!ok || size - at < sizeof value) return ok = false, value;
        std::memcpy(&value, data + at, sizeof value);
        at += sizeof value;
        return value;
    }
    double number() {  // a finite double; the blob is refused otherwise
        const double value = get<double>();
        ok = ok && std::isfinite(value);
        return value;
    }
};

constexpr char kMagic[4] = {'B', 'N', 'C', 'E'};
constexpr std::uint32_t kVersion = 1;

}  // namespace

Vec World::paddleTip(const Emitter& e) const {
    const double radians = e.paddle.angle * kPi / 180.0;
    return e.position + e.asset.length * Vec{std::cos(radians), std::sin(radians)};
}

void World::emit(int e, int slot) {
    const Emitter& emitter = emitters[size_t(e)];
    const double r = emitter.asset.radius;
    Ball ball;
    ball.id = nextBallId++;
    ball.emitter = e;
    // Just above the hinge, each next one a little higher and to alternate sides so a stack
    // topples the same way every run.
    const double side = slot % 2 == 0 ? -0.25 : 0.25;
    ball.position = emitter.position + Vec{side * r, kPaddleRadius + r + 0.01 + 2.05 * r * slot};
    ball.velocity = {0.0, emitter.emitSpeed};
    ball.radius = r;
    ball.restitution = emitter.asset.restitution;
    balls.push_back(ball);
}

void World::step(double dt, const Controls& controls) {
    if (!(dt > 0.0)) return;
    const double h = dt / kSubsteps;
    const double swing = controls.paddleUp == controls.paddleDown ? 0.0 : controls.paddleUp ? kPaddleSpeed : -kPaddleSpeed;
    for (int substep = 0; substep < kSubsteps; ++substep) {
        for (Emitter& e : emitters) {
            const double before = e.paddle.angle;
            e.paddle.angle = std::clamp(before + swing * h, e.asset.lower, e.asset.upper);
            e.paddle.angularVelocity = (e.paddle.angle - before) / h;
        }
        for (Ball& b : balls) b.velocity.y -= settings.gravity * h;
        std::vector<Contact> contacts = findContacts(*this);
        solveVelocities(*this, contacts);
        for (Ball& b : balls) b.position = b.position + h * b.velocity;
        for (int pass = 0; pass < kPushPasses; ++pass) pushApart(*this);
    }
}

std::vector<std::uint8_t> World::save() const {
    Writer w;
    for (char c : kMagic) w.put(c);
    w.put(kVersion);
    w.put(settings.gravity), w.put(settings.restitutionScale);
    w.put(std::uint32_t(emitters.size()));
    for (const Emitter& e : emitters) {
        w.put(e.asset.radius), w.put(e.asset.lower), w.put(e.asset.upper), w.put(e.asset.length);
        w.put(e.emitSpeed), w.put(e.paddle.angle), w.put(e.paddle.angularVelocity);
    }
    w.put(nextBallId);
    w.put(std::uint32_t(balls.size()));
    for (const Ball& b : balls) {
        w.put(b.id), w.put(std::int32_t(b.emitter));
        w.put(b.position.x), w.put(b.position.y), w.put(b.velocity.x), w.put(b.velocity.y);
        w.put(b.radius), w.put(b.restitution);
    }
    return w.bytes;
}

bool World::load(const std::uint8_t* data, std::size_t size, std::string& why) {
    Reader r{data, data ? size : 0};
    for (char c : kMagic)
        if (r.get<char>() != c) return why = "not a bounce state (no BNCE at its start)", false;
    if (const std::uint32_t version = r.get<std::uint32_t>(); version != kVersion)
        return why = "bounce state version " + std::to_string(version) + ", this build reads " + std::to_string(kVersion), false;
    World next = *this;
    next.settings.gravity = r.number(), next.settings.restitutionScale = r.number();
    if (const std::uint32_t count = r.get<std::uint32_t>(); r.ok && count != emitters.size())
        return why = "the state has " + std::to_string(count) + " emitters, this level " + std::to_string(emitters.size()), false;
    for (Emitter& e : next.emitters) {
        e.asset.radius = r.number(), e.asset.lower = r.number(), e.asset.upper = r.number(), e.asset.length = r.number();
        e.emitSpeed = r.number(), e.paddle.angle = r.number(), e.paddle.angularVelocity = r.number();
        if (r.ok && !(e.asset.lower <= e.asset.upper && e.asset.radius > 0.0 && e.asset.length > 0.0))
            return why = "emitter '" + e.name + "' has impossible values in the state", false;
    }
    next.nextBallId = r.get<std::uint64_t>();
    const std::uint32_t count = r.get<std::uint32_t>();
    constexpr std::size_t kBallBytes = 8 + 4 + 6 * 8;
    if (r.ok && (size - r.at) / kBallBytes < count) return why = "the state is cut short (" + std::to_string(size) + " bytes)", false;
    next.balls.assign(r.ok ? count : 0, Ball{});
    for (Ball& b : next.balls) {
        b.id = r.get<std::uint64_t>(), b.emitter = r.get<std::int32_t>();
        b.position = {r.number(), r.number()}, b.velocity = {r.number(), r.number()};
        b.radius = r.number(), b.restitution = r.number();
        if (r.ok && (b.emitter < 0 || b.emitter >= int(emitters.size()) || !(b.radius > 0.0) || b.id >= next.nextBallId))
            return why = "ball " + std::to_string(b.id) + " in the state is impossible", false;
    }
    if (!r.ok) return why = "the state is cut short or holds a value that is not a number (" + std::to_string(size) + " bytes)", false;
    if (r.at != size) return why = "the state has " + std::to_string(size - r.at) + " bytes too many", false;
    *this = std::move(next);
    return true;
}

}  // namespace bounce
