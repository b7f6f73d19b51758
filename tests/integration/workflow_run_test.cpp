// The daemon runs a workflow (docs/adr/0023), end to end through the real
// socket, real git repositories and real agent processes: fake agents are
// shell commands that edit files in their worktree, as the run's generic
// adapter launches them. A diamond DAG run two at a time; a check that
// fails once; an agent killed mid-task; two tasks whose merges conflict;
// attempts that run out; a stop; and a daemon killed with SIGKILL mid-run
// whose successor resumes the run. Then what people read of a run: mission
// report with each attempt and the tokens agents reported over MCP,
// mission check's verdict, and workflows show --follow. The agents and
// checks that note what they saw in a folder outside their worktree run
// with --sandbox off (sandbox_test.cpp covers the confinement).

#include <catch2/catch.hpp>
#include <csignal>
#include <limits>
#include <regex>
#include <set>

#include "integration/run_helpers.hpp"
#include "integration/stdio_process.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// A fake agent: writes NAME.txt in its worktree; the shell snippet `before`
// runs first (it may exit).
std::vector<std::string> agent(const std::string& before = "") {
  return {"--", "/bin/sh", "-c",
          before + "\nprintf '%s\\n' \"$MISSION_TASK_NAME\" > \"$MISSION_TASK_NAME.txt\""};
}

// A fake `codex` (the codex adapter keeps MISSION_MCP_TOKEN in its agent's
// environment): writes NAME.txt, then starts and completes its task over
// mission's MCP bridge, reporting tokens in complete_task's metadata. The
// first attempt of "first" reports the task failed, so it is retried.
fs::path fake_codex(const Instance& instance) {
  const fs::path script = instance.root.path() / "fake-codex.sh";
  write_file(script,
             "#!/bin/sh\n"
             "printf '%s\\n' \"$MISSION_TASK_NAME\" > \"$MISSION_TASK_NAME.txt\"\n"
             "case \"$MISSION_TASK_NAME$MISSION_TASK_ATTEMPT\" in\n"
             "  first1) status=failed; tin=100; tout=10;;\n"
             "  first2) status=success; tin=1000; tout=200;;\n"
             "  *) status=success; tin=50; tout=5;;\n"
             "esac\n" +
                 shell_mcp_call() +
                 "call start_task \"{\\\"task_id\\\":\\\"$MISSION_TASK_ID\\\"}\"\n"
                 "call complete_task "
                 "\"{\\\"task_id\\\":\\\"$MISSION_TASK_ID\\\",\\\"status\\\":\\\"$status\\\","
                 "\\\"outcome\\\":{\\\"summary\\\":\\\"done\\\"},"
                 "\\\"metadata\\\":{\\\"tokens_input\\\":$tin,\\\"tokens_output\\\":$tout}}\"\n");
  fs::permissions(script, fs::perms::owner_all);
  return script;
}

}  // namespace

TEST_CASE("a diamond workflow runs two at a time in dependency order and merges into its branch") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(
      planner, {{"base", {}}, {"left", {"base"}}, {"right", {"base"}}, {"top", {"left", "right"}}});

  // Each agent proves its prerequisites' work is in its worktree.
  const std::string check_prerequisites =
      "case \"$MISSION_TASK_NAME\" in left|right) test -f base.txt || exit 3;; "
      "top) test -f left.txt && test -f right.txt || exit 3;; esac";
  ProcessResult result = run_long(instance, args({"workflows", "run", workflow, "--parallel", "2"},
                                                 agent(check_prerequisites)));
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
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"only", {}}});
  const fs::path notes = instance.root.path() / "notes";
  fs::create_directories(notes);

  const std::string keep_prompt = "printf '%s' \"$MISSION_TASK_PROMPT\" > '" + notes.string() +
                                  "'/prompt-$MISSION_TASK_ATTEMPT";
  const std::string check = "if [ -f '" + notes.string() + "/checked' ]; then exit 0; fi; touch '" +
                            notes.string() +
                            "/checked'; echo 'tests failed: expected 2, got 3'; exit 1";
  ProcessResult result =
      run_long(instance, args({"workflows", "run", workflow, "--check", check, "--sandbox", "off"},
                              agent(keep_prompt)));
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  const json run = run_status(instance, workflow);
  const json& task = task_of(run, "only");
  REQUIRE(task["attempts"].size() == 2);
  CHECK(task["attempts"][0]["status"] == "failed");
  CHECK(task["attempts"][0]["reason"].get<std::string>().find("--check failed") !=
        std::string::npos);
  CHECK(task["attempts"][1]["status"] == "merged");
  const std::string second_prompt = read_file(notes / "prompt-2");
  CHECK(second_prompt.find("The previous attempt failed") != std::string::npos);
  CHECK(second_prompt.find("tests failed: expected 2, got 3") != std::string::npos);
  CHECK(read_file(notes / "prompt-1").find("previous attempt") == std::string::npos);
}

