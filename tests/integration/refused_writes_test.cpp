// Refused writes as facts (docs/adr/0036): a confined task agent's write
// outside its worktree, refused by the real kernel, is read from the
// agent's own output and recorded on its execution and its attempt, shown
// by `exec show`, `workflows status` and the report, and named in the
// next attempt's prompt.

#include <catch2/catch.hpp>

#include "integration/run_helpers.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// An agent whose first attempt writes the main checkout and makes a
// folder in HOME, both refused, and fails; whose second commits the
// prompt it was given, for the test to read.
std::vector<std::string> straying_agent(const fs::path& repo) {
  const std::string script =
      "if [ \"$MISSION_TASK_ATTEMPT\" = 1 ]; then\n"
      "  echo x > '" +
      (repo / "strayed.txt").string() +
      "'\n"
      "  mkdir \"$HOME/strayed\"\n"
      "  exit 3\n"
      "fi\n"
      "cp \"$MISSION_TASK_PROMPT_FILE\" prompt.md\n"
      "git add prompt.md && git commit -q -m 'the prompt it was given' || exit 9\n";
  return {"--", "/bin/sh", "-c", script};
}

const json& attempt_of(const json& task, int number) {
  for (const auto& attempt : task.at("attempts")) {
    if (attempt.value("attempt", 0) == number) return attempt;
  }
  FAIL("no attempt " << number << " in " << task.dump());
  static json none;
  return none;
}

bool names(const json& refused, const std::string& operation, const fs::path& path) {
  for (const auto& write : refused) {
    if (write.value("operation", "") == operation && write.value("path", "") == path.string() &&
        write.value("from", "") == "the agent's output")
      return true;
  }
  return false;
}

}  // namespace

TEST_CASE("a write the sandbox refused is recorded, shown, and named in the next prompt") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"stray", {}}});
  std::vector<std::string> args{"workflows", "run", workflow, "--max-attempts", "2"};
  for (const std::string& word : straying_agent(repo)) args.push_back(word);
  ProcessResult result = run_long(instance, args);
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_FALSE(fs::exists(repo / "strayed.txt"));
  const fs::path home = instance.root.path();
  CHECK_FALSE(fs::exists(home / "strayed"));

  // On the first attempt, with its execution.
  const json run = run_status(instance, workflow);
  REQUIRE(run["status"] == "completed");
  const json& first = attempt_of(task_of(run, "stray"), 1);
  INFO(first.dump());
  REQUIRE(first.contains("refusedWrites"));
  CHECK(names(first["refusedWrites"], "create", repo / "strayed.txt"));
  CHECK(names(first["refusedWrites"], "mkdir", home / "strayed"));
  CHECK(first["refusedWrites"].size() == 2);
  CHECK_FALSE(attempt_of(task_of(run, "stray"), 2).contains("refusedWrites"));

  const std::string execution = first.at("agentExecutionId");
  const json shown = mission_json(instance, {"exec", "show", execution});
  CHECK(shown.value("refusedWrites", json::array()) == first["refusedWrites"]);
  std::map<std::string, std::string> wide = instance.env();
  wide["COLUMNS"] = "200";
  const std::string page = run_process({MISSION_PATH, "exec", "show", execution}, wide).out;
  CHECK(page.find("create " + (repo / "strayed.txt").string() + " (from the agent's output)") !=
        std::string::npos);

  // The report lists it under its attempt.
  const std::string report = run_mission(instance, {"report", workflow}).out;
  INFO(report);
  CHECK(report.find("Refused: mkdir " + (home / "strayed").string()) != std::string::npos);

  // The second attempt was told, and where to work instead.
  const std::string prompt =
      show(instance, repo, run["integrationBranch"].get<std::string>() + ":prompt.md");
  INFO(prompt);
  CHECK(prompt.find("Your create of " + (repo / "strayed.txt").string() +
                    " was refused: work in ") != std::string::npos);
  CHECK(prompt.find("Your mkdir of " + (home / "strayed").string() + " was refused") !=
        std::string::npos);
}
