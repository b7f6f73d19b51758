// Planned work from the shell: an agent sets a plan over a real bridge, then
// mission workflows, plan, next, progress and templates read it back
// through the real daemon, in JSON and as text laid out for 80 columns.

#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "integration/harness.hpp"
#include "integration/stdio_process.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

json plan_of_four() {
  return {{"summary", "JWT login"},
          {"approach", "model, then api and ui, then docs"},
          {"tasks",
           {{{"name", "model"}, {"description", "User model"}, {"sequence", 1}},
            {{"name", "api"},
             {"description", "Login endpoint"},
             {"sequence", 2},
             {"parallel_group", "build"},
             {"depends_on", {"model"}}},
            {{"name", "ui"},
             {"description", "Login form"},
             {"sequence", 2},
             {"parallel_group", "build"},
             {"depends_on", {"model"}}},
            {{"name", "docs"}, {"description", "Document it"}, {"sequence", 3}}}}};
}

std::size_t widest_line(const std::string& text) {
  std::istringstream lines(text);
  std::size_t widest = 0;
  for (std::string line; std::getline(lines, line);) widest = std::max(widest, line.size());
  return widest;
}

}  // namespace

TEST_CASE("mission workflows, plan, next and progress read a planned workflow through the daemon") {
  Instance instance;
  DaemonProcess daemon(instance);
  fs::path repo = make_repo(instance);
  Agent agent(instance, repo, "tracking,planning,templates");
  const std::string id = agent.ok("workflow_create", {{"name", "Auth"},
                                                      {"source_type", "prompt"},
                                                      {"source_content", "Add login"},
                                                      {"max_parallel_tasks", 2}})["id"];
  agent.ok("workflow_set_plan", {{"id", id}, {"plan", plan_of_four()}});
  json next = agent.ok("workflow_next_tasks", {{"workflow_id", id}});
  REQUIRE(next["tasks"].size() == 1);
  const std::string model = next["tasks"][0]["id"];
  agent.ok("task_update_status",
           {{"id", model}, {"status", "completed"}, {"outcome", "model done"}});

  json list = mission_json(instance, {"workflows", "list"});
  REQUIRE(list["workflows"].size() == 1);
  CHECK(list["workflows"][0]["id"] == id);
  CHECK(list["workflows"][0]["taskCount"] == 4);
  // Among missions: one task of four done, the three not started are not.
  json missions = mission_json(instance, {"missions", "list"});
  bool listed = false;
  for (const auto& mission : missions["missions"]) {
    if (mission["missionId"] != id) continue;
    listed = true;
    CHECK(mission["tasks"]["total"] == 4);
    CHECK(mission["tasks"]["completed"] == 1);
  }
  CHECK(listed);

  json shown = mission_json(instance, {"workflows", "show", id});
  CHECK(shown["plan"]["summary"] == "JWT login");
  CHECK(shown["tasks"].size() == 4);

  // The graph: four nodes, api and ui after model, docs after both (implied by sequence).
  json graph = mission_json(instance, {"plan", id});
  CHECK(graph["nodes"].size() == 4);
  CHECK(graph["edges"].size() == 4);
  std::size_t implied = 0;
  for (const auto& edge : graph["edges"]) implied += edge["implied"].get<bool>() ? 1 : 0;
  CHECK(implied == 2);

  // The same queries as the tools answer (workflow_next_tasks, workflow_progress).
  json cli_next = mission_json(instance, {"next", id});
  json tool_next = agent.ok("workflow_next_tasks", {{"workflow_id", id}});
  CHECK(cli_next["availableCount"] == tool_next["available_count"]);
  CHECK(cli_next["tasks"].size() == 2);
  json progress = mission_json(instance, {"progress", id});
  CHECK(progress["byStatus"]["completed"] == 1);
  CHECK(progress["byStatus"]["ready"] == 2);
  CHECK(progress["blockedCount"] == 1);

  // Text: layered by depth with status marks, within 80 columns.
  ProcessResult text = run_mission(instance, {"plan", id});
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("-- depth 0") != std::string::npos);
  CHECK(text.out.find("[x] model") != std::string::npos);
  CHECK(text.out.find("[ ] api  <- model") != std::string::npos);
  CHECK(text.out.find("-- depth 2") != std::string::npos);
  CHECK(text.out.find("[.] docs  <- ") != std::string::npos);
  CHECK(widest_line(text.out) <= 80);

  ProcessResult dot = run_mission(instance, {"plan", id, "--format", "dot"});
  CHECK(dot.out.rfind("digraph workflow {", 0) == 0);
  CHECK(dot.out.find("[style=dashed]") != std::string::npos);
  ProcessResult mermaid = run_mission(instance, {"plan", id, "--format", "mermaid"});
  CHECK(mermaid.out.rfind("flowchart LR", 0) == 0);
  CHECK(mermaid.out.find(" --> ") != std::string::npos);

  ProcessResult plain = run_mission(instance, {"progress", id});
  CHECK(plain.out.find("1/1 completed") != std::string::npos);  // not a terminal: no bars

  ProcessResult missing = run_mission(instance, {"plan", "wf-nosuchthing"});
  CHECK(missing.exit_code != 0);
  CHECK(missing.err.find("no workflow matches 'wf-nosuchthing'") != std::string::npos);
}

