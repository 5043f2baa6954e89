// The config format: defaults, round trips, presets and every error path.
#include "config.hpp"
#include "helpers.hpp"
#include "integrators.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

using namespace stepwise;
using testing_helpers::Xorshift;

namespace {
bool has_error(const ParseResult& r, const std::string& key, const std::string& fragment) {
    for (const ConfigError& e : r.errors)
        if (e.key == key && e.message.find(fragment) != std::string::npos) return true;
    return false;
}
std::string all_errors(const ParseResult& r) {
    std::string out;
    for (const ConfigError& e : r.errors) out += "[" + e.key + "] " + e.message + "\n";
    return out;
}
}  // namespace

TEST_CASE("an empty query gives the documented defaults") {
    const ParseResult r = parse_config("");
    REQUIRE(r.ok());
    CHECK(normalise(r.config) ==
          "v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&dt=0.01&"
          "duration=10&m=1&k=15&b=0.1&rest=0&anchor=0,0&x0=1,0&v0=0,0");
    for (const char* scenario : {"projectile", "two_spring", "spring_pair"}) {
        const ParseResult s = parse_config(std::string("scenario=") + scenario);
        INFO(all_errors(s));
        CHECK(s.ok());
        CHECK(s.config.scenario == find_scenario(scenario));
        CHECK(s.config.values.size() > 4);
    }
    CHECK(normalise(parse_config("scenario=projectile").config) ==
          "v=1&scenario=projectile&integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&dt=0.01&"
          "duration=10&m=1&g=9.81&drag=0&x0=0,0&v0=10,10");
}

TEST_CASE("the issue's example query parses and normalises") {
    const ParseResult r = parse_config(
        "scenario=spring&integrators=explicit_euler,semi_implicit_euler,rk4&dt=0.01&m=1&k=15&b=0.1&anchor=0,0&"
        "rest=0&x0=1000,0&v0=0,0");
    INFO(all_errors(r));
    REQUIRE(r.ok());
    CHECK(r.config.get("k") == 15.0);
    CHECK(r.config.get_vec("x0") == glm::dvec2(1000.0, 0.0));
    CHECK(r.config.integrators == std::vector<LaneSpec>{find_integrator("explicit_euler"),
                                                   find_integrator("semi_implicit_euler"), find_integrator("rk4")});
}

TEST_CASE("normalise then parse gives the same config, for every preset and odd numbers") {
    std::vector<std::string> queries;
    for (const PresetInfo& p : presets()) queries.push_back(std::string("preset=") + p.id);
    queries.push_back("scenario=spring&dt=0.1&k=0.30000000000000004&x0=1e-7,-2.5e5&m=3.14159265358979");
    queries.push_back("?scenario=projectile&g=0&v0=-0,1E3&dt=%31e-3");
    queries.push_back("#scenario=spring_pair&g=0.1,-9.81&integrators=rk45,yoshida4");
    for (const std::string& q : queries) {
        DYNAMIC_SECTION(q) {
            const ParseResult a = parse_config(q);
            INFO(all_errors(a));
            REQUIRE(a.ok());
            const std::string n = normalise(a.config);
            const ParseResult b = parse_config(n);
            REQUIRE(b.ok());
            CHECK(b.config == a.config);
            CHECK(normalise(b.config) == n);
        }
    }
    CHECK(parse_config("dt=%31e-3").config.dt == 0.001);
    CHECK(normalise(parse_config("v0=-0,1").config).find("v0=0,1") != std::string::npos);
}

TEST_CASE("numbers print in their shortest exact form") {
    CHECK(format_number(0.1) == "0.1");
    CHECK(format_number(1000) == "1000");
    CHECK(format_number(-2.5) == "-2.5");
    CHECK(format_number(0.30000000000000004) == "0.30000000000000004");
    CHECK(format_number(1e-7) == "1e-07");
    CHECK(format_number(1.0 / 3.0) == "0.3333333333333333");
}

