// A workflow's plan written as a TOML plan file (mission workflows edit):
// read back by the plan file's reader, it gives the same plan, whatever
// the agent's text holds.

#include "cli/plan_file_writer.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "cli/plan_file.hpp"

using namespace mission::cli;
using nlohmann::json;

namespace {

// workflow.get_plan's answer for a plan whose texts hold what TOML escapes.
json document_with(const std::string& text) {
  return {{"id", "wf-abc"},
          {"name", "a name\nwith a newline"},
          {"maxParallelTasks", 3},
          {"autoCreateWorkspaces", true},
          {"plan",
           {{"summary", text},
            {"approach", "line one\nline two\n"},
            {"risks", {text, "plain"}},
            {"assumptions", json::array()},
            {"tasks",
             {{{"name", "db"},
               {"description", text},
               {"sequence", 0},
               {"depends_on", json::array()},
               {"files_likely_affected", {"src/db.cpp"}},
               {"acceptance_criteria", json::array()}},
              {{"name", "api \"v2\""},
               {"description", "multi\nline ''' with quotes\n"},
               {"sequence", 2},
               {"depends_on", {"db"}},
               {"files_likely_affected", json::array()},
               {"acceptance_criteria", {"answers 200"}},
               {"parallel_group", "web"},
               {"estimated_complexity", "high"}}}}}}};
}

}  // namespace

TEST_CASE("a plan written as TOML reads back as the same plan") {
  for (const std::string& text :
       {std::string("plain"), std::string("quotes \" and \\ backslashes"),
        std::string("two\nlines"), std::string("ends in a quote'\n"), std::string("tab\there"),
        std::string("bell \x07 and escape \x1b[31m"), std::string("naïve ünïcode ✓"),
        std::string("'''\nthree quotes\n'''")}) {
    INFO(text);
    const json document = document_with(text);
    const std::string toml = plan_file_toml(document);
    INFO(toml);
    const json read = parse_plan_file(toml, "edited.toml");
    const json& plan = read.at("plan");
    CHECK(plan.at("summary") == text);
    CHECK(plan.at("approach") == "line one\nline two\n");
    CHECK(plan.at("risks") == json({text, "plain"}));
    CHECK(read.at("maxParallelTasks") == 3);
    CHECK(read.at("autoCreateWorkspaces") == true);
    REQUIRE(plan.at("tasks").size() == 2);
    const json& db = plan.at("tasks")[0];
    CHECK(db.at("name") == "db");
    CHECK(db.at("description") == text);
    CHECK(db.at("files_likely_affected") == json({"src/db.cpp"}));
    const json& api = plan.at("tasks")[1];
    CHECK(api.at("name") == "api \"v2\"");
    CHECK(api.at("description") == "multi\nline ''' with quotes\n");
    CHECK(api.at("depends_on") == json({"db"}));
    CHECK(api.at("sequence") == 2);
    CHECK(api.at("parallel_group") == "web");
    CHECK(api.at("estimated_complexity") == "high");
    CHECK(api.at("acceptance_criteria") == json({"answers 200"}));
  }
}

TEST_CASE("a text that spans lines is written as a block a person can edit") {
  CHECK(toml_string("one\ntwo") == "'''\none\ntwo'''");
  CHECK(toml_string("one line") == "\"one line\"");
  CHECK(toml_string("a ''' inside\n") == "\"a ''' inside\\n\"");
  CHECK(toml_string("\x01") == "\"\\u0001\"");
}
