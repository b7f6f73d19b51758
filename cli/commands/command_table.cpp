#include "cli/commands/command_table.hpp"

#include "shared/version.hpp"

namespace mission::cli {

// mission board (board.cpp).
void define_board_command(CLI::App& command, CliContext& context);

std::span<const CommandSpec> commands() {
  static const CommandSpec kCommands[] = {
      {"status", "Show the daemon and what it tracks", define_status_command},
      {"daemon", "Start, stop, inspect or run the daemon", define_daemon_command},
      {"run", "Launch an agent command and follow it (-- CMD ARGS...)", define_run_command},
      {"adapters", "List the agent adapters, their binaries and deliveries",
       define_adapters_command},
      {"exec", "List, show, stop and follow agent executions", define_exec_command},
      {"attach", "Attach to an agent's terminal (Ctrl-] detaches)", define_attach_command},
      {"watch", "Print executions' events as they happen", define_watch_command},
      {"mcp", "Connect an MCP client to mission (stdio bridge)", define_mcp_command},
      {"missions", "List and show the missions agents recorded", define_missions_command},
      {"tasks", "List a mission's tasks with their change sets", define_tasks_command},
      {"context", "Show a mission's context as get_context gives it", define_context_command},
      {"report", "Summarise a mission for a pull request (Markdown)", define_report_command},
      {"usage", "Tokens and cost agents used, by workflow or execution (--since)",
       define_usage_command},
      {"check", "CI gate: fail on failed tasks, open blockers, scope", define_check_command},
      {"export", "Write a mission's record to git notes or a file for CI", define_export_command},
      {"resolve", "Mark a blocker issue as reviewed by a person", define_resolve_command},
      {"inbox", "What waits on you (questions, approvals, conflicts) and messages",
       define_inbox_command},
      {"send", "Send a message to an agent execution (EXEC TEXT)", define_send_command},
      {"answer", "Answer an execution's open question (EXEC TEXT | --choice N)",
       define_answer_command},
      {"agents", "List the registered agents and whether they are alive", define_agents_command},
      {"workspaces", "List worktrees of tasks, their conflicts, clean them",
       define_workspaces_command},
      {"workflows", "List, show, run and stop planned workflows", define_workflows_command},
      {"approve", "Approve the merge of a task a run waits on (--approve)", define_approve_command},
      {"reject", "Reject a task a run waits on, with a reason (TASK REASON)",
       define_reject_command},
      {"plan", "Draw a planned workflow's task DAG (--format dot|mermaid)", define_plan_command},
      {"next", "The tasks of a planned workflow that can start now", define_next_command},
      {"progress", "A planned workflow's progress by sequence and group", define_progress_command},
      {"templates", "List, show and apply workflow templates", define_templates_command},
      {"board", "Serve the web board on loopback and print a sign-in link (--open)",
       define_board_command},
      {"sandbox", "What confines agents here, and a probe that proves it (check)",
       define_sandbox_command},
      {"gc", "Free what the retention settings no longer keep (--dry-run)", define_gc_command},
  };
  return kCommands;
}

std::span<const CommandSpec> hidden_commands() {
  static const CommandSpec kHidden[] = {
      {"completion", "Print the completion script of a shell (bash, zsh or fish)",
       define_completion_command},
      {"__complete", "Print completion candidates (executions, workflows) for the scripts",
       define_complete_command},
  };
  return kHidden;
}

void define_global_options(CLI::App& app, GlobalOptions& options) {
  app.set_version_flag("--version", std::string(kVersion));
  app.add_flag("--json", options.json, "Print one JSON document on stdout");
  app.add_option("--socket", options.socket, "Daemon socket (or $MISSION_SOCKET)")
      ->type_name("PATH");
  app.add_flag("--utc", options.utc, "Show times in UTC instead of local time");
  app.add_flag("--no-autostart", options.no_autostart, "Exit 3 instead of starting the daemon");
}

void define_every_command(CLI::App& app, CliContext& context) {
  define_global_options(app, context.options);
  for (const auto& spec : commands()) {
    CLI::App* command = app.add_subcommand(spec.name, spec.summary);
    command->fallthrough();
    spec.define(*command, context);
  }
  for (const auto& spec : hidden_commands()) {
    CLI::App* command = app.add_subcommand(spec.name, spec.summary)->group("");
    command->fallthrough();
    spec.define(*command, context);
  }
}

}  // namespace mission::cli
