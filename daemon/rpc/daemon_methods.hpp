#pragma once
// Control-API methods about the connection and the daemon itself: hello,
// daemon.status, daemon.stop, board.open.

#include <nlohmann/json.hpp>
#include <string>

#include "daemon/rpc/dispatcher.hpp"

namespace mission::daemon {

struct HelloRequest {
  int protocol = 0;
  std::string client_name;
  std::string client_version;
};
void from_json(const nlohmann::json& j, HelloRequest& request);

struct EmptyRequest {};
inline void from_json(const nlohmann::json&, EmptyRequest&) {}

nlohmann::json handle_hello(MethodContext& context, const HelloRequest& request);
nlohmann::json handle_daemon_status(MethodContext& context, const EmptyRequest& request);
nlohmann::json handle_daemon_stop(MethodContext& context, const EmptyRequest& request);
// board.open: the board's listener, and a one-time sign-in link to it.
nlohmann::json handle_board_open(MethodContext& context, const EmptyRequest& request);

struct GcRequest {
  bool dry_run = false;
};
void from_json(const nlohmann::json& j, GcRequest& request);

// daemon.gc: the retention sweep and the request_id prune, now; says what
// was (or, dry, would be) freed.
nlohmann::json handle_daemon_gc(MethodContext& context, const GcRequest& request);

}  // namespace mission::daemon
