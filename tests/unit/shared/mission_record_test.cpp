#include "shared/mission_record.hpp"

#include <catch2/catch.hpp>

using namespace mission;
using nlohmann::json;

namespace {

json record_with_run(json run) {
  json record = {
      {"format", kMissionRecordFormat},
      {"mission",
       {{"missionId", "wf-1"}, {"name", "w"}, {"kind", "planned"}, {"status", "running"}}},
      {"tasks", json::array()},
      {"openBlockers", json::array()}};
  if (!run.is_null()) record["run"] = std::move(run);
  return record;
}

std::vector<std::string> kinds(const json& list) {
  std::vector<std::string> out;
  for (const auto& item : list) out.push_back(item["kind"]);
  return out;
}

}  // namespace

TEST_CASE("a workflow's completed run passes the check, as does a record without a run") {
  CHECK(check_mission_record(record_with_run(nullptr), {})["ok"] == true);
  const json result =
      check_mission_record(record_with_run({{"runId", "run-1"}, {"status", "completed"}}), {});
  CHECK(result["ok"] == true);
  CHECK(result["problems"].empty());
  CHECK(result["warnings"].empty());
}

TEST_CASE("a run that ended failed, partial or stopped fails the check, relaxed by allow_failed") {
  for (const char* status : {"failed", "partial", "stopped"}) {
    const json record = record_with_run(
        {{"runId", "run-1"}, {"status", status}, {"reason", "1 of 2 tasks merged, 1 failed"}});
    const json result = check_mission_record(record, {});
    INFO(status << ": " << result.dump());
    CHECK(result["ok"] == false);
    REQUIRE(kinds(result["problems"]) == std::vector<std::string>{"run_not_completed"});
    const std::string message = result["problems"][0]["message"];
    CHECK(message.find(std::string("run run-1 ended ") + status) != std::string::npos);
    CHECK(message.find("1 of 2 tasks merged") != std::string::npos);
    CHECK(result["problems"][0]["runId"] == "run-1");
    CheckRules relaxed;
    relaxed.allow_failed = true;
    const json allowed = check_mission_record(record, relaxed);
    CHECK(allowed["ok"] == true);
    CHECK(kinds(allowed["warnings"]) == std::vector<std::string>{"run_not_completed"});
  }
}

TEST_CASE(
    "a run waiting for approval fails the check naming the command, relaxed by allow_blockers, and "
    "one under way fails, relaxed by allow_unfinished") {
  const json waiting =
      record_with_run({{"runId", "run-1"},
                       {"status", "running"},
                       {"awaitingApproval", {{{"taskId", "tk-1"}, {"name", "api"}}}},
                       {"awaitingApprovalCount", 1}});
  const json result = check_mission_record(waiting, {});
  CHECK(result["ok"] == false);
  REQUIRE(kinds(result["problems"]) == std::vector<std::string>{"awaiting_approval"});
  CHECK(result["problems"][0]["message"].get<std::string>().find("mission approve tk-1") !=
        std::string::npos);
  CheckRules relaxed;
  relaxed.allow_blockers = true;
  CHECK(check_mission_record(waiting, relaxed)["ok"] == true);
  // Failed tasks are not a reason to let a waiting approval pass.
  CheckRules failed_only;
  failed_only.allow_failed = true;
  CHECK(check_mission_record(waiting, failed_only)["ok"] == false);

  const json under_way = record_with_run({{"runId", "run-1"}, {"status", "running"}});
  const json running = check_mission_record(under_way, {});
  CHECK(running["ok"] == false);
  CHECK(kinds(running["problems"]) == std::vector<std::string>{"run_under_way"});
  CheckRules unfinished;
  unfinished.allow_unfinished = true;
  const json allowed = check_mission_record(under_way, unfinished);
  CHECK(allowed["ok"] == true);
  CHECK(kinds(allowed["warnings"]) == std::vector<std::string>{"run_under_way"});
}

TEST_CASE(
    "a status the check does not know fails it whatever is relaxed, and an unfinished task fails "
    "unless allowed") {
  CheckRules everything;
  everything.allow_failed = true;
  everything.allow_blockers = true;
  everything.allow_scope = true;
  everything.allow_unfinished = true;
  for (const json& status :
       {json("FAILED"), json(5), json(nullptr), json("done"), json::object()}) {
    json record = record_with_run(nullptr);
    record["tasks"] = json::array({{{"taskId", "tk-1"}, {"name", "api"}, {"status", status}}});
    const json result = check_mission_record(record, everything);
    INFO(status.dump() << ": " << result.dump());
    CHECK(result["ok"] == false);
    CHECK(kinds(result["problems"]) == std::vector<std::string>{"unknown_value"});
  }
  json no_status = record_with_run(nullptr);
  no_status["tasks"] = json::array({{{"taskId", "tk-1"}, {"name", "api"}}});
  CHECK(check_mission_record(no_status, everything)["ok"] == false);
  json not_a_task = record_with_run(nullptr);
  not_a_task["tasks"] = json::array({"tk-1"});
  CHECK(check_mission_record(not_a_task, everything)["ok"] == false);
  CHECK(check_mission_record(record_with_run({{"runId", "run-1"}, {"status", "Completed"}}),
                             everything)["ok"] == false);

  for (const char* status : {"in_progress", "pending"}) {
    json record = record_with_run(nullptr);
    record["tasks"] = json::array({{{"taskId", "tk-1"}, {"name", "api"}, {"status", status}}});
    const json result = check_mission_record(record, {});
    INFO(status);
    CHECK(result["ok"] == false);
    CHECK(kinds(result["problems"]) == std::vector<std::string>{"unfinished_task"});
    CheckRules unfinished;
    unfinished.allow_unfinished = true;
    CHECK(check_mission_record(record, unfinished)["ok"] == true);
  }
  for (const char* status : {"success", "partial_success", "skipped"}) {
    json record = record_with_run(nullptr);
    record["tasks"] = json::array({{{"taskId", "tk-1"}, {"name", "api"}, {"status", status}}});
    CHECK(check_mission_record(record, {})["ok"] == true);
  }
}

TEST_CASE("a check with no record to judge fails") {
  const json result = check_mission_records({}, {});
  CHECK(result["ok"] == false);
  CHECK(kinds(result["problems"]) == std::vector<std::string>{"nothing_to_judge"});
}
