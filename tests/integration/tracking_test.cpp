// The tracking tools as an agent uses them: a real bridge in front of a real
// daemon, a real git repository (or plain directory) in a temp dir changed
// between calls, and the CLI reading back what was recorded.

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include "integration/harness.hpp"
#include "integration/stdio_process.hpp"
#include "integration/tracking_agent.hpp"
#include "support/eventually.hpp"

using namespace mission::test;
using nlohmann::json;

TEST_CASE("the seed's mission flow records phases, tasks, exact change sets and decisions") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  fs::path repo = make_repo(instance);
  // Dirty before the task: must not be blamed on it.
  write_file(repo / "README.md", "# demo, edited by a person\n");
  Agent agent(instance, repo);

  json mission = agent.ok("start_mission", {{"name", "Auth System"},
                                            {"objective", "Implement JWT authentication"},
                                            {"profile", "standard"}});
  const std::string mission_id = mission["mission_id"];
  CHECK(mission["total_phases"] == 3);

  json task = agent.ok("start_task", {{"mission_id", mission_id},
                                      {"phase", 1},
                                      {"phase_name", "Setup"},
                                      {"caller_type", "orchestrator"},
                                      {"name", "Setup JWT middleware"},
                                      {"goal", "Create middleware to verify JWT tokens"},
                                      {"areas", strings({"auth", "middleware"})}});
  const std::string task_id = task["task_id"];
  CHECK(task["snapshot_type"] == "git");
  CHECK(task["phase_created"] == true);
  CHECK(task["phase_number"] == 1);

  // The agent's work: a commit, an uncommitted edit, a new file, a deletion,
  // an ignored build output, and one edit outside its areas.
  write_file(repo / "src/auth/jwt.ts", "export const verify = 1;\n");
  git(instance, repo, {"add", "src/auth/jwt.ts"});
  git(instance, repo, {"commit", "-q", "-m", "jwt"});
  write_file(repo / "src/auth/login.ts", "export const login = 2;\n");
  write_file(repo / "src/middleware.ts", "export const mw = 1;\n");
  fs::remove(repo / "src/utils.ts");
  write_file(repo / "build/out.js", "ignored\n");

  agent.ok("log_decision", {{"task_id", task_id},
                            {"category", "library_choice"},
                            {"question", "Which JWT library?"},
                            {"options_considered", strings({"jsonwebtoken", "jose"})},
                            {"chosen", "jsonwebtoken"},
                            {"reasoning", "More mature and documented"}});
  agent.ok("log_milestone",
           {{"task_id", task_id}, {"message", "Installing dependencies..."}, {"progress", 50}});
  json done = agent.ok(
      "complete_task",
      {{"task_id", task_id},
       {"status", "success"},
       {"outcome",
        {{"summary", "JWT middleware created and tested"},
         {"achievements", strings({"Middleware verifies JWT signature"})},
         {"limitations", strings({"Refresh tokens not implemented"})}}},
       {"metadata", {{"packages_added", strings({"jsonwebtoken"})}, {"tests_status", "passed"}}},
       {"phase_complete", true}});
  CHECK(done["files_changed"]["added"] == strings({"src/auth/jwt.ts", "src/middleware.ts"}));
  CHECK(done["files_changed"]["modified"] == strings({"src/auth/login.ts"}));
  CHECK(done["files_changed"]["deleted"] == strings({"src/utils.ts"}));
  CHECK(done["verification"]["scope_match"] == false);
  CHECK(done["verification"]["unexpected_files"] == strings({"src/utils.ts"}));
  CHECK(done["phase_status"] == "completed");
  CHECK(done["phase_number"] == 1);

  json context = agent.ok(
      "get_context",
      {{"mission_id", mission_id},
       {"include", strings({"phase_summary", "decisions", "blockers", "tasks", "milestones"})}});
  CHECK(context["mission_status"] == "in_progress");
  CHECK(context["current_phase"] == 2);
  CHECK(context["phase_summary"][0]["name"] == "Setup");
  CHECK(context["phase_summary"][0]["status"] == "completed");
  CHECK(context["decisions"][0]["chosen"] == "jsonwebtoken");
  CHECK(context["milestones"][0]["progress"] == 50);
  CHECK(context["blockers"].empty());
  CHECK(context["tasks"][0]["agent_execution_id"] == agent.execution_id());

  // Phase 2 by a subagent, which fails and flags an issue for a person.
  json second = agent.ok("start_task", {{"mission_id", mission_id},
                                        {"caller_type", "subagent"},
                                        {"agent_name", "feature-implementer"},
                                        {"parent_task_id", task_id},
                                        {"name", "Token refresh"},
                                        {"goal", "Refresh tokens"},
                                        {"areas", strings({"src/auth/**"})}});
  CHECK(second["phase_number"] == 2);
  agent.ok("log_issue", {{"task_id", second["task_id"]},
                         {"type", "unclear_requirement"},
                         {"description", "Refresh token lifetime is unspecified"},
                         {"resolution", "Used 7 days"},
                         {"requires_human_review", true}});
  json failed = agent.ok("complete_task", {{"task_id", second["task_id"]},
                                           {"status", "failed"},
                                           {"outcome", {{"summary", "Could not finish"}}}});
  CHECK(failed["files_changed"]["added"].empty());
  CHECK(failed["verification"]["scope_match"] == true);
  CHECK(agent.error_code("complete_task", {{"task_id", second["task_id"]},
                                           {"status", "success"},
                                           {"outcome", {{"summary", "again"}}}}) ==
        "invalid_argument");

  json blockers = agent.ok("get_context", {{"mission_id", mission_id},
                                           {"include", strings({"blockers"})},
                                           {"filter", {{"agent", "feature-implementer"}}}});
  REQUIRE(blockers["blockers"].size() == 1);
  const std::string issue_id = blockers["blockers"][0]["id"];

  // The CI gate names each reason, and each flag relaxes its own.
  ProcessResult check = run_mission(instance, {"check", "--mission", mission_id});
  CHECK(check.exit_code == 1);
  CHECK(check.out.find("failed") != std::string::npos);
  CHECK(check.out.find(issue_id) != std::string::npos);
  CHECK(check.out.find("src/utils.ts") != std::string::npos);
  json verdict =
      mission_json(instance, {"check", "--mission", mission_id, "--allow-failed", "--allow-scope"});
  CHECK(verdict["ok"] == false);
  CHECK(verdict["missions"][0]["problems"].size() == 1);
  CHECK(verdict["missions"][0]["problems"][0]["kind"] == "open_blocker");
  CHECK(run_mission(instance, {"resolve", issue_id, "--note", "7 days is fine"}).exit_code == 0);
  CHECK(run_mission(instance, {"check", "--mission", mission_id, "--allow-failed", "--allow-scope"})
            .exit_code == 0);
  CHECK(run_mission(instance, {"check", "--cwd", repo.string(), "--allow-failed", "--allow-scope"})
            .exit_code == 0);
  // A folder with no mission in it gives the gate nothing to judge: it fails.
  const fs::path empty_dir = instance.root.path() / "no-missions";
  fs::create_directories(empty_dir);
  ProcessResult nothing = run_mission(instance, {"check", "--cwd", empty_dir.string()});
  CHECK(nothing.exit_code == 1);
  CHECK(nothing.out.find("no mission records to check") != std::string::npos);

  json finished = agent.ok("complete_mission", {{"mission_id", mission_id},
                                                {"status", "partial"},
                                                {"summary", "Middleware done, refresh deferred"},
                                                {"achievements", strings({"JWT auth"})},
                                                {"limitations", strings({"Refresh deferred"})}});
  // The plan's phases (standard: 3), and how many of them completed.
  CHECK(finished["metrics"]["total_phases"] == 3);
  CHECK(finished["metrics"]["phases_completed"] == 1);
  CHECK(finished["metrics"]["total_tasks"] == 2);
  CHECK(finished["metrics"]["files_changed"] == 4);
  CHECK(agent.error_code("start_task",
                         {{"mission_id", mission_id}, {"name", "late"}, {"goal", "x"}}) ==
        "invalid_argument");

  // What people see.
  json listed = mission_json(instance, {"missions", "list"});
  REQUIRE(listed["missions"].size() == 1);
  CHECK(listed["missions"][0]["status"] == "partial");
  CHECK(listed["missions"][0]["tasks"]["total"] == 2);
  json tasks = mission_json(instance, {"tasks", mission_id});
  CHECK(tasks["tasks"][1]["parentTaskId"] == task_id);
  ProcessResult report = run_mission(instance, {"report", mission_id});
  CHECK(report.exit_code == 0);
  for (const char* expected :
       {"## Mission: Auth System", "### Phase 1: Setup (completed)", "`+src/auth/jwt.ts`",
        "`-src/utils.ts`", "**jsonwebtoken**", "### Scope warnings"}) {
    INFO(report.out);
    CHECK(report.out.find(expected) != std::string::npos);
  }
  ProcessResult human = run_mission(instance, {"missions", "show", mission_id});
  CHECK(human.exit_code == 0);
  CHECK(human.out.find("Setup JWT middleware") != std::string::npos);
}

