// Workspaces through the real socket, real agents and real git repositories
// (docs/adr/0019): two agents claiming tasks of a workflow with
// auto_create_workspaces work in two worktrees and get exact, separate
// change sets; a conflict mission predicts is the one a real `git merge`
// then meets; a merged branch is seen merged, and clean removes its worktree.

#include <signal.h>

#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "integration/tracking_agent.hpp"
#include "support/eventually.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

const char* kToolsets = "planning,coordination,workspaces,tracking";

std::string make_workflow(Agent& planner, bool auto_workspaces,
                          std::initializer_list<const char*> names) {
  json workflow = planner.ok("workflow_create", {{"name", "parallel"},
                                                 {"source_type", "prompt"},
                                                 {"source_content", "two things at once"},
                                                 {"max_parallel_tasks", 4},
                                                 {"auto_create_workspaces", auto_workspaces}});
  json tasks = json::array();
  for (const char* name : names)
    tasks.push_back({{"name", name}, {"description", name}, {"sequence", 1}});
  planner.ok(
      "workflow_set_plan",
      {{"id", workflow["id"]}, {"plan", {{"summary", "s"}, {"approach", "a"}, {"tasks", tasks}}}});
  return workflow["id"];
}

std::string task_named(Agent& reader, const std::string& workflow, const std::string& name) {
  const json available =
      reader.ok("task_get_available", {{"workflow_id", workflow}, {"limit", 100}});
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

// git's own answer, stdout only.
std::string git_out(const Instance& instance, const fs::path& repo, std::vector<std::string> args) {
  args.insert(args.begin(), {"/usr/bin/git", "-C", repo.string()});
  return run_process(args, git_env(instance)).out;
}

// Branches and worktrees mission might have made.
std::string mission_refs(const Instance& instance, const fs::path& repo) {
  return git_out(instance, repo, {"branch", "--list", "mission/*", "--format=%(refname:short)"}) +
         git_out(instance, repo, {"worktree", "list", "--porcelain"});
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

  json left_done =
      left.ok("complete_task",
              {{"task_id", left_task}, {"status", "success"}, {"outcome", {{"summary", "left"}}}});
  json right_done = right.ok(
      "complete_task",
      {{"task_id", right_task}, {"status", "success"}, {"outcome", {{"summary", "right"}}}});
  CHECK(left_done["files_changed"]["added"] == strings({"src/left.ts"}));
  CHECK(left_done["files_changed"]["modified"] == strings({"README.md"}));
  CHECK(right_done["files_changed"]["added"] == strings({"src/right.ts"}));
  CHECK(right_done["files_changed"]["modified"].empty());

  json listed = mission_json(instance, {"workspaces", "list", "--workflow", workflow});
  CHECK(listed["workspaces"].size() == 2);
}

TEST_CASE(
    "a conflict mission predicts is the one a real git merge meets, and merged branches are seen "
    "and cleaned") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent planner(instance, repo, kToolsets);
  const std::string workflow = make_workflow(planner, false, {"a", "b", "c"});
  json a = planner.ok("workspace_create", {{"workflow_id", workflow}, {"branch", "feature/a"}});
  json b = planner.ok("workspace_create", {{"workflow_id", workflow}, {"branch", "feature/b"}});
  json c = planner.ok("workspace_create", {{"workflow_id", workflow},
                                           {"branch", "feature/c"},
                                           {"path", repo.string() + ".worktrees/chosen/c"}});
  CHECK(c["path"] == repo.string() + ".worktrees/chosen/c");
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
  write_file(c_tree / "src/utils.ts",
             "export const util = 4;\n");  // not committed: overlaps, cannot conflict yet

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
  ProcessResult merge = run_process(
      {"/usr/bin/git", "-C", repo.string(), "merge", "--no-edit", "feature/b"}, git_env(instance));
  CHECK(merge.exit_code != 0);
  ProcessResult unmerged =
      run_process({"/usr/bin/git", "-C", repo.string(), "diff", "--name-only", "--diff-filter=U"},
                  git_env(instance));
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

TEST_CASE(
    "workspace_create keeps worktrees in the repository's worktree folder and refuses branches "
    "that pose as other refs") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  git(instance, repo, {"remote", "add", "origin", (instance.root.path() / "remote.git").string()});
  git(instance, repo, {"tag", "v1"});
  Agent planner(instance, repo, kToolsets);
  const std::string workflow = make_workflow(planner, false, {"a"});
  const std::string before = mission_refs(instance, repo);

  // Paths: anywhere else, into .git, into git's own config, across a symlink.
  const fs::path folder = repo.string() + ".worktrees";
  fs::create_directories(folder);
  fs::create_directories(instance.root.path() / "outside");
  fs::create_directory_symlink(instance.root.path() / "outside", folder / "link");
  for (const std::string& path :
       {(instance.root.path() / "elsewhere").string(), (repo / ".git" / "mission-ws").string(),
        (instance.root.path() / "home" / ".config" / "git").string(),
        (folder / "link" / "w").string(),
        folder.string() + "/../" + repo.filename().string() + "/.git/hooks/w", folder.string()}) {
    json refused = planner.call("workspace_create", {{"workflow_id", workflow}, {"path", path}});
    INFO(path << " " << refused.dump());
    CHECK(refused["isError"] == true);
    CHECK(refused["structuredContent"]["code"] == "invalid_argument");
  }
  CHECK_FALSE(fs::exists(instance.root.path() / "outside" / "w"));
  CHECK_FALSE(fs::exists(repo / ".git" / "hooks" / "w"));
  CHECK_FALSE(fs::exists(repo / ".git" / "mission-ws"));

  // Branches git would read as something else, or that are mission's own.
  const std::vector<std::string> branches = {"origin/main",
                                             "origin",
                                             "@",
                                             "HEAD",
                                             "FETCH_HEAD",
                                             "ORIG_HEAD",
                                             "refs/remotes/origin/x",
                                             "refs/tags/v2",
                                             "tags/v2",
                                             "heads/main",
                                             "remotes/origin/y",
                                             "v1",
                                             "mission/run/" + workflow,
                                             "mission/ws-0000000000",
                                             "feature/.hidden",
                                             "feature/x.lock",
                                             "a..b",
                                             "-x",
                                             "x@{1}",
                                             "a b",
                                             "x\x7f"};
  for (const std::string& branch : branches) {
    json refused =
        planner.call("workspace_create", {{"workflow_id", workflow}, {"branch", branch}});
    INFO(branch << " " << refused.dump());
    CHECK(refused["isError"] == true);
    CHECK(refused["structuredContent"]["code"] == "invalid_argument");
    CHECK(refused["structuredContent"]["details"]["field"] == "branch");
  }
  // A base that searches commit messages: libgit2 kept some 20 KiB of each
  // search that found nothing, so repeating one grew the daemon for ever.
  for (const char* base : {":/no such message", "main^{/no such message}"}) {
    json refused =
        planner.call("workspace_create", {{"workflow_id", workflow}, {"base_branch", base}});
    INFO(base << " " << refused.dump());
    CHECK(refused["isError"] == true);
    CHECK(refused["structuredContent"]["code"] == "invalid_argument");
    CHECK(refused["structuredContent"]["message"].get<std::string>().find(
              "searches commit messages") != std::string::npos);
  }
  // Nothing was made along the way.
  CHECK(mission_refs(instance, repo) == before);
  CHECK(git_out(instance, repo, {"branch", "--list", "origin*", "v1", "HEAD", "@"}).empty());

  // A name of one's own, in a folder of one's own inside the worktree folder, is fine.
  json made = planner.ok("workspace_create", {{"workflow_id", workflow},
                                              {"branch", "feature/login"},
                                              {"path", (folder / "mine" / "login").string()}});
  CHECK(made["branch"] == "feature/login");
  CHECK(fs::exists(folder / "mine" / "login" / "README.md"));
}

