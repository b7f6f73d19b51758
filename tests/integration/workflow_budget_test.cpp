// Token and cost budgets of a workflow run (docs/adr/0049) through the real
// CLI and daemon: an agent that keeps stating its usage is stopped at its
// task's budget (a headless CLI's stream by signal, an ACP agent by
// session/cancel), its task waits "budget reached" in the run and in the
// inbox while the run goes on without completing, a daemon restarted then
// still holds it, and a raise resumes the task in its own worktree until
// the run completes and merges. A task under its budget is left alone, and
// bad budgets are refused in the CLI's words.

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdlib>
#include <string>

#include "integration/run_helpers.hpp"
#include "support/eventually.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// A fake `claude -p --output-format stream-json`. Task "small" states 120
// tokens and ends. Any other keeps working: it writes "started" to
// NAME.txt, then states its usage so far (100 more input and 20 more
// output tokens) every round until it is stopped; once its prompt says
// its last attempt stopped at its budget, it adds "done" to the file its
// last attempt left and ends.
fs::path looping_claude(const Instance& instance) {
  const fs::path script = instance.root.path() / "looping-claude.sh";
  write_file(script,
             "#!/bin/sh\n"
             "result() { printf '{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,"
             "\"result\":\"r\",\"usage\":{\"input_tokens\":%d,\"output_tokens\":%d}}\\n' \"$1\" "
             "\"$2\"; }\n"
             "if [ \"$MISSION_TASK_NAME\" = small ]; then\n"
             "  printf 'small\\n' > small.txt; result 100 20; exit 0\n"
             "fi\n"
             "if grep -q 'stopped at its budget' \"$MISSION_TASK_PROMPT_FILE\"; then\n"
             "  printf 'done\\n' >> \"$MISSION_TASK_NAME.txt\"; result 50 10; exit 0\n"
             "fi\n"
             "printf 'started\\n' > \"$MISSION_TASK_NAME.txt\"\n"
             "n=0\n"
             "while :; do n=$((n + 1)); result $((n * 100)) $((n * 20)); sleep 0.05; done\n");
  fs::permissions(script, fs::perms::owner_all);
  return script;
}

json attempts_of(const json& run, const std::string& task) {
  return task_of(run, task).value("attempts", json::array());
}

// The tokens its attempts used, from the budget's words in its reason
// ("... used 612 of 500 tokens").
std::int64_t used_tokens(const std::string& reason) {
  const auto at = reason.find("used ");
  REQUIRE(at != std::string::npos);
  return std::stoll(reason.substr(at + 5));
}

}  // namespace