TEST_CASE("a start_task sent just before the client closes its stdin is still answered") {
  Instance instance;
  DaemonProcess daemon(instance);
  fs::path repo = make_repo(instance);
  Agent agent(instance, repo);
  std::string mission_id =
      agent.ok("start_mission", {{"name", "m"}, {"objective", "o"}})["mission_id"];
  json result = agent.call_then_close(
      "start_task", {{"mission_id", mission_id}, {"phase", 1}, {"name", "t"}, {"goal", "g"}});
  REQUIRE(result["isError"] == false);
  std::string task_id = result["structuredContent"]["task_id"];
  json tasks = mission_json(instance, {"tasks", mission_id});
  INFO(tasks.dump());
  REQUIRE(tasks["tasks"].size() == 1);
  CHECK(tasks["tasks"][0]["taskId"] == task_id);
}

TEST_CASE("request_id replays the first result, refuses another payload, and expires") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  fs::path repo = make_repo(instance);
  Agent agent(instance, repo);

  json args = {{"name", "Once"}, {"objective", "Only one mission"}, {"request_id", "req-1"}};
  json first = agent.ok("start_mission", args);
  json again = agent.ok("start_mission", args);
  CHECK(again == first);
  CHECK(mission_json(instance, {"missions", "list"})["missions"].size() == 1);
  json other = args;
  other["objective"] = "Something else";
  CHECK(agent.error_code("start_mission", other) == "idempotency_conflict");
  CHECK(agent.error_code("log_milestone",
                         {{"task_id", "tk-none"}, {"message", "m"}, {"request_id", "req-1"}}) ==
        "idempotency_conflict");

  // The deferred tools too: one task, the same answer twice.
  json task_args = {
      {"mission_id", first["mission_id"]}, {"name", "T"}, {"goal", "G"}, {"request_id", "req-2"}};
  json task = agent.ok("start_task", task_args);
  CHECK(agent.ok("start_task", task_args) == task);
  json done_args = {{"task_id", task["task_id"]},
                    {"status", "success"},
                    {"outcome", {{"summary", "s"}}},
                    {"request_id", "req-3"}};
  json done = agent.ok("complete_task", done_args);
  CHECK(agent.ok("complete_task", done_args) == done);
  CHECK(mission_json(instance, {"tasks", first["mission_id"]})["tasks"].size() == 1);

  // A failed call leaves its key free.
  CHECK(agent.error_code("start_task", {{"mission_id", "ms-missing"},
                                        {"name", "T"},
                                        {"goal", "G"},
                                        {"request_id", "req-4"}}) == "not_found");
  agent.ok("start_task", {{"mission_id", first["mission_id"]},
                          {"name", "T2"},
                          {"goal", "G"},
                          {"request_id", "req-4"}});

  // With a 1 s lifetime (another daemon), the key is free again once it
  // passes, however long the steps before took: the other payload runs.
  Instance short_lived;
  DaemonProcess expiring(short_lived, {"--idempotency-ttl", "1"});
  REQUIRE(expiring.ready());
  Agent forgetful(short_lived, make_repo(short_lived));
  json kept = forgetful.ok("start_mission", args);
  json later;
  CHECK(eventually([&] {
    later = forgetful.call("start_mission", other);
    return later["isError"] == false;
  }));
  CHECK(later["structuredContent"]["mission_id"] != kept["mission_id"]);
}

