// What both fuzz targets check and how they report a finding: a failed check prints what broke
// and the input as text, then aborts, so libFuzzer saves the input as a crash reproducer.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace fuzz_checks {

[[noreturn]] inline void fail(const std::string& what, std::string_view input) {
    std::fprintf(stderr, "\n==== fuzz check failed: %s\n==== input (%zu bytes): %.*s\n", what.c_str(), input.size(),
                 static_cast<int>(input.size()), input.data());
    std::abort();
}

// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
inline bool valid_utf8(std::string_view s) {
    size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        size_t extra = 0;
        unsigned cp = 0, min = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            extra = 1, cp = c & 0x1Fu, min = 0x80;
        } else if (c >= 0xE0 && c <= 0xEF) {
            extra = 2, cp = c & 0x0Fu, min = 0x800;
        } else if (c >= 0xF0 && c <= 0xF4) {
            extra = 3, cp = c & 0x07u, min = 0x10000;
        } else {
            return false;  // a continuation byte first, 0xC0/0xC1 (always overlong) or 0xF5..0xFF
        }
        if (i + extra >= s.size()) return false;  // cut short
        for (size_t k = 1; k <= extra; ++k) {
            const unsigned char d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xC0u) != 0x80u) return false;
            cp = (cp << 6) | (d & 0x3Fu);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += extra + 1;
    }
    return true;
}

// A number as core/rows prints it (%.17g) that is finite: [-]digits[.digits][e[+-]digits].
// "nan", "inf", "-nan" and the empty string are not.
inline bool finite_number_text(std::string_view t) {
    size_t i = 0, digits = 0;
    if (i < t.size() && t[i] == '-') ++i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i, ++digits;
    if (i < t.size() && t[i] == '.') {
        ++i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i, ++digits;
    }
    if (digits == 0) return false;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
        size_t exp_digits = 0;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i, ++exp_digits;
        if (exp_digits == 0) return false;
    }
    return i == t.size() && std::isfinite(std::strtod(std::string(t).c_str(), nullptr));
}

}  // namespace fuzz_checks
