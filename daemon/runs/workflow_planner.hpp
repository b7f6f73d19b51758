#pragma once
// An agent that plans a workflow (mission workflows plan GOAL, the control
// API's workflow.plan): the person's workflow is made first, in planning,
// and the agent is launched in the repository with the planning tools, a
// grant on that one workflow, and a prompt that asks it to read, change
// nothing, and set the workflow's plan with workflow_set_plan. The person
// then reviews, edits and runs the plan it made.

#include <cstddef>
#include <string>

#include "daemon/execution/agent_launch.hpp"

namespace mission::daemon::runs {

struct PlannerLaunch {
  std::string workflow_id;
  std::string workflow_name;
  std::string goal;
  // The adapter, the person's words after --, bin, env, sandbox: the
  // launch as execution.launch takes it. Its cwd is the repository.
  execution::AgentLaunchRequest launch;
};

// The planner's prompt, in Markdown: what to do, the tool and its fields,
// and the goal last.
std::string planner_prompt(const std::string& workflow_id, const std::string& workflow_name,
                           const std::string& goal);

// Launches the planner and returns its execution's id. Delivery is mcp-tool
// unless the person chose one (the plan is made with a tool), the toolsets
// the defaults plus planning, and the execution holds a grant on the
// workflow from before it starts. Throws MissionError as launch_agent does.
std::string launch_planner(execution::AgentLaunchServices& services, PlannerLaunch planner);

}  // namespace mission::daemon::runs
