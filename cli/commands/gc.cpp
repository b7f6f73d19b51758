// mission gc [--dry-run]: the daemon's retention sweep now (ended
// executions' logs, ended executions with their observations, the daemon
// log, expired request ids), and what it freed.

#include <cstdio>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"

namespace mission::cli {

void define_gc_command(CLI::App& command, CliContext& context) {
  auto dry_run = std::make_shared<bool>(false);
  command.add_flag("--dry-run,-n", *dry_run, "Only say what would be freed");
  command.callback([&context, dry_run] {
    context.action = [&context, dry_run] {
      nlohmann::json result = context.connect().client.call("daemon.gc", {{"dryRun", *dry_run}});
      if (context.options.json) {
        print_json(result);
        return int{kExitOk};
      }
      const char* verb = *dry_run ? "would remove" : "removed";
      std::printf("%s %lld execution(s) with %lld observation(s)\n", verb,
                  static_cast<long long>(result.value("executionsRemoved", 0)),
                  static_cast<long long>(result.value("observationsRemoved", 0)));
      std::printf("%s %lld output log(s), %s\n", verb,
                  static_cast<long long>(result.value("logsRemoved", 0)),
                  human_bytes(result.value("logBytesFreed", std::uint64_t{0})).c_str());
      std::printf("%s %lld expired request id(s)\n", verb,
                  static_cast<long long>(result.value("requestIdsRemoved", 0)));
      if (result.value("daemonLogBytesRotated", 0) > 0) {
        std::printf("%s missiond.log (%s) to missiond.log.1\n", *dry_run ? "would move" : "moved",
                    human_bytes(result.value("daemonLogBytesRotated", std::uint64_t{0})).c_str());
      }
      return int{kExitOk};
    };
  });
}

}  // namespace mission::cli
