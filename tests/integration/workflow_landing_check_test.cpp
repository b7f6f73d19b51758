// mission check proves a workflow's landing again (docs/adr/0041, "Proof
// of landing"), against its integration branch as it is now, through the
// real daemon, real git and shell agents: a run lands two tasks and the
// check passes; one task's change taken back by a commit on the branch
// fails it naming that task only; the branch reset to before the run fails
// it naming both.

#include <catch2/catch.hpp>
#include <set>

#include "integration/run_helpers.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

bool mentions(const ProcessResult& result, const std::string& text) {
  return (result.out + result.err).find(text) != std::string::npos;
}

}  // namespace

TEST_CASE(
    "mission check re-proves a run's landing: it passes while the tasks' changes are in the "
    "branch and fails naming each task reverted or reset away") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"first", {}}, {"second", {"first"}}});
  const std::string base = git_out(instance, repo, {"rev-parse", "main"}).substr(0, 40);
  const fs::path notes = instance.root.path() / "notes";
  fs::create_directories(notes);
  ProcessResult result = run_long(
      instance, args({"workflows", "run", workflow, "--sandbox", "off"},
                     agent(notes, "echo \"$MISSION_TASK_NAME\" > \"$MISSION_TASK_NAME.txt\"\n")));
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  const json run = run_status(instance, workflow);
  INFO(run.dump());
  REQUIRE(run["status"] == "completed");
  const std::string branch = run["integrationBranch"];
  const std::string first_id = task_of(run, "first")["id"];
  const std::string second_id = task_of(run, "second")["id"];

  // Untouched: both proved.
  ProcessResult untouched = run_long(instance, {"check", workflow, "--json"});
  INFO(untouched.out << untouched.err);
  CHECK(untouched.exit_code == 0);
  const json passed = json::parse(untouched.out);
  REQUIRE(passed["missions"].size() == 1);
  CHECK(passed["missions"][0]["landing"]["proved"] == 2);
  CHECK(passed["missions"][0]["landing"]["missing"] == 0);

  // first's change taken back by a later commit: first fails, second not.
  git(instance, repo, {"checkout", "-q", branch});
  git(instance, repo, {"rm", "-q", "first.txt"});
  git(instance, repo, {"commit", "-q", "-m", "take first back"});
  git(instance, repo, {"checkout", "-q", "main"});
  ProcessResult reverted = run_long(instance, {"check", workflow});
  INFO(reverted.out << reverted.err);
  CHECK(reverted.exit_code == 1);
  CHECK(mentions(reverted, "task " + first_id + " 'first'"));
  CHECK(mentions(reverted, "first.txt was undone"));
  CHECK_FALSE(mentions(reverted, "'second'"));

  // The branch reset to before the run: both merge commits are gone.
  git(instance, repo, {"update-ref", "refs/heads/" + branch, base});
  ProcessResult reset = run_long(instance, {"check", workflow, "--json"});
  INFO(reset.out << reset.err);
  CHECK(reset.exit_code == 1);
  const json failed = json::parse(reset.out);
  CHECK(failed["ok"] == false);
  std::set<std::string> missing;
  for (const json& problem : failed["missions"][0]["problems"]) {
    if (problem["kind"] == "change_not_landed") {
      missing.insert(problem["taskId"].get<std::string>());
      CHECK(problem["message"].get<std::string>().find("no longer in " + branch) !=
            std::string::npos);
    }
  }
  CHECK(missing == std::set<std::string>{first_id, second_id});
}