TEST_CASE("presets reproduce the articles' setups") {
    const ParseResult force = parse_config("preset=constant_force");
    REQUIRE(force.ok());
    CHECK(force.config.dt == 1.0);
    CHECK(force.config.duration == 10.0);
    CHECK(force.config.get("m") == 1.0);
    CHECK(force.config.get("g") == 10.0);  // F = m g = 10 N
    const ParseResult damped = parse_config("preset=damped_spring");
    REQUIRE(damped.ok());
    CHECK(damped.config.get("k") == 15.0);
    CHECK(damped.config.get("b") == 0.1);
    CHECK(damped.config.get_vec("x0") == glm::dvec2(1000.0, 0.0));
    CHECK(damped.config.dt == 0.01);
    for (auto [id, dt] : {std::pair<const char*, double>{"undamped_dt01", 0.1}, {"undamped_dt025", 0.25}}) {
        const ParseResult u = parse_config(std::string("preset=") + id);
        REQUIRE(u.ok());
        CHECK(u.config.dt == dt);
        CHECK(u.config.duration == 90.0);
        CHECK(u.config.get("b") == 0.0);
    }
    const ParseResult ex = parse_config("preset=two_point_exercise");
    REQUIRE(ex.ok());
    CHECK(ex.config.get("m1") == 2.0);
    CHECK(ex.config.get("m2") == 3.0);
    CHECK(ex.config.get("rest") == 6.0);
    CHECK(ex.config.get("k") == 4.0);
    CHECK(ex.config.get_vec("g") == glm::dvec2(0.0, -10.0));
    CHECK(ex.config.get_vec("x1") == glm::dvec2(-2.0, 2.0));
    CHECK(ex.config.get_vec("v2") == glm::dvec2(1.0, -1.5));
    CHECK(ex.config.dt == 0.5);
    CHECK(parse_config("preset=two_springs").config.scenario == find_scenario("two_spring"));
    // The link's own keys override the preset's.
    const ParseResult over = parse_config("preset=damped_spring&dt=0.02&integrators=rk4");
    REQUIRE(over.ok());
    CHECK(over.config.dt == 0.02);
    CHECK(over.config.get("k") == 15.0);
    CHECK(over.config.integrators == std::vector<LaneSpec>{find_integrator("rk4")});
}