TEST_CASE(
    "a run's agents and checks never get the caller's mission token, and the run stores no "
    "environment") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"only", {}}});
  const fs::path notes = instance.root.path() / "notes";
  fs::create_directories(notes);
  // A `mission workflows run` started by an agent: its shell has that
  // agent's execution, token and a secret of the person's.
  const std::map<std::string, std::string> caller = {
      {"MISSION_MCP_TOKEN", "caller-token-0123456789"},
      {"MISSION_AGENT_EXECUTION_ID", "ae-caller0000"},
      {"MISSION_TASK_ID", "tk-caller0000"},
      {"SOME_API_KEY", "sk-secret-0123456789"}};
  const std::string check = "env > '" + notes.string() + "/check-env'";
  ProcessResult result =
      run_long(instance,
               args({"workflows", "run", workflow, "--check", check, "--sandbox", "off", "--env",
                     "EXPLICIT=yes", "--env", "MISSION_MCP_TOKEN=forced-token-0123456789"},
                    agent("env > '" + notes.string() + "/agent-env'")),
               60s, caller);
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  const std::string agent_env = read_file(notes / "agent-env");
  const std::string check_env = read_file(notes / "check-env");
  for (const std::string* env : {&agent_env, &check_env}) {
    CHECK(env->find("SOME_API_KEY=sk-secret-0123456789") != std::string::npos);
    CHECK(env->find("EXPLICIT=yes") != std::string::npos);
    CHECK(env->find("caller-token-0123456789") == std::string::npos);
    CHECK(env->find("forced-token-0123456789") == std::string::npos);
    CHECK(env->find("ae-caller0000") == std::string::npos);
    CHECK(env->find("tk-caller0000") == std::string::npos);
  }
  CHECK(agent_env.find("MISSION_TASK_ID=tk-") != std::string::npos);
  CHECK(check_env.find("MISSION_MCP_TOKEN") == std::string::npos);
  // Neither the secret nor the token is anywhere in the database.
  for (const char* file : {"mission.db", "mission.db-wal"}) {
    const fs::path path = instance.state_dir() / file;
    if (!fs::exists(path)) continue;
    const std::string bytes = read_file(path);
    CHECK(bytes.find("sk-secret-0123456789") == std::string::npos);
    CHECK(bytes.find("caller-token-0123456789") == std::string::npos);
  }
}

TEST_CASE(
    "an agent that dies mid-task is retried and one that always fails ends the run failed with its "
    "dependents blocked") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;

  SECTION("killed once, then done") {
    const std::string workflow = make_workflow(planner, {{"fragile", {}}});
    ProcessResult result =
        run_long(instance, args({"workflows", "run", workflow},
                                agent("[ \"$MISSION_TASK_ATTEMPT\" = 1 ] && kill -9 $$")));
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
    ProcessResult result = run_long(
        instance, args({"workflows", "run", workflow, "--max-attempts", "2"}, agent("exit 4")));
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

TEST_CASE(
    "two tasks whose merges conflict: one merges and the other is blocked naming the file with "
    "nothing half-merged") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"one", {}}, {"two", {}}});
  ProcessResult result = run_long(
      instance,
      args({"workflows", "run", workflow, "--parallel", "2", "--max-attempts", "1"},
           agent("printf 'export const util = \"%s\";\\n' \"$MISSION_TASK_NAME\" > src/utils.ts")));
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  const json run = run_status(instance, workflow);
  CHECK(run["status"] == "partial");
  std::set<std::string> statuses{task_of(run, "one")["status"], task_of(run, "two")["status"]};
  CHECK(statuses == std::set<std::string>{"merged", "conflicted"});
  const json& blocked =
      task_of(run, "one")["status"] == "conflicted" ? task_of(run, "one") : task_of(run, "two");
  CHECK(blocked["attempts"][0]["reason"].get<std::string>().find("conflicts in src/utils.ts") !=
        std::string::npos);
  const std::string merged_file =
      show(instance, repo, run["integrationBranch"].get<std::string>() + ":src/utils.ts");
  CHECK(merged_file.find("<<<<<<<") == std::string::npos);
  CHECK((merged_file == "export const util = \"one\";\n" ||
         merged_file == "export const util = \"two\";\n"));
  // People hear of it where they read, with the way out.
  const json inbox = mission_json(instance, {"inbox"});
  INFO(inbox.dump());
  REQUIRE(inbox["messages"].size() == 1);
  CHECK(inbox["messages"][0]["subject"].get<std::string>().find("cannot merge") !=
        std::string::npos);
  CHECK(inbox["messages"][0]["body"].get<std::string>().find("conflicts in src/utils.ts") !=
        std::string::npos);
  CHECK(inbox["messages"][0]["body"].get<std::string>().find("by hand") != std::string::npos);
}

