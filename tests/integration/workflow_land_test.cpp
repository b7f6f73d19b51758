// After a run, from the shell: what people read of it and how they land
// it, through the real daemon, real agents (shell commands under the
// generic adapter) and a real repository. mission report's Tasks section
// tells what the run's attempts did; mission workflows diff shows the run's
// and a task's patch; mission workflows land fast-forwards or merges the
// base branch, refusing while work is missing, when a checkout holds
// changes or when the merge conflicts; mission export notes the record on
// the run's commits; and the run commits as the repository's identity.

#include <catch2/catch.hpp>
#include <regex>

#include "integration/run_helpers.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// A fake agent: writes NAME.txt in its worktree; `before` runs first.
std::vector<std::string> agent(const std::string& before = "") {
  return {"--", "/bin/sh", "-c",
          before + "\nprintf '%s\\n' \"$MISSION_TASK_NAME\" > \"$MISSION_TASK_NAME.txt\""};
}

// A workflow of independent tasks, each expected to touch `areas`.
std::string scoped_workflow(Agent& planner, const std::vector<std::string>& names,
                            const json& areas) {
  json workflow = planner.ok(
      "workflow_create", {{"name", "land"}, {"source_type", "prompt"}, {"source_content", "x"}});
  json tasks = json::array();
  for (const auto& name : names) {
    tasks.push_back({{"name", name},
                     {"description", "make " + name},
                     {"sequence", 1},
                     {"files_likely_affected", areas}});
  }
  planner.ok(
      "workflow_set_plan",
      {{"id", workflow["id"]}, {"plan", {{"summary", "s"}, {"approach", "a"}, {"tasks", tasks}}}});
  return workflow["id"];
}

// What git prints, without its trailing newlines.
std::string git_trimmed(const Instance& instance, const fs::path& repo,
                        std::vector<std::string> words) {
  std::string out = git_out(instance, repo, std::move(words));
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

std::string tip(const Instance& instance, const fs::path& repo, const std::string& ref) {
  return git_trimmed(instance, repo, {"rev-parse", ref});
}

// Runs the workflow to its end with `agent_args`; its exit status.
int run_to_end(const Instance& instance, const std::string& workflow,
               const std::vector<std::string>& agent_args) {
  ProcessResult result = run_long(instance, args({"workflows", "run", workflow, "--parallel", "2",
                                                  "--max-attempts", "1", "--sandbox", "off"},
                                                 agent_args));
  INFO(result.out << result.err);
  return result.exit_code;
}

}  // namespace

TEST_CASE(
    "mission report's task section shows the time, files and scope warning of the run's "
    "attempts") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = scoped_workflow(planner, {"wander"}, json::array({"docs/"}));
  // The agent's work takes a second, so its time cannot read "<1s".
  REQUIRE(run_to_end(instance, workflow, agent("sleep 1")) == 0);
  ProcessResult report = run_long(instance, {"report", workflow});
  INFO(report.out << report.err);
  REQUIRE(report.exit_code == 0);
  const std::string id = task_of(run_status(instance, workflow), "wander")["id"];
  // The Tasks section and the Run section tell the same time.
  std::smatch tasks_time;
  REQUIRE(std::regex_search(
      report.out, tasks_time,
      std::regex("\\*\\*wander\\*\\* \\(`" + id + "`\\): success, ([^\\n]+)\\n")));
  std::smatch run_time;
  REQUIRE(std::regex_search(
      report.out, run_time,
      std::regex("\\*\\*wander\\*\\* \\(`" + id + "`\\): merged, 1 attempt, ([^\\n,]+)\\n")));
  CHECK(tasks_time[1] == run_time[1]);
  CHECK(tasks_time[1] != "<1s");
  CHECK(report.out.find("  - Files: `+wander.txt`\n") != std::string::npos);
  CHECK(report.out.find(
            "  - Scope: 1 file changed outside files\\_likely\\_affected: wander.txt\n") !=
        std::string::npos);
  CHECK(report.out.find("### Scope warnings\n\n- wander: 1 file changed outside "
                        "files\\_likely\\_affected: wander.txt\n") != std::string::npos);
  CHECK(report.out.find("Files: none") == std::string::npos);
}

