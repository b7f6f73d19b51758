#include "shared/report_source.hpp"

#include "shared/error_code.hpp"

namespace mission {

nlohmann::json fetch_all_pages(const ControlCall& call, std::string_view method,
                               nlohmann::json params, std::string_view key) {
  nlohmann::json items = nlohmann::json::array();
  params["after"] = 0;
  for (;;) {
    nlohmann::json page = call(method, params);
    for (auto& item : page.at(std::string(key))) items.push_back(std::move(item));
    if (!page.value("more", false)) return items;
    params["after"] = page.at("afterCursor");
  }
}

nlohmann::json fetch_last_run_report(const ControlCall& call, const std::string& workflow_id) {
  nlohmann::json params = {{"id", workflow_id}, {"after", 0}};
  nlohmann::json run;
  nlohmann::json tasks = nlohmann::json::array();
  for (;;) {
    nlohmann::json page;
    try {
      page = call("workflow.runReport", params);
    } catch (const MissionError& e) {
      if (e.code() == ErrorCode::not_found && run.is_null()) return nullptr;
      throw;
    }
    // Pinned to the run of the first page, should another start meanwhile.
    if (run.is_null()) {
      run = page.at("run");
      params["runId"] = run.at("id");
    }
    for (auto& task : page.at("tasks")) tasks.push_back(std::move(task));
    if (!page.value("more", false)) break;
    params["after"] = page.at("afterCursor");
  }
  run["tasks"] = std::move(tasks);
  return run;
}

nlohmann::json gather_report(const ControlCall& call, const std::string& id) {
  nlohmann::json detail = call("mission.get", {{"id", id}});
  detail["tasks"] = fetch_all_pages(call, "mission.tasks", {{"id", id}}, "tasks");
  for (const char* kind : {"decisions", "issues", "milestones"}) {
    detail[kind] =
        fetch_all_pages(call, "mission.journal", {{"id", id}, {"kind", kind}}, "entries");
  }
  if (detail.at("mission").value("kind", "mission") != "mission") {
    nlohmann::json run = fetch_last_run_report(call, id);
    if (!run.is_null()) detail["run"] = std::move(run);
  }
  return detail;
}

}  // namespace mission