TEST_CASE("a stopped run stops its agents and gives their tasks back") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"slow", {}}});
  ProcessResult started =
      run_long(instance, args({"workflows", "run", workflow, "--detach"}, agent("sleep 30")));
  INFO(started.err);
  REQUIRE(started.exit_code == 0);
  wait_for_run(instance, workflow, [](const json& run) {
    return !run["tasks"][0]["attempts"].empty() &&
           run["tasks"][0]["attempts"][0]["status"] == "running";
  });
  ProcessResult stopped = run_mission(instance, {"workflows", "stop", workflow});
  INFO(stopped.err);
  CHECK(stopped.exit_code == 0);
  const json run =
      wait_for_run(instance, workflow, [](const json& r) { return r["status"] == "stopped"; });
  CHECK(task_of(run, "slow")["attempts"][0]["status"] == "stopped");
  json task = planner.ok("task_get", {{"id", task_of(run, "slow")["id"]}});
  CHECK(task.dump().find("\"ready\"") != std::string::npos);
  // Stopped, it can run again.
  ProcessResult again = run_long(instance, args({"workflows", "run", workflow}, agent()));
  INFO(again.out << again.err);
  CHECK(again.exit_code == 0);
}

TEST_CASE(
    "workflows retry runs what failed again with the last run's options, and refuses while it "
    "runs or when nothing failed") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"steady", {}}, {"flaky", {}}});
  const fs::path fixed = instance.root.path() / "fixed";
  const fs::path release = instance.root.path() / "release";
  // "flaky" fails until `fixed` exists, then waits for `release`; one
  // attempt each, so the first run ends.
  const std::string fail_until_fixed = "if [ \"$MISSION_TASK_NAME\" = flaky ]; then [ -e '" +
                                       fixed.string() + "' ] || exit 1; while [ ! -e '" +
                                       release.string() + "' ]; do sleep 0.05; done; fi";
  ProcessResult first = run_long(
      instance, args({"workflows", "run", workflow, "--max-attempts", "1", "--check", "true"},
                     agent(fail_until_fixed)));
  INFO(first.out << first.err);
  REQUIRE(run_status(instance, workflow)["status"] == "partial");

  write_file(fixed, "");
  ProcessResult retried = run_mission(instance, {"workflows", "retry", workflow});
  INFO(retried.out << retried.err);
  REQUIRE(retried.exit_code == 0);
  CHECK(retried.out.find("trying again flaky") != std::string::npos);
  // Refused while it runs (flaky waits for `release`), in words that say
  // what to do.
  ProcessResult busy = run_mission(instance, {"workflows", "retry", workflow});
  CHECK(busy.exit_code != 0);
  CHECK(busy.err.find("mission workflows stop") != std::string::npos);
  write_file(release, "");
  const json run =
      wait_for_run(instance, workflow, [](const json& r) { return r["status"] == "completed"; });
  CHECK(task_of(run, "flaky")["status"] == "merged");
  // The last run's options came along: its --check and --max-attempts.
  CHECK(run["options"]["check"] == "true");
  CHECK(run["options"]["maxAttempts"] == 1);
  CHECK(show(instance, repo, std::string(run["integrationBranch"]) + ":flaky.txt") == "flaky\n");

  ProcessResult nothing = run_mission(instance, {"workflows", "retry", workflow});
  CHECK(nothing.exit_code != 0);
  CHECK(nothing.err.find("nothing to retry") != std::string::npos);
}

