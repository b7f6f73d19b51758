#include "cli/commands/command_table.hpp"

namespace mission::cli {

std::span<const CommandSpec> commands() {
  static const CommandSpec kCommands[] = {
      {"status", "Show the daemon and what it tracks",
       define_status_command},
      {"daemon", "Start, stop, inspect or run the daemon", define_daemon_command},
      {"run", "Launch an agent command and follow it (-- CMD ARGS...)", define_run_command},
      {"exec", "List, show, stop and follow agent executions", define_exec_command},
      {"watch", "Print executions' events as they happen", define_watch_command},
      {"mcp", "Connect an MCP client to mission (stdio bridge)", define_mcp_command},
  };
  return kCommands;
}

}  // namespace mission::cli
