#include "number_text.hpp"

#include <charconv>
#include <cmath>
#include <cstddef>

// Two routes to the same bytes, chosen by what the standard library offers:
//  - std::from_chars / std::to_chars for double (libstdc++ 11+, the native build): locale-free by
//    definition, and faster than the C library.
//  - Emscripten 3.1.6's libc++ (the wasm build) has neither for double. There the C library's
//    strtod and snprintf run under a "C" locale installed for this thread with uselocale(): musl
//    ignores LC_NUMERIC anyway, and the same code stays correct on a glibc host whose libc++ lacks
//    them.
// Both routes round correctly (to_chars with a precision is exactly printf's %.*g / %.*f in the C
// locale, checked byte for byte on 6 million values at every precision 1..17; glibc and musl agree
// too), so the native CLI and the page print the same text: tests/web/wasm-module.test.mjs compares
// the module's normalise() with `stepwise check` on numbers chosen to need every precision.
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
#define STEPWISE_NUMBER_TEXT_CHARCONV 1
#else
#define STEPWISE_NUMBER_TEXT_CHARCONV 0
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <locale.h>
#endif

namespace stepwise {

namespace {

enum class Style { general, fixed };

constexpr std::size_t max_number_length = 64;  // the config format's longest number

#if STEPWISE_NUMBER_TEXT_CHARCONV

// Writes x into buf; returns the length.
std::size_t write_double(char* buf, std::size_t capacity, double x, Style style, int precision) {
    const auto format = style == Style::general ? std::chars_format::general : std::chars_format::fixed;
    const std::to_chars_result r = std::to_chars(buf, buf + capacity, x, format, precision);
    return r.ec == std::errc() ? static_cast<std::size_t>(r.ptr - buf) : 0;
}

// The value of a text the grammar has accepted ('+' already dropped), or nullopt beyond the double
// range. from_chars reports out of range both for overflow and for a value that rounds to zero;
// with at most 64 characters the text's exponent alone tells the two apart (a negative exponent
// cannot overflow, a positive one cannot underflow).
std::optional<double> read_decimal(std::string_view text, bool negative_exponent) {
    double x = 0.0;
    const std::from_chars_result r = std::from_chars(text.data(), text.data() + text.size(), x);
    if (r.ec == std::errc::result_out_of_range) return negative_exponent ? std::optional<double>(0.0) : std::nullopt;
    if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nullopt;
    return x;
}

#else

// The "C" locale for this thread while it lives (uselocale is per thread: other threads and the
// program's global locale are untouched).
class CLocale {
public:
    CLocale() : previous_(locale() ? uselocale(locale()) : static_cast<locale_t>(0)) {}
    ~CLocale() {
        if (previous_) uselocale(previous_);
    }
    CLocale(const CLocale&) = delete;
    CLocale& operator=(const CLocale&) = delete;

private:
    static locale_t locale() {
        static const locale_t c = newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(0));
        return c;
    }
    locale_t previous_;
};

std::size_t write_double(char* buf, std::size_t capacity, double x, Style style, int precision) {
    const CLocale c;
    const int n = std::snprintf(buf, capacity, style == Style::general ? "%.*g" : "%.*f", precision, x);
    return n > 0 && static_cast<std::size_t>(n) < capacity ? static_cast<std::size_t>(n) : 0;
}

// strtod rounds a value too small for a double to a subnormal or 0 and one too large to ±HUGE_VAL.
std::optional<double> read_decimal(std::string_view text, bool /*negative_exponent*/) {
    char buf[max_number_length + 1];
    text.copy(buf, max_number_length);
    buf[text.size()] = '\0';
    const CLocale c;
    char* end = nullptr;
    const double x = std::strtod(buf, &end);
    if (end != buf + text.size() || !std::isfinite(x)) return std::nullopt;
    return x;
}

#endif

std::size_t count_digits(std::string_view t, std::size_t& i) {
    std::size_t n = 0;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i, ++n;
    return n;
}

}  // namespace

std::optional<double> parse_number(std::string_view t) {
    if (t.empty() || t.size() > max_number_length) return std::nullopt;
    std::size_t i = 0;
    if (t[0] == '+') t.remove_prefix(1);  // from_chars takes no '+'
    else if (t[0] == '-') i = 1;
    std::size_t digits = count_digits(t, i);
    if (i < t.size() && t[i] == '.') {
        ++i;
        digits += count_digits(t, i);
    }
    if (digits == 0) return std::nullopt;
    bool negative_exponent = false;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) negative_exponent = t[i++] == '-';
        if (count_digits(t, i) == 0) return std::nullopt;
    }
    if (i != t.size()) return std::nullopt;
    const std::optional<double> x = read_decimal(t, negative_exponent);
    if (!x) return std::nullopt;
    return *x == 0.0 ? 0.0 : *x;  // no negative zero
}

std::string format_number(double x) {
    if (x == 0.0) return "0";
    char buf[400];  // %.0f of the largest double has 309 digits
    if (std::fabs(x) < 1e15 && x == std::trunc(x)) return std::string(buf, write_double(buf, sizeof buf, x, Style::fixed, 0));
    std::size_t n = 0;
    for (int precision = 1; precision <= 17; ++precision) {
        n = write_double(buf, sizeof buf, x, Style::general, precision);
        if (parse_number(std::string_view(buf, n)) == x) break;
    }
    return std::string(buf, n);
}

void append_number(std::string& out, double x) {
    char buf[40];
    out.append(buf, write_double(buf, sizeof buf, x, Style::general, 17));
}

std::string exact_text(double x) {
    std::string out;
    append_number(out, x);
    return out;
}

std::string format_significant(double x, int digits) {
    char buf[40];
    return std::string(buf, write_double(buf, sizeof buf, x, Style::general, digits < 1 ? 1 : digits > 17 ? 17 : digits));
}

std::string format_fixed(double x, int decimals) {
    char buf[400];
    const int clamped = decimals < 0 ? 0 : decimals > 40 ? 40 : decimals;
    return std::string(buf, write_double(buf, sizeof buf, x, Style::fixed, clamped));
}

}  // namespace stepwise