TEST_CASE(
    "a task that reaches its token budget waits in the run and the inbox, survives a restart, "
    "and a raise resumes it in its worktree until the run merges") {
  Instance instance;
  const fs::path repo = make_repo(instance);
  std::string workflow;
  std::string big_id;
  {
    DaemonProcess daemon(instance);
    REQUIRE(daemon.ready());
    Agent planner(instance, repo, kToolsets);
    workflow = make_workflow(planner, {{"big", {}}, {"small", {}}});
    ProcessResult started =
        run_long(instance, {"workflows", "run", workflow, "--detach", "--adapter", "claude-code",
                            "--parallel", "2", "--budget-tokens", "500", "--env",
                            "MISSION_CLAUDE_CODE_BIN=" + looping_claude(instance).string()});
    INFO(started.err);
    REQUIRE(started.exit_code == 0);

    // Stopped at its budget, not failed and not retried; the task under
    // its budget merges untouched.
    json run = wait_for_run(instance, workflow, [](const json& r) {
      return task_of(r, "big")["status"] == "budget_reached" &&
             task_of(r, "small")["status"] == "merged";
    });
    INFO(run.dump(2));
    big_id = task_of(run, "big")["id"].get<std::string>();
    REQUIRE(attempts_of(run, "big").size() == 1);
    const json stopped = attempts_of(run, "big")[0];
    CHECK(stopped["status"] == "budget_reached");
    const std::string reason = stopped["reason"];
    CHECK(reason.rfind("budget reached: task 'big' used ", 0) == 0);
    CHECK(reason.find(" of 500 tokens") != std::string::npos);
    CHECK(used_tokens(reason) >= 500);
    CHECK(mission_json(instance,
                       {"exec", "show", stopped["agentExecutionId"].get<std::string>()})["state"] ==
          "cancelled");
    CHECK(attempts_of(run, "small").size() == 1);
    CHECK(run["status"] == "running");

    // The inbox lists it with the command that raises it.
    const json inbox = mission_json(instance, {"inbox"});
    INFO(inbox.dump(2));
    REQUIRE(inbox["budgets"].size() == 1);
    CHECK(inbox["budgets"][0]["taskId"] == big_id);
    CHECK(inbox["budgets"][0]["scope"] == "task");
    CHECK(inbox["budgets"][0]["tokens"]["budget"] == 500);
    ProcessResult shown = run_mission(instance, {"inbox"});
    CHECK(shown.out.find("budget reached: task 'big' used ") != std::string::npos);
    CHECK(shown.out.find("raise it: mission workflows budget " + workflow + " --task " + big_id +
                         " --tokens ") != std::string::npos);

    // Nothing more happens to it while it waits: the run does not end.
    CHECK(run_status(instance, workflow)["status"] == "running");
    daemon.signal(SIGKILL);
    daemon.wait_exit();
  }
  // A restarted daemon gives a resumed run its own environment (the run's
  // file goes with the launch dir it clears at start-up): it names the
  // fake CLI too.
  ::setenv("MISSION_CLAUDE_CODE_BIN", looping_claude(instance).c_str(), 1);
  DaemonProcess successor(instance);
  REQUIRE(successor.ready());
  json run = run_status(instance, workflow);
  INFO(run.dump(2));
  CHECK(task_of(run, "big")["status"] == "budget_reached");
  CHECK(mission_json(instance, {"inbox"})["budgets"].size() == 1);

  // A raise at or below what was used is refused, saying what was used.
  const std::int64_t used = used_tokens(attempts_of(run, "big")[0]["reason"]);
  ProcessResult low = run_mission(instance, {"workflows", "budget", workflow, "--task", "big",
                                             "--tokens", std::to_string(used)});
  CHECK(low.exit_code != 0);
  CHECK(low.err.find("task 'big' has already used " + std::to_string(used) + " tokens") !=
        std::string::npos);

  ProcessResult raised =
      run_mission(instance, {"workflows", "budget", workflow, "--task", "big", "--tokens", "5000"});
  INFO(raised.err);
  REQUIRE(raised.exit_code == 0);
  run = wait_for_run(instance, workflow, [](const json& r) { return r["status"] == "completed"; });
  const json attempts = attempts_of(run, "big");
  REQUIRE(attempts.size() == 2);
  CHECK(attempts[1]["status"] == "merged");
  // The second attempt went on in the worktree the first one left.
  CHECK(show(instance, repo, run["integrationBranch"].get<std::string>() + ":big.txt") ==
        "started\ndone\n");
  CHECK(show(instance, repo, run["integrationBranch"].get<std::string>() + ":small.txt") ==
        "small\n");
  CHECK(mission_json(instance, {"inbox"})["budgets"].empty());
  // The raised budget is the run's, kept with its options.
  CHECK(run["options"]["taskBudgets"][big_id]["tokens"] == 5000);
}

