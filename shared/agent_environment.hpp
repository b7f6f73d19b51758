#pragma once
// The environment an agent or a check is given is built, never handed on
// whole: mission's own per-execution variables (the MCP token above all)
// are set by the daemon for each launch and never taken from whoever asked,
// so no execution's token reaches another execution or code an agent wrote.

#include <array>
#include <map>
#include <string>
#include <string_view>

namespace mission {

// Variables the daemon sets for each launch (docs/adr/0032). Any of them
// in an environment a caller passes, or in the daemon's own, is dropped.
inline constexpr std::array<std::string_view, 10> kExecutionVariables = {
    "MISSION_MCP_TOKEN",        "MISSION_AGENT_EXECUTION_ID",
    "MISSION_RUN_ID",           "MISSION_WORKFLOW_ID",
    "MISSION_TASK_ID",          "MISSION_TASK_NAME",
    "MISSION_TASK_ATTEMPT",     "MISSION_TASK_PROMPT",
    "MISSION_TASK_PROMPT_FILE", "MISSION_ATTEMPT_ID"};

bool is_execution_variable(std::string_view name);

// `env` without the execution variables.
std::map<std::string, std::string> without_execution_variables(
    std::map<std::string, std::string> env);

// This process's environment (environ) without the execution variables.
std::map<std::string, std::string> process_environment();

}  // namespace mission
