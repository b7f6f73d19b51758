#include "daemon/runs/workflow_planner.hpp"

#include "daemon/execution/protocol_descriptor.hpp"
#include "daemon/runs/run_options.hpp"
#include "daemon/runs/task_prompt.hpp"
#include "daemon/store/grant_repository.hpp"
#include "shared/clock.hpp"

namespace mission::daemon::runs {

std::string planner_prompt(const std::string& workflow_id, const std::string& workflow_name,
                           const std::string& goal) {
  std::string out = "# Plan: " + workflow_name + "\n\n";
  out +=
      "You are planning, not implementing. Read what you need of the repository in your "
      "working directory, change no file, and make the plan of mission workflow \"" +
      workflow_name + "\" (workflow id " + workflow_id + ") for the goal below.\n\n";
  out += "Make the plan with mission's MCP tool workflow_set_plan, with id \"" + workflow_id +
         "\" and a plan of:\n";
  out +=
      "- summary: what the work achieves, in a paragraph;\n"
      "- approach: how the tasks fit together;\n"
      "- tasks: each with a short unique name; a description written for another agent that "
      "sees only its own task (what to do, and how to tell it is done); sequence, 0 unless "
      "you stage the work (a task waits for every task of a lower sequence); depends_on, the "
      "names of the tasks that must be done first; files_likely_affected; acceptance_criteria; "
      "and estimated_complexity (low, medium or high). Tasks that touch different files run at "
      "the same time; make each small enough for one agent in one sitting;\n"
      "- risks and assumptions, if there are any.\n\n";
  out +=
      "If workflow_set_plan refuses the plan, fix what its error names and call it again. "
      "Once it succeeds, stop: a person reviews the plan, edits it and runs it.\n\n";
  out += "## Goal\n\n" + goal + "\n";
  return out;
}

std::string launch_planner(execution::AgentLaunchServices& services, PlannerLaunch planner) {
  execution::AgentLaunchRequest& request = planner.launch;
  const std::string prompt =
      planner_prompt(planner.workflow_id, planner.workflow_name, planner.goal);
  if (!request.delivery) request.delivery = Delivery::mcp_tool;
  if (request.spec.toolsets.empty()) {
    for (Toolset toolset : execution::default_toolsets()) request.spec.toolsets.push_back(toolset);
  }
  request.spec.toolsets.push_back(Toolset::planning);
  if (request.spec.adapter != "generic") {
    request.spec.command =
        prompt_arguments(request.spec.adapter, request.spec.command, prompt, request.confined);
  }
  request.env["MISSION_WORKFLOW_ID"] = planner.workflow_id;
  request.env["MISSION_TASK_PROMPT"] = prompt.substr(0, kMaxPromptEnvBytes);
  const std::string workflow_id = planner.workflow_id;
  return execution::launch_agent(
      services, request, [&](const execution::CreatedExecution& created) {
        store::GrantRepository(services.db)
            .grant_mission(created.row.id, workflow_id, std::nullopt, unix_ms_now());
      });
}

}  // namespace mission::daemon::runs