TEST_CASE("mission templates list and show read what template_create stored") {
  Instance instance;
  DaemonProcess daemon(instance);
  fs::path repo = make_repo(instance);
  Agent agent(instance, repo, "planning,templates");
  agent.ok(
      "template_create",
      {{"name", "feature"},
       {"template",
        {{"tasks",
          {{{"name", "design {{feature}}"}, {"description", "d"}, {"sequence", 1}},
           {{"name", "build {{feature}}"},
            {"description", "b"},
            {"sequence", 2},
            {"depends_on", {"design {{feature}}"}}}}},
         {"variables", {{{"name", "feature"}, {"description", "what"}, {"required", true}}}}}}});
  json list = mission_json(instance, {"templates", "list"});
  REQUIRE(list["templates"].size() == 1);
  CHECK(list["templates"][0]["taskCount"] == 2);
  json shown = mission_json(instance, {"templates", "show", "feature"});
  CHECK(shown["definition"]["tasks"].size() == 2);
  ProcessResult text = run_mission(instance, {"templates", "show", "feature"});
  CHECK(text.out.find("{{feature}} required") != std::string::npos);
  CHECK(text.out.find("<- design {{feature}}") != std::string::npos);
}

TEST_CASE(
    "mission templates apply makes a workflow from a template that claiming agents work through") {
  Instance instance;
  DaemonProcess daemon(instance);
  fs::path repo = make_repo(instance);
  Agent agent(instance, repo, "planning,templates,coordination");
  agent.ok("template_create",
           {{"name", "feature"},
            {"template",
             {{"tasks",
               {{{"name", "design {{feature}}"}, {"description", "in {{area}}"}, {"sequence", 1}},
                {{"name", "build {{feature}}"},
                 {"description", "b"},
                 {"sequence", 2},
                 {"depends_on", {"design {{feature}}"}}}}},
              {"variables",
               {{{"name", "feature"}, {"description", "what"}, {"required", true}},
                {{"name", "area"}, {"description", "where"}, {"default", "core"}}}}}}});
  // A required variable left out, or one the template does not have, is
  // refused by name.
  ProcessResult missing = run_mission(instance, {"templates", "apply", "feature"});
  CHECK(missing.exit_code != 0);
  CHECK(missing.err.find("feature") != std::string::npos);
  ProcessResult unknown = run_mission(
      instance, {"templates", "apply", "feature", "--var", "feature=login", "--var", "colour=red"});
  CHECK(unknown.exit_code != 0);
  CHECK(unknown.err.find("colour") != std::string::npos);
  ProcessResult malformed =
      run_mission(instance, {"templates", "apply", "feature", "--var", "feature"});
  CHECK(malformed.exit_code != 0);
  CHECK(mission_json(instance, {"workflows", "list"})["workflows"].empty());

  json applied =
      mission_json(instance, {"templates", "apply", "feature", "--var", "feature=login", "--name",
                              "Login work", "--max-parallel", "2", "--cwd", repo.string()});
  const std::string workflow = applied["workflowId"];
  CHECK(applied["tasksCreated"] == 2);
  CHECK(applied["status"] == "ready");
  json shown = mission_json(instance, {"workflows", "show", workflow});
  INFO(shown.dump());
  CHECK(shown["name"] == "Login work");
  json next = mission_json(instance, {"next", workflow});
  REQUIRE(next["tasks"].size() == 1);
  CHECK(next["tasks"][0]["name"] == "design login");
  CHECK(next["tasks"][0]["description"] == "in core");
  CHECK(next["maxParallel"] == 2);

  // No agent owns it: an agent works on a task by claiming it.
  const std::string design = next["tasks"][0]["id"];
  agent.ok("task_claim", {{"task_id", design}});
  CHECK(mission_json(instance, {"next", workflow})["tasks"].empty());
  agent.ok("task_update_status", {{"id", design}, {"status", "in_progress"}});
  agent.ok("task_update_status",
           {{"id", design}, {"status", "completed"}, {"outcome", "designed"}});
  next = mission_json(instance, {"next", workflow});
  REQUIRE(next["tasks"].size() == 1);
  CHECK(next["tasks"][0]["name"] == "build login");

  ProcessResult text =
      run_mission(instance, {"templates", "apply", "feature", "--var", "feature=logout"});
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("mission next wf-") != std::string::npos);
  CHECK(mission_json(instance, {"workflows", "list"})["workflows"].size() == 2);
}
