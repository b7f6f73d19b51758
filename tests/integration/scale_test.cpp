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