TEST_CASE(
    "a run survives a daemon killed with SIGKILL: the next daemon retries the lost attempt and "
    "completes it, in the environment the run was started with") {
  Instance instance;
  const fs::path repo = make_repo(instance);
  std::string workflow;
  {
    DaemonProcess daemon(instance);
    REQUIRE(daemon.ready());
    Agent planner(instance, repo, kToolsets);
    workflow = make_workflow(planner, {{"long", {}}, {"next", {"long"}}});
    ProcessResult started =
        run_long(instance,
                 args({"workflows", "run", workflow, "--detach"},
                      agent("[ \"$MISSION_TASK_NAME$MISSION_TASK_ATTEMPT\" = long1 ] && sleep 30\n"
                            "printf '%s\\n' \"$RUN_STARTED_WITH\" > \"$MISSION_TASK_NAME.env\"")),
                 60s, {{"RUN_STARTED_WITH", "the person's shell"}});
    INFO(started.err);
    REQUIRE(started.exit_code == 0);
    wait_for_run(instance, workflow, [](const json& run) {
      return !run["tasks"][0]["attempts"].empty() &&
             run["tasks"][0]["attempts"][0]["status"] == "running";
    });
    daemon.signal(SIGKILL);
    daemon.wait_exit();
  }
  DaemonProcess successor(instance);
  REQUIRE(successor.ready());
  const json run =
      wait_for_run(instance, workflow, [](const json& r) { return r["status"] == "completed"; });
  const json& task = task_of(run, "long");
  REQUIRE(task["attempts"].size() == 2);
  CHECK(task["attempts"][0]["status"] == "failed");
  CHECK(task["attempts"][0]["reason"].get<std::string>().find("restarted") != std::string::npos);
  CHECK(task_of(run, "next")["status"] == "merged");
  // The daemons never had the variable: it came with the person's command.
  const std::string branch = run["integrationBranch"];
  CHECK(show(instance, repo, branch + ":long.env") == "the person's shell\n");
  CHECK(show(instance, repo, branch + ":next.env") == "the person's shell\n");
}

TEST_CASE(
    "a run whose first agent goes through an adapter keeps the launch dir private and completes") {
  // The run writes its prompt files under the launch dir before the adapter
  // writes its own files there; the adapter refuses that dir unless 0700.
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"solo", {}}});
  const fs::path fake_claude = instance.root.path() / "fake-claude";
  write_file(fake_claude,
             "#!/bin/sh\nprintf '%s\\n' \"$MISSION_TASK_NAME\" > \"$MISSION_TASK_NAME.txt\"\n");
  fs::permissions(fake_claude, fs::perms::owner_all);
  ProcessResult result = run_long(
      instance, {"workflows", "run", workflow, "--adapter", "claude-code", "--max-attempts", "1",
                 "--env", "MISSION_CLAUDE_CODE_BIN=" + fake_claude.string()});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  const json run = run_status(instance, workflow);
  CHECK(run["status"] == "completed");
  CHECK(show(instance, repo, std::string(run["integrationBranch"]) + ":solo.txt") == "solo\n");
}

TEST_CASE("a run is refused with a reason for a workflow that cannot run") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  json unplanned = planner.ok(
      "workflow_create", {{"name", "empty"}, {"source_type", "prompt"}, {"source_content", "x"}});
  ProcessResult result = run_mission(instance, {"workflows", "run", unplanned["id"], "--", "true"});
  CHECK(result.exit_code != 0);
  CHECK(result.err.find("plan") != std::string::npos);
  ProcessResult no_command = run_mission(instance, {"workflows", "run", "wf-nothing"});
  CHECK(no_command.exit_code != 0);
  ProcessResult stop_nothing = run_mission(instance, {"workflows", "stop", unplanned["id"]});
  CHECK(stop_nothing.exit_code != 0);
  CHECK(stop_nothing.err.find("no run") != std::string::npos);
}

