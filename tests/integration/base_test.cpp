// The base that carries many agents, through the real daemon, socket,
// bridge and SQLite file: bounded replies and paged lists, the tracking
// rules of the seeds, request ids per execution, and retention.

#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <string>

#include "daemon/store/database.hpp"
#include "integration/harness.hpp"
#include "integration/tracking_agent.hpp"
#include "shared/limits.hpp"
#include "support/test_scale.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// A plain directory (a checksum snapshot) with `count` files under a/.
void add_files(const fs::path& dir, int count, const std::string& prefix) {
  fs::create_directories(dir / "a");
  for (int i = 0; i < count; ++i) {
    std::ofstream(dir / "a" / (prefix + std::to_string(i) + ".txt")) << i << '\n';
  }
}

// Runs SQL on the daemon's own database file, beside the daemon (WAL allows
// a second connection): how a test puts an execution in the past.
void run_sql(const Instance& instance, const std::string& sql) {
  mission::store::Database db(instance.state_dir() / "mission.db");
  db.exec(sql);
}

}  // namespace

TEST_CASE("a task that changed 20,000 files answers in bounded size and pages the rest",
          "[heavy]") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  fs::path dir = instance.root.path() / "plain";
  fs::create_directories(dir);
  Agent agent(instance, dir, "signals,tracking,inspect");
  std::string mission_id =
      agent.ok("start_mission", {{"name", "big"}, {"objective", "many files"}})["mission_id"];
  std::string task_id = agent.ok("start_task", {{"mission_id", mission_id},
                                                {"name", "t"},
                                                {"goal", "g"},
                                                {"areas", strings({"b/**"})}})["task_id"];
  // 2,000 in the sanitized build: still pages, and past every bound shown.
  const int files = scaled_count(20000);
  add_files(dir, files, "f");
  json result = agent.call(
      "complete_task",
      {{"task_id", task_id}, {"status", "success"}, {"outcome", {{"summary", "wrote them"}}}});
  REQUIRE(result["isError"] == false);
  // One text copy and one structured copy; both small.
  CHECK(result.dump().size() < 32 * 1024);
  const json& done = result["structuredContent"];
  CHECK(done["files_changed"]["total"] == files);
  CHECK(done["files_changed"]["counts"]["added"] == files);
  CHECK(done["files_changed"]["truncated"] == true);
  CHECK(done["files_changed"]["added"].size() <= 50);
  CHECK(done["verification"]["scope_match"] == false);
  CHECK(done["verification"]["unexpected_count"] == files);
  CHECK(done["verification"]["unexpected_files"].size() <= 50);

  // The whole change set through the inspect tool, page by page.
  std::set<std::string> paths;
  json page = agent.ok("task_changes", {{"task_id", task_id}});
  int pages = 1;
  for (;;) {
    for (const auto& change : page["changes"]) paths.insert(change["path"].get<std::string>());
    if (!page.contains("next_cursor")) break;
    page = agent.ok("task_changes", {{"task_id", task_id}, {"cursor", page["next_cursor"]}});
    ++pages;
  }
  CHECK(paths.size() == static_cast<std::size_t>(files));
  CHECK(pages == files / static_cast<int>(mission::limits::kMaxPageItems));
  CHECK(paths.count("a/f" + std::to_string(files - 1) + ".txt") == 1);

  // And through the CLI.
  json listed = mission_json(instance, {"tasks", mission_id, "--task", task_id});
  CHECK(listed["changes"].size() == static_cast<std::size_t>(files));
  json tasks = mission_json(instance, {"tasks", mission_id});
  CHECK(tasks["tasks"][0]["filesChanged"]["total"] == files);
}

TEST_CASE("exec signals lists 300 long messages that would not fit one frame") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent agent(instance, instance.root.path());
  const std::string text(3900, 'm');
  for (int i = 0; i < 300; ++i)
    agent.ok("message", {{"text", text}, {"eventId", "m" + std::to_string(i)}});
  ProcessResult listed = run_mission(instance, {"--json", "exec", "signals", agent.execution_id()});
  INFO(listed.err);
  REQUIRE(listed.exit_code == 0);
  json observations = json::parse(listed.out)["observations"];
  REQUIRE(observations.size() == 300);
  CHECK(observations[0]["eventId"] == "m0");
  CHECK(observations[299]["eventId"] == "m299");
}

