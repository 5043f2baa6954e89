#include "orders.hpp"

#include "forces/force_kind.hpp"
#include "turning.hpp"

#include <algorithm>
#include <iterator>
#include <vector>

namespace stepwise {

namespace {

// The kind of the bodies' (x, y) motion, from the force table.
OrderRegime linear_regime(const System& s) {
    // Read from the force table (force_kind.hpp): a kind without an exact flow decides at once.
    bool uniform = false, others = false, all_others_internal = true, without_flow = false;
    for_each_force_kind([&]<class K>() {
        if (!K::present(s)) return;
        without_flow = without_flow || !K::has_flow(s);
        if (K::uniform_acceleration) {
            uniform = true;
            return;
        }
        others = true;
        all_others_internal = all_others_internal && K::internal;
    });
    if (without_flow) return OrderRegime::without_closed_form;
    if (!others) return uniform ? OrderRegime::constant_force : OrderRegime::free_motion;

    // Each body's forces, and whether damping is among them. A uniform acceleration (gravity)
    // beside internal forces alone (springs between the bodies) is left out: it accelerates
    // their centre of mass and nothing else, so its flow and each spring's commute (the
    // kinematic step stays exact with both).
    const size_t n = static_cast<size_t>(s.bodies());
    std::vector<int> forces(n, 0);
    std::vector<char> damped(n, 0);
    for_each_force_kind([&]<class K>() {
        if (K::present(s) && !(K::uniform_acceleration && all_others_internal)) K::count_forces(s, forces.data(), damped.data());
    });
    bool several = false, damped_with_others = false;
    for (size_t i = 0; i < n; ++i) {
        several = several || forces[i] > 1;
        damped_with_others = damped_with_others || (forces[i] > 1 && damped[i]);
    }
    if (damped_with_others) return OrderRegime::dissipative;
    return several ? OrderRegime::conservative : OrderRegime::single_forces;
}

}  // namespace

// Both blocks' motions are independent today (no force couples an angle to a position; the angular
// block's kind: turning.cpp), and the kinds run from the simplest to the most general: the system
// is the more general of the two.
OrderRegime regime_of(const System& s) {
    return std::max(linear_regime(s), angular_regime(s));
}

namespace {

struct RegimeNames {
    const char* id;
    const char* text;
};

constexpr RegimeNames regime_names[order_regimes] = {
    {"free_motion", "no force at all"},
    {"constant_force", "uniform gravity alone"},
    {"single_forces", "one force with a closed form on each body"},
    {"conservative", "several undamped forces with closed forms on a body"},
    {"dissipative", "several forces on a body including damping"},
    {"without_closed_form", "a force without a closed form (a spring with a rest length, a link, quadratic drag, a force you write)"},
};

}  // namespace

const char* regime_id(OrderRegime r) { return regime_names[static_cast<int>(r)].id; }
const char* regime_text(OrderRegime r) { return regime_names[static_cast<int>(r)].text; }

Order Orders::in(OrderRegime r) const {
    switch (r) {
        case OrderRegime::free_motion: return {};
        case OrderRegime::constant_force: return constant_force;
        case OrderRegime::single_forces: return single_forces;
        case OrderRegime::conservative: return conservative;
        case OrderRegime::dissipative: return dissipative;
        case OrderRegime::without_closed_form: return without_closed_form;
    }
    return {};
}

const char* order_text(Order o) {
    static const char* const powers[] = {"0", "1", "2", "3", "4", "5", "6", "7", "8"};
    if (o.kind == Order::exact) return "exact";
    if (o.kind == Order::none) return "none";
    return o.p >= 0 && o.p <= 8 ? powers[o.p] : "?";
}

std::string order_json(Order o) {
    if (o.kind == Order::none) return "null";
    if (o.kind == Order::exact) return "\"exact\"";
    return order_text(o);
}

std::string orders_summary(const Orders& o) {
    constexpr size_t n = std::size(table_regimes);
    Order claims[n];
    for (size_t i = 0; i < n; ++i) claims[i] = o.in(table_regimes[i]);
    auto words = [](Order c) {
        return c.kind == Order::power ? std::string("order ") + order_text(c)
                                      : std::string(c.kind == Order::exact ? "exact" : "no order in dt");  // the order note says why
    };
    // The claim most regimes share, when at least three do, is said last as "otherwise".
    size_t common = n;
    int most = 2;
    for (size_t i = 0; i < n; ++i) {
        const int same = static_cast<int>(std::count(std::begin(claims), std::end(claims), claims[i]));
        if (same > most) {
            most = same;
            common = i;
        }
    }
    std::string out;
    bool said[n] = {};
    for (size_t i = 0; i < n; ++i) {
        if (said[i] || (common < n && claims[i] == claims[common])) continue;
        out += (out.empty() ? "" : "; ") + words(claims[i]) + " with ";
        for (size_t j = i; j < n; ++j) {
            if (said[j] || !(claims[j] == claims[i])) continue;
            out += std::string(j == i ? "" : " or ") + regime_text(table_regimes[j]);
            said[j] = true;
        }
    }
    if (common < n) out += out.empty() ? words(claims[common]) + " on every kind of system"
                                       : "; " + words(claims[common]) + " otherwise";
    return out;
}

}  // namespace stepwise
