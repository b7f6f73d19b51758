#include "daemon/runs/run_options.hpp"

#include "daemon/adapters/adapter.hpp"
#include "shared/agent_environment.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::runs {

nlohmann::json options_json(const RunOptions& options) {
  nlohmann::json out = {
      {"adapter", options.adapter},   {"command", options.command},
      {"parallel", options.parallel}, {"maxAttempts", options.max_attempts},
      {"approve", options.approve},   {"sandbox", options.sandbox ? "on" : "off"}};
  // The environment's values may be secrets: they are never stored here
  // (run_environment.hpp); its names are, for the record.
  nlohmann::json names = nlohmann::json::array();
  for (const auto& [name, value] : options.env) names.push_back(name);
  out["envNames"] = std::move(names);
  if (options.check) out["check"] = *options.check;
  if (options.gate) out["gate"] = *options.gate;
  if (options.gate_parallel != 1) out["gateParallel"] = options.gate_parallel;
  if (options.task_timeout_ms) out["taskTimeoutMs"] = *options.task_timeout_ms;
  if (options.base) out["base"] = *options.base;
  if (!options.sandbox_state.empty()) out["sandboxState"] = options.sandbox_state;
  if (options.network == sandbox::Network::none) out["network"] = "none";
  if (!options.allow_write.empty()) {
    nlohmann::json paths = nlohmann::json::array();
    for (const auto& path : options.allow_write) paths.push_back(path.string());
    out["allowWrite"] = std::move(paths);
  }
  put_budgets(out, options.budgets);
  if (!options.hide.empty()) {
    nlohmann::json paths = nlohmann::json::array();
    for (const auto& path : options.hide) paths.push_back(path.string());
    out["hide"] = std::move(paths);
  }
  if (!options.permission_policy.empty())
    out["permissionPolicy"] = policy_json(options.permission_policy);
  return out;
}

std::string sandbox_of(const nlohmann::json& options) {
  if (!options.is_object()) return "confined";
  if (options.contains("sandboxState")) return options.value("sandboxState", "");
  return options.value("sandbox", "on") == "off" ? "not confined: --sandbox off" : "confined";
}

RunOptions options_from_json(const nlohmann::json& j) {
  RunOptions options;
  options.adapter = j.value("adapter", std::string("generic"));
  options.command = j.value("command", std::vector<std::string>{});
  options.parallel = j.value("parallel", std::int64_t{1});
  if (j.contains("check")) options.check = j.at("check").get<std::string>();
  if (j.contains("gate")) options.gate = j.at("gate").get<std::string>();
  options.gate_parallel = j.value("gateParallel", std::int64_t{1});
  options.max_attempts = j.value("maxAttempts", kDefaultRunAttempts);
  if (j.contains("taskTimeoutMs"))
    options.task_timeout_ms = j.at("taskTimeoutMs").get<std::int64_t>();
  if (j.contains("base")) options.base = j.at("base").get<std::string>();
  // Given by `mission workflows run`; a stored run's comes from its file.
  options.env = without_execution_variables(j.value("env", std::map<std::string, std::string>{}));
  options.approve = j.value("approve", false);
  options.sandbox = j.value("sandbox", std::string("on")) != "off";
  options.sandbox_state = j.value("sandboxState", std::string());
  // The schema allows "on" and "none" only.
  options.network = sandbox::network_from_name(j.value("network", std::string("on")))
                        .value_or(sandbox::Network::on);
  for (const auto& path : j.value("allowWrite", std::vector<std::string>{}))
    options.allow_write.emplace_back(path);
  options.budgets = budgets_from_json(j);
  for (const auto& path : j.value("hide", std::vector<std::string>{}))
    options.hide.emplace_back(path);
  if (j.contains("permissionPolicy"))
    options.permission_policy = policy_from_json(j.at("permissionPolicy"));
  auto refuse = [](const char* field, const std::string& what, const std::string& hint) {
    throw MissionError(ErrorCode::invalid_argument, what, hint, {{"field", field}});
  };
  if (options.parallel < 1 || options.parallel > kMaxRunParallel) {
    refuse("parallel", "--parallel " + std::to_string(options.parallel) + " is out of range",
           "give 1 to " + std::to_string(kMaxRunParallel) + " agents at once");
  }
  if (options.max_attempts < 1 || options.max_attempts > kMaxRunAttempts) {
    refuse("maxAttempts",
           "--max-attempts " + std::to_string(options.max_attempts) + " is out of range",
           "give 1 to " + std::to_string(kMaxRunAttempts) + " attempts per task");
  }
  if (options.task_timeout_ms && *options.task_timeout_ms < 1) {
    refuse("taskTimeoutMs", "--task-timeout must be positive",
           "give a duration such as 90s or 10m");
  }
  if (options.check && options.check->empty()) {
    refuse("check", "--check is empty",
           "give the command that judges a task, e.g. --check 'make test'");
  }
  if (options.gate && options.gate->empty()) {
    refuse("gate", "--gate is empty",
           "give the command that judges the merged result, e.g. --gate 'make test'");
  }
  if (options.gate_parallel < 1 || options.gate_parallel > kMaxGateParallel) {
    refuse("gateParallel",
           "--gate-parallel " + std::to_string(options.gate_parallel) + " is out of range",
           "give 1 to " + std::to_string(kMaxGateParallel) + " gates at once");
  }
  if (options.gate_parallel != 1 && !options.gate) {
    refuse("gateParallel", "--gate-parallel needs --gate", "give the gate command with --gate");
  }
  if (!options.sandbox && !options.allow_write.empty()) {
    refuse("allowWrite",
           "--allow-write has no effect with --sandbox off: the agents write wherever you can",
           "drop one of them");
  }
  if (!options.sandbox && !options.hide.empty()) {
    refuse("hide", "--hide has no effect with --sandbox off: the agents read whatever you can",
           "drop one of them");
  }
  // Refused before the run starts, not at its first task's launch.
  if (!options.permission_policy.empty() &&
      adapters::output_format_of(options.adapter, options.command) != adapters::kAcpStreamFormat) {
    refuse("permissionPolicy",
           "--allow, --deny and --policy answer the permission requests of agents driven over "
           "ACP; the " +
               options.adapter + " adapter makes none",
           "leave them out, or run the workflow with --adapter acp -- CMD");
  }
  if (options.adapter == "generic" && options.command.empty()) {
    refuse("command", "the generic adapter needs the agent's command",
           "give it after --: mission workflows run ID -- CMD ARGS...");
  }
  return options;
}

}  // namespace mission::daemon::runs
