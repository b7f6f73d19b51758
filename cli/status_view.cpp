#include "cli/status_view.hpp"

#include <cstdio>

#include "cli/output.hpp"

namespace mission::cli {

nlohmann::json daemon_view(const nlohmann::json& status) {
  nlohmann::json view = status;
  view.erase("executions");
  return view;
}

void print_daemon_status(const nlohmann::json& status) {
  std::string headline = "missiond " + status.value("version", "?") + " " +
                         styled("running", Tone::good) + " (pid " +
                         std::to_string(status.value("pid", 0)) + ", up " +
                         human_duration(status.value("uptimeMs", std::int64_t{0})) + ")";
  std::printf("%s\n", headline.c_str());
  const nlohmann::json executions = status.value("executions", nlohmann::json::object());
  print_fields({
      {"socket", status.value("socket", "")},
      {"state", status.value("stateDir", "")},
      {"database", "schema " + std::to_string(status.value("schemaVersion", 0)) + ", " +
                       status.value("database", "")},
      {"executions", std::to_string(executions.value("total", 0)) + " total, " +
                         std::to_string(executions.value("active", 0)) + " active"},
      {"clients", std::to_string(status.value("connections", 0)) + " connected"},
  });
}

}  // namespace mission::cli
