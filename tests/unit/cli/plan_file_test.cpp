// A person's plan file (mission workflows create --from): TOML and JSON read
// into the plan workflow.create takes, and every mistake refused with its
// file, line and task, before anything reaches the daemon.

#include "cli/plan_file.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <string>

#include "shared/error_code.hpp"
#include "shared/limits.hpp"

using namespace mission;
using namespace mission::cli;
using nlohmann::json;

namespace {

const char* const kPlanToml = R"(# Health endpoint
summary = "Add a health endpoint"
approach = "schema, then the API, then docs"
max_parallel_tasks = 2

[[tasks]]
name = "db"
description = "Add the status table"
files_likely_affected = ["src/db.cpp"]

[[tasks]]
name = "api"
description = "GET /health reads the table"
depends_on = ["db"]
estimated_complexity = "low"
acceptance_criteria = ["curl /health answers 200"]

[[tasks]]
name = "docs"
description = "Document it"
depends_on = ["api"]
parallel_group = "finish"
)";

// The message of the MissionError `text` makes parse_plan_file throw.
std::string refusal(const std::string& text, const std::string& file = "plan.toml",
                    ErrorCode expected = ErrorCode::invalid_argument) {
  try {
    parse_plan_file(text, file);
  } catch (const MissionError& e) {
    CHECK(e.code() == expected);
    return e.what();
  }
  FAIL("the plan was accepted");
  return "";
}

std::string with_task(const std::string& extra) {
  return std::string("summary = \"s\"\n\n[[tasks]]\nname = \"db\"\ndescription = \"d\"\n") + extra;
}

}  // namespace

TEST_CASE("A TOML plan file becomes the plan workflow.create takes") {
  json out = parse_plan_file(kPlanToml, "plan.toml");
  CHECK(out["maxParallelTasks"] == 2);
  CHECK_FALSE(out.contains("autoCreateWorkspaces"));
  const json& plan = out["plan"];
  CHECK(plan["summary"] == "Add a health endpoint");
  CHECK(plan["approach"] == "schema, then the API, then docs");
  CHECK(plan["risks"] == json::array());
  REQUIRE(plan["tasks"].size() == 3);
  CHECK(plan["tasks"][0] == json{{"name", "db"},
                                 {"description", "Add the status table"},
                                 {"sequence", 0},
                                 {"depends_on", json::array()},
                                 {"files_likely_affected", {"src/db.cpp"}},
                                 {"acceptance_criteria", json::array()}});
  CHECK(plan["tasks"][1]["depends_on"] == json{"db"});
  CHECK(plan["tasks"][1]["estimated_complexity"] == "low");
  CHECK(plan["tasks"][2]["parallel_group"] == "finish");
}

TEST_CASE("A JSON plan file in the shape of workflow_set_plan's plan reads the same") {
  const json file = {{"summary", "Add a health endpoint"},
                     {"approach", "schema, then the API, then docs"},
                     {"max_parallel_tasks", 2},
                     {"tasks",
                      {{{"name", "db"},
                        {"description", "Add the status table"},
                        {"sequence", 0},
                        {"files_likely_affected", {"src/db.cpp"}}},
                       {{"name", "api"},
                        {"description", "GET /health reads the table"},
                        {"depends_on", {"db"}},
                        {"estimated_complexity", "low"},
                        {"acceptance_criteria", {"curl /health answers 200"}}},
                       {{"name", "docs"},
                        {"description", "Document it"},
                        {"depends_on", {"api"}},
                        {"parallel_group", "finish"}}}}};
  CHECK(parse_plan_file(file.dump(2), "plan.json") == parse_plan_file(kPlanToml, "plan.toml"));
  // Read from stdin (no extension), the content says it is JSON.
  CHECK(plan_format("-", "  {\"summary\": 1}") == PlanFormat::json);
  CHECK(plan_format("-", kPlanToml) == PlanFormat::toml);
  CHECK(parse_plan_file(file.dump(), "-")["plan"]["tasks"].size() == 3);
}

TEST_CASE("A depends_on that no task answers is refused with its line and task") {
  std::string text = kPlanToml;
  text.replace(text.find("depends_on = [\"db\"]"), 19, "depends_on = [\"dbb\"]");
  CHECK(refusal(text) == "plan.toml:14: task `api`: depends_on names `dbb`, which no task has");
}