TEST_CASE(
    "with --approve a person rejects a task with a reason the next attempt sees and then approves "
    "it") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"reviewed", {}}});
  const fs::path notes = instance.root.path() / "notes";
  fs::create_directories(notes);
  const std::string keep_prompt = "printf '%s' \"$MISSION_TASK_PROMPT\" > '" + notes.string() +
                                  "'/prompt-$MISSION_TASK_ATTEMPT";
  ProcessResult started = run_long(
      instance, args({"workflows", "run", workflow, "--approve", "--detach", "--sandbox", "off"},
                     agent(keep_prompt)));
  INFO(started.err);
  REQUIRE(started.exit_code == 0);
  auto waiting_at = [](int attempt) {
    return [attempt](const json& run) {
      const auto& attempts = run["tasks"][0]["attempts"];
      return attempts.size() == static_cast<std::size_t>(attempt) &&
             attempts.back()["status"] == "awaiting_approval";
    };
  };
  json run = wait_for_run(instance, workflow, waiting_at(1));
  const std::string task = run["tasks"][0]["id"];
  // The gate fails while a person has not decided, and names the command.
  ProcessResult gate = run_mission(instance, {"check", workflow});
  INFO(gate.out << gate.err);
  CHECK(gate.exit_code == 1);
  const json verdict = mission_json(instance, {"check", workflow});
  REQUIRE(verdict["missions"][0]["problems"].size() == 1);
  CHECK(verdict["missions"][0]["problems"][0]["kind"] == "awaiting_approval");
  CHECK(verdict["missions"][0]["problems"][0]["message"].get<std::string>().find(
            "waits for a person's approval (mission approve " + task) != std::string::npos);
  CHECK(run_mission(instance, {"check", workflow, "--allow-blockers"}).exit_code == 0);
  // Nothing is merged before a person says so.
  CHECK(show(instance, repo, run["integrationBranch"].get<std::string>() + ":reviewed.txt")
            .find("<missing") == 0);

  ProcessResult rejected = run_mission(instance, {"reject", task, "add a header line first"});
  INFO(rejected.err);
  CHECK(rejected.exit_code == 0);
  run = wait_for_run(instance, workflow, waiting_at(2));
  CHECK(run["tasks"][0]["attempts"][0]["reason"].get<std::string>().find(
            "add a header line first") != std::string::npos);
  CHECK(read_file(notes / "prompt-2").find("add a header line first") != std::string::npos);

  ProcessResult approved = run_mission(instance, {"approve", task});
  INFO(approved.err);
  CHECK(approved.exit_code == 0);
  run = wait_for_run(instance, workflow, [](const json& r) { return r["status"] == "completed"; });
  CHECK(show(instance, repo, run["integrationBranch"].get<std::string>() + ":reviewed.txt") ==
        "reviewed\n");
  // A task that waits on nobody cannot be approved.
  ProcessResult again = run_mission(instance, {"approve", task});
  CHECK(again.exit_code != 0);
  CHECK(again.err.find("no run under way") != std::string::npos);
}

