// mission check: the CI gate. Exit 0 only when no task failed, no blocker is
// open and every task stayed in its areas (each relaxed by a flag), for one
// mission or every mission recorded in or below the current directory;
// otherwise exit 1 and say exactly why.

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/mission_view.hpp"
#include "cli/output.hpp"

namespace mission::cli {
namespace {

struct CheckOptions {
  std::string mission_id;
  std::string cwd;
  bool allow_failed = false;
  bool allow_blockers = false;
  bool allow_scope = false;
};

int run_check(const CliContext& context, const CheckOptions& options) {
  nlohmann::json params = {{"allowFailed", options.allow_failed},
                           {"allowBlockers", options.allow_blockers},
                           {"allowScope", options.allow_scope}};
  if (!options.mission_id.empty()) {
    params["missionId"] = options.mission_id;
  } else {
    params["cwd"] = CliContext::working_directory(options.cwd);
  }
  nlohmann::json result = context.connect().client.call("mission.check", params);
  if (context.options.json) {
    print_json(result);
  } else {
    print_check(result);
  }
  return result.value("ok", false) ? kExitOk : kExitFailure;
}

}  // namespace

void define_check_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<CheckOptions>();
  command.add_option("--mission", options->mission_id, "Check this mission only")->type_name("ID");
  command.add_option("--cwd", options->cwd, "Check the missions in DIR or below (default: current)")
      ->type_name("DIR");
  command.add_flag("--allow-failed", options->allow_failed, "Failed tasks do not fail the check");
  command.add_flag("--allow-blockers", options->allow_blockers, "Open blockers do not fail the check");
  command.add_flag("--allow-scope", options->allow_scope, "Changes outside areas do not fail the check");
  command.callback([&context, options] {
    context.action = [&context, options] { return run_check(context, *options); };
  });
}

}  // namespace mission::cli
