// The one way text becomes a number and a number becomes text, for the config format, the CLI's
// arguments, the rows (CSV/JSON) and the page's module. None of it depends on the C locale: under
// de_DE "1.5" is still 1.5 and 0.01 is still written "0.01" (see number_text.cpp for how).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace stepwise {

// The config format's numbers: a plain decimal [+-]digits[.digits][e[+-]digits] with at least one
// digit before the exponent, at most 64 characters, nothing before or after it (no spaces), no hex,
// no inf, no nan. Values beyond the double range are refused; values too small for it round to the
// nearest double (a subnormal or 0). Negative zero reads as 0. nullopt when refused.
std::optional<double> parse_number(std::string_view text);

// Shortest decimal text that reads back as exactly x ("0.1", "1000", "1e-07"): whole numbers below
// 1e15 in plain digits, otherwise the fewest significant digits (printf's %g style) that round-trip.
std::string format_number(double x);

// x with 17 significant digits in printf's %.17g style, appended (it reads back exactly). Non-finite
// values are written "inf", "-inf", "nan" (callers that must not print them check first).
void append_number(std::string& out, double x);

// append_number's text as a string: 17 significant digits, reads back exactly (for JSON).
std::string exact_text(double x);

// x with a fixed number of decimals, printf's %.*f style ("1.996" for decimals = 3).
std::string format_fixed(double x, int decimals);

// x to `digits` significant digits, printf's %.*g style ("2e-09" for 1.9999999999999997e-09 and
// digits = 3): for a figure in a sentence, not for a value that must read back exactly.
std::string format_significant(double x, int digits);

}  // namespace stepwise
