// Data far past the everyday sizes, through the real daemon and bridge:
// templates that would fill in past a plan's limits, and a plan of ten
// thousand tasks exported and drawn whole.

#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "integration/harness.hpp"
#include "integration/tracking_agent.hpp"
#include "shared/limits.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

std::string repeated(const std::string& text, std::size_t times) {
  std::string out;
  out.reserve(text.size() * times);
  for (std::size_t i = 0; i < times; ++i) out += text;
  return out;
}

std::size_t workflow_count(const Instance& instance) {
  return mission_json(instance, {"workflows", "list"})["workflows"].size();
}

}  // namespace

TEST_CASE(
    "template_apply holds what it fills in to a plan's limits and makes nothing when it refuses") {
  Instance instance;
  DaemonProcess daemon(instance);
  fs::path repo = make_repo(instance);
  Agent agent(instance, repo, "planning,templates");
  // 1,600 placeholders fill an 8,000-character description: within the
  // template's own limits, and 3.2 MB once each is 2,000 bytes.
  agent.ok(
      "template_create",
      {{"name", "wide"},
       {"template",
        {{"tasks", {{{"name", "t"}, {"description", repeated("{{x}}", 1600)}, {"sequence", 0}}}},
         {"variables", {{{"name", "x"}, {"required", true}}}}}}});
  json refused = agent.call("template_apply", {{"template_id", "wide"},
                                               {"workflow_name", "big"},
                                               {"variables", {{"x", std::string(2000, 'a')}}}});
  REQUIRE(refused["isError"] == true);
  CHECK(refused["structuredContent"]["code"] == "invalid_argument");
  CHECK(refused["structuredContent"]["message"].get<std::string>().find("description") !=
        std::string::npos);
  CHECK(refused["structuredContent"]["details"]["max_chars"] ==
        mission::limits::kMaxPlanTaskDescriptionChars);
  CHECK(workflow_count(instance) == 0);

  // Every text within its limit, all of them together past what one
  // workflow_set_plan could carry.
  json tasks = json::array();
  for (int i = 0; i < 200; ++i) {
    tasks.push_back(
        {{"name", "t" + std::to_string(i)}, {"description", "{{x}}{{x}}{{x}}"}, {"sequence", 0}});
  }
  agent.ok(
      "template_create",
      {{"name", "many"},
       {"template", {{"tasks", tasks}, {"variables", {{{"name", "x"}, {"required", true}}}}}}});
  json too_much = agent.call("template_apply", {{"template_id", "many"},
                                                {"workflow_name", "big"},
                                                {"variables", {{"x", std::string(2000, 'a')}}}});
  REQUIRE(too_much["isError"] == true);
  CHECK(too_much["structuredContent"]["code"] == "payload_too_large");
  CHECK(workflow_count(instance) == 0);

  // Up to the limit it applies, and the task holds the whole text.
  json applied = agent.ok(
      "template_apply",
      {{"template_id", "wide"}, {"workflow_name", "fits"}, {"variables", {{"x", "abcde"}}}});
  json workflow = agent.ok(
      "workflow_get",
      {{"id", applied["workflow_id"]}, {"include_tasks", true}, {"include_task_summaries", false}});
  REQUIRE(workflow["tasks"].size() == 1);
  CHECK(workflow["tasks"][0]["description"] == repeated("abcde", 1600));
}

namespace {

// `mission ARGS...` with a git identity (notes are commits), and a bound
// that leaves room for a slow sanitized build reading thousands of tasks.
ProcessResult mission_slow(const Instance& instance, std::vector<std::string> args) {
  std::map<std::string, std::string> env = instance.env();
  for (const auto& [name, value] : git_env(instance)) env[name] = value;
  args.insert(args.begin(), {MISSION_PATH, "--no-autostart"});
  return run_process(args, env, std::chrono::seconds(300));
}

// A plan of `n` tasks t0..t(n-1), one sequence: each task waits for the
// one before it, except every tenth, which starts a new chain.
json chains_plan(std::size_t n) {
  json tasks = json::array();
  for (std::size_t i = 0; i < n; ++i) {
    json task = {{"name", "t" + std::to_string(i)},
                 {"description", "step " + std::to_string(i)},
                 {"sequence", 0}};
    if (i % 10 != 0) task["depends_on"] = {"t" + std::to_string(i - 1)};
    tasks.push_back(std::move(task));
  }
  return {{"summary", "many"}, {"approach", "chains of ten"}, {"tasks", std::move(tasks)}};
}

}  // namespace

