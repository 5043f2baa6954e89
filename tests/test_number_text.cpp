// core/number_text: the one number parser and formatter. What the parser accepts and refuses, the
// formatter byte for byte against printf in the C locale, and all of it under a comma-decimal
// locale (de_DE.UTF-8), where the C library would read "1.5" as 1 and write 0.01 as "0,01".
#include "helpers.hpp"
#include "json.hpp"
#include "number_text.hpp"
#include "rows.hpp"
#include "simulation.hpp"

#include <catch2/catch.hpp>

#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <locale>
#include <string>
#include <vector>

using namespace stepwise;
using namespace testing_helpers;

namespace {

// printf's conversion of x in the C locale (the oracle the formatter must equal).
std::string printf_c(const char* format, int precision, double x) {
    const std::string previous = std::setlocale(LC_NUMERIC, nullptr);
    std::setlocale(LC_NUMERIC, "C");
    char buf[512];
    std::snprintf(buf, sizeof buf, format, precision, x);
    std::setlocale(LC_NUMERIC, previous.c_str());
    return buf;
}

// The shortest %.*g text that strtod (C locale) reads back as x: the rule format_number documents,
// computed the slow way.
std::string shortest_by_printf(double x) {
    if (x == 0.0) return "0";
    if (std::fabs(x) < 1e15 && x == std::trunc(x)) return printf_c("%.*f", 0, x);
    std::string text;
    for (int precision = 1; precision <= 17; ++precision) {
        text = printf_c("%.*g", precision, x);
        if (std::strtod(text.c_str(), nullptr) == x) break;
    }
    return text;
}

// Doubles that exercise every branch: zeros, subnormals, the range's ends, the switch between
// fixed and exponent notation of %g, halfway cases, then random bit patterns and random decimals.
std::vector<double> sample_doubles(int random_count) {
    std::vector<double> xs = {0.0, -0.0, 1e21, -1e21, 1e20, 1e16, 1e17, 123456789012345678.0, 999999999999999.9,
                              1e15, 1e15 + 1, 0.1, 0.2, 0.3, 1.0 / 3.0, 2.0 / 3.0, 1e-7, 1e-5, 1e-4, 0.5, 1.5, 2.5,
                              9007199254740993.0, 4.9406564584124654e-324, 1e-310, 2.2250738585072009e-308,
                              2.2250738585072014e-308, 1.7976931348623157e308, -1.7976931348623157e308,
                              0.30000000000000004, 100000.00000000001, 5e-324 * 3, 6.02214076e23};
    Xorshift next(0x2545F4914F6CDD1Dull);
    while (static_cast<int>(xs.size()) < random_count) {
        double x;
        const std::uint64_t bits = next();
        if (xs.size() % 2) {
            std::memcpy(&x, &bits, sizeof x);
        } else {  // decimals near everyday magnitudes, where %g's notation switches
            x = static_cast<double>(bits >> 11) * 0x1p-53 * std::pow(10.0, static_cast<int>(next() % 60) - 30);
        }
        if (std::isfinite(x)) xs.push_back(x);
    }
    return xs;
}

// Switches the process to de_DE.UTF-8 (C library and C++ global locale) for the scope.
class GermanLocale {
public:
    GermanLocale() : previous_c_(std::setlocale(LC_ALL, nullptr)) {
        ok_ = std::setlocale(LC_ALL, "de_DE.UTF-8") != nullptr;
        if (!ok_) return;
        try {
            previous_cpp_ = std::locale::global(std::locale("de_DE.UTF-8"));
        } catch (const std::runtime_error&) {
            ok_ = false;
        }
    }
    ~GermanLocale() {
        std::locale::global(previous_cpp_);
        std::setlocale(LC_ALL, previous_c_.c_str());
    }
    GermanLocale(const GermanLocale&) = delete;
    GermanLocale& operator=(const GermanLocale&) = delete;
    bool ok() const { return ok_; }

private:
    std::string previous_c_;
    std::locale previous_cpp_ = std::locale();
    bool ok_ = false;
};

}  // namespace

