#include "daemon/rpc/paging.hpp"

#include <algorithm>

#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::daemon {
namespace {

// Room kept for the rest of a reply around its list.
constexpr std::size_t kReplyMarginBytes = 16 * 1024;

}  // namespace

ListParams decode_list_params(const nlohmann::json& params) {
  ListParams out;
  if (params.contains("cursor")) out.cursor = params.at("cursor").get<std::int64_t>();
  if (params.contains("after")) out.after = params.at("after").get<std::int64_t>();
  if (params.contains("limit")) out.limit = params.at("limit").get<std::size_t>();
  return out;
}

store::PageRequest page_request(const ListParams& params, std::size_t default_limit) {
  if (params.cursor && params.after) {
    throw MissionError(ErrorCode::mixed_pagination, "cursor and after were both given",
                       "pass cursor (nextCursor of a reply) to page back through older items, or "
                       "after (afterCursor) for only newer ones");
  }
  store::PageRequest request;
  request.cursor = params.cursor;
  request.after = params.after;
  request.limit =
      std::clamp<std::size_t>(params.limit.value_or(default_limit), 1, limits::kMaxPageItems);
  return request;
}

void put_page(nlohmann::json& out, std::string_view key, nlohmann::json items,
              const std::vector<std::int64_t>& positions, bool more,
              const store::PageRequest& request) {
  // Keep what fits; the first item always does (a lone item that does not
  // is caught by the dispatcher's reply limit).
  std::size_t bytes = 0;
  std::size_t kept = 0;
  for (; kept < items.size(); ++kept) {
    bytes += items[kept].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).size() + 1;
    if (kept > 0 && bytes > limits::kMaxReplyBytes - kReplyMarginBytes) break;
  }
  if (kept < items.size()) {
    items.erase(items.begin() + static_cast<std::ptrdiff_t>(kept), items.end());
    more = true;
  }
  const bool forward = request.after.has_value();
  if (!forward && more && kept > 0) out["nextCursor"] = positions[kept - 1];
  if (forward) {
    out["afterCursor"] = kept > 0 ? positions[kept - 1] : *request.after;
    out["more"] = more;
  } else if (!request.cursor) {
    out["afterCursor"] = kept > 0 ? positions.front() : 0;
  }
  out[std::string(key)] = std::move(items);
}

}  // namespace mission::daemon
