// A strict JSON reader for the tests (RFC 8259: no NaN, no Infinity, no trailing commas, no
// control characters in strings), enough to check that the CLI's and core/rows' JSON is valid
// and to read its structure.
#pragma once

#include "number_text.hpp"

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace testing_helpers {

struct Json {
    enum class Kind { null, boolean, number, string, array, object };
    Kind kind = Kind::null;
    bool boolean = false;
    double number = 0.0;
    std::string string;
    std::vector<Json> items;                            // array
    std::vector<std::pair<std::string, Json>> members;  // object, in document order

    // Declared here and defaulted below the class: clang with libstdc++'s C++20 std::pair
    // checks Json's constructors while Json is still incomplete (the fuzz targets use clang).
    Json();
    Json(const Json&);
    Json(Json&&) noexcept;
    Json& operator=(const Json&);
    Json& operator=(Json&&) noexcept;
    ~Json();

    bool has(const std::string& key) const {
        for (const auto& [k, v] : members)
            if (k == key) return true;
        return false;
    }
    const Json& operator[](const std::string& key) const {
        for (const auto& [k, v] : members)
            if (k == key) return v;
        throw std::out_of_range("no member '" + key + "'");
    }
    std::vector<std::string> keys() const {
        std::vector<std::string> out;
        for (const auto& [k, v] : members) out.push_back(k);
        return out;
    }
};

inline Json::Json() = default;
inline Json::Json(const Json&) = default;
inline Json::Json(Json&&) noexcept = default;
inline Json& Json::operator=(const Json&) = default;
inline Json& Json::operator=(Json&&) noexcept = default;
inline Json::~Json() = default;

namespace json_detail {

class Reader {
public:
    explicit Reader(std::string_view text) : t_(text) {}

    std::optional<Json> document() {
        Json v;
        if (!value(v, 0)) return std::nullopt;
        space();
        if (i_ != t_.size()) return std::nullopt;
        return v;
    }

private:
    std::string_view t_;
    size_t i_ = 0;

    void space() {
        while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) ++i_;
    }
    bool literal(std::string_view word) {
        if (t_.substr(i_, word.size()) != word) return false;
        i_ += word.size();
        return true;
    }
    bool digits() {
        const size_t start = i_;
        while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
        return i_ > start;
    }
    bool number(Json& out) {
        const size_t start = i_;
        if (i_ < t_.size() && t_[i_] == '-') ++i_;
        if (i_ < t_.size() && t_[i_] == '0') {
            ++i_;
        } else if (!digits()) {
            return false;
        }
        if (i_ < t_.size() && t_[i_] == '.') {
            ++i_;
            if (!digits()) return false;
        }
        if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
            ++i_;
            if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
            if (!digits()) return false;
        }
        // The project's one number parser (locale-independent); a number beyond the double range
        // is refused.
        const std::optional<double> x = stepwise::parse_number(t_.substr(start, i_ - start));
        if (!x) return false;
        out.kind = Json::Kind::number;
        out.number = *x;
        return true;
    }
    static void append_utf8(std::string& s, unsigned cp) {
        if (cp < 0x80) {
            s += static_cast<char>(cp);
        } else if (cp < 0x800) {
            s += static_cast<char>(0xC0 | (cp >> 6));
            s += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            s += static_cast<char>(0xE0 | (cp >> 12));
            s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            s += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }
    bool string(std::string& out) {
        if (i_ >= t_.size() || t_[i_] != '"') return false;
        ++i_;
        while (i_ < t_.size()) {
            const unsigned char c = static_cast<unsigned char>(t_[i_++]);
            if (c == '"') return true;
            if (c < 0x20) return false;
            if (c != '\\') {
                out += static_cast<char>(c);
                continue;
            }
            if (i_ >= t_.size()) return false;
            const char e = t_[i_++];
            switch (e) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': {
                    if (i_ + 4 > t_.size()) return false;
                    unsigned cp = 0;
                    for (int k = 0; k < 4; ++k) {
                        const char h = t_[i_++];
                        cp *= 16;
                        if (h >= '0' && h <= '9') cp += static_cast<unsigned>(h - '0');
                        else if (h >= 'a' && h <= 'f') cp += static_cast<unsigned>(h - 'a' + 10);
                        else if (h >= 'A' && h <= 'F') cp += static_cast<unsigned>(h - 'A' + 10);
                        else return false;
                    }
                    append_utf8(out, cp);
                    break;
                }
                default: return false;
            }
        }
        return false;
    }
    bool value(Json& out, int depth) {
        if (depth > 64) return false;
        space();
        if (i_ >= t_.size()) return false;
        const char c = t_[i_];
        if (c == '{') {
            ++i_;
            out.kind = Json::Kind::object;
            space();
            if (i_ < t_.size() && t_[i_] == '}') return ++i_, true;
            while (true) {
                space();
                std::string key;
                if (!string(key)) return false;
                space();
                if (i_ >= t_.size() || t_[i_] != ':') return false;
                ++i_;
                Json member;
                if (!value(member, depth + 1)) return false;
                out.members.emplace_back(std::move(key), std::move(member));
                space();
                if (i_ < t_.size() && t_[i_] == ',') { ++i_; continue; }
                if (i_ < t_.size() && t_[i_] == '}') return ++i_, true;
                return false;
            }
        }
        if (c == '[') {
            ++i_;
            out.kind = Json::Kind::array;
            space();
            if (i_ < t_.size() && t_[i_] == ']') return ++i_, true;
            while (true) {
                Json item;
                if (!value(item, depth + 1)) return false;
                out.items.push_back(std::move(item));
                space();
                if (i_ < t_.size() && t_[i_] == ',') { ++i_; continue; }
                if (i_ < t_.size() && t_[i_] == ']') return ++i_, true;
                return false;
            }
        }
        if (c == '"') {
            out.kind = Json::Kind::string;
            return string(out.string);
        }
        if (literal("true")) { out.kind = Json::Kind::boolean; out.boolean = true; return true; }
        if (literal("false")) { out.kind = Json::Kind::boolean; return true; }
        if (literal("null")) { out.kind = Json::Kind::null; return true; }
        return number(out);
    }
};

}  // namespace json_detail

// The whole text as one JSON value, or nullopt when it is not valid JSON.
inline std::optional<Json> parse_json(std::string_view text) { return json_detail::Reader(text).document(); }

}  // namespace testing_helpers