TEST_CASE("workflows diff shows a run's patch, one task's, and their --stat") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = scoped_workflow(planner, {"left", "right"}, json::array());
  REQUIRE(run_to_end(instance, workflow, agent()) == 0);
  ProcessResult whole = run_long(instance, {"workflows", "diff", workflow});
  INFO(whole.out << whole.err);
  CHECK(whole.exit_code == 0);
  CHECK(whole.out.find("+++ b/left.txt") != std::string::npos);
  CHECK(whole.out.find("+++ b/right.txt") != std::string::npos);
  CHECK(whole.out.find("\x1b[") == std::string::npos);  // no colour off a terminal
  ProcessResult left = run_long(instance, {"workflows", "diff", workflow, "left"});
  INFO(left.out << left.err);
  CHECK(left.exit_code == 0);
  CHECK(left.out.find("+++ b/left.txt") != std::string::npos);
  CHECK(left.out.find("right.txt") == std::string::npos);
  const std::string right_id = task_of(run_status(instance, workflow), "right")["id"];
  ProcessResult stat = run_long(instance, {"workflows", "diff", workflow, right_id, "--stat"});
  INFO(stat.out << stat.err);
  CHECK(std::regex_search(stat.out, std::regex("right\\.txt \\| 1 \\+")));
  CHECK(stat.out.find("left.txt") == std::string::npos);
  ProcessResult unknown = run_long(instance, {"workflows", "diff", workflow, "nosuch"});
  CHECK(unknown.exit_code == 1);
  CHECK(unknown.err.find("has no task 'nosuch'") != std::string::npos);
}

TEST_CASE(
    "workflows land refuses a run with unmerged tasks unless --partial, and fast-forwards the "
    "checked-out base") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = scoped_workflow(planner, {"good", "bad"}, json::array());
  REQUIRE(run_to_end(instance, workflow, agent("[ \"$MISSION_TASK_NAME\" = bad ] && exit 3")) == 1);
  const std::string before = tip(instance, repo, "main");
  ProcessResult refused = run_long(instance, {"workflows", "land", workflow});
  INFO(refused.out << refused.err);
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("1 of 2 tasks of workflow " + workflow + " did not merge: bad (failed)") !=
        std::string::npos);
  CHECK(refused.err.find("--partial") != std::string::npos);
  CHECK(tip(instance, repo, "main") == before);

  ProcessResult landed = run_long(instance, {"workflows", "land", workflow, "--partial"});
  INFO(landed.out << landed.err);
  CHECK(landed.exit_code == 0);
  const std::string branch = "mission/run/" + workflow;
  CHECK(tip(instance, repo, "main") == tip(instance, repo, branch));
  CHECK(landed.out.find("Landed " + branch + " on main at " +
                        tip(instance, repo, "main").substr(0, 12) + " (fast-forward).") !=
        std::string::npos);
  // main is checked out: its work tree and index moved with it.
  CHECK(read_file(repo / "good.txt") == "good\n");
  CHECK(git_trimmed(instance, repo, {"status", "--porcelain"}).empty());
  const json run = run_status(instance, workflow);
  CHECK(run["landed"]["into"] == "main");
  CHECK(run["landed"]["commit"] == tip(instance, repo, "main"));
  CHECK(run["landed"]["how"] == "fast-forward");
  ProcessResult status = run_long(instance, {"workflows", "status", workflow});
  CHECK(status.out.find("Landed on main at " + tip(instance, repo, "main").substr(0, 12) +
                        " (fast-forward)") != std::string::npos);
}

TEST_CASE(
    "workflows land keeps a checkout's changes, merges a moved base with --merge, and refuses a "
    "conflict") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = scoped_workflow(planner, {"alpha"}, json::array());
  REQUIRE(run_to_end(instance, workflow, agent()) == 0);
  const std::string branch = "mission/run/" + workflow;

  // Changes not committed on the checked-out base: refused, kept.
  write_file(repo / "README.md", "# mine, not committed\n");
  const std::string before = tip(instance, repo, "main");
  ProcessResult dirty = run_long(instance, {"workflows", "land", workflow});
  INFO(dirty.out << dirty.err);
  CHECK(dirty.exit_code == 1);
  CHECK(dirty.err.find("main is checked out in " + repo.string() +
                       " with changes not committed; nothing was changed") != std::string::npos);
  CHECK(read_file(repo / "README.md") == "# mine, not committed\n");
  CHECK(tip(instance, repo, "main") == before);
  git(instance, repo, {"checkout", "-q", "--", "README.md"});

  // The base moved in a way that conflicts: refused, nothing changed.
  write_file(repo / "alpha.txt", "not what the agent wrote\n");
  git(instance, repo, {"add", "alpha.txt"});
  git(instance, repo, {"commit", "-q", "-m", "alpha by hand"});
  const std::string moved = tip(instance, repo, "main");
  ProcessResult no_merge = run_long(instance, {"workflows", "land", workflow});
  CHECK(no_merge.exit_code == 1);
  CHECK(no_merge.err.find("main moved since the run started") != std::string::npos);
  CHECK(no_merge.err.find("--merge") != std::string::npos);
  ProcessResult conflict = run_long(instance, {"workflows", "land", workflow, "--merge"});
  INFO(conflict.out << conflict.err);
  CHECK(conflict.exit_code == 1);
  CHECK(conflict.err.find("merging " + branch +
                          " into main conflicts in alpha.txt; nothing was "
                          "changed") != std::string::npos);
  CHECK(tip(instance, repo, "main") == moved);
  CHECK(read_file(repo / "alpha.txt") == "not what the agent wrote\n");
  CHECK(git_trimmed(instance, repo, {"status", "--porcelain"}).empty());

  // The base moved without conflict: --merge makes a merge commit.
  git(instance, repo, {"reset", "-q", "--hard", before});
  write_file(repo / "other.txt", "by hand\n");
  git(instance, repo, {"add", "other.txt"});
  git(instance, repo, {"commit", "-q", "-m", "other by hand"});
  const std::string other = tip(instance, repo, "main");
  ProcessResult merged = run_long(instance, {"workflows", "land", workflow, "--merge"});
  INFO(merged.out << merged.err);
  CHECK(merged.exit_code == 0);
  CHECK(tip(instance, repo, "main^1") == other);
  CHECK(tip(instance, repo, "main^2") == tip(instance, repo, branch));
  CHECK(read_file(repo / "alpha.txt") == "alpha\n");
  CHECK(read_file(repo / "other.txt") == "by hand\n");
  CHECK(run_status(instance, workflow)["landed"]["how"] == "merge");
}

