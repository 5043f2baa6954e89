// libFuzzer target: the config parser (core/config.hpp) on any bytes. For every input:
//  - parse → normalise → parse gives back the same Config, with no error, and normalising that
//    again gives the same text (what the parser keeps of a broken link is always a valid config);
//  - a leading '?' or '#' changes nothing;
//  - every error message is non-empty, valid UTF-8, and names its key (an error without a key
//    is about the query's shape: too many pairs, or the note that more errors follow; or it
//    says that a pair ('=VALUE') has no key); the key and the shown value are valid UTF-8 too;
//    at most max_errors + 1 errors;
//  - the parser never throws, and no sanitizer (ASan, UBSan) reports anything.
// Run by scripts/fuzz.sh; docs/fuzzing.md says what a finding looks like.
#include "checks.hpp"
#include "config.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

using namespace stepwise;
using fuzz_checks::fail;
using fuzz_checks::valid_utf8;

namespace {

std::string describe(const ConfigError& e) { return "key '" + e.key + "', value '" + e.value + "': " + e.message; }

void check_errors(const ParseResult& r, std::string_view input) {
    if (r.errors.size() > max_errors + 1) fail("more than max_errors + 1 errors", input);
    for (size_t i = 0; i < r.errors.size(); ++i) {
        const ConfigError& e = r.errors[i];
        if (e.message.empty()) fail("an empty error message (key '" + e.key + "')", input);
        if (!valid_utf8(e.message) || !valid_utf8(e.key) || !valid_utf8(e.value))
            fail("an error that is not valid UTF-8: " + describe(e), input);
        if (!e.key.empty()) {
            if (e.message.find(e.key) == std::string::npos) fail("an error message that does not name its key: " + describe(e), input);
            continue;
        }
        // No key: the message is about the query as a whole, or says that a pair has no key.
        const bool too_many_pairs = e.message.find("key=value pairs") != std::string::npos;
        const bool no_key = e.message.find("has no key") != std::string::npos;  // "=1"
        const bool more_follow = i == max_errors && e.message.find("more errors") != std::string::npos;
        if (!too_many_pairs && !no_key && !more_follow) fail("an error with no key that does not say what is wrong: " + describe(e), input);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const ParseResult first = parse_config(input);
    check_errors(first, input);

    // What the parser kept, even of a broken link, is a config in its own right.
    const std::string text = normalise(first.config);
    const ParseResult again = parse_config(text);
    if (!again.ok()) fail("normalise gave a query that does not parse: '" + text + "': " + describe(again.errors[0]), input);
    if (!(again.config == first.config)) fail("parse → normalise → parse changed the config: '" + text + "'", input);
    const std::string text_again = normalise(again.config);
    if (text_again != text) fail("normalise is not stable: '" + text + "' then '" + text_again + "'", input);

    if (input.empty() || (input[0] != '?' && input[0] != '#')) {
        const ParseResult prefixed = parse_config("?" + std::string(input));
        if (!(prefixed.config == first.config) || prefixed.errors.size() != first.errors.size())
            fail("a leading '?' changed the result", input);
    }
    return 0;
}
