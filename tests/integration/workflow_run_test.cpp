// The daemon runs a workflow (docs/adr/0023), end to end through the real
// socket, real git repositories and real agent processes: fake agents are
// shell commands that edit files in their worktree, as the run's generic
// adapter launches them. A diamond DAG run two at a time; a check that
// fails once; an agent killed mid-task; two tasks whose merges conflict;
// attempts that run out; a stop; and a daemon killed with SIGKILL mid-run
// whose successor resumes the run.

#include <catch2/catch.hpp>
#include <csignal>
#include <set>
#include <thread>

#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

const char* kToolsets = "planning,coordination,workspaces,tracking";

struct PlannedTask {
  const char* name;
  std::vector<std::string> depends_on;
};

std::string make_workflow(Agent& planner, const std::vector<PlannedTask>& plan) {
  json workflow = planner.ok("workflow_create", {{"name", "run-test"}, {"source_type", "prompt"},
                                                 {"source_content", "a run"}, {"max_parallel_tasks", 4}});
  json tasks = json::array();
  for (const auto& task : plan) {
    tasks.push_back({{"name", task.name}, {"description", std::string("make ") + task.name}, {"sequence", 1},
                     {"depends_on", task.depends_on}});
  }
  planner.ok("workflow_set_plan",
             {{"id", workflow["id"]}, {"plan", {{"summary", "s"}, {"approach", "a"}, {"tasks", tasks}}}});
  return workflow["id"];
}

// `mission ARGS...` allowed to run as long as a run takes.
ProcessResult run_long(const Instance& instance, const std::vector<std::string>& args,
                       std::chrono::milliseconds timeout = 60s) {
  std::vector<std::string> argv{MISSION_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  std::map<std::string, std::string> env = instance.env();
  for (const auto& [name, value] : git_env(instance)) env[name] = value;
  return run_process(argv, env, timeout);
}

json run_status(const Instance& instance, const std::string& workflow) {
  return mission_json(instance, {"workflows", "status", workflow});
}

// Polls the run until `done` says so (each read is a real round trip).
json wait_for_run(const Instance& instance, const std::string& workflow, const std::function<bool(const json&)>& done,
                  std::chrono::seconds limit = 30s) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  json run;
  while (std::chrono::steady_clock::now() < deadline) {
    run = run_status(instance, workflow);
    if (done(run)) return run;
    std::this_thread::sleep_for(50ms);
  }
  FAIL("the run did not get there in time: " << run.dump());
  return run;
}

const json& task_of(const json& run, const std::string& name) {
  for (const auto& task : run["tasks"]) {
    if (task["name"] == name) return task;
  }
  FAIL("no task " << name << " in " << run.dump());
  static json none;
  return none;
}

std::string show(const Instance& instance, const fs::path& repo, const std::string& spec) {
  ProcessResult result = run_process({"/usr/bin/git", "-C", repo.string(), "show", spec}, git_env(instance));
  return result.exit_code == 0 ? result.out : "<missing " + spec + ">";
}

// A fake agent: writes NAME.txt in its worktree; the shell snippet `before`
// runs first (it may exit).
std::vector<std::string> agent(const std::string& before = "") {
  return {"--", "/bin/sh", "-c", before + "\nprintf '%s\\n' \"$MISSION_TASK_NAME\" > \"$MISSION_TASK_NAME.txt\""};
}

std::vector<std::string> args(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

}  // namespace