TEST_CASE("every bad key or value is an error naming the key, the value and what is allowed") {
    SECTION("numbers out of range") {
        CHECK(has_error(parse_config("dt=0"), "dt", "dt must be a number from 1e-09 to 10; got '0'"));
        CHECK(has_error(parse_config("dt=11"), "dt", "dt must be a number from 1e-09 to 10; got '11'"));
        CHECK(has_error(parse_config("dt=-0.1"), "dt", "from 1e-09 to 10"));
        CHECK(has_error(parse_config("m=-1"), "m", "m must be a number from 1e-06 to 1000000; got '-1'"));
        CHECK(has_error(parse_config("m=0"), "m", "got '0'"));
        CHECK(has_error(parse_config("b=-0.5"), "b", "from 0 to 10000"));
        CHECK(has_error(parse_config("duration=0"), "duration", "duration must be a number from 1e-09 to 100000; got '0'"));
        const ParseResult fine = parse_config("dt=0.0000001&duration=100000");
        CHECK(has_error(fine, "duration", "at most 10000000 steps; got '100000 / 1e-07'"));
        // Neither is applied: the default duration 10 s is still 1e8 steps of 1e-7, so dt reverts too.
        CHECK(fine.config.duration == 10.0);
        CHECK(fine.config.dt == 0.01);
        const ParseResult preset = parse_config("dt=0.000001&duration=100000&preset=undamped_dt01");
        CHECK(preset.config.duration == 90.0);  // the preset's duration ...
        CHECK(preset.config.dt == 0.1);         // ... and, since 90 / 1e-6 is too many, its dt
        // Only the duration reverts when the link's dt fits the base duration: 10 / 1e-6 = 1e7.
        const ParseResult dt_kept = parse_config("dt=0.000001&duration=100000");
        CHECK(dt_kept.config.duration == 10.0);
        CHECK(dt_kept.config.dt == 0.000001);
    }
    SECTION("a pair with no key says so") {
        CHECK(has_error(parse_config("=1"), "", "the pair '=1' has no key; write key=value"));
    }
    SECTION("non-finite and malformed numbers") {
        for (const char* bad : {"NaN", "nan", "Infinity", "-inf", "1e308", "1e999", "0x10", "1,5", "", " 1", "1.2.3",
                                "1e", "--1", "abc"}) {
            DYNAMIC_SECTION(bad) {
                const ParseResult r = parse_config(std::string("k=") + bad);
                CHECK(has_error(r, "k", std::string("k must be a number from 1e-06 to 1000000; got '") + bad + "'"));
                CHECK(r.config.get("k") == 15.0);  // the default is kept, and the error says so
            }
        }
        CHECK(has_error(parse_config("x0=1"), "x0", "two numbers 'x,y'"));
        CHECK(has_error(parse_config("x0=1,2,3"), "x0", "two numbers"));
        CHECK(has_error(parse_config("x0=1,NaN"), "x0", "got '1,NaN'"));
        CHECK(has_error(parse_config("x0=2e6,0"), "x0", "from -1000000 to 1000000"));
    }
    SECTION("integrators") {
        CHECK(has_error(parse_config("integrators=rk5"), "integrators", "unknown integrator 'rk5'; known: explicit_euler"));
        CHECK(has_error(parse_config("integrators=rk4,rk4"), "integrators", "'rk4' is listed twice"));
        CHECK(has_error(parse_config("integrators="), "integrators", "empty name"));
        CHECK(has_error(parse_config("integrators=rk4,,heun"), "integrators", "empty name"));
        const ParseResult partial = parse_config("integrators=rk4,bogus,heun");
        CHECK(partial.config.integrators == std::vector<LaneSpec>{find_integrator("rk4"), find_integrator("heun")});
        std::string huge = "integrators=";
        for (int i = 0; i < 500; ++i) huge += "rk4,";
        CHECK(has_error(parse_config(huge), "integrators", "too long"));
    }
    SECTION("keys") {
        CHECK(has_error(parse_config("foo=1"), "foo", "unknown key 'foo' for scenario spring; known keys: v, scenario"));
        CHECK(has_error(parse_config("scenario=projectile&k=1"), "k", "unknown key 'k' for scenario projectile"));
        CHECK(has_error(parse_config("dt=0.1&dt=0.2"), "dt", "given more than once"));
        CHECK(has_error(parse_config("scenario=moon"), "scenario", "unknown scenario 'moon'; known: projectile, spring"));
        CHECK(has_error(parse_config("preset=nope"), "preset", "unknown preset 'nope'; known: constant_force"));
        CHECK(has_error(parse_config("preset=constant_force&scenario=spring"), "scenario", "does not match preset"));
        CHECK(has_error(parse_config("v=2"), "v", "v must be 1"));
        CHECK(parse_config("v=1").ok());
        CHECK(has_error(parse_config("justakey"), "justakey", "not a key=value pair"));
    }
    SECTION("percent-encoding") {
        CHECK(has_error(parse_config("k=%zz"), "k", "broken percent-encoding"));
        CHECK(has_error(parse_config("k=1%"), "k", "broken percent-encoding"));
        CHECK(has_error(parse_config("k=%4"), "k", "broken percent-encoding"));
        CHECK(has_error(parse_config("%G1=1"), "%G1", "broken percent-encoding in key"));
        CHECK(parse_config("k=%31%35").config.get("k") == 15.0);
        // Text before, between and after escapes is kept whole.
        CHECK(parse_config("k=1%2E25").config.get("k") == 1.25);
        CHECK(parse_config("k=12%2E5%30").config.get("k") == 12.5);
        CHECK(parse_config("k=%31%2E%35").config.get("k") == 1.5);
        CHECK(has_error(parse_config("k=1%2E5%2"), "k", "broken percent-encoding"));
    }
    SECTION("hostile text is reported, shortened and made printable, never trusted") {
        const ParseResult r = parse_config("%3Cscript%3Ealert(1)%3C%2Fscript%3E=%0A%0D%00x");
        REQUIRE(r.errors.size() == 1);
        CHECK(r.errors[0].key == "<script>alert(1)</script>");
        CHECK(r.errors[0].value == "???x");
        std::string long_value(100000, '9');
        const ParseResult big = parse_config("k=" + long_value);
        REQUIRE(big.errors.size() == 1);
        CHECK(big.errors[0].value.size() < 80);
        std::string many;
        for (int i = 0; i < 1000; ++i) many += "a" + std::to_string(i) + "=1&";
        const ParseResult flood = parse_config(many);
        CHECK(flood.errors.size() <= max_errors + 1);
    }
    SECTION("several errors at once are all reported; valid keys are kept") {
        const ParseResult r = parse_config("dt=0&m=-1&integrators=rk5,rk4&foo=1&k=30");
        CHECK(r.errors.size() == 4);
        CHECK(r.config.get("k") == 30.0);
        CHECK(r.config.integrators == std::vector<LaneSpec>{find_integrator("rk4")});
    }
}