TEST_CASE("lists page back with cursor and forward with after, never both") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  for (int i = 0; i < 5; ++i)
    REQUIRE(run_mission(instance, {"exec", "create", "--delivery", "stdout-marker"}).exit_code ==
            0);
  RawClient client(instance.socket());
  client.hello();
  json first = client.call("execution.list", {{"limit", 2}});
  REQUIRE(first["result"]["executions"].size() == 2);
  REQUIRE(first["result"].contains("nextCursor"));
  json second =
      client.call("execution.list", {{"limit", 2}, {"cursor", first["result"]["nextCursor"]}});
  REQUIRE(second["result"]["executions"].size() == 2);
  json third =
      client.call("execution.list", {{"limit", 2}, {"cursor", second["result"]["nextCursor"]}});
  REQUIRE(third["result"]["executions"].size() == 1);
  CHECK_FALSE(third["result"].contains("nextCursor"));
  std::set<std::string> seen;
  for (const json* page : {&first, &second, &third}) {
    for (const auto& execution : (*page)["result"]["executions"])
      seen.insert(execution["id"].get<std::string>());
  }
  CHECK(seen.size() == 5);

  // Newer than the first page's newest: only what comes after it.
  REQUIRE(run_mission(instance, {"exec", "create", "--delivery", "stdout-marker"}).exit_code == 0);
  json newer = client.call("execution.list", {{"after", first["result"]["afterCursor"]}});
  REQUIRE(newer["result"]["executions"].size() == 1);
  CHECK(newer["result"]["more"] == false);

  json mixed = client.call("execution.list", {{"cursor", 1}, {"after", 1}});
  CHECK(mixed["error"]["data"]["code"] == "mixed_pagination");
}

TEST_CASE("get_context pages each list back with cursor and returns only news after after_cursor") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent agent(instance, instance.root.path());
  std::string mission_id =
      agent.ok("start_mission", {{"name", "m"}, {"objective", "o"}})["mission_id"];
  std::string task_id =
      agent.ok("start_task", {{"mission_id", mission_id}, {"name", "t"}, {"goal", "g"}})["task_id"];
  for (int i = 0; i < 7; ++i) {
    agent.ok("log_milestone", {{"task_id", task_id}, {"message", "step " + std::to_string(i)}});
  }
  json page = agent.ok(
      "get_context",
      {{"mission_id", mission_id}, {"include", strings({"milestones", "tasks"})}, {"limit", 3}});
  REQUIRE(page["milestones"].size() == 3);
  CHECK(page["milestones"][0]["message"] == "step 6");  // newest first
  REQUIRE(page.contains("next_cursor"));
  REQUIRE(page.contains("after_cursor"));
  std::vector<std::string> messages;
  for (json current = page;;) {
    for (const auto& m : current["milestones"]) messages.push_back(m["message"]);
    if (!current.contains("next_cursor")) break;
    current = agent.ok("get_context", {{"mission_id", mission_id},
                                       {"include", strings({"milestones", "tasks"})},
                                       {"limit", 3},
                                       {"cursor", current["next_cursor"]}});
  }
  CHECK(messages == std::vector<std::string>{"step 6", "step 5", "step 4", "step 3", "step 2",
                                             "step 1", "step 0"});

  agent.ok("log_milestone", {{"task_id", task_id}, {"message", "later"}});
  json news = agent.ok("get_context", {{"mission_id", mission_id},
                                       {"include", strings({"milestones", "tasks"})},
                                       {"after_cursor", page["after_cursor"]}});
  REQUIRE(news["milestones"].size() == 1);
  CHECK(news["milestones"][0]["message"] == "later");
  CHECK(news["tasks"].empty());
  CHECK(agent.error_code("get_context", {{"mission_id", mission_id},
                                         {"include", strings({"tasks"})},
                                         {"cursor", page["next_cursor"]},
                                         {"after_cursor", page["after_cursor"]}}) ==
        "mixed_pagination");
}

TEST_CASE("complete_mission refuses open tasks by name, or closes them as its status says") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent agent(instance, instance.root.path());
  std::string mission_id =
      agent.ok("start_mission", {{"name", "m"}, {"objective", "o"}})["mission_id"];
  std::string task_id = agent.ok(
      "start_task", {{"mission_id", mission_id}, {"name", "open one"}, {"goal", "g"}})["task_id"];
  json refused = agent.call(
      "complete_mission", {{"mission_id", mission_id}, {"status", "completed"}, {"summary", "s"}});
  REQUIRE(refused["isError"] == true);
  CHECK(refused["structuredContent"]["code"] == "invalid_argument");
  CHECK(refused["structuredContent"]["message"].get<std::string>().find(task_id) !=
        std::string::npos);
  CHECK(refused["structuredContent"]["details"]["open_tasks"][0]["task_id"] == task_id);

  json closed = agent.ok("complete_mission", {{"mission_id", mission_id},
                                              {"status", "failed"},
                                              {"summary", "s"},
                                              {"open_tasks", "close"}});
  CHECK(closed["tasks_closed"] == 1);
  json context = agent.ok("get_context", {{"mission_id", mission_id},
                                          {"include", strings({"tasks", "phase_summary"})}});
  CHECK(context["tasks"][0]["status"] == "failed");
  CHECK(context["phase_summary"][0]["status"] == "failed");
  // A finished mission takes no new task.
  CHECK(agent.error_code("start_task",
                         {{"mission_id", mission_id}, {"name", "late"}, {"goal", "g"}}) ==
        "invalid_argument");
}

