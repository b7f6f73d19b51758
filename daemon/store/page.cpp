#include "daemon/store/page.hpp"

namespace mission::store {

std::string page_clause(const PageRequest& request, const std::string& position_column,
                        int position_index, int limit_index) {
  std::string clause;
  const std::string position = "?" + std::to_string(position_index);
  if (request.cursor) clause += " AND " + position_column + " < " + position;
  if (request.after) clause += " AND " + position_column + " > " + position;
  clause += " ORDER BY " + position_column + (request.after ? " ASC" : " DESC");
  clause += " LIMIT ?" + std::to_string(limit_index);
  return clause;
}

}  // namespace mission::store
