// A workflow's sandbox choice and an ACP agent's confinement, through the
// real CLI, daemon and kernel: a run's --sandbox off is kept by its retry
// and by the run a daemon restarted after SIGKILL resumes, and its status
// says so; an agent driven over ACP as a task's agent runs confined: it
// cannot write the main checkout or HOME, and keeps its state in the
// folder the daemon gives it.

#include <signal.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "integration/run_helpers.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// A task agent that appends a line to `outside` (a file no confined agent
// may write: it is under HOME, outside the worktree) and fails when it
// cannot, then runs `rest`.
std::vector<std::string> unconfined_agent(const fs::path& outside, const std::string& rest) {
  return {"--", "/bin/sh", "-c",
          "echo \"$MISSION_TASK_NAME $MISSION_TASK_ATTEMPT\" >> '" + outside.string() +
              "' || exit 9\n" + rest};
}

std::vector<std::string> with(std::vector<std::string> head, const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

std::size_t lines_in(const fs::path& file) {
  if (!fs::exists(file)) return 0;
  const std::string text = read_file(file);
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_CASE("a workflow's --sandbox off is kept by its retry, and workflows status says so") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"flaky", {}}});
  const fs::path outside = instance.root.path() / "outside.txt";
  const fs::path fixed = instance.root.path() / "fixed";
  ProcessResult first = run_long(
      instance, with({"workflows", "run", workflow, "--max-attempts", "1", "--sandbox", "off"},
                     unconfined_agent(outside, "[ -e '" + fixed.string() + "' ] || exit 1\n" +
                                                   "echo done > \"$MISSION_TASK_NAME.txt\"")));
  INFO(first.out << first.err);
  REQUIRE(run_status(instance, workflow)["status"] == "failed");
  CHECK(lines_in(outside) == 1);

  write_file(fixed, "");
  ProcessResult retried = run_mission(instance, {"workflows", "retry", workflow});
  INFO(retried.out << retried.err);
  REQUIRE(retried.exit_code == 0);
  const json run =
      wait_for_run(instance, workflow, [](const json& r) { return r["status"] == "completed"; });
  // Its agent wrote outside its worktree again: the retry ran it as the
  // first run did, unconfined.
  CHECK(lines_in(outside) == 2);
  CHECK(run["options"]["sandbox"] == "off");
  CHECK(run["sandbox"] == "not confined: --sandbox off");
  CHECK(run_mission(instance, {"workflows", "status", workflow})
            .out.find("Agents not confined: --sandbox off") != std::string::npos);
}

TEST_CASE("a run resumed by a daemon restarted after SIGKILL keeps its --sandbox off") {
  Instance instance;
  const fs::path repo = make_repo(instance);
  const fs::path outside = instance.root.path() / "outside.txt";
  std::string workflow;
  {
    DaemonProcess daemon(instance);
    REQUIRE(daemon.ready());
    Agent planner(instance, repo, kToolsets);
    workflow = make_workflow(planner, {{"long", {}}});
    // The first attempt waits for as long as its daemon (its parent)
    // lives; the next one finishes.
    ProcessResult started = run_long(
        instance,
        with({"workflows", "run", workflow, "--detach", "--sandbox", "off"},
             unconfined_agent(outside,
                              "if [ \"$MISSION_TASK_ATTEMPT\" = 1 ]; then\n"
                              "  while kill -0 \"$PPID\" 2>/dev/null; do sleep 0.05; done\n"
                              "  exit 1\n"
                              "fi\n"
                              "echo done > \"$MISSION_TASK_NAME.txt\"")));
    INFO(started.err);
    REQUIRE(started.exit_code == 0);
    wait_for_run(instance, workflow, [&](const json& run) {
      return !run["tasks"][0]["attempts"].empty() &&
             run["tasks"][0]["attempts"][0]["status"] == "running" && lines_in(outside) == 1;
    });
    daemon.signal(SIGKILL);
    daemon.wait_exit();
  }
  DaemonProcess successor(instance);
  REQUIRE(successor.ready());
  const json run =
      wait_for_run(instance, workflow, [](const json& r) { return r["status"] == "completed"; });
  REQUIRE(task_of(run, "long")["attempts"].size() == 2);
  // The attempt the new daemon started wrote outside its worktree too.
  CHECK(lines_in(outside) == 2);
  CHECK(run["sandbox"] == "not confined: --sandbox off");
  CHECK(run_mission(instance, {"workflows", "status", workflow})
            .out.find("Agents not confined: --sandbox off") != std::string::npos);
}

TEST_CASE(
    "an ACP task agent runs confined: it cannot write the main checkout or HOME, and keeps its "
    "state in the daemon's folder for it") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"acp", {}}});
  ProcessResult result =
      run_long(instance, {"workflows", "run", workflow, "--max-attempts", "1", "--adapter", "acp",
                          "--", "node", MISSION_ACP_AGENT, "confined", repo.string()});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  const json run = run_status(instance, workflow);
  REQUIRE(run["status"] == "completed");
  CHECK(run["sandbox"].get<std::string>().rfind("confined (Landlock ABI ", 0) == 0);
  const std::string outcomes =
      show(instance, repo, std::string(run["integrationBranch"]) + ":outcomes.txt");
  CHECK(outcomes == "main-checkout: refused\nhome: refused\nstate-folder: written\n");
  CHECK_FALSE(fs::exists(repo / "escaped.txt"));
  const json execution = mission_json(
      instance, {"exec", "show", task_of(run, "acp")["attempts"][0]["agentExecutionId"]});
  const fs::path home = instance.state_dir() / "agent-home" / "acp";
  CHECK(fs::exists(home / "config" / "acp-agent" / "settings.json"));
  CHECK_FALSE(fs::exists(instance.root.path() / "escaped.txt"));
  INFO(execution.dump());
  CHECK(execution.value("sandbox", "").rfind("confined", 0) == 0);

  // mission sandbox check names the folder as the adapter's state path.
  const json check = mission_json(
      instance, {"sandbox", "check", "--adapter", "acp", "--cwd", instance.root.path().string()});
  const json paths = check["profile"]["statePaths"];
  CHECK(std::find(paths.begin(), paths.end(), json(home.string())) != paths.end());
}
