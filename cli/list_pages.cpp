#include "cli/list_pages.hpp"

#include "shared/error_code.hpp"

namespace mission::cli {

nlohmann::json fetch_all(DaemonClient& client, std::string_view method, nlohmann::json params,
                         std::string_view key) {
  nlohmann::json items = nlohmann::json::array();
  params["after"] = 0;
  for (;;) {
    nlohmann::json page = client.call(method, params);
    for (auto& item : page.at(std::string(key))) items.push_back(std::move(item));
    if (!page.value("more", false)) return items;
    params["after"] = page.at("afterCursor");
  }
}

nlohmann::json fetch_document(DaemonClient& client, std::string_view method, nlohmann::json params,
                              std::initializer_list<const char*> lists) {
  params["after"] = "";
  nlohmann::json document = client.call(method, params);
  bool more = document.value("more", false);
  while (more) {
    params["after"] = document.at("afterCursor");
    nlohmann::json page = client.call(method, params);
    for (const char* list : lists) {
      for (auto& item : page.at(list)) document.at(list).push_back(std::move(item));
    }
    more = page.value("more", false);
    if (more) document["afterCursor"] = page.at("afterCursor");
  }
  document.erase("more");
  document.erase("afterCursor");
  return document;
}

nlohmann::json fetch_last_run(DaemonClient& client, const std::string& workflow_id) {
  nlohmann::json params = {{"id", workflow_id}, {"after", 0}};
  nlohmann::json run;
  nlohmann::json tasks = nlohmann::json::array();
  for (;;) {
    nlohmann::json page;
    try {
      page = client.call("workflow.runReport", params);
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

}  // namespace mission::cli
