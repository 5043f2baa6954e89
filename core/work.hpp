// Units of work, for a caller that bounds what it does by them rather than by the clock (the CLI
// reads its clock for --budget every work_between_clock_reads units; the simulation fuzzer ends an
// input after a number of them): a force evaluation costs force_units (a few units for the
// evaluation's own bookkeeping, one per body and per force term), a solver's visit of one
// constraint row (Lane::row_visits) one, and implicit Euler's Newton iteration on bodies that act
// on one another adds its linear solve. Natively a unit is a few nanoseconds to a few tens.
#pragma once
#include "config.hpp"

#include <functional>
#include <utility>
#include <vector>

namespace stepwise {

class Simulation;
class PhaseCloud;
struct System;

// The units of one force evaluation on s: 4, plus one per body, spring, central body and link,
// plus two per body for a written force (an interpreted expression for fx and fy).
long long force_units(const System& s);
// The units of one force evaluation of `lane`'s method on s: force_units, plus for implicit Euler
// on coupled bodies the Newton matrix and its solve (dense: (2n)³/48 + (2n)²/4, a band of half
// width kl: 2n·(kl + 1)²/8; about 16 flops a unit).
long long evaluation_units(const System& s, const LaneSpec& lane);
// The work sim's lanes and its reference have done so far, each lane's evaluations weighed by
// evaluation_units (read once, at construction), and this thread's written-potential quadrature
// since construction, a node a unit.
class SimulationWork {
public:
    explicit SimulationWork(const Simulation& sim);
    long long operator()() const;

private:
    const Simulation& sim_;
    std::vector<long long> units_;
    long long nodes_at_start_;  // WrittenForce::quadrature_nodes() at construction
};
// The work a cloud's copies have done so far (the cloud of `lane` on s; in cloud.cpp, beside the
// ensemble it reads).
long long work_done(const PhaseCloud& cloud, const System& s, const LaneSpec& lane);

// A run-time budget read by work: the caller says how much work it has done so far (a running
// total, in the units above), and the meter reads its clock (seconds since the start; injected,
// so that a test can make its time a function of the work) only when at least `between` more
// units were done since its last reading: reading the clock then costs nothing against the work,
// and a command stops within `between` units of the moment its budget ran out.
constexpr long long work_between_clock_reads = 1LL << 20;
class WorkMeter {
public:
    WorkMeter(double budget_seconds, std::function<double()> clock, long long between = work_between_clock_reads)
        : budget_(budget_seconds), clock_(std::move(clock)), between_(between) {}
    // True once a reading of the clock found the budget spent (and from then on).
    bool over(long long work) {
        if (over_ || work < next_read_) return over_;
        next_read_ = work + between_;
        ++reads_;
        elapsed_ = clock_();
        over_ = elapsed_ > budget_;
        return over_;
    }
    double elapsed() const { return elapsed_; }  // at the last reading
    double budget() const { return budget_; }
    long long reads() const { return reads_; }

private:
    double budget_;
    std::function<double()> clock_;
    long long between_;
    long long next_read_ = 0;
    long long reads_ = 0;
    double elapsed_ = 0.0;
    bool over_ = false;
};

}  // namespace stepwise