TEST_CASE(
    "a workflow of 10000 tasks is exported and drawn whole, and its check judges every task") {
  constexpr std::size_t kTasks = 10000;
  Instance instance;
  DaemonProcess daemon(instance);
  fs::path repo = make_repo(instance);
  Agent agent(instance, repo, "planning");
  const std::string id = agent.ok(
      "workflow_create",
      {{"name", "big"}, {"source_type", "prompt"}, {"source_content", "many tasks"}})["id"];
  agent.send_call("workflow_set_plan", {{"id", id}, {"plan", chains_plan(kTasks)}});
  json set = agent.reply(std::chrono::seconds(120));
  INFO(set.dump().substr(0, 2000));
  REQUIRE(set["isError"] == false);
  REQUIRE(set["structuredContent"]["tasks_created"] == kTasks);
  // The last task of the plan that can start fails: only a record that
  // reaches the end holds it.
  const std::string last_chain = "t" + std::to_string(kTasks - 10);
  std::string failed_id;
  json workflow = agent.ok("workflow_get", {{"id", id}});
  REQUIRE(workflow["task_count"] == kTasks);

  // The graph: every node in plan order and every edge, over several replies.
  ProcessResult plan = mission_slow(instance, {"--json", "plan", id});
  INFO(plan.err);
  REQUIRE(plan.exit_code == 0);
  REQUIRE(plan.out.size() > mission::limits::kMaxReplyBytes);  // too large for one reply
  json graph = json::parse(plan.out);
  REQUIRE(graph["nodes"].size() == kTasks);
  for (std::size_t i = 0; i < kTasks; ++i) {
    if (graph["nodes"][i]["name"] != "t" + std::to_string(i))
      FAIL("node " << i << " is " << graph["nodes"][i]);
    if (graph["nodes"][i]["name"] == last_chain) failed_id = graph["nodes"][i]["id"];
  }
  CHECK(graph["edges"].size() == kTasks - kTasks / 10);
  CHECK(!graph.contains("more"));
  CHECK(!graph.contains("afterCursor"));
  ProcessResult text = mission_slow(instance, {"plan", id});
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("(" + id + ", ready, 10000 tasks)") != std::string::npos);
  CHECK(text.out.find("-- depth 9 (1000)") != std::string::npos);

  REQUIRE(!failed_id.empty());
  agent.ok("task_update_status", {{"id", failed_id}, {"status", "in_progress"}});
  agent.ok("task_update_status",
           {{"id", failed_id}, {"status", "failed"}, {"error", "broke on purpose"}});

  // The record: to a file and to a git note, each whole.
  const fs::path file = instance.root.path() / "record.json";
  ProcessResult exported = mission_slow(instance, {"export", id, "--output", file.string()});
  INFO(exported.err);
  REQUIRE(exported.exit_code == 0);
  json record = json::parse(read_file(file));
  REQUIRE(record["tasks"].size() == kTasks);
  std::set<std::string> ids;
  for (const auto& task : record["tasks"]) ids.insert(task["taskId"].get<std::string>());
  CHECK(ids.size() == kTasks);
  CHECK(!record.contains("more"));
  CHECK(record["format"] == "mission-record/1");
  ProcessResult noted = mission_slow(instance, {"export", id, "--cwd", repo.string()});
  INFO(noted.err);
  REQUIRE(noted.exit_code == 0);

  // Judged with no daemon from the note and from the file: the failed task
  // on the last page fails the gate (the never-started ones are allowed, so
  // it is the one problem).
  for (const auto& source : std::vector<std::vector<std::string>>{
           {"--from-notes", "HEAD", "--cwd", repo.string()}, {"--from", file.string()}}) {
    std::vector<std::string> args = {"--json", "check", "--allow-unfinished"};
    args.insert(args.end(), source.begin(), source.end());
    ProcessResult checked = mission_slow(instance, args);
    INFO(checked.out << checked.err);
    CHECK(checked.exit_code == 1);
    json verdict = json::parse(checked.out);
    REQUIRE(verdict["missions"].size() == 1);
    CHECK(verdict["missions"][0]["missionId"] == id);
    REQUIRE(verdict["missions"][0]["problems"].size() == 1);
    CHECK(verdict["missions"][0]["problems"][0]["taskId"] == failed_id);
  }
}

TEST_CASE("workflow_next_tasks lists ready tasks with long descriptions within a reply") {
  // 50 descriptions of 8,000 characters, carried twice by an MCP result,
  // passed the reply limit: the call failed with payload_too_large.
  Instance instance;
  DaemonProcess daemon(instance);
  fs::path repo = make_repo(instance);
  Agent agent(instance, repo, "planning");
  const std::string id = agent.ok(
      "workflow_create",
      {{"name", "wide"}, {"source_type", "prompt"}, {"source_content", "long descriptions"}})["id"];
  json plan = json::array();
  for (int i = 0; i < 60; ++i) {
    plan.push_back({{"name", "t" + std::to_string(i)},
                    {"description", std::string(mission::limits::kMaxPlanTaskDescriptionChars,
                                                i % 2 == 0 ? '"' : 'd')},
                    {"sequence", 0}});
  }
  agent.ok(
      "workflow_set_plan",
      {{"id", id}, {"plan", {{"summary", "wide"}, {"approach", "all at once"}, {"tasks", plan}}}});
  json next = agent.ok("workflow_next_tasks", {{"workflow_id", id}});
  CHECK(next["available_count"] == 60);
  CHECK(!next["tasks"].empty());
  CHECK(next["tasks"].size() < mission::limits::kMaxNextTasks);
  CHECK(next["tasks"].dump().size() <= mission::limits::kMaxNextTasksBytes);
  // One task always goes in, whatever its size.
  CHECK(agent.ok("workflow_next_tasks", {{"workflow_id", id}, {"limit", 1}})["tasks"].size() == 1);
}
