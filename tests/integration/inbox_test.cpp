// One inbox for a person, through the real CLI and daemon: a task of a run
// awaiting approval, an agent that said it is blocked and a task whose merge
// conflicted are each listed with the command that answers them, as text
// and as JSON; and `mission watch --notify` tells a run's task outcomes
// once each, with a name, however many attempts they took.

#include <catch2/catch.hpp>
#include <string>

#include "integration/harness.hpp"
#include "integration/run_helpers.hpp"
#include "integration/stdio_process.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// `mission workflows run WF OPTIONS --detach -- sh -c SCRIPT`, started.
void start_run(const Instance& instance, const std::string& workflow,
               std::vector<std::string> options, const std::string& script) {
  std::vector<std::string> args{"workflows", "run", workflow, "--detach", "--sandbox", "off"};
  args.insert(args.end(), options.begin(), options.end());
  args.insert(args.end(), {"--", "/bin/sh", "-c", script});
  ProcessResult started = run_long(instance, args);
  INFO(started.err);
  REQUIRE(started.exit_code == 0);
}

std::size_t count_of(const std::string& text, const std::string& word) {
  std::size_t count = 0;
  for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++count;
  return count;
}

}  // namespace

TEST_CASE("mission inbox lists a task awaiting approval with the commands that decide it") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"reviewed", {}}});
  start_run(instance, workflow, {"--approve"}, "echo reviewed > reviewed.txt");
  const json run = wait_for_run(instance, workflow, [](const json& r) {
    const auto& attempts = r["tasks"][0]["attempts"];
    return !attempts.empty() && attempts.back()["status"] == "awaiting_approval";
  });
  const std::string task = run["tasks"][0]["id"];

  ProcessResult inbox = run_mission(instance, {"inbox"});
  INFO(inbox.out << inbox.err);
  REQUIRE(inbox.exit_code == 0);
  CHECK(inbox.out.find("task reviewed (" + task + ") of workflow run-test (" + workflow +
                       ") passed and waits for your approval") != std::string::npos);
  CHECK(inbox.out.find("approve: mission approve " + task + "\n") != std::string::npos);
  CHECK(inbox.out.find("reject:  mission reject " + task + " REASON\n") != std::string::npos);
  const json listed = mission_json(instance, {"inbox"});
  REQUIRE(listed["approvals"].size() == 1);
  CHECK(listed["approvals"][0]["taskId"] == task);
  CHECK(listed["approvals"][0]["workflowId"] == workflow);
  CHECK(listed["approvals"][0]["attempt"] == 1);

  // Decided, it waits on nobody.
  REQUIRE(run_mission(instance, {"approve", "reviewed"}).exit_code == 0);
  wait_for_run(instance, workflow, [](const json& r) { return r["status"] == "completed"; });
  CHECK(mission_json(instance, {"inbox"})["approvals"].empty());
  CHECK(run_mission(instance, {"inbox"}).out == "nothing waits for you\n");
}

