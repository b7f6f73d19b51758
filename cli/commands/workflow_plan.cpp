// mission workflows plan "GOAL" [--from-issue FILE]: an agent plans a new
// workflow (the control API's workflow.plan). Its output is followed as
// `mission run` follows an agent's; once it ends, the plan it set is shown
// with what to do next (review, edit, run), or, when it set none, what
// happened and how to go on.

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/agent_follow.hpp"
#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"
#include "cli/workflow_reference.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::cli {
namespace {

// Most bytes of the goal (or the issue's text) a planning agent is given:
// the prompt travels in one argument and in MISSION_TASK_PROMPT (32 KiB),
// which leaves this much beside the instructions. The daemon refuses more
// (schemas/control/workflow.plan.params.json); this says so before anything
// is made.
constexpr std::size_t kMaxPlannerGoalBytes = 24 * 1024;

// Most bytes of a name made from the goal's first line.
constexpr std::size_t kMaxDerivedNameBytes = 60;

struct PlanOptions {
  std::string workflow;  // plan this workflow again instead of a new one
  std::string goal;
  std::string from_issue;
  std::string name;
  std::string adapter = "generic";
  std::string bin;
  std::string delivery;
  std::string cwd;
  std::vector<std::string> env;
  std::string sandbox;
  bool detach = false;
  std::vector<std::string> command;
};

// A workflow's name from the goal: its first line that has words, without
// a Markdown heading's marks, cut at a word within kMaxDerivedNameBytes.
std::string name_from_goal(const std::string& goal) {
  std::istringstream lines(goal);
  std::string line;
  while (std::getline(lines, line)) {
    const std::size_t start = line.find_first_not_of("# \t\r");
    if (start == std::string::npos) continue;
    std::string name = line.substr(start);
    while (!name.empty() && (name.back() == ' ' || name.back() == '\r')) name.pop_back();
    if (name.size() <= kMaxDerivedNameBytes) return name;
    std::size_t cut = name.rfind(' ', kMaxDerivedNameBytes);
    if (cut == std::string::npos || cut == 0) {
      cut = kMaxDerivedNameBytes;
      // Never in the middle of a UTF-8 character.
      while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
    }
    return name.substr(0, cut);
  }
  return "plan";
}

std::string read_issue(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw MissionError(ErrorCode::invalid_argument, "cannot read the issue file " + path,
                       "give the path of a file that holds the issue's text");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void print_plan(const nlohmann::json& document) {
  const nlohmann::json& tasks = document.at("plan").at("tasks");
  const std::string id = document.value("id", std::string());
  std::printf("Workflow %s (%s) is planned: %zu task%s.\n", id.c_str(),
              safe(document.value("name", std::string())).c_str(), tasks.size(),
              tasks.size() == 1 ? "" : "s");
  const std::string summary = document.at("plan").value("summary", std::string());
  if (!summary.empty()) std::printf("%s\n", safe(summary).c_str());
  for (const auto& task : tasks) {
    std::string line = "  " + safe(task.value("name", std::string()));
    const nlohmann::json& after = task.value("depends_on", nlohmann::json::array());
    for (std::size_t i = 0; i < after.size(); ++i)
      line += (i == 0 ? "  <- " : ", ") + safe(after[i].get<std::string>());
    std::printf("%s\n", line.c_str());
  }
  std::printf(
      "Next: mission plan %s to review it; mission workflows edit %s to change it; mission "
      "workflows run %s -- AGENT to run it.\n",
      id.c_str(), id.c_str(), id.c_str());
}

int run_plan_with_agent(const CliContext& context, const PlanOptions& given) {
  PlanOptions options = given;
  // With --workflow the goal is the workflow's own (or --from-issue's): a
  // first word after -- that the parser took for the goal is the command's.
  if (!options.workflow.empty() && !options.goal.empty()) {
    options.command.insert(options.command.begin(), options.goal);
    options.goal.clear();
  }
  if (!options.goal.empty() && !options.from_issue.empty()) {
    std::fprintf(stderr,
                 "mission workflows plan: give the goal or --from-issue FILE, not both\n"
                 "  usage: mission workflows plan \"GOAL\" --adapter NAME [-- ARGS...]\n");
    return kExitUsage;
  }
  if (options.goal.empty() && options.from_issue.empty() && options.workflow.empty()) {
    std::fprintf(stderr,
                 "mission workflows plan: no goal to plan for\n"
                 "  usage: mission workflows plan \"GOAL\" --adapter NAME [-- ARGS...]\n");
    return kExitUsage;
  }
  if (options.adapter == "generic" && options.command.empty()) {
    std::fprintf(stderr,
                 "mission workflows plan: no agent to plan with\n"
                 "  hint: name one with --adapter (claude-code, codex, copilot, opencode, pi), or "
                 "give an MCP agent's command after --\n");
    return kExitUsage;
  }
  const std::string goal =
      options.from_issue.empty() ? options.goal : read_issue(options.from_issue);
  if (goal.size() > kMaxPlannerGoalBytes) {
    throw MissionError(ErrorCode::payload_too_large,
                       "the goal has " + std::to_string(goal.size()) + " bytes; a planner takes " +
                           std::to_string(kMaxPlannerGoalBytes) + " at most",
                       "give the goal's gist, and leave the details in files the agent can read");
  }
  const std::string name = !options.workflow.empty() ? std::string()
                           : options.name.empty()    ? name_from_goal(goal)
                                                     : options.name;
  nlohmann::json launch = {{"adapter", options.adapter},
                           {"cwd", CliContext::working_directory(options.cwd)},
                           {"command", options.command},
                           {"env", CliContext::agent_environment(options.env)},
                           {"detach", options.detach}};
  if (!options.delivery.empty()) launch["delivery"] = options.delivery;
  if (!options.sandbox.empty()) launch["sandbox"] = options.sandbox;
  if (!options.bin.empty()) launch["bin"] = CliContext::agent_binary(options.bin);
  DaemonConnection connection = context.connect();
  nlohmann::json params = {{"launch", launch}};
  if (!goal.empty()) params["goal"] = goal;
  if (options.workflow.empty()) {
    params["name"] = name;
  } else {
    params["workflowId"] = resolve_workflow(connection.client, options.workflow);
  }
  if (!options.from_issue.empty()) {
    params["sourceType"] = "custom";
    params["sourceRef"] = std::filesystem::absolute(options.from_issue).lexically_normal().string();
  }

  const nlohmann::json started = connection.client.call("workflow.plan", params);
  const std::string workflow = started.value("workflowId", std::string());
  const std::string execution = started.at("execution").value("id", std::string());
  if (options.detach) {
    if (context.options.json) {
      print_json(started);
    } else {
      std::printf("%s %s\n", workflow.c_str(), execution.c_str());
    }
    return kExitOk;
  }
  std::fprintf(stderr, "mission: %s plans workflow %s (%s); Ctrl-C stops it\n", execution.c_str(),
               workflow.c_str(), safe(started.value("name", name)).c_str());
  const nlohmann::json ended = follow_agent_to_end(connection.client, execution);

  const nlohmann::json document = connection.client.call("workflow.get_plan", {{"id", workflow}});
  if (document.at("plan").at("tasks").empty()) {
    const int status = agent_exit_status(ended);
    std::fprintf(stderr,
                 "mission: the agent ended (%s, exit %d) without setting a plan for workflow %s\n"
                 "  hint: see what it did: mission exec logs %s; then plan again, write the plan "
                 "yourself with mission workflows edit %s, or remove it: mission workflows rm %s\n",
                 ended.value("state", std::string("ended")).c_str(), status, workflow.c_str(),
                 execution.c_str(), workflow.c_str(), workflow.c_str());
    return status == 0 ? kExitFailure : status;
  }
  if (context.options.json) {
    print_json(document);
  } else {
    print_plan(document);
  }
  return kExitOk;
}

}  // namespace

void define_workflow_plan_command(CLI::App& workflows, CliContext& context) {
  auto options = std::make_shared<PlanOptions>();
  CLI::App* plan = workflows.add_subcommand(
      "plan", "Have an agent plan a new workflow for a goal; review, edit and run it after");
  plan->add_option("goal", options->goal, "What the plan is for")->type_name("GOAL");
  plan->add_option("--from-issue", options->from_issue,
                   "Plan for the issue in this file (its first line names the workflow)")
      ->type_name("FILE");
  CLI::Option* workflow =
      plan->add_option(
              "--workflow", options->workflow,
              "Plan this workflow, one none of whose tasks has started, instead of a new one "
              "(the goal defaults to its own)")
          ->type_name("WF");
  plan->add_option("--name", options->name, "The workflow's name (default: the goal's first line)")
      ->type_name("NAME")
      ->excludes(workflow);
  plan->add_option("--adapter", options->adapter,
                   "The planning agent: claude-code, codex, copilot, opencode, pi, or generic "
                   "with an MCP agent's command after --")
      ->type_name("ADAPTER");
  plan->add_option("--bin", options->bin,
                   "The adapter's executable (default $MISSION_<ADAPTER>_BIN, else PATH)")
      ->type_name("PATH");
  plan->add_option("--delivery", options->delivery, "Signal delivery (default: mcp-tool)")
      ->check(CLI::IsMember({"mcp-tool", "stdout-marker"}))
      ->type_name("D");
  plan->add_option("--cwd", options->cwd, "The repository to plan in (default: current)")
      ->type_name("DIR");
  plan->add_option("--env", options->env, "Set K=V in the agent's environment (repeatable)")
      ->allow_extra_args(false)
      ->type_name("K=V")
      ->check([](const std::string& value) {
        return value.find('=') == std::string::npos || value.front() == '='
                   ? std::string("expected NAME=VALUE")
                   : std::string();
      });
  plan->add_option("--sandbox", options->sandbox,
                   "on (default): confined as under mission run; off: with all your rights")
      ->check(CLI::IsMember({"on", "off"}))
      ->type_name("on|off");
  plan->add_flag("--detach", options->detach,
                 "Print the workflow's and the agent's ids and return at once");
  plan->add_option("command", options->command,
                   "After --: the agent's command (generic), or arguments for the adapter")
      ->type_name("ARGS...");
  plan->callback([&context, options] {
    context.action = [&context, options] { return run_plan_with_agent(context, *options); };
  });
}

}  // namespace mission::cli
