// The page's scene editor's side of the core (full module): a built scene written out item by
// item (explicit_scene, core/scene_spec.hpp) as plain JS objects, and the editor's objects
// written back as the canonical scene text, checked by the core's own parser. The page keeps no
// copy of the grammar: it edits objects and the core writes and reads the text.
#pragma once
#include <emscripten/val.h>

#include <string>

namespace stepwise::web {

// The scene of a query's config (its valid parts; the scene scenario's default when it gives
// none), written out:
//   {ok, text, anchors: [{x, y}], bodies: [{x, y, m, vx, vy}],
//    springs: [{a, b, k, rest, d}], links: [{a, b, rest, alpha, d}]}
// an end is {anchor: bool, index}; rest is null when left to the ends' distance at the start.
// ok is false (and the lists empty) when the query is not a scene.
emscripten::val scene_model(const std::string& query);

// The canonical text of a model of that form (anchors, then bodies, then springs and links):
//   {ok: true, text} or {ok: false, error: {code, args, message}}
// with the message of the core's parser (key "scene"; items counted in that order from 1).
emscripten::val scene_text_of(const emscripten::val& model);

}  // namespace stepwise::web
