#pragma once
// Paging on the control API, the same for every list method: `limit`,
// `cursor` (older items, newest first) or `after` (only newer items, oldest
// first), never both (mixed_pagination). A reply carries the list,
// `nextCursor` while older items remain, `afterCursor` to ask later for
// what is newer, and `more` when an `after` page did not reach the newest.
// A page also stops early rather than outgrow the reply budget.

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <vector>

#include "daemon/store/page.hpp"

namespace mission::daemon {

struct ListParams {
  std::optional<std::int64_t> cursor;
  std::optional<std::int64_t> after;
  std::optional<std::size_t> limit;
};

// Reads limit, cursor and after from validated params.
ListParams decode_list_params(const nlohmann::json& params);

// The store's page request: mixed_pagination when both are given; the
// limit defaults to `default_limit` and is capped at kMaxPageItems.
store::PageRequest page_request(const ListParams& params, std::size_t default_limit);

// Puts `items` (the rendered rows, in the page's order) under `key` in
// `out` with the paging fields, dropping items from the end while the
// reply would outgrow the budget.
void put_page(nlohmann::json& out, std::string_view key, nlohmann::json items,
              const std::vector<std::int64_t>& positions, bool more,
              const store::PageRequest& request);

}  // namespace mission::daemon