TEST_CASE("A cycle is refused naming the tasks in it") {
  std::string text = kPlanToml;
  text.replace(text.find("files_likely_affected = [\"src/db.cpp\"]"), 38,
               "depends_on = [\"docs\"]");
  CHECK(refusal(text) ==
        "plan.toml:6: tasks depend on each other in a cycle: `db` waits for `docs`, which waits "
        "for `api`, which waits for `db`");
  // Through sequence: b has no depends_on and so waits for sequence 0, a.
  CHECK_THAT(refusal("summary = \"s\"\n[[tasks]]\nname = \"a\"\ndescription = \"d\"\n"
                     "depends_on = [\"b\"]\n[[tasks]]\nname = \"b\"\ndescription = \"d\"\n"
                     "sequence = 1\n"),
             Catch::Contains("cycle: `a` waits for `b`, which waits for `a`"));
}

TEST_CASE("A cycle longer than the names shown says how many tasks it goes through") {
  json tasks = json::array();
  const std::size_t n = kMaxCycleTasksShown + 5;
  for (std::size_t i = 0; i < n; ++i) {
    tasks.push_back({{"name", "t" + std::to_string(i)},
                     {"description", "d"},
                     {"depends_on", {"t" + std::to_string((i + 1) % n)}}});
  }
  const std::string message = refusal(json{{"summary", "s"}, {"tasks", tasks}}.dump(), "p.json");
  CHECK_THAT(message, Catch::Contains("(" + std::to_string(n) + " tasks in all)"));
  CHECK_THAT(message, Catch::StartsWith("p.json: tasks depend on each other in a cycle: `t0`"));
  CHECK_THAT(message, Catch::EndsWith("which waits for `t0` (at /tasks/0)"));
}

TEST_CASE("A task depending on itself, or named twice, is refused with both places") {
  CHECK(refusal(with_task("depends_on = [\"db\"]\n")) ==
        "plan.toml:6: task `db`: it depends on itself");
  CHECK(refusal(with_task("\n[[tasks]]\nname = \"db\"\ndescription = \"again\"\n")) ==
        "plan.toml:8: task `db`: a task named `db` is already at line 3");
  const json twice = {
      {"summary", "s"},
      {"tasks", {{{"name", "a"}, {"description", "d"}}, {{"name", "a"}, {"description", "d"}}}}};
  CHECK(refusal(twice.dump(), "p.json") ==
        "p.json: task `a`: a task named `a` is already task 1 (at /tasks/1/name)");
}

TEST_CASE("Unknown keys are named, with the nearest known one") {
  CHECK(refusal(with_task("depend_on = [\"x\"]\n")) ==
        "plan.toml:6: task `db`: unknown key `depend_on`");
  try {
    parse_plan_file(with_task("depend_on = [\"x\"]\n"), "plan.toml");
    FAIL("accepted");
  } catch (const MissionError& e) {
    CHECK_THAT(e.hint(), Catch::StartsWith("did you mean depends_on?"));
  }
  CHECK(refusal("sumary = \"s\"\n") == "plan.toml:1: unknown key `sumary`");
  CHECK(refusal("summary = \"s\"\n[owner]\nname = \"x\"\n") == "plan.toml:2: unknown key `owner`");
}