TEST_CASE(
    "merged is what git shows, never what a caller says, and clean deletes only branches whose "
    "commits are held elsewhere") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  Agent planner(instance, repo, kToolsets);
  const std::string workflow = make_workflow(planner, false, {"a", "b"});
  json kept = planner.ok("workspace_create", {{"workflow_id", workflow}});
  const std::string kept_branch = kept["branch"];
  json merged =
      planner.ok("workspace_create", {{"workflow_id", workflow}, {"branch", "feature/merged"}});
  const fs::path kept_tree = kept["path"].get<std::string>();
  write_file(kept_tree / "work.txt", "work nobody merged\n");
  commit_all(instance, kept_tree, "work");
  const std::string kept_commit = git_out(instance, repo, {"rev-parse", kept_branch});

  // Saying merged does not make it so.
  json refused = planner.call("workspace_update", {{"id", kept["id"]}, {"status", "merged"}});
  INFO(refused.dump());
  CHECK(refused["isError"] == true);
  CHECK(refused["structuredContent"]["code"] == "invalid_argument");
  CHECK(refused["structuredContent"]["message"].get<std::string>().find("not merged") !=
        std::string::npos);
  json listed = planner.ok("workspace_list", {{"workflow_id", workflow}});
  for (const auto& workspace : listed["workspaces"]) CHECK(workspace["status"] == "active");

  // Given up: its worktree goes, its branch and commit stay, and clean says so.
  planner.ok("workspace_update", {{"id", kept["id"]}, {"status", "abandoned"}});
  json cleaned = mission_json(instance, {"workspaces", "clean"});
  REQUIRE(cleaned["removed"].size() == 1);
  CHECK(cleaned["removed"][0]["branchDeleted"] == false);
  CHECK_FALSE(fs::exists(kept_tree));
  CHECK(git_out(instance, repo, {"rev-parse", kept_branch}) == kept_commit);
  // Every clean after says which branch it keeps, and why.
  ProcessResult again = run_mission(instance, {"workspaces", "clean"});
  CHECK(again.out.find("kept " + kept_branch) != std::string::npos);
  CHECK(again.out.find("commits no other branch has") != std::string::npos);

  // Merged for real: accepted, and cleaned with its branch.
  const fs::path merged_tree = merged["path"].get<std::string>();
  write_file(merged_tree / "done.txt", "merged work\n");
  commit_all(instance, merged_tree, "done");
  git(instance, repo, {"merge", "-q", "--no-edit", "feature/merged"});
  planner.ok("workspace_update", {{"id", merged["id"]}, {"status", "merged"}});
  mission_json(instance, {"workspaces", "clean"});
  CHECK(git_out(instance, repo, {"branch", "--list", "feature/merged"}).empty());
  CHECK(git_out(instance, repo, {"rev-parse", kept_branch}) == kept_commit);
}

