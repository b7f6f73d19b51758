#pragma once
// Where an McpSession's replies go: the connection of the bridge (the Unix
// socket), or the HTTP responses of MCP over Streamable HTTP.

#include <nlohmann/json.hpp>
#include <string>

#include "daemon/loop/connection.hpp"

namespace mission::daemon::mcp {

class ReplyChannel {
 public:
  virtual ~ReplyChannel() = default;
  // One reply, a JSON-RPC response or a batch's array, as one line ending
  // in "\n". `id` is the id of the request it answers: null for a batch
  // and for an error that has none. Runs on the loop thread, possibly
  // long after the request (a deferred tool, message_wait).
  virtual void send(const nlohmann::json& id, std::string line) = 0;
  // The client is done and has every reply it asked for: end the transport.
  virtual void finish() = 0;
};

// The bridge's channel: replies are lines on the session's connection.
class ConnectionChannel : public ReplyChannel {
 public:
  explicit ConnectionChannel(loop::Connection& connection) : connection_(connection) {}
  void send(const nlohmann::json&, std::string line) override { connection_.write(line); }
  void finish() override { connection_.close(); }

 private:
  loop::Connection& connection_;
};

}  // namespace mission::daemon::mcp
