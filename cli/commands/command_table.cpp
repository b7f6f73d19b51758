#include "cli/commands/command_table.hpp"

namespace mission::cli {

std::span<const CommandSpec> commands() {
  static const CommandSpec kCommands[] = {
      {"status", "Show the daemon and what it tracks",
       define_status_command},
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
      {"check", "CI gate: fail on failed tasks, open blockers, scope", define_check_command},
      {"resolve", "Mark a blocker issue as reviewed by a person", define_resolve_command},
      {"gc", "Free what the retention settings no longer keep (--dry-run)", define_gc_command},
  };
  return kCommands;
}

}  // namespace mission::cli