TEST_CASE("random queries never crash, and whatever parses cleanly round-trips") {
    // A deterministic fuzz over pieces of valid and invalid syntax.
    const std::vector<std::string> pieces = {
        "scenario=", "spring", "projectile", "two_spring", "spring_pair", "&", "=", "dt", "0.01", "k", "1e3",
        "-", "%", "%2", "%26", "%3D", ",", "integrators=", "rk4", "heun", "x0", "v0", "1,2", "preset=",
        "damped_spring", "two_points", "NaN", "1e308", "v=1", "m", "0", "b", "g", "0,-10", "duration=", "\xff", " ",
        "#", "?", "<b>", "rest1", "anchor2"};
    Xorshift next(0x9E3779B97F4A7C15ull);
    int clean = 0;
    for (int n = 0; n < 20000; ++n) {
        std::string q;
        const int len = static_cast<int>(next() % 12);
        for (int i = 0; i < len; ++i) q += pieces[next() % pieces.size()];
        const ParseResult r = parse_config(q);
        CHECK(r.config.dt > 0.0);
        CHECK(!r.config.integrators.empty());
        if (r.ok()) {
            ++clean;
            const ParseResult again = parse_config(normalise(r.config));
            CHECK(again.ok());
            CHECK(again.config == r.config);
        }
    }
    CHECK(clean > 100);
}

TEST_CASE("view and equal_cost: parsed, checked, and written only when not the default") {
    const std::string base = "v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&"
                             "dt=0.01&duration=10&m=1&k=15&b=0.1&rest=0&anchor=0,0&x0=1,0&v0=0,0";
    SECTION("every view of the table parses and round-trips") {
        REQUIRE(views().size() == 4);
        CHECK(std::string(views()[0].id) == "motion");  // the default
        for (const char* view : {"motion", "convergence", "stability", "cloud"}) {
            INFO(view);
            const ParseResult r = parse_config(std::string("view=") + view);
            REQUIRE(r.ok());
            CHECK(r.config.view == find_view(view));
            const std::string text = normalise(r.config);
            CHECK(text == (std::string(view) == "motion" ? base : base + "&view=" + view));
            CHECK(parse_config(text).config == r.config);
        }
    }
    SECTION("equal_cost=1 is appended before view; 0 is the default and leaves the text alone") {
        const ParseResult on = parse_config("view=convergence&equal_cost=1");
        REQUIRE(on.ok());
        CHECK(on.config.equal_cost);
        CHECK(normalise(on.config) == base + "&equal_cost=1&view=convergence");
        CHECK(parse_config(normalise(on.config)).config == on.config);
        const ParseResult off = parse_config("equal_cost=0");
        REQUIRE(off.ok());
        CHECK_FALSE(off.config.equal_cost);
        CHECK(normalise(off.config) == base);
        // After the cloud keys, which come first among the optional ones.
        CHECK(normalise(parse_config("cloud=10&equal_cost=1").config) == base + "&cloud=10&cloud_radius=0.1&equal_cost=1");
    }
    SECTION("hostile or malformed values name the key, the value and what is allowed, and keep the default") {
        for (const char* bad : {"%3Cscript%3E", "", "Motion", "motion%00", "convergence,stability"}) {
            INFO(bad);
            const ParseResult r = parse_config(std::string("view=") + bad);
            CHECK(has_error(r, "view", "unknown view '"));
            CHECK(has_error(r, "view", "; known: motion, convergence, stability, cloud"));
            CHECK(r.config.view == 0);
        }
        CHECK(has_error(parse_config("view=%3Cscript%3E"), "view", "unknown view '<script>'"));
        for (const char* bad : {"2", "true", "", "-1", "1.0", "on"}) {
            INFO(bad);
            const ParseResult r = parse_config(std::string("equal_cost=") + bad);
            CHECK(has_error(r, "equal_cost", std::string("equal_cost must be 0 (off) or 1 (on); got '") + bad + "'"));
            CHECK_FALSE(r.config.equal_cost);
        }
        CHECK(has_error(parse_config("view=stability&view=cloud"), "view", "given more than once"));
        CHECK(has_error(parse_config("equal_cost=1&equal_cost=1"), "equal_cost", "given more than once"));
    }
}

