#pragma once
// What the tests of workflow runs share: a daemon with a repository and
// its planning agent, a planned workflow, `mission` allowed a run's time,
// and reads of the run's status and of what its branch holds.

#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "integration/tracking_agent.hpp"

namespace mission::test {

using nlohmann::json;

inline constexpr const char* kToolsets = "planning,coordination,workspaces,tracking";

// Where a run's test starts: a daemon, a git repository, and a
// planning agent in it, the workflow's author.
struct RunSetup {
  Instance instance;
  DaemonProcess daemon{instance};
  fs::path repo = ready_repo();
  Agent planner{instance, repo, kToolsets};

 private:
  fs::path ready_repo() {
    REQUIRE(daemon.ready());
    return make_repo(instance);
  }
};

struct PlannedTask {
  const char* name;
  std::vector<std::string> depends_on;
};

// `head` followed by `tail`: a command line and the agent it runs.
inline std::vector<std::string> args(std::vector<std::string> head,
                                     const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

// A generic agent: keeps its prompt as NOTES/prompt-NAME-ATTEMPT, then
// runs `body` in its worktree.
inline std::vector<std::string> agent(const fs::path& notes, const std::string& body) {
  return {"--", "/bin/sh", "-c",
          "cp \"$MISSION_TASK_PROMPT_FILE\" '" + notes.string() +
              "/prompt-'\"$MISSION_TASK_NAME-$MISSION_TASK_ATTEMPT\"\n" + body};
}

inline std::string make_workflow(Agent& planner, const std::vector<PlannedTask>& plan) {
  json workflow = planner.ok("workflow_create", {{"name", "run-test"},
                                                 {"source_type", "prompt"},
                                                 {"source_content", "a run"},
                                                 {"max_parallel_tasks", 4}});
  json tasks = json::array();
  for (const auto& task : plan) {
    tasks.push_back({{"name", task.name},
                     {"description", std::string("make ") + task.name},
                     {"sequence", 1},
                     {"depends_on", task.depends_on}});
  }
  planner.ok(
      "workflow_set_plan",
      {{"id", workflow["id"]}, {"plan", {{"summary", "s"}, {"approach", "a"}, {"tasks", tasks}}}});
  return workflow["id"];
}

// `mission ARGS...` allowed to run as long as a run takes.
inline ProcessResult run_long(const Instance& instance, const std::vector<std::string>& args,
                              std::chrono::milliseconds timeout = 60s,
                              const std::map<std::string, std::string>& extra_env = {}) {
  std::vector<std::string> argv{MISSION_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  std::map<std::string, std::string> env = instance.env();
  for (const auto& [name, value] : git_env(instance)) env[name] = value;
  for (const auto& [name, value] : extra_env) env[name] = value;
  return run_process(argv, env, timeout);
}

inline json run_status(const Instance& instance, const std::string& workflow) {
  return mission_json(instance, {"workflows", "status", workflow});
}

// Polls the run until `done` says so (each read is a real round trip).
inline json wait_for_run(const Instance& instance, const std::string& workflow,
                         const std::function<bool(const json&)>& done,
                         std::chrono::seconds limit = 30s) {
  const auto deadline = std::chrono::steady_clock::now() + limit * kWaitScale;
  json run;
  while (std::chrono::steady_clock::now() < deadline) {
    run = run_status(instance, workflow);
    if (done(run)) return run;
    std::this_thread::sleep_for(50ms);
  }
  FAIL("the run did not get there in time: " << run.dump());
  return run;
}

inline const json& task_of(const json& run, const std::string& name) {
  for (const auto& task : run["tasks"]) {
    if (task["name"] == name) return task;
  }
  FAIL("no task " << name << " in " << run.dump());
  static json none;
  return none;
}

// Shell for a scripted agent: defines `call TOOL ARGS_JSON`, one MCP
// tools/call (after initialize) over `mission mcp connect` as the agent's
// own execution; a failed call exits the script with 7. `replies` is
// appended to the call's command line, e.g. ">/dev/null" to drop them.
inline std::string shell_mcp_call(const std::string& replies = "") {
  const std::string connect = std::string("\"") + MISSION_PATH +
                              "\" mcp connect --agent-execution \"$MISSION_AGENT_EXECUTION_ID\"";
  return "init='{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
         "\"protocolVersion\":\"2025-11-25\","
         "\"capabilities\":{},\"clientInfo\":{\"name\":\"fake-codex\"}}}'\n"
         "call() { printf '%s\\n%s\\n' \"$init\" "
         "\"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":2,\\\"method\\\":\\\"tools/call\\\","
         "\\\"params\\\":{\\\"name\\\":\\\"$1\\\",\\\"arguments\\\":$2}}\" | " +
         connect + (replies.empty() ? "" : " " + replies) + " || exit 7; }\n";
}

inline std::string show(const Instance& instance, const fs::path& repo, const std::string& spec) {
  ProcessResult result =
      run_process({"/usr/bin/git", "-C", repo.string(), "show", spec}, git_env(instance));
  return result.exit_code == 0 ? result.out : "<missing " + spec + ">";
}

// What `git ARGS` prints in `repo`; fails the test when git does.
inline std::string git_out(const Instance& instance, const fs::path& repo,
                           std::vector<std::string> git_args) {
  git_args.insert(git_args.begin(), {"/usr/bin/git", "-C", repo.string()});
  ProcessResult result = run_process(git_args, git_env(instance));
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return result.out;
}

}  // namespace mission::test
