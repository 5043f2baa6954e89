// A scenario built from a Config, and a Simulation running one lane per chosen integrator
// side by side, with the exact (or reference) motion, energies and divergence flags.
#pragma once
#include "config.hpp"
#include "integrators.hpp"
#include "system.hpp"

#include <string>
#include <vector>

namespace stepwise {

struct Scene {
    System system;
    std::vector<dvec2> x0, v0;
    double length_scale = 1.0;  // a size of the motion, for the runaway check
};

Scene build_scene(const Config& c);

enum class ReferenceKind { exact, rk45 };
const char* reference_name(ReferenceKind k);  // "exact" or "rk45"

// rk45 tolerances of the reference lane (where no closed form exists).
constexpr double reference_rtol = 1e-12;
// A lane whose position leaves this many length scales has run away.
constexpr double runaway_factor = 1e6;

class Simulation {
public:
    explicit Simulation(const Config& c);

    // Back to t = 0 with fresh lanes (stateful integrators restart).
    void reset();
    // Advance every lane by one dt; diverged lanes stay where they were.
    void step();
    void advance(long long steps);

    const Config& config() const { return config_; }
    const Scene& scene() const { return scene_; }
    long long steps() const { return steps_; }
    double time() const { return static_cast<double>(steps_) * config_.dt; }  // never t += dt
    int lanes() const { return static_cast<int>(lanes_.size()); }
    int bodies() const { return scene_.system.bodies(); }
    const Lane& lane(int i) const { return lanes_[i]; }
    const IntegratorInfo& info(int i) const;

    bool diverged(int i) const { return status_[i].diverged; }
    double diverged_at(int i) const { return status_[i].diverged_at; }
    // Mechanical energy (kinetic + potential) of lane i, and the energy its damping and
    // drag have removed so far (trapezoid rule on the dissipated power).
    double energy(int i) const;
    double dissipated(int i) const { return status_[i].dissipated; }

    ReferenceKind reference_kind() const { return reference_kind_; }
    const std::vector<dvec2>& reference_x() const { return ref_x_; }
    const std::vector<dvec2>& reference_v() const { return ref_v_; }
    double reference_energy() const;
    // Distance from lane i's body to the reference position of the same body.
    double error(int lane, int body) const;
    // Energy drift of lane i relative to the reference: (E - E_ref) / S, where S is the larger
    // of KE + |PE| at the start and of the reference now (so a decayed or zero energy is no divisor).
    double energy_drift(int i) const;

private:
    struct Status {
        bool diverged = false;
        double diverged_at = 0.0;
        double dissipated = 0.0;
        double power = 0.0;  // dissipated power at the current state
    };
    void update_reference();
    bool runaway(const Lane& L) const;

    Config config_;
    Scene scene_;
    std::vector<Lane> lanes_;
    std::vector<Status> status_;
    std::vector<std::vector<dvec2>> last_x_, last_v_;  // the last good state of each lane
    ReferenceKind reference_kind_;
    Lane reference_lane_;
    std::vector<dvec2> ref_x_, ref_v_;
    bool dissipative_ = false;
    double initial_energy_scale_ = 0.0;  // KE + |PE| at t = 0
    long long steps_ = 0;
};

}  // namespace stepwise