TEST_CASE("lang: en or de, written last and only when the link gave it, never changing the numbers") {
    const std::string base = "v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&"
                             "dt=0.01&duration=10&m=1&k=15&b=0.1&rest=0&anchor=0,0&x0=1,0&v0=0,0";
    SECTION("no lang: the page follows the browser, and normalise writes none") {
        const ParseResult r = parse_config("");
        REQUIRE(r.ok());
        CHECK(r.config.lang == -1);
        CHECK(normalise(r.config) == base);
    }
    SECTION("each language of the table parses, round-trips, and leaves the rest of the config alone") {
        REQUIRE(languages().size() == 2);
        for (const char* lang : {"en", "de"}) {
            INFO(lang);
            const ParseResult r = parse_config(std::string("lang=") + lang);
            REQUIRE(r.ok());
            CHECK(r.config.lang == find_language(lang));
            CHECK(std::string(languages()[static_cast<size_t>(r.config.lang)].id) == lang);
            CHECK(normalise(r.config) == base + "&lang=" + lang);
            CHECK(parse_config(normalise(r.config)).config == r.config);
            Config without = r.config;
            without.lang = -1;
            CHECK(without == parse_config("").config);
        }
        // Last, after the view and the loop's keys.
        CHECK(normalise(parse_config("lang=de&view=stability&loop=fixed&hz=60").config) ==
              "v=1&scenario=spring&integrators=explicit_euler,semi_implicit_euler,velocity_verlet,rk4&"
              "duration=10&m=1&k=15&b=0.1&rest=0&anchor=0,0&x0=1,0&v0=0,0&view=stability&loop=fixed&hz=60&"
              "substeps=1&lang=de");
    }
    SECTION("an unknown value names the key, the value and the known languages, and keeps the browser's") {
        for (const char* bad : {"fr", "DE", "de-DE", "", "de,en", "%3Cscript%3E"}) {
            INFO(bad);
            const ParseResult r = parse_config(std::string("lang=") + bad);
            CHECK(has_error(r, "lang", "unknown lang '"));
            CHECK(has_error(r, "lang", "; known: en, de"));
            CHECK(r.config.lang == -1);
        }
        CHECK(has_error(parse_config("lang=fr"), "lang", "unknown lang 'fr'; known: en, de"));
        CHECK(has_error(parse_config("lang=de&lang=en"), "lang", "given more than once"));
    }
}