TEST_CASE("a diamond workflow runs two at a time in dependency order and merges into its branch") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent planner(instance, repo, kToolsets);
  const std::string workflow =
      make_workflow(planner, {{"base", {}}, {"left", {"base"}}, {"right", {"base"}}, {"top", {"left", "right"}}});

  // Each agent proves its prerequisites' work is in its worktree.
  const std::string check_prerequisites =
      "case \"$MISSION_TASK_NAME\" in left|right) test -f base.txt || exit 3;; "
      "top) test -f left.txt && test -f right.txt || exit 3;; esac";
  ProcessResult result = run_long(
      instance, args({"workflows", "run", workflow, "--parallel", "2"}, agent(check_prerequisites)));
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out.find("merged") != std::string::npos);
  CHECK(result.out.find("completed") != std::string::npos);

  const json run = run_status(instance, workflow);
  CHECK(run["status"] == "completed");
  for (const char* name : {"base", "left", "right", "top"}) {
    CHECK(task_of(run, name)["status"] == "merged");
    CHECK(task_of(run, name)["attempts"].size() == 1);
  }
  const std::string branch = run["integrationBranch"];
  CHECK(branch == "mission/run/" + workflow);
  for (const char* name : {"base", "left", "right", "top"}) {
    CHECK(show(instance, repo, branch + ":" + name + ".txt") == std::string(name) + "\n");
  }
  // The main work tree was not touched; the worktrees were removed.
  CHECK_FALSE(fs::exists(repo / "base.txt"));
  json workflow_json = mission_json(instance, {"workflows", "show", workflow});
  CHECK(workflow_json.dump().find("\"completed\"") != std::string::npos);
  json listed = mission_json(instance, {"workspaces", "list", "--workflow", workflow});
  CHECK(listed["workspaces"].empty());
}

TEST_CASE("a failed check is retried with its output in the next attempt's prompt") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent planner(instance, repo, kToolsets);
  const std::string workflow = make_workflow(planner, {{"only", {}}});
  const fs::path notes = instance.root.path() / "notes";
  fs::create_directories(notes);

  const std::string keep_prompt =
      "printf '%s' \"$MISSION_TASK_PROMPT\" > '" + notes.string() + "'/prompt-$MISSION_TASK_ATTEMPT";
  const std::string check = "if [ -f '" + notes.string() + "/checked' ]; then exit 0; fi; touch '" + notes.string() +
                            "/checked'; echo 'tests failed: expected 2, got 3'; exit 1";
  ProcessResult result =
      run_long(instance, args({"workflows", "run", workflow, "--check", check}, agent(keep_prompt)));
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  const json run = run_status(instance, workflow);
  const json& task = task_of(run, "only");
  REQUIRE(task["attempts"].size() == 2);
  CHECK(task["attempts"][0]["status"] == "failed");
  CHECK(task["attempts"][0]["reason"].get<std::string>().find("--check failed") != std::string::npos);
  CHECK(task["attempts"][1]["status"] == "merged");
  const std::string second_prompt = read_file(notes / "prompt-2");
  CHECK(second_prompt.find("The previous attempt failed") != std::string::npos);
  CHECK(second_prompt.find("tests failed: expected 2, got 3") != std::string::npos);
  CHECK(read_file(notes / "prompt-1").find("previous attempt") == std::string::npos);
}

TEST_CASE("an agent that dies mid-task is retried and one that always fails ends the run failed with its dependents blocked") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent planner(instance, repo, kToolsets);

  SECTION("killed once, then done") {
    const std::string workflow = make_workflow(planner, {{"fragile", {}}});
    ProcessResult result = run_long(
        instance, args({"workflows", "run", workflow}, agent("[ \"$MISSION_TASK_ATTEMPT\" = 1 ] && kill -9 $$")));
    INFO(result.out << result.err);
    CHECK(result.exit_code == 0);
    const json run = run_status(instance, workflow);
    const json& task = task_of(run, "fragile");
    REQUIRE(task["attempts"].size() == 2);
    CHECK(task["attempts"][0]["reason"].get<std::string>().find("signal 9") != std::string::npos);
    CHECK(task["attempts"][1]["status"] == "merged");
  }

  SECTION("always failing") {
    const std::string workflow = make_workflow(planner, {{"doomed", {}}, {"after", {"doomed"}}});
    ProcessResult result =
        run_long(instance, args({"workflows", "run", workflow, "--max-attempts", "2"}, agent("exit 4")));
    INFO(result.out << result.err);
    CHECK(result.exit_code == 1);
    const json run = run_status(instance, workflow);
    CHECK(run["status"] == "failed");
    const json& doomed = task_of(run, "doomed");
    CHECK(doomed["status"] == "failed");
    CHECK(doomed["attempts"].size() == 2);
    CHECK(doomed["attempts"][1]["reason"].get<std::string>().find("status 4") != std::string::npos);
    CHECK(task_of(run, "after")["attempts"].empty());
    CHECK(task_of(run, "after")["status"] == "waiting");
  }
}