TEST_CASE("outside git a checksum snapshot gives the task's exact changes") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  fs::path dir = instance.root.path() / "plain";
  write_file(dir / "notes.txt", "one\n");
  write_file(dir / "docs/guide.md", "guide\n");
  write_file(dir / "node_modules/dep/index.js", "dep\n");
  Agent agent(instance, dir);
  json mission = agent.ok("start_mission", {{"name", "Docs"}, {"objective", "Write docs"}});
  json task = agent.ok("start_task", {{"mission_id", mission["mission_id"]},
                                      {"name", "Guide"},
                                      {"goal", "Edit"},
                                      {"areas", strings({"docs"})}});
  CHECK(task["snapshot_type"] == "checksum");
  write_file(dir / "docs/guide.md", "guide, longer\n");
  write_file(dir / "docs/faq.md", "faq\n");
  fs::remove(dir / "notes.txt");
  write_file(dir / "node_modules/dep/index.js", "changed, but skipped\n");
  json done = agent.ok(
      "complete_task",
      {{"task_id", task["task_id"]}, {"status", "success"}, {"outcome", {{"summary", "s"}}}});
  CHECK(done["files_changed"]["added"] == strings({"docs/faq.md"}));
  CHECK(done["files_changed"]["modified"] == strings({"docs/guide.md"}));
  CHECK(done["files_changed"]["deleted"] == strings({"notes.txt"}));
  CHECK(done["verification"]["unexpected_files"] == strings({"notes.txt"}));
}