TEST_CASE("workflows land on a branch not checked out moves only its ref, and --into names it") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  git(instance, repo, {"branch", "release"});
  const std::string workflow = scoped_workflow(planner, {"beta"}, json::array());
  REQUIRE(run_to_end(instance, workflow, agent()) == 0);
  const std::string main_before = tip(instance, repo, "main");
  ProcessResult landed = run_long(instance, {"workflows", "land", workflow, "--into", "release"});
  INFO(landed.out << landed.err);
  CHECK(landed.exit_code == 0);
  CHECK(tip(instance, repo, "release") == tip(instance, repo, "mission/run/" + workflow));
  CHECK(tip(instance, repo, "main") == main_before);
  CHECK_FALSE(fs::exists(repo / "beta.txt"));
  // Landing again changes nothing and says so.
  ProcessResult again = run_long(instance, {"workflows", "land", workflow, "--into", "release"});
  CHECK(again.exit_code == 0);
  CHECK(again.out.find("release already holds") != std::string::npos);
}

TEST_CASE(
    "mission export notes a workflow's record on its run's commits, where check --from-notes "
    "finds it before and after landing") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = scoped_workflow(planner, {"gamma"}, json::array());
  REQUIRE(run_to_end(instance, workflow, agent()) == 0);
  const std::string branch = "mission/run/" + workflow;
  ProcessResult exported = run_long(instance, {"export", workflow, "--cwd", repo.string()});
  INFO(exported.out << exported.err);
  REQUIRE(exported.exit_code == 0);
  CHECK(exported.out.find(tip(instance, repo, branch)) != std::string::npos);
  ProcessResult checked =
      run_long(instance, {"check", "--from-notes", "main.." + branch, "--cwd", repo.string()});
  INFO(checked.out << checked.err);
  CHECK(checked.exit_code == 0);
  CHECK(checked.out.find(workflow) != std::string::npos);
  REQUIRE(run_long(instance, {"workflows", "land", workflow}).exit_code == 0);
  ProcessResult landed =
      run_long(instance, {"check", "--from-notes", "main~1..main", "--cwd", repo.string()});
  INFO(landed.out << landed.err);
  CHECK(landed.exit_code == 0);
  CHECK(landed.out.find(workflow) != std::string::npos);
}

TEST_CASE("a run's commits carry the repository's git identity") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  git(instance, repo, {"config", "user.name", "Repo Person"});
  git(instance, repo, {"config", "user.email", "repo.person@example.org"});
  const std::string workflow = scoped_workflow(planner, {"one", "two"}, json::array());
  REQUIRE(run_to_end(instance, workflow, agent()) == 0);
  const std::string branch = "mission/run/" + workflow;
  // Every commit the run made: the agents' work and the merges.
  const std::string authors =
      git_trimmed(instance, repo, {"log", "--format=%an <%ae> %cn <%ce>", "main.." + branch});
  INFO(authors);
  REQUIRE_FALSE(authors.empty());
  std::size_t lines = 0;
  for (std::size_t at = 0; at <= authors.size(); ++lines) {
    std::size_t end = authors.find('\n', at);
    if (end == std::string::npos) end = authors.size();
    CHECK(authors.substr(at, end - at) ==
          "Repo Person <repo.person@example.org> Repo Person <repo.person@example.org>");
    at = end + 1;
  }
  CHECK(lines >= 2);
}