TEST_CASE(
    "an ACP agent that reaches its cost budget gets session/cancel, and a raise of the run's "
    "budget lets the run complete") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"only", {}}});
  ProcessResult started = run_long(
      instance, {"workflows", "run", workflow, "--detach", "--adapter", "acp", "--sandbox", "off",
                 "--run-budget-usd", "0.5", "--", "node", MISSION_ACP_AGENT, "spend"});
  INFO(started.err);
  REQUIRE(started.exit_code == 0);
  json run = wait_for_run(instance, workflow, [](const json& r) {
    return task_of(r, "only")["status"] == "budget_reached";
  });
  INFO(run.dump(2));
  const json stopped = attempts_of(run, "only")[0];
  CHECK(stopped["reason"].get<std::string>().rfind("budget reached: the run used $", 0) == 0);
  CHECK(stopped["reason"].get<std::string>().find(" of $0.50") != std::string::npos);
  // Its turn was cancelled the protocol's way.
  CHECK(mission_json(instance,
                     {"exec", "show", stopped["agentExecutionId"].get<std::string>()})["state"] ==
        "cancelled");
  const json inbox = mission_json(instance, {"inbox"});
  REQUIRE(inbox["budgets"].size() == 1);
  CHECK(inbox["budgets"][0]["scope"] == "run");
  ProcessResult shown = run_mission(instance, {"inbox"});
  CHECK(shown.out.find("raise it: mission workflows budget " + workflow + " --usd ") !=
        std::string::npos);

  ProcessResult raised = run_mission(instance, {"workflows", "budget", workflow, "--usd", "50"});
  INFO(raised.err);
  REQUIRE(raised.exit_code == 0);
  run = wait_for_run(instance, workflow, [](const json& r) { return r["status"] == "completed"; });
  CHECK(attempts_of(run, "only").size() == 2);
  const std::string branch = run["integrationBranch"];
  CHECK(show(instance, repo, branch + ":only.txt") == "done\n");
  // The first attempt's agent heard session/cancel, in the worktree both used.
  CHECK(show(instance, repo, branch + ":order.txt") == "session/cancel\n");
}

TEST_CASE("budgets that are not above zero, not numbers, or for no run are refused with a reason") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"only", {}}});
  auto refused = [&](const std::vector<std::string>& words, const std::string& said) {
    ProcessResult result = run_mission(instance, words);
    INFO(result.out << result.err);
    CHECK(result.exit_code != 0);
    CHECK(result.err.find(said) != std::string::npos);
  };
  const std::vector<std::string> run{"workflows", "run", workflow, "--detach"};
  refused(args(run, {"--budget-tokens", "0", "--", "true"}),
          "--budget-tokens '0' is not a budget of tokens");
  refused(args(run, {"--budget-tokens=-5", "--", "true"}),
          "--budget-tokens '-5' is not a budget of tokens");
  refused(args(run, {"--budget-tokens", "lots", "--", "true"}),
          "--budget-tokens 'lots' is not a budget of tokens");
  refused(args(run, {"--run-budget-usd", "0", "--", "true"}),
          "--run-budget-usd '0' is not a budget in USD");
  refused(args(run, {"--budget-usd", "two", "--", "true"}),
          "--budget-usd 'two' is not a budget in USD");
  // Nothing was started by any of them.
  CHECK(run_mission(instance, {"workflows", "status", workflow}).exit_code != 0);

  refused({"workflows", "budget", workflow}, "no budget given");
  refused({"workflows", "budget", workflow, "--tokens", "0"}, "--tokens '0' is not a budget");
  refused({"workflows", "budget", workflow, "--usd=-1"}, "--usd '-1' is not a budget in USD");
  refused({"workflows", "budget", workflow, "--tokens", "1000"},
          "workflow " + workflow + " has no run under way");
  refused({"workflows", "budget", workflow, "--task", "nosuch", "--tokens", "1000"}, "nosuch");
}