namespace {

// Valid UTF-8 by decoding (an independent check of what messages contain): every sequence in its
// shortest form, no surrogates, nothing above U+10FFFF.
bool valid_utf8(const std::string& s) {
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const int len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (len == 0 || i + static_cast<size_t>(len) > s.size()) return false;
        std::uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1Fu) : len == 3 ? (c & 0x0Fu) : (c & 0x07u);
        for (int k = 1; k < len; ++k) {
            const unsigned char t = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
            if ((t & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (t & 0x3Fu);
        }
        const std::uint32_t shortest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < shortest[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += static_cast<size_t>(len);
    }
    return true;
}

bool all_valid_utf8(const ParseResult& r) {
    for (const ConfigError& e : r.errors)
        if (!valid_utf8(e.key) || !valid_utf8(e.value) || !valid_utf8(e.message)) return false;
    return true;
}

const std::string replacement = "\xEF\xBF\xBD";  // U+FFFD
const std::string ellipsis = "\xE2\x80\xA6";     // U+2026

}  // namespace

TEST_CASE("messages cut a long value between characters, never inside one") {
    // 60 characters are shown; a character of 2, 3 or 4 bytes straddling byte 60 is kept whole.
    for (const std::string ch : {"\xC3\xB6", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"}) {  // ö € 😀
        for (size_t ascii = 55; ascii <= 60; ++ascii) {
            std::string value(ascii, '7');
            for (int k = 0; k < 10; ++k) value += ch;
            INFO(ascii << " ASCII characters, then " << ch);
            const std::string shown = printable_text(value);
            CHECK(valid_utf8(shown));
            std::string expected(ascii, '7');
            for (size_t k = ascii; k < 60; ++k) expected += ch;
            CHECK(shown == expected + ellipsis);
            const ParseResult r = parse_config("k=" + value);
            REQUIRE(r.errors.size() == 1);
            CHECK(r.errors[0].value == shown);
            CHECK(r.errors[0].message == "k must be a number from 1e-06 to 1000000; got '" + shown + "'");
            CHECK(all_valid_utf8(r));
        }
    }
    CHECK(printable_text(std::string(60, 'x')) == std::string(60, 'x'));  // exactly 60: nothing cut
    CHECK(printable_text(std::string(61, 'x')) == std::string(60, 'x') + ellipsis);
}

TEST_CASE("bytes that are not UTF-8 become U+FFFD in messages, and control characters '?'") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"a\xFF" "b", "a" + replacement + "b"},
        {"\x80", replacement},                                           // a lone continuation byte
        {"x\xC3", "x" + replacement},                                    // cut before its continuation
        {"\xC3(", replacement + "("},
        {"\xE2\x82", replacement + replacement},                         // a 3-byte sequence cut short
        {"\xC0\xAF", replacement + replacement},                         // overlong '/'
        {"\xE0\x80\xAF", replacement + replacement + replacement},       // overlong, 3 bytes
        {"\xED\xA0\x80", replacement + replacement + replacement},       // a surrogate
        {"\xF4\x90\x80\x80", replacement + replacement + replacement + replacement},  // above U+10FFFF
        {"\xF5\x80", replacement + replacement},
        {"\x01\x1F\x7F", "???"},
        {"\xC2\x85", "?"},                                               // C1 control (NEL)
        {"\xC2\xA0\xE2\x82\xAC\xF4\x8F\xBF\xBF", "\xC2\xA0\xE2\x82\xAC\xF4\x8F\xBF\xBF"},  // valid, kept
    };
    for (const auto& [in, out] : cases) {
        INFO(in);
        CHECK(printable_text(in) == out);
    }
    // A cut right after a bad byte: it counts as one character.
    CHECK(printable_text(std::string(59, 'a') + "\xFF\xFF") == std::string(59, 'a') + replacement + ellipsis);
    // Through the parser, in keys and values, raw and percent-encoded.
    for (const char* q : {"k=%FF%FE", "%C3=1", "k=1%E2%82", "x0=\xC3,1", "integrators=rk4,\xF0\x9F", "\xFF\xFF=\xFF",
                          "preset=%ED%A0%80", "view=\xE2\x82"}) {
        INFO(q);
        const ParseResult r = parse_config(q);
        CHECK_FALSE(r.ok());
        CHECK(all_valid_utf8(r));
    }
    // Random bytes: every message is valid UTF-8 and names what it shows.
    Xorshift next(0x853C49E6748FEA9Bull);
    int invalid = 0;
    for (int n = 0; n < 5000; ++n) {
        std::string bytes;
        const size_t len = next() % 200;
        for (size_t i = 0; i < len; ++i) bytes += static_cast<char>(next() % 256);
        invalid += !valid_utf8(printable_text(bytes));
        const ParseResult keyed = parse_config("k=" + bytes);
        invalid += !all_valid_utf8(keyed);
        invalid += !all_valid_utf8(parse_config(bytes));
    }
    CHECK(invalid == 0);
}

