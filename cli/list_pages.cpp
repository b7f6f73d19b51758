#include "cli/list_pages.hpp"

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

}  // namespace mission::cli
