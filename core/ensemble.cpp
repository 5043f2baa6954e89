#include "ensemble.hpp"

#include "ensemble_isa.hpp"
#include "forces/force_kind.hpp"
#include "step_observer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <tuple>

// A fixed-step method runs on a block of copies at a time (all bodies, copies [k0, k0 + m)):
// every stage of the step, then the next block. The block's scratch stays in the first-level
// cache however many copies there are; the state and the carried data are read and written
// once per step. Within a block, every loop is over the m copies of one body and component,
// contiguous and branch-free, with the parameters hoisted: the compiler vectorises them
// (ensemble_kernels.inc), for the widest instruction set the processor has.
//
// When no force couples two bodies (no pair springs) and each body's forces fit a small set of
// shapes (body forces none, linear or drag; up to two anchor springs; up to one central body),
// a fixed-step method runs fused instead: body by body, one loop over all the copies computes
// every stage's acceleration in registers (fused_plan, step_fused). Same operations, same order,
// same bits; no scratch traffic.

namespace stepwise {

namespace {

using Out = double* __restrict;
using In = const double* __restrict;

// A vector quantity (position, velocity, acceleration, ...) of every body for the copies of one
// block: component c (0 x, 1 y) of body b is the array at(c, b) of m doubles.
struct Field {
    double* c[2] = {nullptr, nullptr};
    size_t stride = 0;
    double* at(int comp, int body) const { return c[comp] + static_cast<size_t>(body) * stride; }
};

// The system's forces as plain arrays (the kernels call nothing from the standard library).
// The ensemble's kernels are the force kinds' second implementation, over arrays of copies (the
// same bits as core/forces/, which the ensemble tests check on every scenario and preset). They
// know the kinds named below (forces_of, the passes and the fused shapes); a system holding any
// other kind (a written force, links, or a kind added to ForceKinds since) goes to the per-copy
// path (plan, per_copy_kinds), which steps each copy with the kind's own passes: a new kind runs
// in the ensemble with no line here, and is vectorised once it has a vector form and its line.
template <class K, class... Known>
constexpr bool one_of = (std::is_same_v<K, Known> || ...);
template <class K>
constexpr bool vectorised_kind =
    one_of<K, UniformGravity, LinearDamper, QuadraticDrag, AnchorSpringForce, PairSpringForce, CentralBody>;

struct Forces {
    int bodies;
    const double *mass, *inv_mass;
    double gx, gy, drag, damper;
    bool body_forces;  // accelerations() starts with the body-force pass, not a zero fill
    bool dissipative;  // System::dissipative(): damping or drag somewhere
    const AnchorSpring* anchors;
    int anchor_count;
    const PairSpring* pairs;
    int pair_count;
    const CentralForce* centrals;
    int central_count;
    // Without body forces, which force is the first on a body (first_touches): first[first_anchor
    // + q] anchor spring q, first[first_pair + 2q (+ 1)] pair spring q's end i (j),
    // first[first_central + b] the first central body on body b, first[first_fill + b] none at all.
    const unsigned char* first;
    int first_anchor, first_pair, first_central, first_fill;
};

std::vector<unsigned char> first_touches(const System& s) {
    const size_t n = static_cast<size_t>(s.bodies());
    std::vector<unsigned char> first, touched(n, 0);
    auto touch = [&](int b) {
        first.push_back(touched[static_cast<size_t>(b)] ? 0 : 1);
        touched[static_cast<size_t>(b)] = 1;
    };
    for (const AnchorSpring& sp : s.anchor_springs) touch(sp.body);
    for (const PairSpring& sp : s.pair_springs) {
        touch(sp.i);
        touch(sp.j);
    }
    for (size_t b = 0; b < n; ++b) {
        if (s.central_forces.empty())
            first.push_back(0);
        else
            touch(static_cast<int>(b));
    }
    for (size_t b = 0; b < n; ++b) first.push_back(touched[b] ? 0 : 1);
    return first;
}

Forces forces_of(const System& s, const std::vector<unsigned char>& first) {
    const int anchors = static_cast<int>(s.anchor_springs.size()), pairs = static_cast<int>(s.pair_springs.size());
    return {s.bodies(),
            s.mass.data(),
            s.inv_mass.data(),
            s.gravity.x,
            s.gravity.y,
            s.drag,
            s.damper,
            !(s.drag == 0.0 && s.damper == 0.0 && s.gravity.x == 0.0 && s.gravity.y == 0.0),
            s.dissipative(),
            s.anchor_springs.data(),
            anchors,
            s.pair_springs.data(),
            pairs,
            s.central_forces.data(),
            static_cast<int>(s.central_forces.size()),
            first.data(),
            0,
            anchors,
            anchors + 2 * pairs,
            anchors + 2 * pairs + s.bodies()};
}

// One block of copies under a vectorised method.
struct Block {
    const Forces* f;
    int n;  // bodies
    int m;  // copies in this block
    Field x, v;        // the state
    Field carry[2];    // what the method carries between steps
    Field tmp[6];      // scratch
    const OscillatorMap* maps;  // kinematic: kinematic_force_maps for this step size
    long long* evaluations;     // summed over the copies
};

using BlockStep = void (*)(const Block& B, double h, bool started);

// A vectorised method (one row of ensemble_kernels.inc's soa_methods): its id, the vector
// fields it carries per copy and needs as scratch per block, whether it uses the kinematic
// force maps, its step over a block of copies by passes, and its fused form's cost.
struct SoaMethod {
    const char* id;
    int carried = 0, scratch = 0;
    bool force_maps = false;
    // Force evaluations per step of its fused form; 0: none (the kinematic methods).
    int fused_evaluations = 0;
    // The first step evaluates the start once more (leapfrog, Störmer and velocity Verlet).
    bool evaluates_start = false;
    // Its fused form holds only without damping or drag (yoshida4's fused step is the plain
    // Forest–Ruth sequence; with dissipation its passes split off the dissipative flows).
    bool fused_undamped_only = false;
    BlockStep block = nullptr;
};

// The fused methods (ensemble_kernels.inc's fused_step): one body's force parameters, hoisted.
struct FusedParams {
    double gx, gy, c, damper, drag, im;  // c = damper * im (the linear form)
    double sax[2], say[2], k[2], rest[2], b[2];  // up to two anchor springs, in order
    double cx, cy, gm;  // the central body
};
// Its shape: body forces (0 none, 1 linear, 2 drag), each spring (0 absent, 1 rest 0, 2 rest
// length), a central body or not; plain: mass 1, every anchor and the centre at (+0.0, +0.0).
struct FusedShape {
    int body, s1, s2;
    bool central, plain;
};
struct FusedBody {
    int m;
    double *x, *y, *vx, *vy, *c0x, *c0y, *c1x, *c1y;  // state and carried fields
    FusedParams p;
};
using FusedStep = void (*)(const FusedBody& b, int method, double h, bool started);

// The kinematic step's central bodies, as kinematic_step: each copy's Kepler flow, one at a time.
void add_kepler_increments(const Block& B, double h, bool average, const Field& dv, const Field& dx) {
    for (int q = 0; q < B.f->central_count; ++q)
        for (int b = 0; b < B.n; ++b) {
            const double *px = B.x.at(0, b), *py = B.x.at(1, b), *pvx = B.v.at(0, b), *pvy = B.v.at(1, b);
            double *dvx = dv.at(0, b), *dvy = dv.at(1, b), *dxx = dx.at(0, b), *dxy = dx.at(1, b);
            for (int k = 0; k < B.m; ++k) {
                dvec2 ddv, ddx;
                CentralBody::kepler_increment(B.f->centrals[q], dvec2(px[k], py[k]), dvec2(pvx[k], pvy[k]), h, average,
                                            ddv, ddx);
                dvx[k] += ddv.x;
                dvy[k] += ddv.y;
                dxx[k] += ddx.x;
                dxy[k] += ddx.y;
            }
        }
}

// The kernels, once per instruction set.
namespace isa_default {
#include "ensemble_kernels.inc"
}  // namespace isa_default

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define STEPWISE_ENSEMBLE_X86_CLONES 1
#pragma GCC push_options
#pragma GCC target("avx2")
namespace isa_avx2 {
#include "ensemble_kernels.inc"
}  // namespace isa_avx2
#pragma GCC pop_options
#pragma GCC push_options
#pragma GCC target("avx512f,prefer-vector-width=512")
namespace isa_avx512 {
#include "ensemble_kernels.inc"
}  // namespace isa_avx512
#pragma GCC pop_options
#endif

struct Isa {
    const char* name;
    const SoaMethod* methods;  // that instruction set's soa_methods (the same rows, its kernels)
    FusedStep (*fused)(const FusedShape&);
    bool (*supported)();
};
const Isa isas[] = {
    {"default", isa_default::soa_methods.data(), isa_default::fused_pick, [] { return true; }},
#ifdef STEPWISE_ENSEMBLE_X86_CLONES
    {"avx2", isa_avx2::soa_methods.data(), isa_avx2::fused_pick, [] { return __builtin_cpu_supports("avx2") != 0; }},
    {"avx512f", isa_avx512::soa_methods.data(), isa_avx512::fused_pick, [] { return __builtin_cpu_supports("avx512f") != 0; }},
#endif
};
constexpr int isa_count = static_cast<int>(std::size(isas));

// The widest the processor runs, unless a test chose another.
int widest_isa() {
#ifdef STEPWISE_ENSEMBLE_X86_CLONES
    __builtin_cpu_init();  // this runs among the static constructors
#endif
    int best = 0;
    for (int i = 0; i < isa_count; ++i)
        if (isas[i].supported()) best = i;
    return best;
}
int current_isa = widest_isa();

// ---------------------------------------------------------------------------------------
// The vectorised methods: ensemble_kernels.inc's table (the same rows in every instruction set).
using isa_default::soa_methods;

// A block holds block_doubles / bodies copies (a multiple of 8, at least 8): each scratch array
// of a body and component is then 2 KiB at most, and rk4's twelve per body (the most) with the
// block's state stay within a first-level cache (measured best of 128 to 1024 on one body).
constexpr int block_doubles = 256;
// Scratch arrays are this many doubles longer than a block: arrays a power of two apart would
// alias in the store buffer (loads wait for unrelated stores 4 KiB away).
constexpr int scratch_pad = 24;

// The Lane's carried fields a per-copy step keeps for each copy: carry_v, carry_a, carry_x.
constexpr int carried_per_copy = 3;

struct Plan {
    int method = -1;  // into soa_methods, or -1: per copy
    int carried = 0;  // vector fields per copy
    int scratch = 0;  // vector fields per block
    int block = 0;
};

// The system has a kind the kernels do not know: links, a written force (its expressions are a
// stack machine per body, with nothing to gain from the copies' arrays).
bool per_copy_kinds(const System& s) {
    bool any = false;
    for_each_force_kind([&]<class K>() {
        if constexpr (!vectorised_kind<K>) any = any || K::present(s);
    });
    return any;
}

// per_copy: the system has a kind the kernels do not know (per_copy_kinds).
Plan plan(int integrator, int bodies, int copies, bool per_copy) {
    const auto& table = integrators();
    if (integrator < 0 || integrator >= static_cast<int>(table.size()))
        throw std::invalid_argument("Ensemble: no integrator " + std::to_string(integrator));
    if (copies < 0 || bodies < 0) throw std::invalid_argument("Ensemble: negative size");
    Plan p;
    for (int i = 0; i < static_cast<int>(std::size(soa_methods)) && !per_copy; ++i)
        if (std::strcmp(soa_methods[i].id, table[static_cast<size_t>(integrator)].id) == 0) p.method = i;
    if (p.method < 0) {
        // The single path per copy: a stateful method carries what its Lane carries between
        // steps (rk45: its first-same-as-last slope, velocity and acceleration; the Verlet family
        // its previous position or cached acceleration) besides its step size and started flag.
        p.carried = table[static_cast<size_t>(integrator)].stateful ? carried_per_copy : 0;
        return p;
    }
    const SoaMethod& method = soa_methods[p.method];
    p.carried = method.carried;
    p.scratch = method.scratch;
    p.block = std::min(std::max(8, (block_doubles / std::max(bodies, 1)) & ~7), std::max(copies, 1));
    return p;
}


// Per body: body-force kind, spring kinds, central, the two anchor springs' indices, plain (7 ints), when
// every body's forces fit a fused shape: no pair springs, at most two anchor springs on a body,
// at most one central body, a method with a fused form. Otherwise empty: the passes.
std::vector<int> fused_plan(const System& s, int method) {
    std::vector<int> plan;
    if (method < 0 || soa_methods[method].fused_evaluations == 0 || s.bodies() == 0 ||
        !s.pair_springs.empty() || s.central_forces.size() > 1 ||
        (soa_methods[method].fused_undamped_only && s.dissipative()))
        return plan;
    const bool body_forces = !(s.drag == 0.0 && s.damper == 0.0 && s.gravity.x == 0.0 && s.gravity.y == 0.0);
    const int body = !body_forces ? 0 : s.drag == 0.0 ? 1 : 2;
    for (int b = 0; b < s.bodies(); ++b) {
        int kinds[2] = {0, 0}, index[2] = {-1, -1}, count = 0;
        // x - (+0.0) is x and 1.0 * f is f, bit for bit (not so for -0.0: -0.0 - -0.0 is +0.0).
        auto origin = [](dvec2 p) { return p.x == 0.0 && p.y == 0.0 && !std::signbit(p.x) && !std::signbit(p.y); };
        bool plain = s.inv_mass[static_cast<size_t>(b)] == 1.0 &&
                     (s.central_forces.empty() || origin(s.central_forces[0].centre));
        for (int q = 0; q < static_cast<int>(s.anchor_springs.size()); ++q) {
            if (s.anchor_springs[static_cast<size_t>(q)].body != b) continue;
            if (count == 2) return {};
            kinds[count] = s.anchor_springs[static_cast<size_t>(q)].rest == 0.0 ? 1 : 2;
            plain = plain && origin(s.anchor_springs[static_cast<size_t>(q)].anchor);
            index[count++] = q;
        }
#ifdef STEPWISE_ENSEMBLE_COMPACT
        // The compact build has fewer kernels (see ensemble_kernels.inc): no plain twins, and
        // a central body with springs on the same body goes through the passes.
        plain = false;
        if (!s.central_forces.empty() && count > 0) return {};
#endif
        plan.insert(plan.end(),
                    {body, kinds[0], kinds[1], s.central_forces.empty() ? 0 : 1, index[0], index[1], plain ? 1 : 0});
    }
    return plan;
}

}  // namespace

Ensemble::Ensemble(const System& system, int integrator, int copies, const dvec2* x0, const dvec2* v0, int iterations,
                   double pbd_stiffness)
    : system_(system), integrator_(integrator), copies_(copies), bodies_(system.bodies()) {
    const Plan p = plan(integrator, bodies_, copies_, per_copy_kinds(system));
    method_ = p.method;
    block_ = p.block;
    const size_t n = static_cast<size_t>(bodies_), N = static_cast<size_t>(copies_);
    for (int c = 0; c < 4; ++c) {
        state_[c].resize(n * N);
        start_[c].resize(n * N);
    }
    carry_.resize(static_cast<size_t>(p.carried) * 2 * n * N);
    scratch_.resize(static_cast<size_t>(p.scratch) * 2 * n * static_cast<size_t>(p.block + scratch_pad));
    first_touch_ = first_touches(system_);
    fused_ = fused_plan(system_, method_);
    if (method_ >= 0 && soa_methods[method_].force_maps)
        force_maps_.resize(static_cast<size_t>(kinematic_map_count(system_)));
    if (method_ < 0) {
        lane_ = make_lane(system_, integrator, x0, v0);
        if (iterations != 0) lane_.iterations = iterations;
        lane_.pbd_stiffness = pbd_stiffness;
        // A written force reads the time: each copy keeps its own clock (Lane::t), as its lane would.
        if (system.written.present) copy_time_.resize(N);
        if (p.carried > 0) {
            copy_substep_.resize(N);
            copy_started_.resize(N);
            // A stateful solver (soft_step) carries each row's accumulated impulse too.
            copy_row_lambda_.resize(static_cast<size_t>(lane_.rows.size()) * N);
        }
    }
    for (int k = 0; k < copies_; ++k) set_start(k, x0, v0);
    reset();
}

void Ensemble::set_start(int copy, const dvec2* x, const dvec2* v) {
    if (copy < 0 || copy >= copies_) throw std::out_of_range("Ensemble::set_start: no copy " + std::to_string(copy));
    for (int b = 0; b < bodies_; ++b) {
        const size_t i = static_cast<size_t>(b) * copies_ + copy;
        start_[0][i] = x[b].x;
        start_[1][i] = x[b].y;
        start_[2][i] = v[b].x;
        start_[3][i] = v[b].y;
    }
}

void Ensemble::reset() {
    for (int c = 0; c < 4; ++c) std::copy(start_[c].begin(), start_[c].end(), state_[c].begin());
    started_ = false;
    force_maps_h_ = 0.0;
    evaluations_ = 0;
    std::fill(copy_substep_.begin(), copy_substep_.end(), 0.0);
    std::fill(copy_time_.begin(), copy_time_.end(), 0.0);
    std::fill(copy_started_.begin(), copy_started_.end(), 0);
    std::fill(copy_row_lambda_.begin(), copy_row_lambda_.end(), 0.0);
    lane_.force_evaluations = lane_.newton_failures = lane_.rejected_substeps = 0;
}

void Ensemble::step(double h) {
    step_part(h, 0, copies_);
    end_step();
}

// started_ says whether the step being taken is the first since reset (the Verlet family's
// first force evaluation): it changes only once every copy has taken that step.
void Ensemble::end_step() { started_ = true; }

void Ensemble::substep_part(double h, int substeps, int first, int count) {
    if (substeps == 1) {
        step_part(h, first, count);
        return;
    }
    const bool started = started_;
    const double part = h / static_cast<double>(substeps);
    for (int k = 0; k < substeps; ++k) {
        step_part(part, first, count);
        started_ = true;
    }
    started_ = started;  // end_step says when every copy has taken the step
}

void Ensemble::step_part(double h, int first_copy, int count) {
    const size_t first = static_cast<size_t>(std::clamp(first_copy, 0, copies_));
    const size_t end = first + static_cast<size_t>(std::clamp(count, 0, copies_ - static_cast<int>(first)));
    if (end == first) return;
    if (method_ < 0) {
        step_per_copy(h, first, end);
        return;
    }
    const SoaMethod& method = soa_methods[method_];
    if (method.force_maps && force_maps_h_ != h) {  // as update_force_maps
        kinematic_force_maps(system_, h, force_maps_.data());
        force_maps_h_ = h;
    }
    if (!fused_.empty()) {
        step_fused(h, first, end);
        return;
    }
    const BlockStep block_step = isas[current_isa].methods[method_].block;
    const Forces forces = forces_of(system_, first_touch_);
    const size_t n = static_cast<size_t>(bodies_), N = static_cast<size_t>(copies_), block = static_cast<size_t>(block_);
    for (size_t k0 = first; k0 < end; k0 += block) {
        Block B{&forces, bodies_, static_cast<int>(std::min(block, end - k0)), {}, {}, {}, {}, force_maps_.data(),
                &evaluations_};
        B.x = {{state_[0].data() + k0, state_[1].data() + k0}, N};
        B.v = {{state_[2].data() + k0, state_[3].data() + k0}, N};
        for (int f = 0; f < method.carried; ++f) B.carry[f] = {{carry(f, 0) + k0, carry(f, 1) + k0}, N};
        const size_t stride = block + scratch_pad;
        for (int f = 0; f < method.scratch; ++f) {
            double* base = scratch_.data() + static_cast<size_t>(f) * 2 * n * stride;
            B.tmp[f] = {{base, base + n * stride}, stride};
        }
        block_step(B, h, started_);
    }
}

// Body by body, all copies of the part at once, the fused step for the body's shape.
void Ensemble::step_fused(double h, size_t first, size_t end) {
    const System& s = system_;
    const size_t N = static_cast<size_t>(copies_);
    const int carried = soa_methods[method_].carried;
    for (int b = 0; b < bodies_; ++b) {
        const int* plan = &fused_[static_cast<size_t>(b) * 7];
        const FusedShape shape{plan[0], plan[1], plan[2], plan[3] != 0, plan[6] != 0};
        const size_t o = static_cast<size_t>(b) * N + first;
        FusedBody fb{};
        fb.m = static_cast<int>(end - first);
        fb.x = state_[0].data() + o;
        fb.y = state_[1].data() + o;
        fb.vx = state_[2].data() + o;
        fb.vy = state_[3].data() + o;
        if (carried > 0) {
            fb.c0x = carry(0, 0) + o;
            fb.c0y = carry(0, 1) + o;
        }
        if (carried > 1) {
            fb.c1x = carry(1, 0) + o;
            fb.c1y = carry(1, 1) + o;
        }
        FusedParams& p = fb.p;
        const double im = s.inv_mass[static_cast<size_t>(b)];
        p.gx = s.gravity.x;
        p.gy = s.gravity.y;
        p.c = s.damper * im;
        p.damper = s.damper;
        p.drag = s.drag;
        p.im = im;
        for (int q = 0; q < 2; ++q)
            if (plan[4 + q] >= 0) {
                const AnchorSpring& sp = s.anchor_springs[static_cast<size_t>(plan[4 + q])];
                p.sax[q] = sp.anchor.x;
                p.say[q] = sp.anchor.y;
                p.k[q] = sp.k;
                p.rest[q] = sp.rest;
                p.b[q] = sp.b;
            }
        if (shape.central) {
            p.cx = s.central_forces[0].centre.x;
            p.cy = s.central_forces[0].centre.y;
            p.gm = s.central_forces[0].gm;
        }
        isas[current_isa].fused(shape)(fb, method_, h, started_);
    }
    const SoaMethod& method = soa_methods[method_];
    const bool starts = !started_ && method.evaluates_start;
    evaluations_ += static_cast<long long>(end - first) * (method.fused_evaluations + (starts ? 1 : 0));
}

const char* Ensemble::path() const {
    return method_ < 0 ? "per copy" : fused_.empty() ? "passes" : "fused";
}

// Implicit Euler's Newton iteration and rk45's substeps differ from copy to copy, and the solvers
// have no vectorised form: the single path's step function on each copy in turn, through one Lane,
// each copy's carried data (a stateful method's fields, soft_step's row impulses) loaded into it
// before the step and saved after.
void Ensemble::step_per_copy(double h, size_t first, size_t end) {
    const StepFn step = integrators()[static_cast<size_t>(integrator_)].step;
    const bool carries = !copy_started_.empty();
    const size_t N = static_cast<size_t>(copies_);
    double *cvx = nullptr, *cvy = nullptr, *cax = nullptr, *cay = nullptr, *cxx = nullptr, *cxy = nullptr;
    if (carries) {
        cvx = carry(0, 0);
        cvy = carry(0, 1);
        cax = carry(1, 0);
        cay = carry(1, 1);
        cxx = carry(2, 0);
        cxy = carry(2, 1);
    }
    for (size_t k = first; k < end; ++k) {
        for (int b = 0; b < bodies_; ++b) {
            const size_t i = static_cast<size_t>(b) * N + k;
            lane_.x[b] = dvec2(state_[0][i], state_[1][i]);
            lane_.v[b] = dvec2(state_[2][i], state_[3][i]);
            if (carries) {
                lane_.carry_v[b] = dvec2(cvx[i], cvy[i]);
                lane_.carry_a[b] = dvec2(cax[i], cay[i]);
                lane_.carry_x[b] = dvec2(cxx[i], cxy[i]);
            }
        }
        if (carries) {
            lane_.started = copy_started_[k] != 0;
            lane_.substep = copy_substep_[k];
            for (size_t q = 0; q < lane_.row_lambda.size(); ++q) lane_.row_lambda[q] = copy_row_lambda_[q * N + k];
        }
        lane_.gave_up = lane_.unsolved = false;
        const bool timed = !copy_time_.empty();
        if (timed) lane_.t = copy_time_[k];
        step(system_, lane_, h);
        if (timed) copy_time_[k] = lane_.t;
        if (lane_.gave_up || lane_.unsolved) {
            // rk45 hit its substep limit, or implicit Euler's Newton iteration found no step:
            // this copy has no state at the step's end. A copy with no finite state is the
            // ensemble's stopped copy (finite_copies leaves it out).
            const double none = std::numeric_limits<double>::quiet_NaN();
            std::fill(lane_.x.begin(), lane_.x.end(), dvec2(none));
            std::fill(lane_.v.begin(), lane_.v.end(), dvec2(none));
        }
        for (int b = 0; b < bodies_; ++b) {
            const size_t i = static_cast<size_t>(b) * N + k;
            state_[0][i] = lane_.x[b].x;
            state_[1][i] = lane_.x[b].y;
            state_[2][i] = lane_.v[b].x;
            state_[3][i] = lane_.v[b].y;
            if (carries) {
                cvx[i] = lane_.carry_v[b].x;
                cvy[i] = lane_.carry_v[b].y;
                cax[i] = lane_.carry_a[b].x;
                cay[i] = lane_.carry_a[b].y;
                cxx[i] = lane_.carry_x[b].x;
                cxy[i] = lane_.carry_x[b].y;
            }
        }
        if (carries) {
            copy_started_[k] = lane_.started ? 1 : 0;
            copy_substep_[k] = lane_.substep;
            for (size_t q = 0; q < lane_.row_lambda.size(); ++q) copy_row_lambda_[q * N + k] = lane_.row_lambda[q];
        }
    }
    evaluations_ = lane_.force_evaluations;
}

dvec2 Ensemble::position(int copy, int body) const {
    const size_t i = static_cast<size_t>(body) * copies_ + copy;
    return dvec2(state_[0][i], state_[1][i]);
}

dvec2 Ensemble::velocity(int copy, int body) const {
    const size_t i = static_cast<size_t>(body) * copies_ + copy;
    return dvec2(state_[2][i], state_[3][i]);
}

int Ensemble::finite_copies(int first, int count_of) const {
    const int end = count_of < 0 ? copies_ : first + count_of;
    int count = 0;
    for (int k = first; k < end; ++k) {
        bool finite = true;
        for (int c = 0; c < 4; ++c)
            for (int b = 0; b < bodies_; ++b)
                finite = finite && std::isfinite(state_[c][static_cast<size_t>(b) * copies_ + k]);
        count += finite ? 1 : 0;
    }
    return count;
}

double Ensemble::force_evaluations() const {
    return copies_ > 0 ? static_cast<double>(evaluations_) / copies_ : 0.0;
}

double Ensemble::bytes_needed(int integrator, int bodies, int copies, bool linked, int solver_rows) {
    const Plan p = plan(integrator, bodies, copies, linked);
    const double n = bodies, N = copies;
    // State and start (4 components each), carried fields (2 components), one block's scratch.
    double doubles = (8.0 + 2.0 * p.carried) * n * N + 2.0 * p.scratch * n * (p.block + scratch_pad);
    if (p.method >= 0 && soa_methods[p.method].force_maps) doubles += 4.0 * 2.0 * n;  // maps, about
    double bytes = sizeof(double) * doubles + sizeof(Ensemble);
    if (p.method < 0) {
        // The Lane (23 vectors of dvec2, the dense Jacobians at most) and each copy's step size
        // and started flag.
        bytes += sizeof(dvec2) * 23.0 * n + sizeof(double) * (12.0 * n * n + 2.0 * n);
        // Each copy's step size and started flag, and a stateful solver's impulse per row (the
        // Lane's rows are built only for a solver).
        const bool solver = integrators()[static_cast<size_t>(integrator)].solves_constraints;
        if (p.carried > 0) bytes += (sizeof(double) + 1.0) * N + (solver ? sizeof(double) * solver_rows * N : 0.0);
    }
    return bytes;
}

namespace ensemble_isa {

std::vector<std::string> available() {
    std::vector<std::string> names;
    for (const Isa& isa : isas)
        if (isa.supported()) names.push_back(isa.name);
    return names;
}

std::string current() { return isas[current_isa].name; }

bool choose(const std::string& name) {
    for (int i = 0; i < isa_count; ++i)
        if (name == isas[i].name && isas[i].supported()) {
            current_isa = i;
            return true;
        }
    return false;
}

}  // namespace ensemble_isa

}  // namespace stepwise