TEST_CASE(
    "a daemon killed between making a worktree and recording it leaves nothing behind once "
    "restarted") {
  Instance instance;
  const fs::path repo = make_repo(instance);
  {
    DaemonProcess daemon(instance);
    REQUIRE(daemon.ready());
    Agent planner(instance, repo, kToolsets);
    const std::string workflow = make_workflow(planner, false, {"a"});
    // One recorded workspace, so the repository is one mission made worktrees in.
    planner.ok("workspace_create", {{"workflow_id", workflow}, {"branch", "feature/recorded"}});
  }
  const std::string recorded = mission_refs(instance, repo);
  {
    std::optional<DaemonProcess> daemon;
    {
      ArmedFaults armed("worktree_made:kill@1");
      daemon.emplace(instance);
    }
    REQUIRE(daemon->ready());
    Agent planner(instance, repo, kToolsets);
    const std::string workflow = make_workflow(planner, false, {"b"});
    planner.send_call("workspace_create", {{"workflow_id", workflow}});
    CHECK(daemon->wait_exit() == 128 + SIGKILL);
  }
  // git holds a worktree and a branch no row names.
  CHECK(git_out(instance, repo, {"branch", "--list", "mission/ws-*"}).size() > 0);
  CHECK(mission_refs(instance, repo) != recorded);

  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  CHECK(eventually([&] { return mission_refs(instance, repo) == recorded; }));
  CHECK(git_out(instance, repo, {"branch", "--list", "mission/ws-*"}).empty());
  // The recorded one is untouched, and clean finds nothing more to do.
  CHECK(git_out(instance, repo, {"branch", "--list", "feature/recorded"}).size() > 0);
  ProcessResult clean = run_mission(instance, {"workspaces", "clean"});
  CHECK(clean.out.find("nothing to clean") != std::string::npos);
}