TEST_CASE("parse_number: the config format's plain decimals, nothing else") {
    const std::vector<std::pair<const char*, double>> accepted = {
        {"0", 0.0},         {"7", 7.0},           {"+3", 3.0},        {"-2.5", -2.5},     {"1.", 1.0},
        {".5", 0.5},        {"1e3", 1000.0},      {"1E+3", 1000.0},   {"2.5e-3", 0.0025}, {"0.1", 0.1},
        {"-0", 0.0},        {"-0.0e5", 0.0},      {"1e-400", 0.0},    {"-1e-400", 0.0},   {"1e-310", 1e-310},
        {"4.9406564584124654e-324", 4.9406564584124654e-324},         {"1.7976931348623157e308", 1.7976931348623157e308},
        {"00000000000000000000000000000000000000000000000000000000000012", 12.0}};
    for (const auto& [text, value] : accepted) {
        INFO(text);
        const std::optional<double> x = parse_number(text);
        REQUIRE(x);
        CHECK(*x == value);
        CHECK((*x != 0.0 || !std::signbit(*x)));  // never negative zero
    }
    for (const char* text : {"", " 1", "1 ", "+", "-", ".", "e3", "1e", "1e+", "--1", "+-1", "-+1", "1.2.3", "0x10",
                             "0x1p3", "1,5", "inf", "-inf", "nan", "NaN", "Infinity", "1e309", "-1e309", "2e308",
                             "1.7976931348623159e308", "1d3", "1_000", "\xd9\xa3"}) {
        INFO("'" << text << "'");
        CHECK_FALSE(parse_number(text));
    }
    // At most 64 characters.
    CHECK(parse_number(std::string(64, '1')));
    CHECK_FALSE(parse_number(std::string(65, '1')));
    CHECK_FALSE(parse_number(std::string_view("1\0", 2)));
}

TEST_CASE("append_number is printf's %.17g in the C locale, byte for byte") {
    const std::vector<double> xs = sample_doubles(200000);
    int mismatches = 0;
    for (double x : xs) {
        std::string text;
        append_number(text, x);
        const std::string expected = printf_c("%.*g", 17, x);
        if (text != expected && ++mismatches <= 5) FAIL_CHECK(text << " != " << expected);
        // It reads back exactly through the one parser.
        if (parse_number(text) != (x == 0.0 ? 0.0 : x) && ++mismatches <= 5) FAIL_CHECK(text << " does not read back");
    }
    CHECK(mismatches == 0);
    std::string text;
    for (double x : {0.0, -0.0, 1e21, 4.9406564584124654e-324, 0.1, -1e-310}) {
        append_number(text, x);
        text += ' ';
    }
    CHECK(text == "0 -0 1e+21 4.9406564584124654e-324 0.10000000000000001 -9.9999999999999694e-311 ");
}

TEST_CASE("format_number is the shortest %g text that reads back, format_fixed is %.*f") {
    const std::vector<double> xs = sample_doubles(50000);
    int mismatches = 0;
    for (double x : xs) {
        const std::string text = format_number(x);
        if (text != shortest_by_printf(x) && ++mismatches <= 5) FAIL_CHECK(text << " != " << shortest_by_printf(x));
        if (parse_number(text) != (x == 0.0 ? 0.0 : x) && ++mismatches <= 5) FAIL_CHECK(text << " does not read back");
    }
    CHECK(mismatches == 0);
    CHECK(format_number(0.01) == "0.01");
    CHECK(format_number(1e15) == "1e+15");
    CHECK(format_number(999999999999999.0) == "999999999999999");
    CHECK(format_number(-0.0) == "0");
    CHECK(format_number(1e-6) == "1e-06");
    for (double x : {1.9996, 2.0, -0.0005, 0.0, 1e300, 123.4565, 5e-324}) {
        for (int decimals : {0, 1, 3, 17}) {
            INFO(x << " " << decimals);
            CHECK(format_fixed(x, decimals) == printf_c("%.*f", decimals, x));
        }
    }
    CHECK(format_fixed(1.9996, 3) == "2.000");
    for (double x : {1.9999999999999997e-09, 2.0, -0.0005, 0.0, 1e300, 123.4565, 5e-324})
        for (int digits : {1, 3, 17}) {
            INFO(x << " " << digits);
            CHECK(format_significant(x, digits) == printf_c("%.*g", digits, x));
        }
    CHECK(format_significant(1.9999999999999997e-09, 3) == "2e-09");
}

