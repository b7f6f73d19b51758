// mission completion SHELL: the completion script generated from the
// command table. mission __complete executions: the ids and names of recent
// executions, for those scripts; quick and silent when no daemon runs.

#include <cstdio>
#include <iostream>
#include <memory>
#include <set>
#include <string>

#include "cli/commands/command_table.hpp"
#include "cli/completion_script.hpp"
#include "cli/exit_codes.hpp"

namespace mission::cli {

namespace {

// Executions, newest first, whose ids and names shell completion offers
// (documented in mission(1), LIMITS).
constexpr std::size_t kCompletionExecutionLimit = 100;

int print_completion(const std::string& shell) {
  CLI::App full{"mission", "mission"};
  CliContext scratch;
  define_every_command(full, scratch);
  auto script = completion_script(shell, full);
  if (!script) return kExitUsage;  // IsMember refused it already
  std::fwrite(script->data(), 1, script->size(), stdout);
  return kExitOk;
}

// Never starts the daemon and never fails: a completion has nothing to say
// then, and an error would land in the middle of the user's command line.
int print_executions(const CliContext& context) {
  try {
    auto client = context.connect_if_running();
    if (!client) return kExitOk;
    auto page = client->call("execution.list", {{"limit", kCompletionExecutionLimit}});
    std::set<std::string> names;
    std::string out;
    for (const auto& execution : page.at("executions")) {
      out += execution.at("id").get<std::string>() + "\n";
      if (execution.contains("agentName"))
        names.insert(execution.at("agentName").get<std::string>());
    }
    for (const auto& name : names) out += name + "\n";
    if (!page.at("executions").empty()) out += "@last\n";
    std::fwrite(out.data(), 1, out.size(), stdout);
  } catch (...) {
  }
  return kExitOk;
}

}  // namespace

void define_completion_command(CLI::App& command, CliContext& context) {
  auto shell = std::make_shared<std::string>();
  command.add_option("shell", *shell, "bash, zsh or fish")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh", "fish"}));
  command.callback(
      [&context, shell] { context.action = [shell] { return print_completion(*shell); }; });
}

void define_complete_command(CLI::App& command, CliContext& context) {
  auto what = std::make_shared<std::string>();
  command.add_option("what", *what, "executions")->required()->check(CLI::IsMember({"executions"}));
  // `what` is captured: the option writes into it while parsing, after
  // this function has returned.
  command.callback(
      [&context, what] { context.action = [&context] { return print_executions(context); }; });
}

}  // namespace mission::cli
