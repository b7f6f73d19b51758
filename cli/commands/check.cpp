// mission check: the CI gate. Exit 0 only when there is a record to judge,
// every value in it is one this version knows, no task failed or was left
// unfinished, no blocker is open, every task stayed in its areas and a
// workflow's last run completed with nothing waiting for approval (each
// but the first two relaxed by a flag), for one
// mission or every mission recorded in or below the current directory;
// otherwise exit 1 and say exactly why. With --from-notes or --from it
// judges exported records (mission export) instead, with no daemon: on a
// fresh clone in CI, the local database knows nothing.

#include <fstream>
#include <sstream>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/mission_notes.hpp"
#include "cli/mission_view.hpp"
#include "cli/output.hpp"
#include "cli/workflow_reference.hpp"
#include "shared/error_code.hpp"
#include "shared/mission_record.hpp"

namespace mission::cli {
namespace {

struct CheckOptions {
  std::string mission_id;
  std::string cwd;
  std::vector<std::string> files;  // --from
  std::string notes_range;         // --from-notes RANGE
  bool from_notes = false;
  CheckRules rules;
};

// Records named by --from or found by --from-notes.
std::vector<nlohmann::json> exported_records(const CheckOptions& options) {
  std::vector<nlohmann::json> records;
  for (const auto& file : options.files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      throw MissionError(ErrorCode::not_found, "cannot read " + file,
                         "give a file written by 'mission export MISSION --output FILE'");
    }
    std::ostringstream text;
    text << in.rdbuf();
    auto parsed = parse_records(text.str(), file);
    if (parsed.empty()) {
      // An empty file is an export that never happened, not a pass.
      throw MissionError(ErrorCode::invalid_argument, file + " holds no mission record",
                         "write it with 'mission export MISSION --output " + file + "'");
    }
    for (auto& record : parsed) records.push_back(std::move(record));
  }
  if (options.from_notes) {
    const std::string range = options.notes_range.empty() ? "HEAD" : options.notes_range;
    NotedRecords noted = read_record_notes(CliContext::working_directory(options.cwd), range);
    if (noted.records.empty()) {
      // A gate fails closed: no record is far more often notes never
      // exported or never fetched than work that needs no check.
      throw MissionError(
          ErrorCode::not_found,
          std::string("no mission records in ") + kMissionNotesRef + " on the commits of " + range,
          std::string(
              "export them with 'mission export MISSION', push them with 'git push origin ") +
              kMissionNotesRef + "', and fetch them in CI with 'git fetch origin " +
              kMissionNotesRef + ":" + kMissionNotesRef + "'");
    }
    for (auto& record : noted.records) records.push_back(std::move(record));
  }
  if (!options.mission_id.empty()) {
    std::erase_if(records, [&](const nlohmann::json& record) {
      return record.at("mission").at("missionId") != options.mission_id;
    });
    if (records.empty()) {
      throw MissionError(ErrorCode::not_found,
                         "no exported record of mission " + options.mission_id,
                         "export it with 'mission export " + options.mission_id + "'");
    }
  }
  return records;
}

int run_check(const CliContext& context, const CheckOptions& options) {
  nlohmann::json result;
  if (options.from_notes || !options.files.empty()) {
    result = check_mission_records(exported_records(options), options.rules);
  } else {
    nlohmann::json params = {{"allowFailed", options.rules.allow_failed},
                             {"allowBlockers", options.rules.allow_blockers},
                             {"allowScope", options.rules.allow_scope},
                             {"allowUnfinished", options.rules.allow_unfinished}};
    DaemonConnection connection = context.connect();
    if (!options.mission_id.empty()) {
      params["missionId"] = resolve_mission_or_workflow(connection.client, options.mission_id);
    } else {
      params["cwd"] = CliContext::working_directory(options.cwd);
    }
    result = connection.client.call("mission.check", params);
  }
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
  CLI::Option* named =
      command
          .add_option("mission", options->mission_id,
                      "Check this mission or workflow only (a workflow's last run too)")
          ->type_name("ID");
  command.add_option("--mission", options->mission_id, "Check this mission only (as ID)")
      ->type_name("ID")
      ->excludes(named);
  command
      .add_option("--cwd", options->cwd,
                  "Check the missions in DIR or below, or the repository of --from-notes (default: "
                  "current)")
      ->type_name("DIR");
  command
      .add_option("--from", options->files,
                  "Check the records in FILE (mission export -o), no daemon")
      ->type_name("FILE");
  CLI::Option* notes =
      command
          .add_option("--from-notes", options->notes_range,
                      "Check the records in git notes on RANGE (default HEAD), no daemon")
          ->expected(0, 1)
          ->type_name("RANGE");
  command.add_flag("--allow-failed", options->rules.allow_failed,
                   "Failed tasks do not fail the check");
  command.add_flag("--allow-blockers", options->rules.allow_blockers,
                   "Open blockers do not fail the check");
  command.add_flag("--allow-scope", options->rules.allow_scope,
                   "Changes outside areas do not fail the check");
  command.add_flag("--allow-unfinished", options->rules.allow_unfinished,
                   "Tasks never started or completed, and runs under way, do not fail the check");
  command.callback([&context, options, notes] {
    options->from_notes = notes->count() > 0;
    context.action = [&context, options] { return run_check(context, *options); };
  });
}

}  // namespace mission::cli