TEST_CASE(
    "phases: pending until started, none after completed, a number past the plan extends it") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent agent(instance, instance.root.path());
  std::string mission_id = agent.ok(
      "start_mission", {{"name", "m"}, {"objective", "o"}, {"profile", "simple"}})["mission_id"];
  json context = agent.ok("get_context",
                          {{"mission_id", mission_id}, {"include", strings({"phase_summary"})}});
  REQUIRE(context["phase_summary"].size() == 2);
  CHECK(context["phase_summary"][0]["status"] == "pending");

  std::string task_id =
      agent.ok("start_task",
               {{"mission_id", mission_id}, {"phase", 1}, {"name", "t"}, {"goal", "g"}})["task_id"];
  agent.ok("complete_task", {{"task_id", task_id},
                             {"status", "success"},
                             {"outcome", {{"summary", "ok"}}},
                             {"phase_complete", true}});
  CHECK(agent.error_code(
            "start_task",
            {{"mission_id", mission_id}, {"phase", 1}, {"name", "again"}, {"goal", "g"}}) ==
        "invalid_argument");
  json extended = agent.ok(
      "start_task", {{"mission_id", mission_id}, {"phase", 4}, {"name", "more"}, {"goal", "g"}});
  CHECK(extended["phase_created"] == true);
  json after = agent.ok("get_context",
                        {{"mission_id", mission_id}, {"include", strings({"phase_summary"})}});
  CHECK(after["total_phases"] == 4);
  CHECK(after["phase_summary"].size() == 4);
}

TEST_CASE(
    "a blocker, or an outcome needing manual review, blocks the mission and the check until "
    "resolved") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent agent(instance, instance.root.path());
  std::string mission_id =
      agent.ok("start_mission", {{"name", "m"}, {"objective", "o"}})["mission_id"];
  std::string task_id =
      agent.ok("start_task", {{"mission_id", mission_id}, {"name", "t"}, {"goal", "g"}})["task_id"];
  json done = agent.ok("complete_task", {{"task_id", task_id},
                                         {"status", "success"},
                                         {"outcome",
                                          {{"summary", "ok"},
                                           {"manual_review_needed", true},
                                           {"manual_review_reason", "touches billing"}}}});
  CHECK(done["blocked_for_review"] == true);
  json context =
      agent.ok("get_context", {{"mission_id", mission_id}, {"include", strings({"blockers"})}});
  CHECK(context["mission_status"] == "blocked");
  REQUIRE(context["blockers"].size() == 1);
  CHECK(context["blockers"][0]["description"] == "touches billing");
  const std::string issue_id = context["blockers"][0]["id"];

  ProcessResult check = run_mission(instance, {"check", "--mission", mission_id});
  CHECK(check.exit_code == 1);
  CHECK(check.out.find("touches billing") != std::string::npos);
  ProcessResult report = run_mission(instance, {"report", mission_id});
  CHECK(report.out.find("touches billing") != std::string::npos);

  REQUIRE(run_mission(instance, {"resolve", issue_id}).exit_code == 0);
  CHECK(run_mission(instance, {"check", "--mission", mission_id}).exit_code == 0);
  json after =
      agent.ok("get_context", {{"mission_id", mission_id}, {"include", strings({"blockers"})}});
  CHECK(after["mission_status"] == "in_progress");
}

