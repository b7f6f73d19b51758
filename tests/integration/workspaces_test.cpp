// Workspaces through the real socket, real agents and real git repositories
// (docs/adr/0019): two agents claiming tasks of a workflow with
// auto_create_workspaces work in two worktrees and get exact, separate
// change sets; a conflict mission predicts is the one a real `git merge`
// then meets; a merged branch is seen merged, and clean removes its worktree.

#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

const char* kToolsets = "planning,coordination,workspaces,tracking";

std::string make_workflow(Agent& planner, bool auto_workspaces, std::initializer_list<const char*> names) {
  json workflow = planner.ok("workflow_create", {{"name", "parallel"}, {"source_type", "prompt"},
                                                 {"source_content", "two things at once"},
                                                 {"max_parallel_tasks", 4},
                                                 {"auto_create_workspaces", auto_workspaces}});
  json tasks = json::array();
  for (const char* name : names) tasks.push_back({{"name", name}, {"description", name}, {"sequence", 1}});
  planner.ok("workflow_set_plan",
             {{"id", workflow["id"]}, {"plan", {{"summary", "s"}, {"approach", "a"}, {"tasks", tasks}}}});
  return workflow["id"];
}

std::string task_named(Agent& reader, const std::string& workflow, const std::string& name) {
  const json available = reader.ok("task_get_available", {{"workflow_id", workflow}, {"limit", 100}});
  for (const auto& task : available["tasks"]) {
    if (task["name"] == name) return task["id"];
  }
  FAIL("no task " << name);
  return "";
}

void commit_all(const Instance& instance, const fs::path& tree, const std::string& message) {
  git(instance, tree, {"add", "-A"});
  git(instance, tree, {"commit", "-q", "-m", message});
}

}  // namespace

TEST_CASE("two agents in two worktrees get exact, separate change sets") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent planner(instance, repo, kToolsets);
  const std::string workflow = make_workflow(planner, true, {"left", "right"});
  const std::string left_task = task_named(planner, workflow, "left");
  const std::string right_task = task_named(planner, workflow, "right");

  Agent left(instance, repo, kToolsets);
  Agent right(instance, repo, kToolsets);
  json left_claim = left.ok("task_claim", {{"task_id", left_task}});
  json right_claim = right.ok("task_claim", {{"task_id", right_task}});
  REQUIRE(left_claim.contains("workspace"));
  REQUIRE(right_claim.contains("workspace"));
  const fs::path left_tree = left_claim["workspace"]["path"].get<std::string>();
  const fs::path right_tree = right_claim["workspace"]["path"].get<std::string>();
  CHECK(left_tree != right_tree);
  CHECK(fs::exists(left_tree / "README.md"));
  CHECK(left_claim["workspace"]["task_ids"] == json::array({left_task}));

  left.ok("start_task", {{"task_id", left_task}, {"name", "left"}, {"goal", "left side"}});
  right.ok("start_task", {{"task_id", right_task}, {"name", "right"}, {"goal", "right side"}});
  // Each edits its own tree, one of them also commits; the main tree moves too.
  write_file(left_tree / "src/left.ts", "export const left = 1;\n");
  write_file(left_tree / "README.md", "# demo\nleft was here\n");
  write_file(right_tree / "src/right.ts", "export const right = 1;\n");
  commit_all(instance, right_tree, "right");
  write_file(repo / "MAIN.md", "main tree edit\n");

  json left_done = left.ok("complete_task", {{"task_id", left_task}, {"status", "success"}, {"outcome", {{"summary", "left"}}}});
  json right_done = right.ok("complete_task", {{"task_id", right_task}, {"status", "success"}, {"outcome", {{"summary", "right"}}}});
  CHECK(left_done["files_changed"]["added"] == strings({"src/left.ts"}));
  CHECK(left_done["files_changed"]["modified"] == strings({"README.md"}));
  CHECK(right_done["files_changed"]["added"] == strings({"src/right.ts"}));
  CHECK(right_done["files_changed"]["modified"].empty());

  json listed = mission_json(instance, {"workspaces", "list", "--workflow", workflow});
  CHECK(listed["workspaces"].size() == 2);
}

