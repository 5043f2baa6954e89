// A scene a user builds: bodies, anchors, springs and links, written as one value of the link
// (`scene=`) and read by the `scene` scenario (core/scenarios.cpp). The grammar:
//
//   scene  = item *( ";" item )
//   item   = kind ":" args *( "," field )
//   field  = name ":" value                  a named number, or a word where the field has words
//   end    = "b" index | "a" index           a body or an anchor, counted from 0 in the order made
//
// Items, each a row of scene_kinds() (its positional arguments, then its fields, defaults left out):
//   b:X,Y          a body at (X, Y)                       m (kg), vx, vy (m/s)
//   a:X,Y          an anchor, a fixed point
//   s:E,E          a spring between two ends              k (N/m), rest (m), d (N·s/m)
//   l:E,E          a link: a rod (alpha 0) or compliant   rest (m), alpha (m/N), d (N·s/m)
//   rope:E,X,Y     n links from E to a new body at (X, Y) n, m, mend (the last body's mass), alpha, d
//   rope:E,E       n links between two ends               n, m, len (each link; longer than straight:
//                                                         the rope sags on a circular arc), alpha, d
//   cloth:X,Y      a w × h grid of links, spacing s, top-left corner at (X, Y), rows going down,
//                  pinned points (pin: none, corners, top, tl, tr) are anchors   w, h, s, m, alpha, d
//   ring:X,Y       n bodies on a circle of radius r about (X, Y), neighbours joined by springs,
//                  turning at spin (rad/s)                r, n, m, k, d, spin
// A rest length left out is the ends' distance at the start. An item may name only bodies and
// anchors made before it. Characters are URL-safe (no '&', '=', '#', '%', '+' or space): a
// scene is written into a link as it is.
//
// parse_scene reads and checks the text (every field's range, every end, the scene's bounds and
// what would make the motion meaningless: a link to itself, a rod of length 0, a rigid rope
// pulled straight between two anchors); scene_text writes the canonical text (one spelling per
// scene: parse → scene_text → parse gives the same scene); build_scene_items turns it into a
// System and the start state. The shorthands (rope, cloth, ring) stay shorthands in the text,
// so a teacher's link stays short.
#pragma once
#include "messages.hpp"

#include <glm/ext/vector_double2.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepwise {

struct System;

// The bounds of a scene (the page's editor and the CLI share them).
constexpr std::size_t max_scene_length = 16000;  // characters of the scene= value (the others: 1,024)
constexpr int max_scene_bodies = 64;
constexpr int max_scene_anchors = 64;
constexpr int max_scene_joins = 256;  // springs and links together
constexpr int max_scene_items = 512;

enum class SceneKind : unsigned char { body, anchor, spring, link, rope, cloth, ring };

// What an item's positional arguments are.
enum class SceneArgs : unsigned char {
    point,     // X,Y
    two_ends,  // E,E
    rope,      // E then E or X,Y
};

// A named field of an item: its default (NaN: derived at build, e.g. a rest length from the
// distance), its range, and its words when it is a choice (stored as the word's index).
struct SceneFieldSpec {
    const char* name;
    double def;
    double min, max;
    bool min_exclusive;
    bool whole;
    std::vector<const char*> words;  // empty: a number
    const char* unit;
    const char* meaning;
};

struct SceneKindInfo {
    const char* id;  // as written: "b", "a", "s", "l", "rope", "cloth", "ring"
    SceneKind kind;
    const char* name;  // "body", "anchor", …
    SceneArgs args;
    std::vector<SceneFieldSpec> fields;
    const char* meaning;
};
const std::vector<SceneKindInfo>& scene_kinds();
const SceneKindInfo& scene_kind_info(SceneKind kind);
// The index of a kind's field by name in its fields (SceneItem::field), or -1.
int scene_field_index(SceneKind kind, std::string_view name);

constexpr int max_scene_fields = 8;

// One end of a spring, link or rope: a body or an anchor, by its index among them.
struct SceneEnd {
    bool anchor = false;
    int index = 0;
    bool operator==(const SceneEnd&) const = default;
};

struct SceneItem {
    SceneKind kind = SceneKind::body;
    glm::dvec2 point{0.0, 0.0};  // a body's or anchor's place, a rope's new end, a cloth's corner, a ring's centre
    SceneEnd ends[2];            // a spring's or link's ends; a rope's first end (and second unless to_point)
    bool to_point = false;       // a rope ending at a new body at `point`
    double field[max_scene_fields] = {};  // in the kind's field order: as written, or the default
    unsigned given = 0;                   // bit f: field f was written, other than at its default
    bool operator==(const SceneItem& o) const;
};

struct SceneSpec {
    std::vector<SceneItem> items;
    bool operator==(const SceneSpec&) const = default;
};

// What is wrong with a scene: a row of message_table() and its arguments (item: its number from
// 1, got: its text; and the row's others). The caller adds key.
struct SceneProblem {
    std::string code;
    MessageArgs args;
};

std::optional<SceneSpec> parse_scene(std::string_view text, SceneProblem& problem);
std::string scene_text(const SceneSpec& scene);

// The scene's bodies, anchors' springs and links put into s (its fields, gravity and the others,
// are the scenario's keys), with the start state. The scene passed parse_scene.
struct SceneLayout {
    std::vector<glm::dvec2> x0, v0;
    std::vector<glm::dvec2> anchors;  // every anchor, in order (the pinned points of a cloth among them)
};
void build_scene_items(const SceneSpec& scene, System& s, SceneLayout& layout);

// The scene with its shorthands written out, items b, a, s and l alone: every anchor, then every
// body, then the springs to anchors, the springs between bodies and the links, each in the order
// made. It builds the same System and start state bit for bit; a rest length left to the distance
// stays left out. What the page's editor edits (a rope's bodies move one by one).
SceneSpec explicit_scene(const SceneSpec& scene);

// The angle φ each of n chords of length len subtends on the circular arc through two points
// span apart (span < n·len): sin(nφ/2)/sin(φ/2) = span/len falls from n to 0 as φ goes from 0
// to 2π/n and has one root there, found by bisection to the last bit. A rope sagging between two
// ends and the bridge scenario start on this arc.
double sag_chord_angle(int n, double len, double span);

}  // namespace stepwise
