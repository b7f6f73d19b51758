// mission workflows budget WF [--task T] --tokens N | --usd X: a person
// sets the budget of one task of a workflow's live run, or of the run as
// a whole (docs/adr/0049). A task that waits "budget reached" goes on in a
// new attempt in its worktree once the budget is above what it used.

#include <cstdio>

#include "cli/budget_values.hpp"
#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"
#include "cli/workflow_reference.hpp"
#include "shared/error_code.hpp"

namespace mission::cli {
namespace {

struct BudgetOptions {
  std::string id;
  std::string task;
  std::string tokens;
  std::string usd;
};

int set_budget(const CliContext& context, const BudgetOptions& options) {
  // Refused before the daemon is asked: a bad figure names its flag.
  if (options.tokens.empty() && options.usd.empty()) {
    throw MissionError(ErrorCode::invalid_argument, "no budget given",
                       "give --tokens N, --usd X or both, e.g. mission workflows budget " +
                           (options.id.empty() ? std::string("WF") : options.id) +
                           " --tokens 400000");
  }
  nlohmann::json params = nlohmann::json::object();
  if (!options.tokens.empty()) params["tokens"] = budget_tokens("--tokens", options.tokens);
  if (!options.usd.empty()) params["usd"] = budget_usd("--usd", options.usd);
  DaemonConnection connection = context.connect();
  const std::string workflow = resolve_workflow(connection.client, options.id);
  params["id"] = workflow;
  if (!options.task.empty())
    params["task"] = resolve_task(connection.client, options.task, workflow).task_id;
  const nlohmann::json run = connection.client.call("workflow.budget", params).at("run");
  if (context.options.json) {
    print_json(run);
    return kExitOk;
  }
  std::string what;
  if (params.contains("tokens"))
    what = std::to_string(params.at("tokens").get<std::int64_t>()) + " tokens";
  if (params.contains("usd")) {
    char amount[64];
    std::snprintf(amount, sizeof amount, "$%.2f", params.at("usd").get<double>());
    what += (what.empty() ? "" : " and ") + std::string(amount);
  }
  std::printf("The budget of %s in run %s is now %s; a task that waited at it goes on.\n",
              options.task.empty() ? "the run" : ("task " + safe(options.task)).c_str(),
              run.value("id", "").c_str(), what.c_str());
  std::printf("Follow it: mission workflows status %s\n", workflow.c_str());
  return kExitOk;
}

}  // namespace

void define_workflow_budget_command(CLI::App& workflows, CliContext& context) {
  auto options = std::make_shared<BudgetOptions>();
  CLI::App* budget = workflows.add_subcommand(
      "budget", "Set a task's (or the run's) token or cost budget; a task waiting at it goes on");
  budget->add_option("id", options->id, kWorkflowArgumentHelp)->required()->type_name("WF");
  budget->add_option("--task", options->task, "This task's budget (name or id); default: the run's")
      ->type_name("TASK");
  budget->add_option("--tokens", options->tokens, "Tokens its attempts may use together (200k, 2M)")
      ->type_name("N");
  budget->add_option("--usd", options->usd, "USD its agents may cost together")->type_name("X");
  budget->callback([&context, options] {
    context.action = [&context, options] { return set_budget(context, *options); };
  });
}

}  // namespace mission::cli