TEST_CASE("legacy workflows take plan steps and tasks by workflow_id") {
  Instance instance;
  DaemonProcess daemon(instance);
  fs::path repo = make_repo(instance);
  Agent agent(instance, repo);
  json workflow =
      agent.ok("start_workflow", {{"name", "Migration NextAuth v5"},
                                  {"plan", json::array({{{"step", "1"}, {"goal", "Install"}},
                                                        {{"step", "2"}, {"goal", "Configure"}}})}});
  const std::string workflow_id = workflow["workflow_id"];
  json task = agent.ok("start_task",
                       {{"workflow_id", workflow_id}, {"name", "Install"}, {"goal", "npm i"}});
  CHECK(task["workflow_id"] == workflow_id);
  CHECK(!task.contains("phase_number"));
  CHECK(
      agent.error_code("start_task", {{"mission_id", workflow_id}, {"name", "x"}, {"goal", "y"}}) ==
      "invalid_argument");
  CHECK(agent.error_code(
            "start_task",
            {{"workflow_id", workflow_id}, {"phase", 2}, {"name", "x"}, {"goal", "y"}}) ==
        "invalid_argument");
  json shown = mission_json(instance, {"missions", "show", workflow_id});
  CHECK(shown["mission"]["kind"] == "workflow");
  CHECK(shown["mission"]["plan"].size() == 2);
}

