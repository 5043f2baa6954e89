// Every table of the core as one JSON document, written in one place for every consumer:
// `stepwise list --format json` prints it and the page's modules parse it (core.tables()), so the
// CLI and the page cannot drift apart on what the core holds (integrators, kinds of system, limits,
// scenarios, presets, the game loop's keys, views, languages, and the messages with the ways of
// saying what a key allows).
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace stepwise {

// extra_limits: a consumer's own limits, added to "limits" (the page's module has a few: the
// largest cloud it draws, the steps one call may take, …).
std::string tables_json(const std::vector<std::pair<std::string, double>>& extra_limits = {});

}  // namespace stepwise