TEST_CASE("two tasks whose merges conflict: one merges and the other is blocked naming the file with nothing half-merged") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent planner(instance, repo, kToolsets);
  const std::string workflow = make_workflow(planner, {{"one", {}}, {"two", {}}});
  ProcessResult result = run_long(
      instance, args({"workflows", "run", workflow, "--parallel", "2", "--max-attempts", "1"},
                     agent("printf 'export const util = \"%s\";\\n' \"$MISSION_TASK_NAME\" > src/utils.ts")));
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  const json run = run_status(instance, workflow);
  CHECK(run["status"] == "partial");
  std::set<std::string> statuses{task_of(run, "one")["status"], task_of(run, "two")["status"]};
  CHECK(statuses == std::set<std::string>{"merged", "conflicted"});
  const json& blocked = task_of(run, "one")["status"] == "conflicted" ? task_of(run, "one") : task_of(run, "two");
  CHECK(blocked["attempts"][0]["reason"].get<std::string>().find("conflicts in src/utils.ts") != std::string::npos);
  const std::string merged_file = show(instance, repo, run["integrationBranch"].get<std::string>() + ":src/utils.ts");
  CHECK(merged_file.find("<<<<<<<") == std::string::npos);
  CHECK((merged_file == "export const util = \"one\";\n" || merged_file == "export const util = \"two\";\n"));
}

TEST_CASE("a stopped run stops its agents and gives their tasks back") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent planner(instance, repo, kToolsets);
  const std::string workflow = make_workflow(planner, {{"slow", {}}});
  ProcessResult started =
      run_long(instance, args({"workflows", "run", workflow, "--detach"}, agent("sleep 30")));
  INFO(started.err);
  REQUIRE(started.exit_code == 0);
  wait_for_run(instance, workflow, [](const json& run) {
    return !run["tasks"][0]["attempts"].empty() && run["tasks"][0]["attempts"][0]["status"] == "running";
  });
  ProcessResult stopped = run_mission(instance, {"workflows", "stop", workflow});
  INFO(stopped.err);
  CHECK(stopped.exit_code == 0);
  const json run = wait_for_run(instance, workflow, [](const json& r) { return r["status"] == "stopped"; });
  CHECK(task_of(run, "slow")["attempts"][0]["status"] == "stopped");
  json task = planner.ok("task_get", {{"id", task_of(run, "slow")["id"]}});
  CHECK(task.dump().find("\"ready\"") != std::string::npos);
  // Stopped, it can run again.
  ProcessResult again = run_long(instance, args({"workflows", "run", workflow}, agent()));
  INFO(again.out << again.err);
  CHECK(again.exit_code == 0);
}

TEST_CASE("a run survives a daemon killed with SIGKILL: the next daemon retries the lost attempt and completes it") {
  Instance instance;
  const fs::path repo = make_repo(instance);
  std::string workflow;
  {
    DaemonProcess daemon(instance);
    REQUIRE(daemon.ready());
    Agent planner(instance, repo, kToolsets);
    workflow = make_workflow(planner, {{"long", {}}, {"next", {"long"}}});
    ProcessResult started = run_long(
        instance, args({"workflows", "run", workflow, "--detach"}, agent("[ \"$MISSION_TASK_NAME$MISSION_TASK_ATTEMPT\" = long1 ] && sleep 30")));
    INFO(started.err);
    REQUIRE(started.exit_code == 0);
    wait_for_run(instance, workflow, [](const json& run) {
      return !run["tasks"][0]["attempts"].empty() && run["tasks"][0]["attempts"][0]["status"] == "running";
    });
    daemon.signal(SIGKILL);
    daemon.wait_exit();
  }
  DaemonProcess successor(instance);
  REQUIRE(successor.ready());
  const json run = wait_for_run(instance, workflow, [](const json& r) { return r["status"] == "completed"; });
  const json& task = task_of(run, "long");
  REQUIRE(task["attempts"].size() == 2);
  CHECK(task["attempts"][0]["status"] == "failed");
  CHECK(task["attempts"][0]["reason"].get<std::string>().find("restarted") != std::string::npos);
  CHECK(task_of(run, "next")["status"] == "merged");
}