TEST_CASE("mission, phase and task events reach subscribers in order") {
  Instance instance;
  DaemonProcess daemon(instance);
  fs::path repo = make_repo(instance);
  Agent agent(instance, repo);
  RawClient watcher(instance.socket());
  watcher.hello();
  watcher.call("events.subscribe");

  json mission = agent.ok("start_mission", {{"name", "Evented"}, {"objective", "o"}});
  json task =
      agent.ok("start_task",
               {{"mission_id", mission["mission_id"]}, {"phase", 1}, {"name", "T"}, {"goal", "G"}});
  agent.ok("log_milestone",
           {{"task_id", task["task_id"]}, {"message", "halfway"}, {"progress", 50}});
  agent.ok("log_decision", {{"task_id", task["task_id"]},
                            {"category", "library_choice"},
                            {"question", "Which store?"},
                            {"chosen", "SQLite"},
                            {"reasoning", "local"}});
  agent.ok("log_issue", {{"task_id", task["task_id"]},
                         {"type", "unclear_requirement"},
                         {"description", "Need a key"},
                         {"resolution", "asked"},
                         {"requires_human_review", false}});
  agent.ok("complete_task", {{"task_id", task["task_id"]},
                             {"status", "success"},
                             {"outcome", {{"summary", "s"}}},
                             {"phase_complete", true}});
  agent.ok("complete_mission",
           {{"mission_id", mission["mission_id"]}, {"status", "completed"}, {"summary", "s"}});

  std::vector<std::string> types;
  json milestone;
  json issue;
  while (types.size() < 10) {
    auto message = watcher.read();
    REQUIRE(message);
    const json params = (*message)["params"];
    std::string type = params.value("type", "");
    if (type.find(':') != std::string::npos) {
      types.push_back(type);
      CHECK(params["agentExecutionId"] == agent.execution_id());
      if (type == "milestone:added") milestone = params;
      if (type == "issue:added") issue = params;
    }
  }
  CHECK(types == std::vector<std::string>{"mission:created", "phase:created", "task:created",
                                          "milestone:added", "decision:added", "issue:added",
                                          "task:updated", "phase:updated", "mission:updated",
                                          "mission:updated"});
  CHECK(milestone["taskId"] == task["task_id"]);
  CHECK(milestone["missionId"] == mission["mission_id"]);
  CHECK(milestone["entry"]["message"] == "halfway");
  CHECK(milestone["entry"]["progress"] == 50);
  CHECK(issue["entry"]["requiresHumanReview"] == false);
  CHECK(issue["entry"]["description"] == "Need a key");
}

TEST_CASE("the default catalog offers signals and tracking within 12 KB") {
  Instance instance;
  DaemonProcess daemon(instance);
  ProcessResult created = run_mission(instance, {"--json", "exec", "create", "--print-token"});
  json document = json::parse(created.out);
  auto env = instance.env();
  env["MISSION_MCP_TOKEN"] = document["token"];
  StdioProcess bridge(
      {MISSION_PATH, "mcp", "connect", "--agent-execution", document["execution"]["id"]}, env);
  bridge.request(1, "initialize",
                 {{"protocolVersion", "2025-11-25"},
                  {"capabilities", json::object()},
                  {"clientInfo", {{"name", "t"}, {"version", "1"}}}});
  json tools = bridge.request(2, "tools/list")["result"]["tools"];
  CHECK(tools.size() == 15);
  CHECK(tools.dump().size() <= 12 * 1024);
  for (const auto& tool : tools) CHECK(tool["name"] != "start_workflow");
}

TEST_CASE("start_task in a directory of /proc fails at once, and the daemon still stops") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  // The daemon's own /proc entry: pagemap says 0 bytes and streams gigabytes.
  Agent agent(instance, "/proc/self");
  json mission = agent.ok("start_mission", {{"name", "Special tree"}, {"objective", "Never hang"}});
  auto started = std::chrono::steady_clock::now();
  json result = agent.call("start_task",
                           {{"mission_id", mission["mission_id"]}, {"name", "t"}, {"goal", "g"}});
  CHECK(std::chrono::steady_clock::now() - started < 5s);
  REQUIRE(result["isError"] == true);
  CHECK(result["structuredContent"]["code"] == "invalid_argument");
  CHECK(result["structuredContent"]["message"].get<std::string>().find("proc") !=
        std::string::npos);
  ProcessResult stop = run_mission(instance, {"daemon", "stop", "--force"});
  CHECK(stop.exit_code == 0);
  // Exited, through its orderly shutdown. (Its status is not checked: under
  // LeakSanitizer, libgit2's never freed TLS state makes it 1.)
  CHECK(daemon.wait_exit(5s).has_value());
  CHECK(daemon.stderr_text().find("missiond: stopped") != std::string::npos);
}