TEST_CASE(
    "mission report shows a run's attempts, times and the tokens its agents reported, and mission "
    "check passes it") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"first", {}}, {"second", {"first"}}});
  // Never run: no run in the report, nothing to follow.
  CHECK_FALSE(mission_json(instance, {"report", workflow, "--format", "json"}).contains("run"));
  ProcessResult nothing = run_mission(instance, {"workflows", "show", workflow, "--follow"});
  CHECK(nothing.exit_code != 0);
  CHECK(nothing.err.find("never run") != std::string::npos);

  ProcessResult result =
      run_long(instance, {"workflows", "run", workflow, "--adapter", "codex", "--env",
                          "MISSION_CODEX_BIN=" + fake_codex(instance).string()});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);

  const json report = mission_json(instance, {"report", workflow, "--format", "json"});
  INFO(report.dump(2));
  const json& run = report["run"];
  CHECK(run["status"] == "completed");
  CHECK(run["adapter"] == "codex");
  CHECK(run["attemptsTotal"] == 3);
  CHECK(run["tokens"] ==
        json{{"input", 1150}, {"output", 215}, {"total", 1365}, {"attemptsReporting", 3}});
  REQUIRE(run["tasks"].size() == 2);
  const json& first = run["tasks"][0];
  CHECK(first["name"] == "first");
  CHECK(first["status"] == "merged");
  CHECK(first["tokens"] == json{{"input", 1100}, {"output", 210}, {"total", 1310}});
  REQUIRE(first["attempts"].size() == 2);
  CHECK(first["attempts"][0]["status"] == "failed");
  CHECK(first["attempts"][0]["reason"].get<std::string>().find("reported the task failed") !=
        std::string::npos);
  CHECK(first["attempts"][0]["tokens"]["total"] == 110);
  CHECK(first["attempts"][0]["adapter"] == "codex");
  CHECK(first["attempts"][0]["agentExecutionId"].get<std::string>().rfind("ae-", 0) == 0);
  CHECK(first["attempts"][1]["status"] == "merged");
  CHECK(first["attempts"][1]["tokens"]["input"] == 1000);
  std::int64_t attempt_times = 0;
  for (const auto& attempt : first["attempts"]) {
    CHECK(attempt["durationMs"].get<std::int64_t>() > 0);
    attempt_times += attempt["durationMs"].get<std::int64_t>();
  }
  CHECK(first["durationMs"] == attempt_times);
  CHECK(run["tasks"][1]["tokens"]["total"] == 55);

  // Positions past either end of the plan, up to INT64 max, page within it.
  RawClient client(instance.socket());
  client.hello();
  auto page_names = [&](const json& paging) {
    json params = {{"id", workflow}};
    params.update(paging);
    json reply = client.call("workflow.runReport", params);
    INFO(reply.dump());
    REQUIRE(reply.contains("result"));
    std::vector<std::string> names;
    for (const auto& task : reply["result"]["tasks"]) names.push_back(task["name"]);
    return names;
  };
  using Names = std::vector<std::string>;
  CHECK(page_names({{"after", std::numeric_limits<std::int64_t>::max()}}).empty());
  CHECK(page_names({{"after", 2}}).empty());
  CHECK(page_names({{"after", 0}}) == Names{"first", "second"});
  CHECK(page_names({{"cursor", std::numeric_limits<std::int64_t>::max()}}) ==
        Names{"second", "first"});
  CHECK(page_names({{"cursor", 1}}).empty());
  CHECK(process_alive(daemon.pid()));

  // The same in Markdown, ready for a pull request.
  ProcessResult markdown = run_mission(instance, {"report", workflow});
  INFO(markdown.out);
  CHECK(markdown.exit_code == 0);
  CHECK(markdown.out.find("### Run `" + run["id"].get<std::string>() + "`") != std::string::npos);
  CHECK(markdown.out.find("- Tokens: 1,365 (1,150 in, 215 out), reported by 3 of 3 attempts") !=
        std::string::npos);
  CHECK(markdown.out.find("- **first** (`" + first["taskId"].get<std::string>() +
                          "`): merged, 2 attempts") != std::string::npos);
  CHECK(markdown.out.find("  - Attempt 1: failed, codex `ae-") != std::string::npos);
  CHECK(markdown.out.find("tokens 110 (100 in, 10 out): the agent reported the task failed") !=
        std::string::npos);

  // A completed run passes the gate, by name or as every workflow below.
  ProcessResult checked = run_mission(instance, {"check", workflow});
  INFO(checked.out << checked.err);
  CHECK(checked.exit_code == 0);
}

