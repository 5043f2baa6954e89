// What the force kinds (force_kind.hpp) give the core besides their own passes: the fields'
// summed terms and the closed-form families.
#pragma once
#include "exact.hpp"
#include "step_observer.hpp"
#include "system.hpp"

#include <vector>

namespace stepwise {

// The fields' summed terms (add_field in force_kind.hpp).
// The coefficients start at −0, which x + (−0) leaves exactly as it is, so summing a lone field's
// coefficient costs nothing (the compiler drops the addition) and absent ones stay zero.
struct BodyField {
    dvec2 g{0.0, 0.0};  // uniform acceleration
    double b = -0.0;    // linear damping coefficient (N·s/m)
    double c = -0.0;    // quadratic drag coefficient (N·s²/m²)
};

// The closed forms the exact reference knows (exact.hpp). A system has one when every kind in it
// takes part in the same family and the family's own shape conditions hold (exact.cpp).
enum ClosedFormFamily : unsigned {
    closed_form_none = 0,
    // Every body alone: a damped oscillator (rest-0 anchor springs summed), a damper, gravity.
    closed_form_decoupled = 1u << 0,
    // Two bodies joined by one rest-0 spring: the centre of mass falls, the separation oscillates.
    closed_form_pair = 1u << 1,
    // One body around one central body: Kepler's flow.
    closed_form_kepler = 1u << 2,
    // One body on one rigid link to an anchor under gravity, undamped: the pendulum's Jacobi
    // elliptic solution (pendulum_exact.hpp).
    closed_form_pendulum = 1u << 3,
};
// The families whose forces are not linear (a kind that is not linear keeps only these).
constexpr unsigned closed_form_nonlinear = closed_form_kepler | closed_form_pendulum;

// What the page draws of a system's forces (each kind's describe, in the table's order): fixed
// anchors (each distinct point once), connectors between bodies or a body and an anchor (by
// index; `kind` is the force kind's id, so a spring is drawn as a coil and a link as a rod),
// central bodies, and the uniform field.
struct SceneDrawing {
    struct End {
        bool anchor;  // true: anchors[index]; false: body index
        int index;
    };
    struct Connector {
        const char* kind;
        End from, to;
        double rest;
        double compliance = 0.0;  // a link's: 0 is a rigid rod (drawn as a bar), else a spring
    };
    struct Centre {
        dvec2 at;
        double gm, radius;
    };
    std::vector<dvec2> anchors;
    std::vector<Connector> connectors;
    std::vector<Centre> centres;
    bool has_gravity = false;
    dvec2 gravity{0.0, 0.0};

    // The index of anchor point p, added the first time it is seen.
    int anchor(dvec2 p) {
        size_t a = 0;
        while (a < anchors.size() && !(anchors[a].x == p.x && anchors[a].y == p.y)) ++a;
        if (a == anchors.size()) anchors.push_back(p);
        return static_cast<int>(a);
    }
};

// One kinematic step's sums (integrators.cpp): every force adds the (dv, dx) it alone would
// cause over the step (its exact flow's change of velocity and its displacement beyond
// x0 + v0·h), or, without a flow, the semi-implicit terms dv = a·h, dx = dv·dx_factor. Traced,
// a force's own increments go to inc_dv, inc_dx and show() reports them as one stage.
struct KinematicPass {
    const System& s;
    const dvec2* x;
    const dvec2* v;
    dvec2* dv;  // the sums, from −0 (which adding leaves exact)
    dvec2* dx;
    dvec2* inc_dv;  // traced only: one force's increments
    dvec2* inc_dx;
    double h;
    double t;                   // the step's start time (a force that reads the time: written_force.hpp)
    bool average;               // the average-acceleration variant: dx = dv·h/2 for every force
    double dx_factor;           // h, or h/2 with average
    const char* no_closed_form;  // the label suffix of a force without a flow
    const OscillatorMap* maps;  // the kind's own maps (kinematic_maps), this step size
    // Traced only: report inc_dx, inc_dv as stage `name` and clear them; report (dx, dv) as is.
    void (*show)(KinematicPass& pass, StageName name) = nullptr;
    void (*report)(KinematicPass& pass, StageName name, const dvec2* dx, const dvec2* dv) = nullptr;
    void* lane = nullptr;  // for show and report

    // A force without a flow on body i: its semi-implicit terms, dv = a·h (given) and dx =
    // dv·dx_factor, added to the sums (and kept as its increments, traced).
    template <bool traced>
    void add_semi_implicit(int i, dvec2 ddv) {
        const dvec2 ddx = dx_factor * ddv;
        dv[i] += ddv;
        dx[i] += ddx;
        if constexpr (traced) {
            inc_dv[i] = ddv;
            inc_dx[i] = ddx;
        }
    }
};

// The exact (dv, dx) of a linear oscillator over the step, from its map and (d0, v0).
inline void oscillator_increment(const OscillatorMap& m, dvec2 d0, dvec2 v0, double h, dvec2& dv, dvec2& dx) {
    dvec2 d = d0, v = v0;
    apply(m, d, v);
    dv = v - v0;
    dx = d - d0 - v0 * h;
}

template <class K>
concept FieldKind = requires(const System& s, BodyField& f) { K::add_field(s, f); };

}  // namespace stepwise
