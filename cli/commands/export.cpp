// mission export MISSION: writes the mission's record where it travels with
// the repository, a git note on a commit (refs/notes/mission) or a file, so
// `mission check --from-notes` / `--from FILE` can gate CI on a fresh clone
// with no daemon. The note goes on --commit, else on the commits a
// workflow's run made (its integration branch's tip, and the commit it
// landed as), else on HEAD.

#include <cstdio>
#include <fstream>
#include <optional>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/git_command.hpp"
#include "cli/list_pages.hpp"
#include "cli/mission_notes.hpp"
#include "cli/output.hpp"
#include "shared/error_code.hpp"

namespace mission::cli {
namespace {

struct ExportOptions {
  std::string mission_id;
  std::string output;  // a file, "-" for stdout; empty: a git note
  std::string commit;  // empty: the run's commits, else HEAD
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

// The workflow's last run (workflow.runStatus), or nullopt for a mission
// or a workflow never run.
std::optional<nlohmann::json> last_run(DaemonClient& client, const std::string& id) {
  try {
    return client.call("workflow.runStatus", {{"id", id}}).at("run");
  } catch (const MissionError& e) {
    if (e.code() == ErrorCode::not_found) return std::nullopt;
    throw;
  }
}

// The commits a run made that its record belongs on: the tip of its
// integration branch (what `main..mission/run/WF` reads) and, once
// landed, the commit the base branch points at for it (a merge commit when
// it did not fast-forward). Empty when git has none of them any more.
std::vector<std::string> run_commits(const std::string& dir, const nlohmann::json& run) {
  std::vector<std::string> commits;
  GitResult tip = run_git(dir, {"rev-parse", "--verify", "--quiet",
                                "refs/heads/" + run.value("integrationBranch", "") + "^{commit}"});
  if (tip.exit_code == 0) commits.push_back(tip.out.substr(0, tip.out.find('\n')));
  if (run.contains("landed")) {
    const std::string landed = run.at("landed").value("commit", "");
    GitResult found = run_git(dir, {"cat-file", "-e", landed + "^{commit}"});
    if (found.exit_code == 0 && (commits.empty() || commits.front() != landed))
      commits.push_back(landed);
  }
  return commits;
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
  std::string dir = CliContext::working_directory(options.cwd);
  std::vector<std::string> commits;
  if (options.commit.empty()) {
    if (auto run = last_run(connection.client, options.mission_id)) {
      if (options.cwd.empty()) dir = run->value("repository", dir);
      commits = run_commits(dir, *run);
    }
  }
  if (commits.empty())
    commits.push_back(resolve_commit(dir, options.commit.empty() ? "HEAD" : options.commit));
  for (const auto& commit : commits) write_record_note(dir, commit, record);
  if (context.options.json) {
    print_json({{"missionId", options.mission_id},
                {"notesRef", kMissionNotesRef},
                {"commit", commits.front()},
                {"commits", commits}});
  } else {
    for (const auto& commit : commits) {
      std::printf("exported mission %s to %s on %s\n", options.mission_id.c_str(), kMissionNotesRef,
                  commit.c_str());
    }
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
  command
      .add_option("--commit", options->commit,
                  "Commit that carries the note (default: a workflow run's commits, else HEAD)")
      ->type_name("REV");
  command.add_option("--cwd", options->cwd, "Repository to write the note in (default: current)")
      ->type_name("DIR");
  command.callback([&context, options] {
    context.action = [&context, options] { return run_export(context, *options); };
  });
}

}  // namespace mission::cli