TEST_CASE("a conflict mission predicts is the one a real git merge meets, and merged branches are seen and cleaned") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent planner(instance, repo, kToolsets);
  const std::string workflow = make_workflow(planner, false, {"a", "b", "c"});
  json a = planner.ok("workspace_create", {{"workflow_id", workflow}, {"branch", "feature/a"}});
  json b = planner.ok("workspace_create", {{"workflow_id", workflow}, {"branch", "feature/b"}});
  json c = planner.ok("workspace_create", {{"workflow_id", workflow}, {"branch", "feature/c"},
                                           {"path", (instance.root.path() / "elsewhere" / "c").string()}});
  CHECK(a["base_branch"] == "main");
  const fs::path a_tree = a["path"].get<std::string>();
  const fs::path b_tree = b["path"].get<std::string>();
  const fs::path c_tree = c["path"].get<std::string>();
  write_file(a_tree / "src/utils.ts", "export const util = 2;\n");
  commit_all(instance, a_tree, "a");
  write_file(b_tree / "src/utils.ts", "export const util = 3;\n");
  commit_all(instance, b_tree, "b");
  write_file(c_tree / "docs/c.md", "c\n");
  commit_all(instance, c_tree, "c");
  write_file(c_tree / "src/utils.ts", "export const util = 4;\n");  // not committed: overlaps, cannot conflict yet

  ProcessResult predicted = run_mission(instance, {"--json", "workspaces", "conflicts", workflow});
  INFO(predicted.err);
  CHECK(predicted.exit_code == 1);  // a pair conflicts
  json scan = json::parse(predicted.out);
  CHECK(scan["pairsChecked"] == 3);
  CHECK(scan["conflictingPairs"] == 1);
  bool found = false;
  for (const auto& pair : scan["pairs"]) {
    const std::set<std::string> ids{pair["workspaces"][0], pair["workspaces"][1]};
    CHECK(pair["overlappingFiles"] == strings({"src/utils.ts"}));
    if (ids == std::set<std::string>{a["id"], b["id"]}) {
      found = true;
      CHECK(pair["mergesCleanly"] == false);
      CHECK(pair["conflictingFiles"] == strings({"src/utils.ts"}));
    } else {
      CHECK(pair["mergesCleanly"] == true);
    }
  }
  CHECK(found);
  // The tool says the same to a coordinator.
  json tool = planner.ok("workspace_conflicts", {{"workflow_id", workflow}});
  CHECK(tool["conflicting_pairs"] == 1);

  // A real merge: a goes in, b then conflicts on the file predicted.
  git(instance, repo, {"merge", "-q", "--no-edit", "feature/a"});
  ProcessResult merge = run_process({"/usr/bin/git", "-C", repo.string(), "merge", "--no-edit", "feature/b"},
                                    git_env(instance));
  CHECK(merge.exit_code != 0);
  ProcessResult unmerged = run_process(
      {"/usr/bin/git", "-C", repo.string(), "diff", "--name-only", "--diff-filter=U"}, git_env(instance));
  CHECK(unmerged.out == "src/utils.ts\n");
  git(instance, repo, {"merge", "--abort"});

  // a's branch is reachable from main now: listed merged, and cleaned.
  json listed = mission_json(instance, {"workspaces", "list", "--workflow", workflow});
  std::map<std::string, std::string> status;
  for (const auto& workspace : listed["workspaces"]) status[workspace["id"]] = workspace["status"];
  CHECK(status[a["id"]] == "merged");
  CHECK(status[b["id"]] == "active");
  json cleaned = mission_json(instance, {"workspaces", "clean"});
  REQUIRE(cleaned["removed"].size() == 1);
  CHECK(cleaned["removed"][0]["id"] == a["id"]);
  CHECK(cleaned["removed"][0]["branchDeleted"] == true);
  CHECK_FALSE(fs::exists(a_tree));
  CHECK(fs::exists(b_tree));
  // An abandoned one with edits never committed is kept, and says why.
  planner.ok("workspace_update", {{"id", c["id"]}, {"status", "abandoned"}});
  json kept = mission_json(instance, {"workspaces", "clean"});
  REQUIRE(kept["failed"].size() == 1);
  CHECK(kept["failed"][0]["error"].get<std::string>().find("never committed") != std::string::npos);
  CHECK(fs::exists(c_tree));
}
