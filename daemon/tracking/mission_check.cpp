#include "daemon/tracking/mission_check.hpp"

#include "daemon/store/journal_repository.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/tracking/tracker_support.hpp"
#include "daemon/tracking/tracking_view.hpp"
#include "shared/bounded_json.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::tracking {
namespace {

nlohmann::json problem(const char* kind, nlohmann::json fields, std::string message, bool relaxed) {
  fields["kind"] = kind;
  fields["message"] = std::move(message);
  fields["relaxed"] = relaxed;
  return fields;
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
  bool ok() const { return ok_; }

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

void check_task(const store::TaskRow& task, const CheckRules& rules, Findings& findings) {
  const std::string label = "task " + task.id + " '" + task.name + "'";
  const nlohmann::json fields = {{"taskId", task.id}, {"name", task.name}};
  if (task.status == TaskStatus::failed) {
    findings.add(rules.allow_failed, problem("failed_task", fields, label + " failed", rules.allow_failed));
  } else if (task.status == TaskStatus::in_progress) {
    findings.warn(problem("open_task", fields, label + " was never completed", true));
  }
  if (!task.verification) return;
  nlohmann::json verification = parse_json_or_discarded(*task.verification);
  if (!verification.is_object() || verification.value("scope_match", true)) return;
  nlohmann::json files = verification.value("unexpected_files", nlohmann::json::array());
  const std::int64_t count = verification.value("unexpected_count", static_cast<std::int64_t>(files.size()));
  std::string listed;  // for people; the details keep the list
  for (const auto& file : files) {
    listed += (listed.empty() ? "" : ", ") + (file.is_string() ? file.get<std::string>() : file.dump());
  }
  if (count > static_cast<std::int64_t>(files.size())) {
    listed += " and " + std::to_string(count - static_cast<std::int64_t>(files.size())) + " more";
  }
  nlohmann::json details = fields;
  details["unexpectedFiles"] = files;
  details["unexpectedCount"] = count;
  findings.add(rules.allow_scope,
               problem("scope_mismatch", std::move(details),
                       label + " changed " + std::to_string(count) + " file(s) outside its areas: " + listed,
                       rules.allow_scope));
}

nlohmann::json check_one(store::Database& db, const store::MissionRow& mission, const CheckRules& rules) {
  Findings findings;
  store::TaskRepository tasks(db);
  store::PageRequest request;
  request.after = 0;
  request.limit = limits::kMaxPageItems;
  for (;;) {
    auto page = tasks.page(mission.id, {}, request);
    for (const auto& task : page.rows) check_task(task, rules, findings);
    if (!page.more) break;
    request.after = page.positions.back();
  }
  store::JournalRepository journal(db);
  request.after = 0;
  for (;;) {
    auto page = journal.issues(mission.id, {}, request, true);
    for (const auto& issue : page.rows) {
      findings.add(rules.allow_blockers,
                   problem("open_blocker",
                           {{"issueId", issue.id}, {"taskId", issue.task_id}, {"description", issue.description}},
                           "blocker " + issue.id + " needs human review: " + issue.description +
                               " (clear it with: mission resolve " + issue.id + ")",
                           rules.allow_blockers));
    }
    if (!page.more) break;
    request.after = page.positions.back();
  }
  nlohmann::json out = {{"missionId", mission.id}, {"name", mission.name}, {"kind", mission.kind},
                        {"status", mission.status}};
  findings.write_to(out);
  return out;
}

}  // namespace

nlohmann::json check_missions(store::Database& db, const std::vector<std::string>& mission_ids,
                              const CheckRules& rules) {
  nlohmann::json missions = nlohmann::json::array();
  bool ok = true;
  std::int64_t passed_omitted = 0;
  for (const auto& id : mission_ids) {
    nlohmann::json result = check_one(db, require_mission(db, id, "mission"), rules);
    const bool passed = result.at("ok").get<bool>();
    ok = ok && passed;
    // Every failing mission is named; passing ones only while the answer stays small.
    if (!passed || missions.size() < limits::kMaxPageItems) {
      missions.push_back(std::move(result));
    } else {
      ++passed_omitted;
    }
  }
  nlohmann::json out = {{"ok", ok}, {"missions", std::move(missions)}};
  if (passed_omitted > 0) out["passedOmitted"] = passed_omitted;
  return out;
}

}  // namespace mission::daemon::tracking
