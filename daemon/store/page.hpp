#pragma once
// Keyset paging, the same for every list (DESIGN.md section 5 and the UX
// seed): each row has a position that only grows (its rowid, or its id
// where that is an INTEGER PRIMARY KEY). `cursor` pages back through older
// rows, newest first; `after` returns only rows newer than a position,
// oldest first, so a follower never misses one. Never both.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"

namespace mission::store {

struct PageRequest {
  std::optional<std::int64_t> cursor;  // rows older than this position
  std::optional<std::int64_t> after;   // rows newer than this position
  std::size_t limit = 50;
};

template <class Row>
struct Page {
  std::vector<Row> rows;
  std::vector<std::int64_t> positions;  // of each row, same order
  bool more = false;                    // rows remain past the last one in this direction
};

// Narrows a mission's tasks and journal entries to those of tasks in one
// phase or by one agent, and to those made at or after a time.
struct RecordFilter {
  std::optional<std::int64_t> phase;
  std::optional<std::string> agent;
  std::optional<std::int64_t> since_ms;
};

// The ORDER BY / WHERE tail that pages on `position_column`, for a query
// whose WHERE clause is already open ("... WHERE <filter>"). Binds nothing:
// the caller binds the position at `position_index` when one is set, and
// the limit (plus one, to learn whether more remain) at `limit_index`.
std::string page_clause(const PageRequest& request, const std::string& position_column,
                        int position_index, int limit_index);

// Whether the page request has a position to bind.
inline std::optional<std::int64_t> page_position(const PageRequest& request) {
  return request.cursor ? request.cursor : request.after;
}

// Steps `s` (a query ending in page_clause) into a page: up to
// request.limit rows made by `read`, each with its position from
// `position_column`; a row past the limit only sets `more`.
template <class Row, class Read>
Page<Row> read_page(Statement& s, const PageRequest& request, int position_column, Read read) {
  Page<Row> page;
  while (s.step()) {
    if (page.rows.size() == request.limit) {
      page.more = true;
      break;
    }
    page.rows.push_back(read(s));
    page.positions.push_back(s.integer(position_column));
  }
  return page;
}

}  // namespace mission::store
