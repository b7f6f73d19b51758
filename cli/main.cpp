// mission: parses the command line with the command table, runs the chosen
// command, and turns every failure into a message and a documented exit code.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string_view>
#include <vector>

#include "cli/cli_context.hpp"
#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"
#include "shared/edit_distance.hpp"
#include "shared/error_code.hpp"

namespace {

using mission::cli::CliContext;

int report_error(const CliContext& context, const mission::MissionError& error) {
  if (context.options.json) mission::cli::print_json({{"error", error.to_payload()}});
  // An error may quote what an agent or a file supplied (a record's
  // format, a name): it is printed as text.
  std::fprintf(stderr, "mission: %s\n", mission::cli::safe(error.what()).c_str());
  if (!error.hint().empty())
    std::fprintf(stderr, "  hint: %s\n", mission::cli::safe(error.hint()).c_str());
  return error.code() == mission::ErrorCode::daemon_unavailable
             ? mission::cli::kExitDaemonUnavailable
             : mission::cli::kExitFailure;
}

bool named_on_line(std::string_view name, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (name == argv[i]) return true;
  }
  return false;
}

// The command word of the line, skipping global options (and --socket's
// value); empty when there is none.
std::string_view command_word(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view word = argv[i];
    if (word == "--socket") {
      ++i;
      continue;
    }
    if (word.empty() || word.front() == '-') continue;
    return word;
  }
  return {};
}

// A mistyped command gets a suggestion instead of CLI11's generic error;
// nullopt when the word is a command (or there is none).
std::optional<int> refuse_unknown_command(int argc, char** argv) {
  const std::string_view word = command_word(argc, argv);
  if (word.empty()) return std::nullopt;
  std::string_view best;
  std::size_t best_distance = 3;  // at most two edits away
  for (const auto& spec : mission::cli::hidden_commands()) {
    if (word == spec.name) return std::nullopt;
  }
  for (const auto& spec : mission::cli::commands()) {
    if (word == spec.name) return std::nullopt;
    const std::size_t distance = mission::edit_distance(word, spec.name);
    const bool prefix = std::string_view(spec.name).rfind(word, 0) == 0;
    if (distance < best_distance || (prefix && best.empty())) {
      best = spec.name;
      best_distance = prefix ? 0 : distance;
    }
  }
  std::fprintf(stderr, "mission: unknown command '%.*s'", static_cast<int>(word.size()),
               word.data());
  if (!best.empty())
    std::fprintf(stderr, "; did you mean '%.*s'?", static_cast<int>(best.size()), best.data());
  std::fprintf(stderr, "\n  hint: mission --help lists the commands\n");
  return mission::cli::kExitUsage;
}

// `mission help [COMMAND...]` is `mission [COMMAND...] --help`.
std::vector<char*> help_as_option(int argc, char** argv) {
  static char help_option[] = "--help";
  std::vector<char*> words(argv, argv + argc);
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word == "--socket") {
      ++i;
      continue;
    }
    if (word.empty() || word.front() == '-') continue;
    if (word == "help") {
      words.erase(words.begin() + i);
      words.push_back(help_option);
    }
    break;
  }
  words.push_back(nullptr);
  return words;
}

// The command CLI11 parsed deepest on the line (the app itself if none).
CLI::App* deepest_command(CLI::App& app) {
  CLI::App* command = &app;
  while (!command->get_subcommands().empty()) command = command->get_subcommands().front();
  return command;
}

}  // namespace

int main(int original_argc, char** original_argv) {
  std::vector<char*> words = help_as_option(original_argc, original_argv);
  const int argc = static_cast<int>(words.size()) - 1;
  char** argv = words.data();
  CliContext context;
  CLI::App app{"mission: track and steer coding agents (see mission(1))", "mission"};
  mission::cli::define_global_options(app, context.options);
  app.require_subcommand(1);
  // When the line names a command, CLI11 hears of that one alone: each
  // subcommand costs allocations on every run, and `mission status` is
  // meant to cost little more than starting a process. `mission --help`
  // and a line with no command still get the whole list.
  const std::string_view word = command_word(argc, argv);
  const bool names_command =
      std::any_of(mission::cli::commands().begin(), mission::cli::commands().end(),
                  [word](const auto& spec) { return word == spec.name; });
  for (const auto& spec : mission::cli::commands()) {
    if (names_command && word != spec.name) continue;
    CLI::App* command = app.add_subcommand(spec.name, spec.summary);
    // Global options may follow the subcommand: `mission status --json`.
    command->fallthrough();
    // Only a command named on the line gets its options and actions.
    if (named_on_line(spec.name, argc, argv)) spec.define(*command, context);
  }
  for (const auto& spec : mission::cli::hidden_commands()) {
    if (word != spec.name) continue;
    CLI::App* command = app.add_subcommand(spec.name, spec.summary)->group("");
    command->fallthrough();
    spec.define(*command, context);
  }

  if (auto refused = refuse_unknown_command(argc, argv)) return *refused;
  try {
    app.parse(argc, argv);
  } catch (const CLI::RequiredError& e) {
    // `mission workflows` alone: the group's subcommands, not CLI11's
    // bare "A subcommand is required".
    CLI::App* group = deepest_command(app);
    if (group == &app || std::string_view(e.what()).find("subcommand") == std::string_view::npos) {
      return app.exit(e) == 0 ? mission::cli::kExitOk : mission::cli::kExitUsage;
    }
    std::fprintf(stderr, "mission %s: name one of its commands\n\n%s", group->get_name().c_str(),
                 group->help("mission").c_str());
    return mission::cli::kExitUsage;
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? mission::cli::kExitOk : mission::cli::kExitUsage;
  }

  mission::cli::set_utc_times(context.options.utc);
  int code = mission::cli::kExitUsage;
  try {
    if (context.action) code = context.action();
  } catch (const mission::MissionError& e) {
    code = report_error(context, e);
  } catch (const std::exception& e) {
    code = report_error(context, mission::MissionError(mission::ErrorCode::internal, e.what()));
  }
  // The command is done and its own resources are released; what is left
  // is memory the kernel frees at once, so the parser and the static
  // objects are not torn down one allocation at a time.
  std::cout.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}