TEST_CASE(
    "mission check fails a workflow whose run ended failed and says so, and --allow-failed relaxes "
    "it") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"doomed", {}}, {"after", {"doomed"}}});
  ProcessResult result = run_long(
      instance, args({"workflows", "run", workflow, "--max-attempts", "1"}, agent("exit 4")));
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 1);
  ProcessResult checked = run_mission(instance, {"check", workflow});
  INFO(checked.out << checked.err);
  CHECK(checked.exit_code == 1);
  CHECK(checked.out.find("ended failed: 1 of 2 tasks failed") != std::string::npos);
  const json verdict = mission_json(instance, {"check", workflow});
  bool named = false;
  for (const auto& problem : verdict["missions"][0]["problems"])
    named = named || problem["kind"] == "run_not_completed";
  CHECK(named);
  CHECK(run_mission(instance, {"check", workflow, "--allow-failed"}).exit_code == 0);
  // The run's report names the failure on its attempt.
  ProcessResult markdown = run_mission(instance, {"report", workflow});
  CHECK(markdown.out.find("  - Attempt 1: failed, generic `ae-") != std::string::npos);
  CHECK(markdown.out.find("the agent exited with status 4") != std::string::npos);
  CHECK(markdown.out.find("- Tokens: not reported by its agents") != std::string::npos);
  CHECK(markdown.out.find("1 attempt at 2 tasks") != std::string::npos);
  CHECK(
      markdown.out.find("**after** (`" +
                        task_of(run_status(instance, workflow), "after")["id"].get<std::string>() +
                        "`): waiting, never started") != std::string::npos);
  // The task whose agent ran and failed takes its attempt's time in the
  // Tasks section too, not "not started".
  const std::string doomed =
      task_of(run_status(instance, workflow), "doomed")["id"].get<std::string>();
  CHECK(std::regex_search(markdown.out, std::regex("\\*\\*doomed\\*\\* \\(`" + doomed +
                                                   "`\\): failed, (<1s|[0-9.]+s)\\n")));
  CHECK(markdown.out.find("`): failed, not started\n") == std::string::npos);
}

TEST_CASE(
    "workflows show --follow prints a run's changes off a terminal, or its events as JSON lines, "
    "until it ends") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"one", {}}, {"two", {"one"}}});
  const fs::path gate = instance.root.path() / "gate";
  // Each agent waits for the test to let it finish: the run is under way
  // when the followers start.
  ProcessResult started = run_long(
      instance, args({"workflows", "run", workflow, "--detach"},
                     agent("while [ ! -f '" + gate.string() + "' ]; do sleep 0.05; done")));
  INFO(started.err);
  REQUIRE(started.exit_code == 0);
  wait_for_run(instance, workflow, [](const json& run) {
    return !run["tasks"][0]["attempts"].empty() &&
           run["tasks"][0]["attempts"][0]["status"] == "running";
  });
  std::map<std::string, std::string> env = instance.env();
  StdioProcess plain({MISSION_PATH, "workflows", "show", workflow, "--follow"}, env);
  StdioProcess lines({MISSION_PATH, "--json", "workflows", "show", workflow, "--follow"}, env);
  // Both are listening before the agents may finish.
  const std::string header = plain.read_raw_line(10s);
  CHECK(header.find("Following workflow " + workflow) != std::string::npos);
  CHECK(header.find("2 tasks (1 running, 1 waiting)") != std::string::npos);
  const auto current = lines.read(10s);
  REQUIRE(current);
  CHECK((*current)["type"] == "run.current");
  CHECK((*current)["run"]["status"] == "running");
  write_file(gate, "go\n");
  std::string out;
  for (int i = 0; i < 100 && out.find("Run run-") == std::string::npos; ++i)
    out += plain.read_raw_line(30s) + "\n";
  INFO(out);
  CHECK(plain.wait_exit(10s) == 0);
  CHECK(out.find("merged     one") != std::string::npos);
  CHECK(out.find("merged     two") != std::string::npos);
  CHECK(out.find("completed") != std::string::npos);
  CHECK(out.find("\x1b[") == std::string::npos);  // plain lines, no board
  std::vector<json> events;
  while (auto event = lines.read(30s)) {
    events.push_back(*event);
    if ((*event)["type"] == "run.updated" && (*event)["run"]["status"] == "completed") break;
  }
  CHECK(lines.wait_exit(10s) == 0);
  REQUIRE_FALSE(events.empty());
  CHECK(events.back()["type"] == "run.updated");
  CHECK(events.back()["run"]["status"] == "completed");
  // Once it has ended, following says how it ended and returns.
  ProcessResult after = run_mission(instance, {"workflows", "show", workflow, "--follow"});
  CHECK(after.exit_code == 0);
  CHECK(after.out.find("No run under way") != std::string::npos);
  CHECK(after.out.find("completed") != std::string::npos);
}