TEST_CASE("numbers never depend on the C locale: de_DE.UTF-8 reads and writes '.'", "[locale]") {
    const GermanLocale german;
    if (!german.ok())
        FAIL("the locale de_DE.UTF-8 is missing: run scripts/setup.sh (it generates it) and run the tests again");
    // The locale is really in effect: the C library now writes and reads a decimal comma.
    char probe[16];
    std::snprintf(probe, sizeof probe, "%.1f", 1.5);
    REQUIRE(std::string(probe) == "1,5");
    REQUIRE(std::strtod("1.5", nullptr) == 1.0);

    // Parse: k=1.5 is 1.5, not 1.
    const ParseResult r = parse_config("k=1.5&dt=0.01&x0=2.25,-1e-3");
    REQUIRE(r.ok());
    CHECK(r.config.get("k") == 1.5);
    CHECK(r.config.get_vec("x0") == dvec2(2.25, -1e-3));
    CHECK(parse_config("k=1,5").errors.size() == 1);  // a decimal comma is refused, as in any locale
    // Normalise writes '.', and what it writes parses back to the same config.
    const std::string text = normalise(r.config);
    CHECK(text.find("&dt=0.01&") != std::string::npos);
    CHECK(text.find("&k=1.5&") != std::string::npos);
    CHECK(text.find("&x0=2.25,-0.001&") != std::string::npos);
    const ParseResult again = parse_config(text);
    REQUIRE(again.ok());
    CHECK(again.config == r.config);
    // Error messages print ranges with '.': 9.9e-07 is below m's 1e-06.
    const ParseResult low = parse_config("m=0.00000099");
    REQUIRE(low.errors.size() == 1);
    CHECK(low.errors[0].message == "m must be a number from 1e-06 to 1000000; got '0.00000099'");

    // CSV and JSON rows: every number with '.', reading back as the C locale's text does.
    Simulation sim(config_of("preset=two_point_exercise&integrators=explicit_euler,rk4&duration=1.5"));
    for (int k = 0; k < 3; ++k) sim.step();
    std::string csv;
    REQUIRE(append_csv_rows(csv, sim) == 4);
    int numbers = 0;
    for (size_t start = 0; start < csv.size();) {
        const size_t end = csv.find('\n', start);
        const std::string line = csv.substr(start, end - start);
        start = end + 1;
        std::vector<std::string> fields;
        for (size_t a = 0; a <= line.size();) {
            const size_t b = std::min(line.find(',', a), line.size());
            fields.push_back(line.substr(a, b - a));
            a = b + 1;
        }
        REQUIRE(fields.size() == 9);  // a decimal comma would split fields
        for (size_t f : {0u, 3u, 4u, 5u, 6u, 7u, 8u}) {
            INFO(line);
            CHECK(parse_number(fields[f]));
            ++numbers;
        }
    }
    CHECK(numbers == 28);
    CHECK(csv.substr(0, 4) == "1.5,");
    std::string json;
    append_json_head(json, sim, 3);
    bool first = true;
    append_json_rows(json, sim, first);
    append_json_tail(json, sim);
    const auto doc = parse_json(json);
    REQUIRE(doc);
    CHECK((*doc)["dt"].number == 0.5);
    CHECK((*doc)["rows"].items.size() == 4);
    CHECK((*doc)["rows"].items[0]["t"].number == 1.5);
    // What the CLI prints besides the rows: format_number, format_fixed (a measured order).
    CHECK(format_number(0.01) == "0.01");
    CHECK(format_fixed(1.9996, 3) == "2.000");
    CHECK(format_fixed(0.25, 2) == "0.25");
    CHECK(format_significant(1.5e-9, 3) == "1.5e-09");  // the snprintf it replaced wrote "1,5e-09" here
    std::string number;
    append_number(number, 0.1);
    CHECK(number == "0.10000000000000001");
}
