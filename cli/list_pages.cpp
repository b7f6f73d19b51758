#include "cli/list_pages.hpp"

#include "shared/error_code.hpp"

namespace mission::cli {

nlohmann::json fetch_all(DaemonClient& client, std::string_view method, nlohmann::json params,
                         std::string_view key) {
  return fetch_all_pages(control_call(client), method, std::move(params), key);
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
  return fetch_last_run_report(control_call(client), workflow_id);
}

ControlCall control_call(DaemonClient& client) {
  return [&client](std::string_view method, const nlohmann::json& params) {
    return client.call(method, params);
  };
}

}  // namespace mission::cli