TEST_CASE("Values of the wrong type are refused with their line") {
  CHECK(refusal(with_task("depends_on = \"api\"\n")) ==
        "plan.toml:6: task `db`: depends_on must be a list of text, not text");
  CHECK(refusal(with_task("depends_on = [\"a\", 3]\n")) ==
        "plan.toml:6: task `db`: depends_on must be a list of text; entry 2 is an integer");
  CHECK(refusal(with_task("sequence = \"1\"\n")) ==
        "plan.toml:6: task `db`: sequence must be an integer from 0, not text");
  CHECK(refusal(with_task("sequence = -1\n")) ==
        "plan.toml:6: task `db`: sequence must be an integer from 0, not -1");
  CHECK(refusal(with_task("estimated_complexity = \"huge\"\n")) ==
        "plan.toml:6: task `db`: estimated_complexity is `huge`; it is low, medium or high");
  CHECK(refusal("summary = \"s\"\nmax_parallel_tasks = 65\n") ==
        "plan.toml:2: max_parallel_tasks must be an integer from 1 to 64, not 65");
  CHECK(refusal("summary = \"s\"\nauto_create_workspaces = 1979-05-27\n") ==
        "plan.toml:2: a date or time, which a plan has no use for");
  CHECK(refusal("summary = 3\n") == "plan.toml:1: summary must be text, not an integer");
  CHECK(refusal("summary = \"s\"\ntasks = 3\n") ==
        "plan.toml:2: tasks must be a list of tables, not an integer");
  CHECK(refusal("summary = \"s\"\ntasks = [1]\n") ==
        "plan.toml:2: task 1: a task is a table, not an integer");
  CHECK(refusal("summary = \"s\"\n[[tasks]]\ndescription = \"d\"\n") ==
        "plan.toml:2: task 1: `name` is missing");
  CHECK(refusal("summary = \"s\"\n[[tasks]]\nname = \"x\"\n") ==
        "plan.toml:2: task `x`: `description` is missing");
  CHECK(refusal("approach = \"a\"\n") == "plan.toml: `summary` is missing");
  CHECK(refusal("summary = \"s\"\n") == "plan.toml: the plan has no tasks");
  CHECK(refusal("[1, 2]", "p.json") ==
        "p.json: a plan is a table of keys (a JSON object), not a list");
}

TEST_CASE("Syntax errors name the line") {
  CHECK_THAT(refusal("summary = \"s\"\n\n[[tasks]\nname = 1\n"), Catch::StartsWith("plan.toml:3:"));
  CHECK_THAT(refusal("summary = \"s\"\nsummary = \"t\"\n"), Catch::StartsWith("plan.toml:2:"));
  CHECK_THAT(refusal("{\n  \"summary\": \"s\",\n  \"tasks\": [,]\n}", "p.json"),
             Catch::StartsWith("p.json:3: syntax error"));
}

TEST_CASE("Too long texts, too many tasks, and too large or too deep files are refused") {
  CHECK(refusal(with_task("parallel_group = \"" + std::string(201, 'g') + "\"\n")) ==
        "plan.toml:6: task `db`: parallel_group has 201 characters, more than the 200 it may "
        "have");
  // Characters are code points: 200 two-byte characters are within the limit.
  std::string wide;
  for (int i = 0; i < 200; ++i) wide += "\xc3\xa9";
  CHECK(parse_plan_file(with_task("parallel_group = \"" + wide + "\"\n"),
                        "plan.toml")["plan"]["tasks"][0]["parallel_group"] == wide);
  // The task count is checked before the tasks themselves.
  const json tasks(limits::kMaxPlanTasks + 1, json::object());
  const std::string many = json{{"summary", "s"}, {"tasks", tasks}}.dump();
  REQUIRE(many.size() < kMaxPlanFileBytes);
  CHECK_THAT(refusal(many, "p.json"),
             Catch::StartsWith("p.json: the plan has 20001 tasks, more than the 20000"));
  json names = json::array();
  for (std::size_t i = 0; i <= limits::kMaxTaskDependencies; ++i) names.push_back("db");
  CHECK(refusal(with_task("depends_on = " + names.dump() + "\n")) ==
        "plan.toml:6: task `db`: depends_on has 257 entries, more than the 256 it may have");
  const std::string huge = "summary = \"" + std::string(kMaxPlanFileBytes, 'x') + "\"\n";
  CHECK(refusal(huge, "plan.toml", ErrorCode::payload_too_large) ==
        "plan.toml has more than " + std::to_string(kMaxPlanFileBytes) +
            " bytes, the most a plan file may have");
  CHECK_THAT(refusal(std::string(100000, '[') + std::string(100000, ']'), "p.json"),
             Catch::Contains("deeper than"));
  CHECK_THAT(refusal("summary = " + std::string(100000, '[') + std::string(100000, ']') + "\n"),
             Catch::StartsWith("plan.toml:1:"));
}

TEST_CASE("The example plan of the docs reads") {
  std::ifstream file(std::string(MISSION_SOURCE_DIR) + "/docs/plan.example.toml");
  REQUIRE(file);
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const json plan = parse_plan_file(text, "plan.example.toml")["plan"];
  CHECK(plan["tasks"].size() == 3);
  CHECK(plan["tasks"][2]["depends_on"] == json{"db"});
}
