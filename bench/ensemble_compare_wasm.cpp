// The ensemble comparison's WebAssembly driver (scripts/bench-wasm.sh builds it with em++ -O3
// -msimd128 -ffp-contract=off; bench/ensemble_compare_wasm.mjs times it in node against plain
// JavaScript). The same physics and start states as the native benchmark (ensemble_compare.hpp):
// an Ensemble of any integrator, or the limit loop of one of its methods, stepped from JS.
#include "ensemble.hpp"
#include "ensemble_compare.hpp"
#include "integrators.hpp"
#include "system.hpp"

#include <emscripten/emscripten.h>

#include <iterator>
#include <memory>

namespace {

using namespace stepwise_compare;
using stepwise::dvec2;

const Start& start() {
    static const Start s = make_start(kCopies);
    return s;
}

std::unique_ptr<stepwise::Ensemble> g_ensemble;
std::unique_ptr<Limit> g_limit;

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE int sw_copies() { return kCopies; }
EMSCRIPTEN_KEEPALIVE double sw_dt() { return kDt; }
EMSCRIPTEN_KEEPALIVE double sw_stiffness() { return kStiffness; }
EMSCRIPTEN_KEEPALIVE double sw_damping() { return kDamping; }
EMSCRIPTEN_KEEPALIVE int sw_integrator_count() { return static_cast<int>(stepwise::integrators().size()); }
EMSCRIPTEN_KEEPALIVE const char* sw_integrator_id(int i) { return stepwise::integrators()[static_cast<size_t>(i)].id; }
EMSCRIPTEN_KEEPALIVE int sw_limit_method_count() { return static_cast<int>(std::size(limit_method_ids)); }
EMSCRIPTEN_KEEPALIVE const char* sw_limit_method_id(int m) { return limit_method_ids[m]; }

// The start state's component c (0 x, 1 y, 2 vx, 3 vy), kCopies doubles.
EMSCRIPTEN_KEEPALIVE const double* sw_start(int c) {
    const Start& s = start();
    return (c == 0 ? s.x : c == 1 ? s.y : c == 2 ? s.vx : s.vy).data();
}

// An Ensemble of integrator `index` at the start state (replacing the previous one).
EMSCRIPTEN_KEEPALIVE void sw_ensemble_create(int index) {
    const Start& s = start();
    stepwise::System sys;
    sys.add_body(1.0);
    sys.anchor_springs.push_back({0, dvec2(0.0, 0.0), kStiffness, 0.0, kDamping});
    const dvec2 x0(s.x[0], s.y[0]), v0(s.vx[0], s.vy[0]);
    g_ensemble = std::make_unique<stepwise::Ensemble>(sys, index, kCopies, &x0, &v0);
    for (int k = 0; k < kCopies; ++k) {
        const dvec2 x(s.x[k], s.y[k]), v(s.vx[k], s.vy[k]);
        g_ensemble->set_start(k, &x, &v);
    }
    g_ensemble->reset();
}
EMSCRIPTEN_KEEPALIVE void sw_ensemble_reset() { g_ensemble->reset(); }
EMSCRIPTEN_KEEPALIVE void sw_ensemble_steps(int steps) {
    for (int i = 0; i < steps; ++i) g_ensemble->step(kDt);
}
// The Ensemble's state, component c, kCopies doubles.
EMSCRIPTEN_KEEPALIVE const double* sw_ensemble_state(int c) {
    return c == 0 ? g_ensemble->x(0) : c == 1 ? g_ensemble->y(0) : c == 2 ? g_ensemble->vx(0) : g_ensemble->vy(0);
}

// The limit loop of method m (limit_method_ids) at the start state.
EMSCRIPTEN_KEEPALIVE void sw_limit_create(int m) {
    g_limit = std::make_unique<Limit>(static_cast<LimitMethod>(m), kStiffness, kDamping);
    g_limit->reset(start());
}
EMSCRIPTEN_KEEPALIVE void sw_limit_reset() { g_limit->reset(start()); }
EMSCRIPTEN_KEEPALIVE void sw_limit_steps(int steps) {
    for (int i = 0; i < steps; ++i) g_limit->step(kDt);
}
EMSCRIPTEN_KEEPALIVE const double* sw_limit_state(int c) {
    const Limit& l = *g_limit;
    return (c == 0 ? l.x : c == 1 ? l.y : c == 2 ? l.vx : l.vy).data();
}

}  // extern "C"
