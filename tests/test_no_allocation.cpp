// The step loop allocates nothing: global operator new is counted while every preset runs
// every integrator. A separate executable, since it replaces operator new for the whole program.
#include "simulation.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<long long> allocations{0};
}

void* operator new(std::size_t n) {
    ++allocations;
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

using namespace stepwise;

TEST_CASE("Simulation::step allocates nothing, for every preset and integrator") {
    std::string all;
    for (const IntegratorInfo& info : integrators()) all += std::string(all.empty() ? "" : ",") + info.id;
    for (const PresetInfo& p : presets()) {
        const ParseResult r = parse_config(std::string("preset=") + p.id + "&integrators=" + all);
        REQUIRE(r.ok());
        Simulation sim(r.config);
        sim.step();  // nothing is allocated lazily either, but measure from the second step on
        const long long before = allocations.load();
        sim.advance(200);
        const long long during = allocations.load() - before;
        INFO(p.id);
        CHECK(during == 0);
        const long long before_reset = allocations.load();
        sim.reset();
        CHECK(allocations.load() - before_reset == 0);
    }
    // The counter works: a vector allocates.
    const long long before = allocations.load();
    std::vector<double> probe(10);
    CHECK(allocations.load() - before == 1);
}