TEST_CASE(
    "a run whose own budget is spent starts no more tasks, waits in the inbox with no agent at "
    "work, and a raise resumes dispatch") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  // Each task's turn states 10 tokens: the first spends the run's budget.
  const std::string workflow = make_workflow(planner, {{"first", {}}, {"second", {"first"}}});
  ProcessResult started = run_long(
      instance, {"workflows", "run", workflow, "--detach", "--adapter", "acp", "--sandbox", "off",
                 "--run-budget-tokens", "10", "--", "node", MISSION_ACP_AGENT, "task"});
  INFO(started.err);
  REQUIRE(started.exit_code == 0);
  json run = wait_for_run(instance, workflow, [](const json& r) {
    return task_of(r, "first")["status"] == "merged" && r.contains("budgetReached");
  });
  INFO(run.dump(2));
  CHECK(run["status"] == "running");
  CHECK(run["budgetReached"] == "the run used 10 of 10 tokens");
  // Not started: no attempt, no agent.
  CHECK(attempts_of(run, "second").empty());
  const json inbox = mission_json(instance, {"inbox"});
  REQUIRE(inbox["budgets"].size() == 1);
  const json wait = inbox["budgets"][0];
  CHECK(wait["scope"] == "run");
  CHECK_FALSE(wait.contains("taskId"));
  CHECK(wait["reason"] == "budget reached: the run used 10 of 10 tokens; 1 task waits to start");
  CHECK(wait["tokens"] == json({{"used", 10}, {"budget", 10}}));
  ProcessResult shown = run_mission(instance, {"inbox"});
  CHECK(shown.out.find("run of workflow run-test (" + workflow + ") waits: budget reached") !=
        std::string::npos);
  CHECK(shown.out.find("raise it: mission workflows budget " + workflow + " --tokens 20\n") !=
        std::string::npos);
  ProcessResult status = run_mission(instance, {"workflows", "status", workflow});
  CHECK(status.out.find("Budget reached: the run used 10 of 10 tokens") != std::string::npos);

  ProcessResult raised = run_mission(instance, {"workflows", "budget", workflow, "--tokens", "20"});
  INFO(raised.err);
  REQUIRE(raised.exit_code == 0);
  run = wait_for_run(instance, workflow, [](const json& r) { return r["status"] == "completed"; });
  CHECK(attempts_of(run, "second").size() == 1);
  CHECK(show(instance, repo, run["integrationBranch"].get<std::string>() + ":second.txt")
            .find("second") != std::string::npos);
  CHECK(mission_json(instance, {"inbox"})["budgets"].empty());
}

TEST_CASE(
    "a task starts only while the run's budget can pay its whole budget beside the tasks at work") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  // Two tasks that could run side by side, 10 tokens each of a run's 15:
  // the second waits for the first to end, then starts alone. What the
  // scripted agent notes of its session is kept out of the tasks' commits:
  // two tasks writing the same files would conflict, and their retry
  // would spend the run's budget.
  write_file(repo / ".gitignore", "session.json\nprompt.txt\nprompts.json\n");
  git(instance, repo, {"add", ".gitignore"});
  git(instance, repo, {"commit", "-q", "-m", "ignore the agent's notes"});
  const std::string workflow = make_workflow(planner, {{"left", {}}, {"right", {}}});
  ProcessResult started =
      run_long(instance, {"workflows", "run", workflow, "--detach", "--adapter", "acp", "--sandbox",
                          "off", "--parallel", "2", "--budget-tokens", "10", "--run-budget-tokens",
                          "15", "--", "node", MISSION_ACP_AGENT, "task"});
  INFO(started.err);
  REQUIRE(started.exit_code == 0);
  json run = wait_for_run(instance, workflow, [](const json& r) {
    return r["status"] != "running" && r["status"] != "stopping";
  });
  INFO(run.dump(2));
  CHECK(run["status"] == "completed");
  const json left = mission_json(
      instance,
      {"exec", "show", attempts_of(run, "left")[0]["agentExecutionId"].get<std::string>()});
  const json right = mission_json(
      instance,
      {"exec", "show", attempts_of(run, "right")[0]["agentExecutionId"].get<std::string>()});
  // One after the other, whichever went first.
  const json& first = left["createdAt"] < right["createdAt"] ? left : right;
  const json& second = left["createdAt"] < right["createdAt"] ? right : left;
  CHECK(second["createdAt"].get<std::string>() >= first["endedAt"].get<std::string>());
}