TEST_CASE("phase_complete on a workflow task and two targets at once are refused") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent agent(instance, instance.root.path());
  std::string workflow_id = agent.ok("start_workflow", {{"name", "w"}})["workflow_id"];
  std::string mission_id =
      agent.ok("start_mission", {{"name", "m"}, {"objective", "o"}})["mission_id"];
  CHECK(agent.error_code("start_task", {{"mission_id", mission_id},
                                        {"workflow_id", workflow_id},
                                        {"name", "t"},
                                        {"goal", "g"}}) == "ambiguous_target");
  CHECK(agent.error_code("start_task", {{"name", "t"}, {"goal", "g"}}) == "invalid_argument");
  std::string task_id = agent.ok(
      "start_task", {{"workflow_id", workflow_id}, {"name", "t"}, {"goal", "g"}})["task_id"];
  CHECK(agent.error_code("complete_task", {{"task_id", task_id},
                                           {"status", "success"},
                                           {"outcome", {{"summary", "ok"}}},
                                           {"phase_complete", true}}) == "invalid_argument");
  // Refused before anything was recorded: the task is still open.
  agent.ok("complete_task",
           {{"task_id", task_id}, {"status", "success"}, {"outcome", {{"summary", "ok"}}}});
}

TEST_CASE("a request_id belongs to the execution that sent it") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  Agent first(instance, instance.root.path());
  Agent second(instance, instance.root.path());
  const json arguments = {{"name", "same"}, {"objective", "o"}, {"request_id", "req-1"}};
  std::string a = first.ok("start_mission", arguments)["mission_id"];
  CHECK(first.ok("start_mission", arguments)["mission_id"] == a);  // a retry replays
  std::string b = second.ok("start_mission", arguments)["mission_id"];
  CHECK(b != a);  // another execution's key is another call
}

TEST_CASE("mission gc frees what retention no longer keeps, and says so first with --dry-run") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  ProcessResult ran = run_mission(instance, {"run", "--", "sh", "-c", "echo kept for a while"});
  REQUIRE(ran.exit_code == 0);
  json executions = mission_json(instance, {"exec", "list"})["executions"];
  REQUIRE(executions.size() == 1);
  const std::string id = executions[0]["id"];
  const fs::path log = instance.state_dir() / "logs" / (id + ".log");
  REQUIRE(fs::exists(log));

  json nothing = mission_json(instance, {"gc", "--dry-run"});
  CHECK(nothing["executionsRemoved"] == 0);
  CHECK(nothing["logsRemoved"] == 0);

  // Ended 100 days ago: past both default retentions.
  run_sql(instance, "UPDATE executions SET ended_at = ended_at - 100 * 86400000");
  json dry = mission_json(instance, {"gc", "--dry-run"});
  CHECK(dry["dryRun"] == true);
  CHECK(dry["executionsRemoved"] == 1);
  CHECK(dry["logsRemoved"] == 1);
  CHECK(dry["logBytesFreed"].get<std::uint64_t>() > 0);
  CHECK(fs::exists(log));

  json freed = mission_json(instance, {"gc"});
  CHECK(freed["executionsRemoved"] == 1);
  CHECK_FALSE(fs::exists(log));
  CHECK(mission_json(instance, {"exec", "list"})["executions"].empty());
}

TEST_CASE("an idempotency TTL of 0 keeps request ids instead of failing to start") {
  Instance instance;
  DaemonProcess daemon(instance, {"--idempotency-ttl", "0", "--idempotency-pending-ttl", "0"});
  CHECK(daemon.ready());
}

TEST_CASE("without its git module the daemon still tracks tasks outside git, and says why inside") {
  Instance instance;
  // A missiond with no lib/mission beside it.
  const fs::path bin = instance.root.path() / "bare" / "bin";
  fs::create_directories(bin);
  fs::copy_file(MISSIOND_PATH, bin / "missiond");
  DaemonProcess daemon(instance, {}, (bin / "missiond").string());
  REQUIRE(daemon.ready());
  fs::path plain = instance.root.path() / "plain";
  fs::create_directories(plain);
  Agent outside(instance, plain);
  std::string mission_id =
      outside.ok("start_mission", {{"name", "m"}, {"objective", "o"}})["mission_id"];
  json started =
      outside.ok("start_task", {{"mission_id", mission_id}, {"name", "t"}, {"goal", "g"}});
  CHECK(started["snapshot_type"] == "checksum");
  write_file(plain / "new.txt", "x\n");
  json done = outside.ok(
      "complete_task",
      {{"task_id", started["task_id"]}, {"status", "success"}, {"outcome", {{"summary", "ok"}}}});
  CHECK(done["files_changed"]["added"] == strings({"new.txt"}));

  fs::path repo = make_repo(instance);
  Agent inside(instance, repo);
  std::string other = inside.ok("start_mission", {{"name", "m"}, {"objective", "o"}})["mission_id"];
  json refused = inside.call("start_task", {{"mission_id", other}, {"name", "t"}, {"goal", "g"}});
  REQUIRE(refused["isError"] == true);
  CHECK(refused["structuredContent"]["message"].get<std::string>().find("libmission_git.so") !=
        std::string::npos);
}
