// The one lookup every table of the core shares (integrators, scenarios, presets, views): the
// index of the row with a given id, or -1. Links and the CLI name rows by id.
#pragma once
#include <string_view>
#include <vector>

namespace stepwise {

template <class Row>
int index_of_id(const std::vector<Row>& table, std::string_view id) {
    for (std::size_t i = 0; i < table.size(); ++i)
        if (id == table[i].id) return static_cast<int>(i);
    return -1;
}

// The same for a table whose rows name themselves with another field (a message's code).
template <class Row>
int index_of_id(const std::vector<Row>& table, std::string_view id, const char* Row::*field) {
    for (std::size_t i = 0; i < table.size(); ++i)
        if (id == table[i].*field) return static_cast<int>(i);
    return -1;
}

}  // namespace stepwise
