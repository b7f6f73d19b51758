#pragma once
// The protocol side of one control-API connection: splits bytes into frames,
// answers framing and JSON errors itself and hands requests to dispatch().

#include <string>

#include "daemon/loop/connection.hpp"
#include "shared/framing.hpp"

namespace mission::daemon {

class Daemon;

struct ClientInfo {
  std::string name;
  std::string version;
};

class ControlSession : public loop::ConnectionDelegate {
 public:
  ControlSession(Daemon& daemon, loop::Connection& connection);

  void on_data(loop::Connection& connection, std::string_view bytes) override;

  bool greeted() const { return greeted_; }
  void greet(ClientInfo client);
  const ClientInfo& client() const { return client_; }
  loop::Connection& connection() { return connection_; }

 private:
  void handle_frame(const Frame& frame);

  Daemon& daemon_;
  loop::Connection& connection_;
  LineFramer framer_;
  bool greeted_ = false;
  ClientInfo client_;
};

}  // namespace mission::daemon