TEST_CASE("lanes with their own substeps and iterations: METHOD@S and METHOD@SxI, written as given, checked") {
    const ParseResult r = parse_config("integrators=semi_implicit_euler@20,rk4,semi_implicit_euler,leapfrog@3");
    INFO(all_errors(r));
    REQUIRE(r.ok());
    REQUIRE(r.config.integrators.size() == 4);
    CHECK(r.config.integrators[0].integrator == find_integrator("semi_implicit_euler"));
    CHECK(r.config.integrators[0].substeps == 20);
    CHECK(r.config.integrators[0].iterations == 0);
    CHECK(lane_id(r.config.integrators[0]) == "semi_implicit_euler@20");
    CHECK(lane_id(r.config.integrators[2]) == "semi_implicit_euler");
    CHECK(lane_passes(r.config.integrators[0]) == 20);
    CHECK(lane_passes(r.config.integrators[1]) == 1);
    const std::string q = normalise(r.config);
    CHECK(q.find("&integrators=semi_implicit_euler@20,rk4,semi_implicit_euler,leapfrog@3&") != std::string::npos);
    CHECK(parse_config(q).config == r.config);
    // One substep is the method alone, written without settings; a repeat of a lane is an error.
    CHECK(normalise(parse_config("integrators=rk4@1").config) == normalise(parse_config("integrators=rk4").config));
    CHECK(has_error(parse_config("integrators=rk4@1,rk4"), "integrators", "'rk4' is listed twice"));
    CHECK(has_error(parse_config("integrators=rk4@2,rk4@02"), "integrators", "'rk4@2' is listed twice"));
    // Each bad lane names itself and what is allowed; the good ones are kept.
    const ParseResult bad = parse_config("integrators=rk4@0,heun@1001,midpoint@2x3,rk45@4,rk4@,rk4@2x,heun@-1,midpoint@3");
    CHECK(has_error(bad, "integrators", "'rk4@0': substeps must be a whole number from 1 to 1000"));
    CHECK(has_error(bad, "integrators", "'heun@1001': substeps must be a whole number from 1 to 1000"));
    CHECK(has_error(bad, "integrators", "'midpoint@2x3': midpoint has no iterations (only the game-physics solvers do); "
                                        "write midpoint@2"));
    CHECK(has_error(bad, "integrators", "'rk45@4': rk45 chooses its own substeps (it is adaptive); write rk45"));
    CHECK(has_error(bad, "integrators", "'rk4@' is not METHOD, METHOD@SUBSTEPS or METHOD@SUBSTEPSxITERATIONS"));
    CHECK(has_error(bad, "integrators", "'rk4@2x' is not METHOD"));
    CHECK(has_error(bad, "integrators", "'heun@-1' is not METHOD"));
    CHECK(bad.errors.size() == 7);
    REQUIRE(bad.config.integrators.size() == 1);
    CHECK(lane_id(bad.config.integrators[0]) == "midpoint@3");
    CHECK(has_error(parse_config("integrators=reference@2"), "integrators",
                    "'reference@2': the reference takes no settings; write reference"));
    // At most max_lanes lanes; equal cost chooses every lane's step itself.
    std::string many = "integrators=rk4";
    for (int s = 2; s <= max_lanes() + 1; ++s) many += ",rk4@" + std::to_string(s);
    CHECK(has_error(parse_config(many), "integrators", std::to_string(max_lanes() + 1) + " lanes in"));
    const ParseResult both = parse_config("integrators=rk4@2,heun&equal_cost=1");
    CHECK(has_error(both, "equal_cost", "equal_cost=1 cannot be combined with lane settings (rk4@2 in integrators)"));
    CHECK_FALSE(both.config.equal_cost);
}

TEST_CASE("dt and duration from dt_min = 1e-9 s: a typo like 5e-324 is refused with the key and the range (issue 40 §1, §2)") {
    CHECK(dt_min == 1e-9);
    CHECK(duration_min == 1e-9);
    // The audit's links: a subnormal dt and duration (the page hung) and dt = 1e-160 (a NaN tension).
    const ParseResult hostile = parse_config("scenario=spring&dt=5e-324&duration=5e-324");
    CHECK(has_error(hostile, "dt", "dt must be a number from 1e-09 to 10; got '5e-324'"));
    CHECK(has_error(hostile, "duration", "duration must be a number from 1e-09 to 100000; got '5e-324'"));
    CHECK(hostile.config.dt == default_dt);  // the refused values keep their defaults
    CHECK(hostile.config.duration == default_duration);
    CHECK(has_error(parse_config("scenario=pendulum&integrators=vbd&dt=1e-160&duration=1e-160"), "dt",
                    "got '1e-160'"));
    CHECK(has_error(parse_config("dt=9.99e-10"), "dt", "from 1e-09 to 10"));
    // The message is data, in the form every range is given in (its German template is
    // allowedForms.number in web/strings/de.js).
    const ConfigError e = parse_config("dt=1e-10").errors.at(0);
    CHECK(e.code == "not_allowed");
    CHECK(message_arg(e.args, "allowed") == "number");
    CHECK(message_arg(e.args, "min") == "1e-09");
    CHECK(message_arg(e.args, "max") == "10");
    // The bound itself is accepted, and so is the smallest dt a preset, test or document uses.
    const ParseResult smallest = parse_config("dt=1e-9&duration=1e-9");
    CHECK(smallest.ok());
    CHECK(smallest.config.dt == 1e-9);
    CHECK(smallest.config.duration == 1e-9);
    CHECK(parse_config("dt=0.0000001&duration=1").ok());
}
