#pragma once
// Human output for AgentExecutions: the `mission exec list` table and the
// `mission exec show` page. --json prints the daemon's documents unchanged.

#include <nlohmann/json.hpp>
#include <string>

namespace mission::cli {

void print_execution_table(const nlohmann::json& executions);
void print_execution(const nlohmann::json& execution);
// The `mission exec signals` table: one observation per line.
void print_observation_table(const nlohmann::json& observations);
// One of an execution's or attempt's refusedWrites, as given (the caller
// neutralises it): "mkdir /home/me/x (from the agent's output)".
std::string refused_write_text(const nlohmann::json& refused);

}  // namespace mission::cli
