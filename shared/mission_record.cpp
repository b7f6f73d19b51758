#include "shared/mission_record.hpp"

#include <cstdint>
#include <set>
#include <string>

#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/vocabulary.hpp"

namespace mission {
namespace {

nlohmann::json problem(const char* kind, nlohmann::json fields, std::string message, bool relaxed) {
  fields["kind"] = kind;
  fields["message"] = std::move(message);
  fields["relaxed"] = relaxed;
  return fields;
}

std::string text_of(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const nlohmann::json& array_of(const nlohmann::json& object, const char* key) {
  static const nlohmann::json empty = nlohmann::json::array();
  auto it = object.find(key);
  return it != object.end() && it->is_array() ? *it : empty;
}

// Problems and warnings of one mission, each list bounded; what does not
// fit is counted.
class Findings {
 public:
  void add(bool relaxed, nlohmann::json item) {
    if (!relaxed) ok_ = false;
    push(relaxed ? warnings_ : problems_, relaxed ? omitted_warnings_ : omitted_problems_,
         std::move(item));
  }
  void warn(nlohmann::json item) { push(warnings_, omitted_warnings_, std::move(item)); }

  void write_to(nlohmann::json& out) const {
    out["ok"] = ok_;
    out["problems"] = problems_;
    out["warnings"] = warnings_;
    if (omitted_problems_ > 0) out["problemsOmitted"] = omitted_problems_;
    if (omitted_warnings_ > 0) out["warningsOmitted"] = omitted_warnings_;
  }

 private:
  static void push(nlohmann::json& list, std::int64_t& omitted, nlohmann::json item) {
    if (list.size() < limits::kMaxChangedPathsShown) {
      list.push_back(std::move(item));
    } else {
      ++omitted;
    }
  }

  bool ok_ = true;
  nlohmann::json problems_ = nlohmann::json::array();
  nlohmann::json warnings_ = nlohmann::json::array();
  std::int64_t omitted_problems_ = 0;
  std::int64_t omitted_warnings_ = 0;
};

void check_scope(const nlohmann::json& task, const nlohmann::json& fields, const std::string& label,
                 const CheckRules& rules, Findings& findings) {
  auto found = task.find("verification");
  if (found == task.end() || !found->is_object()) return;
  const nlohmann::json& verification = *found;
  if (verification.value("scopeMatch", true)) return;
  const nlohmann::json& files = array_of(verification, "unexpectedFiles");
  const auto shown = static_cast<std::int64_t>(files.size());
  const std::int64_t count = verification.value("unexpectedCount", shown);
  std::string listed;  // for people; the details keep the list
  for (const auto& file : files) {
    listed +=
        (listed.empty() ? "" : ", ") + (file.is_string() ? file.get<std::string>() : file.dump());
  }
  if (count > shown) listed += " and " + std::to_string(count - shown) + " more";
  nlohmann::json details = fields;
  details["unexpectedFiles"] = files;
  details["unexpectedCount"] = count;
  findings.add(rules.allow_scope, problem("scope_mismatch", std::move(details),
                                          label + " changed " + std::to_string(count) +
                                              " file(s) outside its areas: " + listed,
                                          rules.allow_scope));
}

// A value the gate does not know fails it: a record from another version,
// or one edited by hand, is never read as "nothing wrong".
void unknown_value(const nlohmann::json& fields, const std::string& what,
                   const nlohmann::json& value, Findings& findings) {
  findings.add(
      false,
      problem("unknown_value", fields,
              what + " is " + (value.is_null() ? std::string("missing") : value.dump()) +
                  ", which this mission cannot judge (check it with the mission that exported it)",
              false));
}

// `run_ended_short`: the workflow's run ended failed, partial or stopped,
// which is why its unfinished tasks never ran: allowing that failure
// allows them.
// `awaiting`: the tasks the run says wait for approval, whose own
// problem (awaiting_approval) says why they are unfinished.
void check_task(const nlohmann::json& task, const CheckRules& rules, bool run_ended_short,
                const std::set<std::string>& awaiting, Findings& findings) {
  const std::string id = text_of(task, "taskId");
  const std::string name = text_of(task, "name");
  const std::string label = "task " + id + " '" + name + "'";
  const nlohmann::json fields = {{"taskId", id}, {"name", name}};
  auto found = task.find("status");
  const nlohmann::json status_value = found == task.end() ? nlohmann::json() : *found;
  const auto status = status_value.is_string()
                          ? parse_name<TaskStatus>(status_value.get<std::string>())
                          : std::nullopt;
  if (!status) {
    unknown_value(fields, "the status of " + label, status_value, findings);
  } else if (*status == TaskStatus::failed) {
    findings.add(rules.allow_failed,
                 problem("failed_task", fields, label + " failed", rules.allow_failed));
  } else if (!is_final(*status) && !awaiting.contains(id)) {
    const bool allowed = rules.allow_unfinished || (run_ended_short && rules.allow_failed);
    findings.add(allowed, problem("unfinished_task", fields,
                                  label + (*status == TaskStatus::pending ? " was never started"
                                                                          : " was never completed"),
                                  allowed));
  }
  check_scope(task, fields, label, rules, findings);
}

// A workflow's run: completed passes; ended otherwise fails (relaxed by
// allow_failed: its failed tasks are the reason); waiting for approval
// fails (relaxed by allow_blockers: a person must act); under way warns.
void check_run(const nlohmann::json& run, const std::string& workflow_id, const CheckRules& rules,
               Findings& findings) {
  const std::string id = text_of(run, "runId");
  const std::string status = text_of(run, "status");
  const std::string reason = text_of(run, "reason");
  const nlohmann::json fields = {{"runId", id}, {"runStatus", status}};
  if (!parse_name<RunStatus>(status)) {
    unknown_value(fields, "the status of run " + id,
                  run.contains("status") ? run.at("status") : nlohmann::json(), findings);
    return;
  }
  if (status == "completed") return;
  if (status == "failed" || status == "partial" || status == "stopped") {
    findings.add(rules.allow_failed,
                 problem("run_not_completed", fields,
                         "run " + id + " ended " + status + (reason.empty() ? "" : ": " + reason) +
                             (status == "stopped" ? " (run it again with: mission workflows run " +
                                                        workflow_id + ")"
                                                  : ""),
                         rules.allow_failed));
    return;
  }
  const nlohmann::json& waiting = array_of(run, "awaitingApproval");
  for (const auto& task : waiting) {
    if (!task.is_object()) continue;
    const std::string task_id = text_of(task, "taskId");
    nlohmann::json details = fields;
    details["taskId"] = task_id;
    details["name"] = text_of(task, "name");
    findings.add(rules.allow_blockers,
                 problem("awaiting_approval", std::move(details),
                         "task " + task_id + " '" + text_of(task, "name") + "' of run " + id +
                             " waits for a person's approval (mission approve " + task_id +
                             ", or mission reject " + task_id + " REASON)",
                         rules.allow_blockers));
  }
  if (waiting.empty()) {
    findings.add(rules.allow_unfinished,
                 problem("run_under_way", fields, "run " + id + " is still " + status,
                         rules.allow_unfinished));
  }
}

}  // namespace

void require_mission_record(const nlohmann::json& record) {
  const std::string hint = "give a file or note written by 'mission export'";
  if (!record.is_object()) {
    throw MissionError(ErrorCode::invalid_argument, "a mission record is a JSON object", hint);
  }
  const std::string format = text_of(record, "format");
  if (format != kMissionRecordFormat) {
    throw MissionError(
        ErrorCode::invalid_argument,
        format.empty() ? std::string("not a mission record: it has no \"format\"")
                       : "unknown mission record format '" + format + "' (this mission reads '" +
                             std::string(kMissionRecordFormat) + "')",
        format.empty() ? hint : "check it with a mission as recent as the one that exported it");
  }
  auto mission = record.find("mission");
  if (mission == record.end() || !mission->is_object() || text_of(*mission, "missionId").empty()) {
    throw MissionError(ErrorCode::invalid_argument,
                       "the mission record names no mission (mission.missionId)", hint);
  }
}

nlohmann::json check_mission_record(const nlohmann::json& record, const CheckRules& rules) {
  require_mission_record(record);
  Findings findings;
  auto run = record.find("run");
  const bool has_run = run != record.end() && run->is_object();
  const std::string run_status = has_run ? text_of(*run, "status") : "";
  const bool run_ended_short =
      run_status == "failed" || run_status == "partial" || run_status == "stopped";
  std::set<std::string> awaiting;
  if (has_run) {
    for (const auto& waiting : array_of(*run, "awaitingApproval")) {
      if (waiting.is_object()) awaiting.insert(text_of(waiting, "taskId"));
    }
  }
  for (const auto& task : array_of(record, "tasks")) {
    if (task.is_object()) {
      check_task(task, rules, run_ended_short, awaiting, findings);
    } else {
      unknown_value(nlohmann::json::object(), "a task entry", task, findings);
    }
  }
  for (const auto& blocker : array_of(record, "openBlockers")) {
    if (!blocker.is_object()) {
      unknown_value(nlohmann::json::object(), "a blocker entry", blocker, findings);
      continue;
    }
    const std::string id = text_of(blocker, "id");
    const std::string description = text_of(blocker, "description");
    findings.add(
        rules.allow_blockers,
        problem(
            "open_blocker",
            {{"issueId", id}, {"taskId", text_of(blocker, "taskId")}, {"description", description}},
            "blocker " + id + " needs human review: " + description +
                " (clear it with: mission resolve " + id + ")",
            rules.allow_blockers));
  }
  const nlohmann::json& mission = record.at("mission");
  if (has_run) check_run(*run, text_of(mission, "missionId"), rules, findings);
  nlohmann::json out = {{"missionId", text_of(mission, "missionId")},
                        {"name", text_of(mission, "name")},
                        {"kind", text_of(mission, "kind")},
                        {"status", text_of(mission, "status")}};
  findings.write_to(out);
  return out;
}

nlohmann::json check_mission_records(const std::vector<nlohmann::json>& records,
                                     const CheckRules& rules) {
  nlohmann::json missions = nlohmann::json::array();
  bool ok = true;
  std::int64_t passed_omitted = 0;
  for (const auto& record : records) {
    nlohmann::json result = check_mission_record(record, rules);
    const bool passed = result.at("ok").get<bool>();
    ok = ok && passed;
    if (!passed || missions.size() < limits::kMaxPageItems) {
      missions.push_back(std::move(result));
    } else {
      ++passed_omitted;
    }
  }
  nlohmann::json out = {{"ok", ok}, {"missions", std::move(missions)}};
  if (passed_omitted > 0) out["passedOmitted"] = passed_omitted;
  // A gate with nothing to judge fails: no record far more often means
  // records never made, exported or fetched than work that needs no check.
  if (records.empty()) {
    out["ok"] = false;
    out["problems"] =
        nlohmann::json::array({problem("nothing_to_judge", nlohmann::json::object(),
                                       "there is no mission record to judge", false)});
  }
  return out;
}

}  // namespace mission
