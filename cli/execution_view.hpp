#pragma once
// Human output for AgentExecutions: the `mission exec list` table and the
// `mission exec show` page. --json prints the daemon's documents unchanged.

#include <nlohmann/json.hpp>

namespace mission::cli {

void print_execution_table(const nlohmann::json& executions);
void print_execution(const nlohmann::json& execution);
// The `mission exec signals` table: one observation per line.
void print_observation_table(const nlohmann::json& observations);

}  // namespace mission::cli
