// Landing a run's work verified (docs/adr/0041), end to end through the
// real daemon, real git and shell agents: --gate runs on the tree that
// would land (the task's branch merged onto the integration tip) and only
// a pass moves the branch; a merged tree is gated once per run; and a
// merge conflict goes back to the agent as a new attempt on the new tip
// instead of waiting for a person. The agents and gates note what they saw
// in a folder outside their worktrees, so they run with --sandbox off.

#include <catch2/catch.hpp>
#include <set>
#include <sstream>

#include "integration/run_helpers.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// A small build: every NAME called in a *.call file must be defined in
// defs.txt. `sh SCRIPT WHO` appends WHO to NOTES/runs first.
fs::path linker_script(const fs::path& notes) {
  const fs::path script = notes / "link.sh";
  write_file(script,
             "echo \"$1\" >> '" + notes.string() +
                 "/runs'\n"
                 "for f in *.call; do\n"
                 "  [ -f \"$f\" ] || continue\n"
                 "  name=$(cat \"$f\")\n"
                 "  grep -qx \"$name\" defs.txt || { echo \"undefined: $name in $f\"; exit 1; }\n"
                 "done\n");
  return script;
}

std::size_t count_lines(const std::string& text, const std::string& line) {
  std::istringstream in(text);
  std::size_t count = 0;
  for (std::string each; std::getline(in, each);) count += each == line ? 1 : 0;
  return count;
}

}  // namespace

TEST_CASE(
    "two tasks that pass --check alone but break --gate together: the second goes back with the "
    "gate's output and the branch never holds a tree the gate failed") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  write_file(repo / "defs.txt", "old_name\n");
  git(instance, repo, {"add", "defs.txt"});
  git(instance, repo, {"commit", "-q", "-m", "defs"});
  const std::string workflow = make_workflow(planner, {{"rename", {}}, {"caller", {}}});
  const fs::path notes = instance.root.path() / "notes";
  fs::create_directories(notes);
  const fs::path link = linker_script(notes);
  // rename renames the definition and every caller it sees; caller calls
  // the name defs.txt has when it starts.
  const std::string body =
      "case \"$MISSION_TASK_NAME\" in\n"
      "  rename) for f in defs.txt *.call; do if [ -f \"$f\" ]; then sed -i "
      "'s/^old_name$/new_name/' \"$f\"; fi; done;;\n"
      "  caller) if grep -qx new_name defs.txt; then echo new_name > caller.call; "
      "else echo old_name > caller.call; fi;;\n"
      "esac\n";
  ProcessResult result =
      run_long(instance, args({"workflows", "run", workflow, "--parallel", "2", "--check",
                               "sh '" + link.string() + "' check", "--gate",
                               "sh '" + link.string() + "' gate", "--sandbox", "off"},
                              agent(notes, body)));
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  const json run = run_status(instance, workflow);
  INFO(run.dump());
  CHECK(run["status"] == "completed");

  // Whichever landed second failed the gate once, on the merged tree.
  std::vector<std::string> sent_back;
  for (const char* name : {"rename", "caller"}) {
    const json& task = task_of(run, name);
    const json& last = task["attempts"].back();
    CHECK(last["status"] == "merged");
    CHECK(last["gate"]["passed"] == true);
    if (task["attempts"].size() == 1) continue;
    REQUIRE(task["attempts"].size() == 2);
    sent_back.push_back(name);
    const json& failed = task["attempts"][0];
    CHECK(failed["status"] == "failed");
    const std::string reason = failed["reason"];
    CHECK(reason.find("--gate failed") != std::string::npos);
    CHECK(failed["gate"]["passed"] == false);
    CHECK(failed["gate"]["output"].get<std::string>().find("undefined: old_name") !=
          std::string::npos);
    const std::string onto = failed["gate"]["onto"];
    REQUIRE(onto.size() == 40);
    // Its next prompt has the gate's output and what it was merged onto.
    const std::string prompt = read_file(notes / ("prompt-" + std::string(name) + "-2"));
    CHECK(prompt.find("undefined: old_name") != std::string::npos);
    CHECK(prompt.find(onto.substr(0, 12)) != std::string::npos);
    CHECK(prompt.find(run["integrationBranch"].get<std::string>()) != std::string::npos);
  }
  CHECK(sent_back.size() == 1);

  // Every commit the integration branch ever pointed at passes the gate.
  const std::string branch = run["integrationBranch"];
  std::istringstream commits(git_out(instance, repo, {"rev-list", branch}));
  std::size_t checked = 0;
  for (std::string commit; std::getline(commits, commit);) {
    const fs::path tree = instance.root.path() / ("tree-" + commit);
    fs::create_directories(tree);
    ProcessResult verified = run_process(
        {"/bin/sh", "-c",
         "git -C '" + repo.string() + "' archive " + commit + " | tar -x -C '" + tree.string() +
             "' && cd '" + tree.string() + "' && sh '" + link.string() + "' verify"},
        git_env(instance));
    INFO(commit << ": " << verified.out << verified.err);
    CHECK(verified.exit_code == 0);
    ++checked;
  }
  CHECK(checked >= 3);
}

