#pragma once
// The table of top-level commands: adding a command means one file under
// cli/commands/ and one entry in command_table.cpp.

#include <CLI/CLI.hpp>
#include <span>

#include "cli/cli_context.hpp"

namespace mission::cli {

struct CommandSpec {
  const char* name;
  const char* summary;
  // Adds the command's options and subcommands to `command`, and sets
  // context.action from its callback.
  void (*define)(CLI::App& command, CliContext& context);
};

std::span<const CommandSpec> commands();
// Commands for scripts that `mission --help` does not list: completion
// prints a shell's completion script, __complete what the scripts ask for.
std::span<const CommandSpec> hidden_commands();

// mission's own options, accepted before or after any command.
void define_global_options(CLI::App& app, GlobalOptions& options);
// `app` with the global options and every command defined, hidden ones
// hidden: the whole parser, for generating completions.
void define_every_command(CLI::App& app, CliContext& context);

void define_status_command(CLI::App& command, CliContext& context);
void define_daemon_command(CLI::App& command, CliContext& context);
void define_exec_command(CLI::App& command, CliContext& context);
void define_attach_command(CLI::App& command, CliContext& context);
void define_mcp_command(CLI::App& command, CliContext& context);
void define_run_command(CLI::App& command, CliContext& context);
void define_adapters_command(CLI::App& command, CliContext& context);
void define_watch_command(CLI::App& command, CliContext& context);
void define_missions_command(CLI::App& command, CliContext& context);
void define_tasks_command(CLI::App& command, CliContext& context);
void define_context_command(CLI::App& command, CliContext& context);
void define_report_command(CLI::App& command, CliContext& context);
void define_usage_command(CLI::App& command, CliContext& context);
void define_check_command(CLI::App& command, CliContext& context);
void define_export_command(CLI::App& command, CliContext& context);
void define_resolve_command(CLI::App& command, CliContext& context);
void define_gc_command(CLI::App& command, CliContext& context);
void define_sandbox_command(CLI::App& command, CliContext& context);
void define_inbox_command(CLI::App& command, CliContext& context);
void define_send_command(CLI::App& command, CliContext& context);
void define_answer_command(CLI::App& command, CliContext& context);
void define_agents_command(CLI::App& command, CliContext& context);
void define_workspaces_command(CLI::App& command, CliContext& context);
void define_workflows_command(CLI::App& command, CliContext& context);
// mission workflows edit (workflow_edit.cpp).
void define_workflow_edit_command(CLI::App& workflows, CliContext& context);
// mission workflows plan (workflow_plan.cpp).
void define_workflow_plan_command(CLI::App& workflows, CliContext& context);
// mission workflows run|stop|status (workflow_run.cpp).
void define_workflow_run_commands(CLI::App& command, CliContext& context);
// mission workflows budget (workflow_budget.cpp).
void define_workflow_budget_command(CLI::App& workflows, CliContext& context);
// mission workflows diff|land (workflow_land.cpp).
void define_workflow_review_commands(CLI::App& command, CliContext& context);
void define_approve_command(CLI::App& command, CliContext& context);
void define_reject_command(CLI::App& command, CliContext& context);
void define_plan_command(CLI::App& command, CliContext& context);
void define_next_command(CLI::App& command, CliContext& context);
void define_progress_command(CLI::App& command, CliContext& context);
void define_templates_command(CLI::App& command, CliContext& context);
void define_completion_command(CLI::App& command, CliContext& context);
void define_complete_command(CLI::App& command, CliContext& context);

}  // namespace mission::cli
