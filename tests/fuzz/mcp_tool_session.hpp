#pragma once
// One MCP session kept across fuzz inputs: a connection to the fixture's
// daemon that attached an execution for `cwd` with the given toolsets and
// initialized, so an input costs a tools/call, not a new session.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/fuzz/daemon_fixture.hpp"

namespace mission::fuzz {

class McpToolSession {
 public:
  // Traps when the attach or the initialize is refused.
  McpToolSession(DaemonFixture& daemon, const std::filesystem::path& cwd,
                 const std::vector<std::string>& toolsets);

  const std::string& execution_id() const { return execution_id_; }

  // The names of every tool of tools/list, every page.
  std::vector<std::string> tool_names();

  // Sends `frame` (one line, the request with id `id`) and returns the
  // response to it; notifications before it are skipped. A frame the
  // daemon could not read is answered with a null id, which is taken as
  // the answer too. Traps when the daemon closes the connection.
  nlohmann::json exchange(const std::string& frame, std::int64_t id);

  // A request with the next id, and its response.
  nlohmann::json request(const std::string& method, const nlohmann::json& params);

  // The structured result of a tools/call that must succeed; traps on an
  // error, naming the tool and the reply.
  nlohmann::json call_ok(const std::string& tool, const nlohmann::json& arguments);

  std::int64_t next_id() { return next_id_++; }

 private:
  std::unique_ptr<Connection> connection_;
  std::string execution_id_;
  std::int64_t next_id_ = 1;
};

}  // namespace mission::fuzz