TEST_CASE("a run whose first agent goes through an adapter keeps the launch dir private and completes") {
  // The run writes its prompt files under the launch dir before the adapter
  // writes its own files there; the adapter refuses that dir unless 0700.
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent planner(instance, repo, kToolsets);
  const std::string workflow = make_workflow(planner, {{"solo", {}}});
  const fs::path fake_claude = instance.root.path() / "fake-claude";
  write_file(fake_claude, "#!/bin/sh\nprintf '%s\\n' \"$MISSION_TASK_NAME\" > \"$MISSION_TASK_NAME.txt\"\n");
  fs::permissions(fake_claude, fs::perms::owner_all);
  ProcessResult result = run_long(instance, {"workflows", "run", workflow, "--adapter", "claude-code", "--max-attempts",
                                             "1", "--env", "MISSION_CLAUDE_CODE_BIN=" + fake_claude.string()});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  const json run = run_status(instance, workflow);
  CHECK(run["status"] == "completed");
  CHECK(show(instance, repo, std::string(run["integrationBranch"]) + ":solo.txt") == "solo\n");
}

TEST_CASE("a run is refused with a reason for a workflow that cannot run") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent planner(instance, repo, kToolsets);
  json unplanned = planner.ok("workflow_create", {{"name", "empty"}, {"source_type", "prompt"}, {"source_content", "x"}});
  ProcessResult result = run_mission(instance, {"workflows", "run", unplanned["id"], "--", "true"});
  CHECK(result.exit_code != 0);
  CHECK(result.err.find("plan") != std::string::npos);
  ProcessResult no_command = run_mission(instance, {"workflows", "run", "wf-nothing"});
  CHECK(no_command.exit_code != 0);
  ProcessResult stop_nothing = run_mission(instance, {"workflows", "stop", unplanned["id"]});
  CHECK(stop_nothing.exit_code != 0);
  CHECK(stop_nothing.err.find("no run") != std::string::npos);
}

TEST_CASE("with --approve a person rejects a task with a reason the next attempt sees and then approves it") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent planner(instance, repo, kToolsets);
  const std::string workflow = make_workflow(planner, {{"reviewed", {}}});
  const fs::path notes = instance.root.path() / "notes";
  fs::create_directories(notes);
  const std::string keep_prompt =
      "printf '%s' \"$MISSION_TASK_PROMPT\" > '" + notes.string() + "'/prompt-$MISSION_TASK_ATTEMPT";
  ProcessResult started =
      run_long(instance, args({"workflows", "run", workflow, "--approve", "--detach"}, agent(keep_prompt)));
  INFO(started.err);
  REQUIRE(started.exit_code == 0);
  auto waiting_at = [](int attempt) {
    return [attempt](const json& run) {
      const auto& attempts = run["tasks"][0]["attempts"];
      return attempts.size() == static_cast<std::size_t>(attempt) && attempts.back()["status"] == "awaiting_approval";
    };
  };
  json run = wait_for_run(instance, workflow, waiting_at(1));
  const std::string task = run["tasks"][0]["id"];
  // Nothing is merged before a person says so.
  CHECK(show(instance, repo, run["integrationBranch"].get<std::string>() + ":reviewed.txt").find("<missing") == 0);

  ProcessResult rejected = run_mission(instance, {"reject", task, "add a header line first"});
  INFO(rejected.err);
  CHECK(rejected.exit_code == 0);
  run = wait_for_run(instance, workflow, waiting_at(2));
  CHECK(run["tasks"][0]["attempts"][0]["reason"].get<std::string>().find("add a header line first") !=
        std::string::npos);
  CHECK(read_file(notes / "prompt-2").find("add a header line first") != std::string::npos);

  ProcessResult approved = run_mission(instance, {"approve", task});
  INFO(approved.err);
  CHECK(approved.exit_code == 0);
  run = wait_for_run(instance, workflow, [](const json& r) { return r["status"] == "completed"; });
  CHECK(show(instance, repo, run["integrationBranch"].get<std::string>() + ":reviewed.txt") == "reviewed\n");
  // A task that waits on nobody cannot be approved.
  ProcessResult again = run_mission(instance, {"approve", task});
  CHECK(again.exit_code != 0);
  CHECK(again.err.find("no run under way") != std::string::npos);
}
