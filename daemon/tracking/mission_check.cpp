#include "daemon/tracking/mission_check.hpp"

#include "daemon/store/journal_repository.hpp"
#include "daemon/store/mission_repository.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/tracking/tracker_support.hpp"
#include "daemon/tracking/tracking_view.hpp"

namespace mission::daemon::tracking {
namespace {

nlohmann::json problem(const char* kind, nlohmann::json fields, std::string message, bool relaxed) {
  fields["kind"] = kind;
  fields["message"] = std::move(message);
  fields["relaxed"] = relaxed;
  return fields;
}

nlohmann::json check_one(store::Database& db, const store::MissionRow& mission, const CheckRules& rules) {
  nlohmann::json problems = nlohmann::json::array();
  nlohmann::json warnings = nlohmann::json::array();
  bool ok = true;
  auto add = [&](bool relaxed, nlohmann::json item) {
    if (!relaxed) ok = false;
    (relaxed ? warnings : problems).push_back(std::move(item));
  };
  for (const auto& task : store::TaskRepository(db).list_for_mission(mission.id)) {
    const std::string label = "task " + task.id + " '" + task.name + "'";
    if (task.status == "failed") {
      add(rules.allow_failed,
          problem("failed_task", {{"task_id", task.id}, {"name", task.name}}, label + " failed",
                  rules.allow_failed));
    } else if (task.status == "in_progress") {
      warnings.push_back(problem("open_task", {{"task_id", task.id}, {"name", task.name}},
                                 label + " was never completed", true));
    }
    if (task.verification) {
      nlohmann::json verification = nlohmann::json::parse(*task.verification, nullptr, false);
      if (verification.is_object() && !verification.value("scope_match", true)) {
        nlohmann::json files = verification.value("unexpected_files", nlohmann::json::array());
        std::string listed;  // for people; the details keep the exact list
        for (const auto& file : files) {
          listed += (listed.empty() ? "" : ", ") + (file.is_string() ? file.get<std::string>() : file.dump());
        }
        add(rules.allow_scope,
            problem("scope_mismatch", {{"task_id", task.id}, {"name", task.name}, {"unexpected_files", files}},
                    label + " changed " + std::to_string(files.size()) +
                        " file(s) outside its areas: " + listed,
                    rules.allow_scope));
      }
    }
  }
  for (const auto& issue : store::JournalRepository(db).issues(mission.id)) {
    if (!is_open_blocker(issue)) continue;
    add(rules.allow_blockers,
        problem("open_blocker", {{"issue_id", issue.id}, {"task_id", issue.task_id}, {"description", issue.description}},
                "blocker " + issue.id + " needs human review: " + issue.description +
                    " (clear it with: mission resolve " + issue.id + ")",
                rules.allow_blockers));
  }
  return {{"mission_id", mission.id}, {"name", mission.name}, {"kind", mission.kind},
          {"status", mission.status}, {"ok", ok}, {"problems", problems}, {"warnings", warnings}};
}

}  // namespace

nlohmann::json check_missions(store::Database& db, const std::vector<std::string>& mission_ids,
                              const CheckRules& rules) {
  nlohmann::json missions = nlohmann::json::array();
  bool ok = true;
  for (const auto& id : mission_ids) {
    nlohmann::json result = check_one(db, require_mission(db, id, "mission"), rules);
    ok = ok && result.at("ok").get<bool>();
    missions.push_back(std::move(result));
  }
  return {{"ok", ok}, {"missions", std::move(missions)}};
}

}  // namespace mission::daemon::tracking