TEST_CASE(
    "mission inbox lists a blocked agent with its reason and a merge conflict with what to do") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  // Both tasks write the same new file: the second to merge conflicts.
  const std::string workflow = make_workflow(planner, {{"left", {}}, {"right", {}}});
  start_run(instance, workflow, {"--parallel", "2", "--max-attempts", "1"},
            "echo \"$MISSION_TASK_NAME\" > same.txt");
  const json run = wait_for_run(instance, workflow, [](const json& r) {
    return r["status"] != "running" && r["status"] != "stopping";
  });
  std::string conflicted;
  for (const auto& task : run["tasks"]) {
    if (task["status"] == "conflicted") conflicted = task["id"];
  }
  INFO(run.dump());
  REQUIRE(!conflicted.empty());

  const std::string blocked_signal =
      std::string("printf '%s\\n' ") +
      R"('@agent-execution::{"version":1,"agentExecutionId":"ID","eventId":"b","signal":{"type":"blocked","reason":"no network"}}')" +
      " | sed \"s/ID/$MISSION_AGENT_EXECUTION_ID/\"; sleep 60";
  ProcessResult agent =
      run_mission(instance, {"run", "--detach", "--", "sh", "-c", blocked_signal});
  REQUIRE(agent.exit_code == 0);
  const std::string agent_id = agent.out.substr(0, agent.out.find('\n'));
  json listed;
  CHECK(eventually([&] {
    listed = mission_json(instance, {"inbox"});
    return listed["blocked"].size() == 1;
  }));
  CHECK(listed["blocked"][0]["agentExecutionId"] == agent_id);
  CHECK(listed["blocked"][0]["reason"] == "no network");
  REQUIRE(listed["conflicts"].size() == 1);
  CHECK(listed["conflicts"][0]["taskId"] == conflicted);
  CHECK(listed["conflicts"][0]["reason"].get<std::string>().find("same.txt") != std::string::npos);

  ProcessResult inbox = run_mission(instance, {"inbox"});
  INFO(inbox.out);
  CHECK(inbox.out.find(agent_id + " is blocked: no network\n  unblock it: mission send " +
                       agent_id + " TEXT\n") != std::string::npos);
  CHECK(inbox.out.find("(" + conflicted + ") of workflow run-test (" + workflow +
                       ") cannot merge: ") != std::string::npos);
  CHECK(inbox.out.find("mission workflows reset " + workflow + " " + conflicted) !=
        std::string::npos);
  // Reset, the conflict no longer waits on anyone.
  REQUIRE(run_mission(instance, {"workflows", "reset", workflow, conflicted}).exit_code == 0);
  CHECK(mission_json(instance, {"inbox"})["conflicts"].empty());
  REQUIRE(run_mission(instance, {"exec", "stop", "--force", agent_id}).exit_code == 0);
}

TEST_CASE("mission watch --notify tells each task outcome of a run once, by its name") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"good", {}}, {"bad", {}}});
  const fs::path sink = instance.root.path() / "notified";
  // An execution already running, which the watch lists once subscribed.
  ProcessResult early =
      run_mission(instance, {"run", "--detach", "--name", "sleeper", "--", "sleep", "60"});
  REQUIRE(early.exit_code == 0);
  const std::string early_id = early.out.substr(0, early.out.find('\n'));
  const fs::path lines = instance.root.path() / "watched";
  StdioProcess watch({"/bin/sh", "-c", "exec \"$0\" watch --notify \"$1\" > \"$2\"", MISSION_PATH,
                      "printf '%s|%s|%s\\n' \"$MISSION_EVENT\" \"$MISSION_STATE\" "
                      "\"$MISSION_EXECUTION_NAME\" >> " +
                          sink.string(),
                      lines.string()},
                     instance.env());
  CHECK(eventually(
      [&] { return fs::exists(lines) && read_file(lines).find(early_id) != std::string::npos; }));

  // "bad" fails each of its 3 attempts; "good" passes at once.
  start_run(instance, workflow, {"--max-attempts", "3", "--parallel", "2"},
            "sleep 0.2; [ \"$MISSION_TASK_NAME\" = bad ] && exit 1; echo ok > "
            "\"$MISSION_TASK_NAME.txt\"");
  wait_for_run(instance, workflow,
               [](const json& r) { return r["status"] != "running" && r["status"] != "stopping"; });
  // The name of an execution on every event, the sleeper's too.
  REQUIRE(run_mission(instance, {"exec", "stop", "--force", early_id}).exit_code == 0);
  std::string notified;
  CHECK(eventually([&] {
    notified = fs::exists(sink) ? read_file(sink) : "";
    return notified.find("ended|") != std::string::npos &&
           notified.find("task|failed|bad") != std::string::npos &&
           notified.find("task|merged|good") != std::string::npos;
  }));
  INFO(notified);
  CHECK(count_of(notified, "task|failed|bad\n") == 1);
  CHECK(count_of(notified, "task|merged|good\n") == 1);
  CHECK(count_of(notified, "ended|") == 1);  // the sleeper only, not the attempts
  CHECK(notified.find("|sleeper\n") != std::string::npos);
  // Every line the watch printed says something beyond its time.
  const std::string watched = read_file(lines);
  INFO(watched);
  CHECK(watched.find("task bad, attempt 3 of 3: failed") != std::string::npos);
  std::size_t start = 0;
  for (auto end = watched.find('\n'); end != std::string::npos;
       start = end + 1, end = watched.find('\n', start)) {
    CHECK(end - start > 12);
  }
}
