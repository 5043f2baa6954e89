#include "work.hpp"

#include "forces/written_force.hpp"
#include "integrators.hpp"
#include "simulation.hpp"

namespace stepwise {

long long force_units(const System& s) {
    const long long n = s.bodies();
    const auto count = [](const auto& items) { return static_cast<long long>(items.size()); };
    return 4 + n + count(s.anchor_springs) + count(s.pair_springs) + count(s.central_forces) + count(s.links) +
           (s.written.present ? 2 * n : 0);
}

long long evaluation_units(const System& s, const LaneSpec& lane) {
    const long long n = s.bodies(), units = force_units(s);
    if (!integrators()[static_cast<size_t>(lane.integrator)].implicit || !s.couples_bodies()) return units;
    // As make_lane sizes implicit Euler's solve: a band where it is narrower than the matrix.
    const long long dim = 2 * n, kl = 2LL * s.coupling_span() + 1;
    const long long solve = 3 * kl + 1 < dim ? dim * (kl + 1) * (kl + 1) / 8 : dim * dim * dim / 48 + dim * dim / 4;
    return units + solve;
}

SimulationWork::SimulationWork(const Simulation& sim) : sim_(sim), nodes_at_start_(WrittenForce::quadrature_nodes()) {
    for (const LaneSpec& lane : sim.config().integrators) units_.push_back(evaluation_units(sim.scene().system, lane));
}

long long SimulationWork::operator()() const {
    // A closed form costs no evaluations, and asking would bring it up to now at every call.
    long long work = sim_.reference_kind() == ReferenceKind::rk45
                         ? sim_.reference_force_evaluations() * force_units(sim_.scene().system)
                         : 0;
    for (size_t l = 0; l < units_.size(); ++l) {
        const Lane& L = sim_.lane(static_cast<int>(l));
        work += L.force_evaluations * units_[l] + L.row_visits;
    }
    // The written potential's quadrature since the meter started, in the steps' checks and in
    // whatever this thread read (a row's energy): a node as one expression's evaluation.
    return work + (WrittenForce::quadrature_nodes() - nodes_at_start_);
}

}  // namespace stepwise
