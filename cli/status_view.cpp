#include "cli/status_view.hpp"

#include <cstdio>

#include "cli/output.hpp"

namespace mission::cli {

nlohmann::json daemon_view(const nlohmann::json& status) {
  nlohmann::json view = status;
  view.erase("executions");
  return view;
}

namespace {

// "2 watched, 5,120 inotify watches" and the like, from daemon.status's
// watchedTrees.
std::string trees_summary(const nlohmann::json& trees) {
  std::size_t watched = 0;
  for (const auto& tree : trees.value("trees", nlohmann::json::array())) {
    if (tree.value("watched", false)) ++watched;
  }
  std::string summary = std::to_string(watched) + " watched, " +
                        std::to_string(trees.value("watches", std::size_t{0})) + " inotify watches";
  if (!trees.value("enabled", false)) summary += " (missiond --watch-trees is off)";
  return summary;
}

// The agents' confinement: one line when they are confined, a loud
// warning when the kernel cannot confine them.
void print_sandbox(const nlohmann::json& sandbox) {
  if (sandbox.empty()) return;
  if (sandbox.value("confined", false)) {
    print_fields({{"sandbox", "agents confined (Landlock ABI " +
                                  std::to_string(sandbox.value("landlockAbi", 0)) + ", --sandbox " +
                                  sandbox.value("policy", "on") + ")"}});
    return;
  }
  for (const auto& part : wrapped(sandbox.value("warning", ""), output_columns(), 2))
    std::printf("%s\n", styled(part, Tone::bad).c_str());
  const std::string what_to_do = sandbox.value("policy", "on") == "require"
                                     ? "enable Landlock, or restart missiond with --sandbox on"
                                     : "enable Landlock, or restart missiond with --sandbox "
                                       "require to refuse such launches ('mission sandbox check' "
                                       "says more)";
  for (const auto& part : wrapped(what_to_do, output_columns() - 2, 0))
    std::printf("  %s\n", part.c_str());
}

}  // namespace

void print_daemon_status(const nlohmann::json& status) {
  std::string headline = "missiond " + status.value("version", "?") + " " +
                         styled("running", Tone::good) + " (pid " +
                         std::to_string(status.value("pid", 0)) + ", up " +
                         human_duration(status.value("uptimeMs", std::int64_t{0})) + ")";
  std::printf("%s\n", headline.c_str());
  print_sandbox(status.value("sandbox", nlohmann::json::object()));
  const nlohmann::json executions = status.value("executions", nlohmann::json::object());
  print_fields({
      {"socket", status.value("socket", "")},
      {"state", status.value("stateDir", "")},
      {"database", "schema " + std::to_string(status.value("schemaVersion", 0)) + ", " +
                       status.value("database", "")},
      {"executions", std::to_string(executions.value("total", 0)) + " total, " +
                         std::to_string(executions.value("active", 0)) + " active" +
                         (executions.value("awaitingPermission", 0) > 0
                              ? ", " + std::to_string(executions.value("awaitingPermission", 0)) +
                                    " awaiting permission (detected; mission inbox)"
                              : "")},
      {"clients", std::to_string(status.value("connections", 0)) + " connected"},
  });
  if (status.contains("http") && status.at("http").is_string()) {
    print_fields(
        {{"http", "MCP at http://" + status.at("http").get<std::string>() + "/mcp/EXECUTION_ID"}});
  }
  if (!status.contains("watchedTrees")) return;
  const nlohmann::json& trees = status.at("watchedTrees");
  print_fields({{"trees", trees_summary(trees)}});
  for (const auto& tree : trees.value("trees", nlohmann::json::array())) {
    const std::string root = tree.value("root", "");
    const std::string line = tree.value("watched", false)
                                 ? "watched " + root + " (" +
                                       std::to_string(tree.value("watches", std::size_t{0})) +
                                       " watches)"
                                 : "not watched " + root + ": " + tree.value("reason", "");
    for (const auto& part : wrapped(line, output_columns() - 2, 2))
      std::printf("  %s\n", part.c_str());
  }
}

}  // namespace mission::cli