TEST_CASE("a merged tree already gated in a run is not gated again") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"only", {}}});
  const fs::path notes = instance.root.path() / "notes";
  fs::create_directories(notes);
  // Attempts 1 and 2 make the same tree, which fails; attempt 3 fixes it.
  const std::string body =
      "if [ \"$MISSION_TASK_ATTEMPT\" = 3 ]; then echo good > out.txt; else echo bad > out.txt; "
      "fi\n";
  const std::string gate = "echo gate >> '" + notes.string() +
                           "/gate-runs'; grep -qx good out.txt || { echo 'out.txt is bad'; "
                           "exit 1; }";
  ProcessResult result = run_long(
      instance,
      args({"workflows", "run", workflow, "--gate", gate, "--sandbox", "off"}, agent(notes, body)));
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  const json run = run_status(instance, workflow);
  INFO(run.dump());
  const json& attempts = task_of(run, "only")["attempts"];
  REQUIRE(attempts.size() == 3);
  CHECK(attempts[0]["gate"]["tree"] == attempts[1]["gate"]["tree"]);
  CHECK(attempts[1]["status"] == "failed");
  CHECK(attempts[1]["reason"].get<std::string>().find("not run again") != std::string::npos);
  CHECK(attempts[2]["status"] == "merged");
  CHECK(attempts[2]["gate"]["tree"] != attempts[0]["gate"]["tree"]);
  // The second attempt's prompt still has what the gate said.
  CHECK(read_file(notes / "prompt-only-3").find("out.txt is bad") != std::string::npos);
  CHECK(count_lines(read_file(notes / "gate-runs"), "gate") == 2);
}

TEST_CASE(
    "a merge conflict goes back to the agent: a new attempt on the new tip, told the file, the "
    "task that landed it and its patch, resolves it and lands") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"one", {}}, {"two", {}}});
  const fs::path notes = instance.root.path() / "notes";
  fs::create_directories(notes);
  // The first attempts both write shared.txt; a later one writes the file
  // again from both intents: the other task's lines, taken from the patch
  // its prompt carries, then its own.
  const std::string body =
      "if [ \"$MISSION_TASK_ATTEMPT\" = 1 ]; then printf 'line %s\\n' \"$MISSION_TASK_NAME\" > "
      "shared.txt; else grep '^+line ' \"$MISSION_TASK_PROMPT_FILE\" | cut -c2- > shared.txt; "
      "printf 'line %s\\n' \"$MISSION_TASK_NAME\" >> shared.txt; fi\n";
  ProcessResult result =
      run_long(instance, args({"workflows", "run", workflow, "--parallel", "2", "--sandbox", "off"},
                              agent(notes, body)));
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  const json run = run_status(instance, workflow);
  INFO(run.dump());
  CHECK(run["status"] == "completed");
  const bool one_first = task_of(run, "one")["attempts"].size() == 1;
  const std::string second = one_first ? "two" : "one";
  const std::string first = one_first ? "one" : "two";
  const json& attempts = task_of(run, second)["attempts"];
  REQUIRE(attempts.size() == 2);
  CHECK(attempts[0]["status"] == "conflicted");
  CHECK(attempts[0]["reason"].get<std::string>().find("conflicts in shared.txt") !=
        std::string::npos);
  CHECK(attempts[1]["status"] == "merged");
  // The failed attempt's work is kept on the branch its reason names.
  const std::string reason = attempts[0]["reason"];
  const std::size_t named = reason.find("on branch ");
  REQUIRE(named != std::string::npos);
  std::string kept = reason.substr(named + 10);
  kept = kept.substr(0, kept.find_last_of('.'));
  CHECK(git_out(instance, repo, {"show", kept + ":shared.txt"}) == "line " + second + "\n");
  const std::string prompt = read_file(notes / ("prompt-" + second + "-2"));
  CHECK(prompt.find("shared.txt") != std::string::npos);
  CHECK(prompt.find("task '" + first + "'") != std::string::npos);
  CHECK(prompt.find("make " + first) != std::string::npos);
  CHECK(prompt.find(kept) != std::string::npos);
  // And the other side's patch of the file, as the branch holds it.
  CHECK(prompt.find("What task '" + first + "'") != std::string::npos);
  CHECK(prompt.find("```diff\ndiff --git a/shared.txt b/shared.txt") != std::string::npos);
  CHECK(prompt.find("\n+line " + first + "\n") != std::string::npos);
  // Both intents landed, nothing half merged.
  const std::string landed =
      show(instance, repo, run["integrationBranch"].get<std::string>() + ":shared.txt");
  CHECK(landed == "line " + first + "\nline " + second + "\n");
  CHECK(mission_json(instance, {"inbox"})["messages"].empty());
}

TEST_CASE(
    "a run whose merged change is no longer in its branch at the end is not completed, and mission "
    "check fails on it") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"first", {}}, {"second", {"first"}}});
  const std::string base = git_out(instance, repo, {"rev-parse", "main"}).substr(0, 40);
  // second moves the integration branch back to where it began, dropping
  // first's change, and builds on that.
  const std::string body =
      "case \"$MISSION_TASK_NAME\" in\n"
      "  first) echo first > first.txt;;\n"
      "  second) git update-ref \"refs/heads/mission/run/$MISSION_WORKFLOW_ID\" " +
      base + " && git reset -q --hard " + base + " && echo second > second.txt;;\n" + "esac\n";
  const fs::path notes = instance.root.path() / "notes";
  fs::create_directories(notes);
  ProcessResult result = run_long(
      instance, args({"workflows", "run", workflow, "--sandbox", "off"}, agent(notes, body)));
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  const json run = run_status(instance, workflow);
  INFO(run.dump());
  CHECK(run["status"] == "partial");
  const json& first = task_of(run, "first");
  const std::string commit = first["attempts"][0]["mergeCommit"];
  const std::string reason = run["reason"];
  CHECK(reason.find("task 'first'") != std::string::npos);
  CHECK(reason.find(commit.substr(0, 12)) != std::string::npos);
  CHECK(reason.find("not in " + run["integrationBranch"].get<std::string>()) != std::string::npos);
  ProcessResult checked = run_long(instance, {"check", workflow});
  INFO(checked.out << checked.err);
  CHECK(checked.exit_code == 1);
  CHECK((checked.out + checked.err).find("task 'first'") != std::string::npos);
}
