#pragma once
// An agent for integration tests of the tracking tools: an execution with
// the tracking toolsets and an MCP session to it through the real bridge,
// plus the git and CLI helpers those tests share.

#include <catch2/catch.hpp>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "integration/harness.hpp"
#include "integration/stdio_process.hpp"

namespace mission::test {

using nlohmann::json;

inline void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

inline std::map<std::string, std::string> git_env(const Instance& instance) {
  return {{"HOME", instance.root.path().string()},
          {"GIT_CONFIG_NOSYSTEM", "1"},
          {"GIT_AUTHOR_NAME", "Test"},
          {"GIT_AUTHOR_EMAIL", "test@example.com"},
          {"GIT_COMMITTER_NAME", "Test"},
          {"GIT_COMMITTER_EMAIL", "test@example.com"}};
}

inline void git(const Instance& instance, const fs::path& repo, std::vector<std::string> args) {
  args.insert(args.begin(), {"/usr/bin/git", "-C", repo.string()});
  ProcessResult result = run_process(args, git_env(instance));
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
}

// A repository with a first commit: README.md, src/auth/login.ts, src/utils.ts.
inline fs::path make_repo(const Instance& instance) {
  fs::path repo = instance.root.path() / "repo";
  fs::create_directories(repo);
  git(instance, repo, {"init", "-q", "-b", "main"});
  write_file(repo / "README.md", "# demo\n");
  write_file(repo / "src/auth/login.ts", "export const login = 1;\n");
  write_file(repo / "src/utils.ts", "export const util = 1;\n");
  write_file(repo / ".gitignore", "build/\n");
  git(instance, repo, {"add", "-A"});
  git(instance, repo, {"commit", "-q", "-m", "first"});
  return repo;
}

// One agent: an execution in `cwd` with the tracking toolsets and an MCP
// session to it through the bridge.
class Agent {
 public:
  Agent(const Instance& instance, const fs::path& cwd,
        const std::string& toolsets = "signals,tracking,legacy")
      : instance_(instance), bridge_(start(instance, cwd, toolsets)) {
    json reply = bridge_->request(next_id_++, "initialize",
                                  {{"protocolVersion", "2025-06-18"},
                                   {"capabilities", json::object()},
                                   {"clientInfo", {{"name", "tracking-test"}, {"version", "1"}}}});
    REQUIRE(reply.contains("result"));
    bridge_->send(json{{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  }

  // The tool's result (structuredContent and isError).
  json call(const std::string& tool, const json& arguments) {
    json reply =
        bridge_->request(next_id_++, "tools/call", {{"name", tool}, {"arguments", arguments}});
    INFO(reply.dump());
    REQUIRE(reply.contains("result"));
    return reply["result"];
  }

  // The structured result of a call that must succeed.
  json ok(const std::string& tool, const json& arguments) {
    json result = call(tool, arguments);
    INFO(tool << " " << result.dump());
    REQUIRE(result["isError"] == false);
    return result["structuredContent"];
  }

  // The error code of a call that must fail as a tool error.
  std::string error_code(const std::string& tool, const json& arguments) {
    json result = call(tool, arguments);
    INFO(tool << " " << result.dump());
    REQUIRE(result["isError"] == true);
    return result["structuredContent"]["code"];
  }

  // Sends a call and closes the bridge's stdin at once, as a client that
  // is done; the reply must still come, then the bridge must exit 0.
  json call_then_close(const std::string& tool, const json& arguments) {
    bridge_->send({{"jsonrpc", "2.0"},
                   {"id", next_id_++},
                   {"method", "tools/call"},
                   {"params", {{"name", tool}, {"arguments", arguments}}}});
    bridge_->close_stdin();
    std::optional<json> reply = bridge_->read();
    REQUIRE(reply.has_value());
    INFO(reply->dump());
    CHECK(bridge_->wait_exit() == 0);
    REQUIRE(reply->contains("result"));
    return (*reply)["result"];
  }

  // Sends a call without waiting for its reply; reply() reads it.
  void send_call(const std::string& tool, const json& arguments) {
    bridge_->send({{"jsonrpc", "2.0"},
                   {"id", next_id_++},
                   {"method", "tools/call"},
                   {"params", {{"name", tool}, {"arguments", arguments}}}});
  }
  json reply(std::chrono::milliseconds timeout = std::chrono::seconds(15)) {
    std::optional<json> reply = bridge_->read(timeout);
    REQUIRE(reply.has_value());
    INFO(reply->dump());
    REQUIRE(reply->contains("result"));
    return (*reply)["result"];
  }
  bool silent_for(std::chrono::milliseconds quiet) { return bridge_->silent_for(quiet); }

  json list_tools() { return bridge_->request(next_id_++, "tools/list")["result"]["tools"]; }
  const std::string& execution_id() const { return execution_id_; }
  // The bridge itself, for raw lines.
  StdioProcess& bridge() { return *bridge_; }

 private:
  std::unique_ptr<StdioProcess> start(const Instance& instance, const fs::path& cwd,
                                      const std::string& toolsets) {
    ProcessResult created =
        run_mission(instance, {"--json", "exec", "create", "--cwd", cwd.string(), "--toolsets",
                               toolsets, "--print-token"});
    REQUIRE(created.exit_code == 0);
    json document = json::parse(created.out);
    execution_id_ = document["execution"]["id"];
    auto env = instance.env();
    env["MISSION_MCP_TOKEN"] = document["token"];
    return std::make_unique<StdioProcess>(
        std::vector<std::string>{MISSION_PATH, "mcp", "connect", "--agent-execution",
                                 execution_id_},
        env, cwd.string());
  }

  const Instance& instance_;
  std::string execution_id_;
  std::unique_ptr<StdioProcess> bridge_;
  int next_id_ = 1;
};

inline json mission_json(const Instance& instance, const std::vector<std::string>& args) {
  std::vector<std::string> full{"--json"};
  full.insert(full.end(), args.begin(), args.end());
  ProcessResult result = run_mission(instance, full);
  INFO(result.err);
  REQUIRE(result.out.size() > 0);
  return json::parse(result.out);
}

inline json strings(std::initializer_list<const char*> items) {
  json out = json::array();
  for (const char* item : items) out.push_back(item);
  return out;
}

}  // namespace mission::test