TEST_CASE(
    "off a terminal a run prints its agents' progress lines and questions with the command that "
    "answers") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"solo", {}}});
  const std::string markers = std::string(kMarkerShellFunction) +
                              "m p1 '{\"type\":\"progress\",\"summary\":\"reading the spec\"}'; "
                              "m q1 '{\"type\":\"needs_input\",\"question\":\"tabs or "
                              "spaces?\",\"choices\":[\"tabs\",\"spaces\"]}'; sleep 0.3";
  ProcessResult result = run_long(instance, args({"workflows", "run", workflow}, agent(markers)));
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK(std::regex_search(result.out, std::regex("progress +solo +reading the spec")));
  CHECK(std::regex_search(result.out, std::regex("question +solo +tabs or spaces\\?")));
  CHECK(std::regex_search(result.out, std::regex("mission answer ae-[a-z0-9]+ TEXT")));
}

TEST_CASE(
    "a run judges what each agent changed against the plan's files: nothing fails and outside "
    "files are a warning") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  json workflow = planner.ok(
      "workflow_create", {{"name", "scoped"}, {"source_type", "prompt"}, {"source_content", "x"}});
  json tasks = json::array({{{"name", "inside"},
                             {"description", "d"},
                             {"sequence", 1},
                             {"files_likely_affected", {"inside.txt"}}},
                            {{"name", "wander"},
                             {"description", "d"},
                             {"sequence", 1},
                             {"files_likely_affected", {"docs/"}}},
                            {{"name", "idle"},
                             {"description", "d"},
                             {"sequence", 1},
                             {"files_likely_affected", {"src/"}}}});
  planner.ok(
      "workflow_set_plan",
      {{"id", workflow["id"]}, {"plan", {{"summary", "s"}, {"approach", "a"}, {"tasks", tasks}}}});
  // The idle task's agent writes nothing at all.
  ProcessResult result = run_long(
      instance, args({"workflows", "run", workflow["id"], "--parallel", "3", "--max-attempts", "1"},
                     agent("[ \"$MISSION_TASK_NAME\" = idle ] && exit 0")));
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  const json run = run_status(instance, workflow["id"]);
  CHECK(task_of(run, "inside")["status"] == "merged");
  CHECK_FALSE(task_of(run, "inside")["attempts"][0].contains("scopeWarning"));
  CHECK(task_of(run, "wander")["status"] == "merged");
  CHECK(task_of(run, "wander")["attempts"][0]["scopeWarning"] ==
        "1 file changed outside files_likely_affected: wander.txt");
  CHECK(task_of(run, "idle")["status"] == "failed");
  CHECK(task_of(run, "idle")["attempts"][0]["reason"].get<std::string>().find("changed nothing") !=
        std::string::npos);
  ProcessResult status = run_long(instance, {"workflows", "status", workflow["id"]});
  CHECK(status.out.find("scope: 1 file changed outside files_likely_affected: wander.txt") !=
        std::string::npos);
}

TEST_CASE(
    "a generic agent under a run reads on its stdin the answer given with mission answer, as under "
    "--stdin-answers") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"asks", {}}});
  // What it read is what it merges; end of file at once would say so.
  const std::string ask =
      std::string(kMarkerShellFunction) +
      "m q1 '{\"type\":\"needs_input\",\"question\":\"Which port?\",\"choices\":[\"8080\","
      "\"9090\"]}'; "
      "read answer || answer='(no answer, stdin closed)'; "
      "printf '%s\\n' \"$answer\" > answer.txt";
  ProcessResult started =
      run_long(instance, args({"workflows", "run", workflow, "--detach"}, agent(ask)));
  INFO(started.err);
  REQUIRE(started.exit_code == 0);
  json run = wait_for_run(instance, workflow, [](const json& r) {
    const auto& attempts = r["tasks"][0]["attempts"];
    return !attempts.empty() && attempts.back().contains("agentExecutionId");
  });
  const std::string agent_id = run["tasks"][0]["attempts"].back()["agentExecutionId"];
  json shown;
  const bool asked = eventually(
      [&] {
        shown = mission_json(instance, {"exec", "show", agent_id});
        return shown.value("state", "") == "awaiting_input";
      },
      20s);
  INFO(shown.dump());
  REQUIRE(asked);
  ProcessResult answered = run_mission(instance, {"answer", agent_id, "8080"});
  INFO(answered.err);
  REQUIRE(answered.exit_code == 0);
  run = wait_for_run(instance, workflow, [](const json& r) { return r["status"] != "running"; });
  CHECK(run["status"] == "completed");
  CHECK(show(instance, repo, run["integrationBranch"].get<std::string>() + ":answer.txt") ==
        "8080\n");
}