TEST_CASE("FIFOs in the tree are neither read nor counted, in git and outside it") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  fs::path repo = make_repo(instance);
  fs::path plain = instance.root.path() / "plain";
  write_file(plain / "notes.txt", "notes\n");
  for (const fs::path& dir : {repo, plain}) {
    INFO(dir);
    REQUIRE(::mkfifo((dir / "pipe").c_str(), 0600) == 0);
    Agent agent(instance, dir);
    json mission = agent.ok("start_mission", {{"name", "Pipes"}, {"objective", "Skip them"}});
    json task = agent.ok("start_task",
                         {{"mission_id", mission["mission_id"]}, {"name", "t"}, {"goal", "g"}});
    write_file(dir / "added.txt", "added\n");
    REQUIRE(::mkfifo((dir / "another-pipe").c_str(), 0600) == 0);
    json done = agent.ok(
        "complete_task",
        {{"task_id", task["task_id"]}, {"status", "success"}, {"outcome", {{"summary", "done"}}}});
    CHECK(done["files_changed"]["added"] == strings({"added.txt"}));
    CHECK(done["files_changed"]["modified"].empty());
  }
}

TEST_CASE(
    "with --watch-trees a task's tree is watched while the task runs and after, for the next "
    "task") {
  Instance instance;
  DaemonProcess daemon(instance, {"--watch-trees"});
  REQUIRE(daemon.ready());
  fs::path repo = make_repo(instance);
  Agent agent(instance, repo / "src");
  json mission =
      agent.ok("start_mission", {{"name", "Watched"}, {"objective", "Look only at changes"}});
  json task =
      agent.ok("start_task", {{"mission_id", mission["mission_id"]}, {"name", "t"}, {"goal", "g"}});

  json status = mission_json(instance, {"status"})["daemon"]["watchedTrees"];
  CHECK(status["enabled"] == true);
  REQUIRE(status["trees"].size() == 1);
  CHECK(fs::equivalent(status["trees"][0]["root"].get<std::string>(), repo));
  CHECK(status["trees"][0]["watched"] == true);
  CHECK(status["trees"][0]["watches"] == 3);  // the root, src and src/auth
  ProcessResult text = run_mission(instance, {"status"});
  CHECK(text.out.find("watched") != std::string::npos);

  write_file(repo / "src/auth/login.ts", "export const login = 3;\n");
  write_file(repo / "src/new/module.ts", "export const module = 1;\n");
  fs::remove(repo / "README.md");
  json done = agent.ok(
      "complete_task",
      {{"task_id", task["task_id"]}, {"status", "success"}, {"outcome", {{"summary", "done"}}}});
  CHECK(done["files_changed"]["added"] == strings({"src/new/module.ts"}));
  CHECK(done["files_changed"]["modified"] == strings({"src/auth/login.ts"}));
  CHECK(done["files_changed"]["deleted"] == strings({"README.md"}));

  // No task in progress needs the tree any more: it stays watched for the
  // next task, whose start sees what changed meanwhile (and only that).
  json after = mission_json(instance, {"status"})["daemon"]["watchedTrees"];
  REQUIRE(after["trees"].size() == 1);
  CHECK(after["trees"][0]["watched"] == true);
  write_file(repo / "src/auth/login.ts", "export const login = 4;\n");
  json next =
      agent.ok("start_task", {{"mission_id", mission["mission_id"]}, {"name", "u"}, {"goal", "g"}});
  write_file(repo / "src/auth/other.ts", "export const other = 1;\n");
  json second = agent.ok(
      "complete_task",
      {{"task_id", next["task_id"]}, {"status", "success"}, {"outcome", {{"summary", "done"}}}});
  CHECK(second["files_changed"]["added"] == strings({"src/auth/other.ts"}));
  CHECK(second["files_changed"]["modified"].empty());
  CHECK(second["files_changed"]["deleted"].empty());
}
