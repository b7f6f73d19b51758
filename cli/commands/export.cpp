// mission export MISSION: writes the mission's record where it travels with
// the repository, a git note on a commit (refs/notes/mission, HEAD unless
// --commit) or a file, so `mission check --from-notes` / `--from FILE` can
// gate CI on a fresh clone with no daemon.

#include <cstdio>
#include <fstream>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/list_pages.hpp"
#include "cli/mission_notes.hpp"
#include "cli/output.hpp"
#include "shared/error_code.hpp"

namespace mission::cli {
namespace {

struct ExportOptions {
  std::string mission_id;
  std::string output;  // a file, "-" for stdout; empty: a git note
  std::string commit = "HEAD";
  std::string cwd;
};

void write_file(const std::string& path, const nlohmann::json& record) {
  const std::string text = json_text(record, 2) + "\n";
  if (path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) {
    throw MissionError(ErrorCode::invalid_argument, "cannot write " + path,
                       "choose a writable path for --output");
  }
}

int run_export(const CliContext& context, const ExportOptions& options) {
  // A record too large for one reply (a workflow of thousands of tasks)
  // comes in pages; the note or file always holds every task.
  DaemonConnection connection = context.connect();
  nlohmann::json record = fetch_document(connection.client, "mission.export",
                                         {{"id", options.mission_id}}, {"tasks", "openBlockers"});
  if (!options.output.empty()) {
    write_file(options.output, record);
    if (options.output != "-") {
      if (context.options.json) {
        print_json({{"missionId", options.mission_id}, {"file", options.output}});
      } else {
        std::printf("exported mission %s to %s\n", options.mission_id.c_str(),
                    options.output.c_str());
      }
    }
    return kExitOk;
  }
  const std::string dir = CliContext::working_directory(options.cwd);
  const std::string commit = resolve_commit(dir, options.commit);
  write_record_note(dir, commit, record);
  if (context.options.json) {
    print_json(
        {{"missionId", options.mission_id}, {"notesRef", kMissionNotesRef}, {"commit", commit}});
  } else {
    std::printf("exported mission %s to %s on %s\n", options.mission_id.c_str(), kMissionNotesRef,
                commit.c_str());
    std::printf("  share it with: git push origin %s\n", kMissionNotesRef);
  }
  return kExitOk;
}

}  // namespace

void define_export_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<ExportOptions>();
  command.add_option("mission", options->mission_id, "Mission id (mi-...)")
      ->required()
      ->type_name("MISSION");
  command
      .add_option("--output,-o", options->output,
                  "Write the record to FILE ('-': stdout), not to git notes")
      ->type_name("FILE");
  command.add_option("--commit", options->commit, "Commit that carries the note (default: HEAD)")
      ->type_name("REV");
  command.add_option("--cwd", options->cwd, "Repository to write the note in (default: current)")
      ->type_name("DIR");
  command.callback([&context, options] {
    context.action = [&context, options] { return run_export(context, *options); };
  });
}

}  // namespace mission::cli
