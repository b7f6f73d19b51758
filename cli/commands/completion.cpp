// mission completion SHELL: the completion script generated from the
// command table. mission __complete executions|workflows: the ids and
// names of recent executions or workflows, for those scripts; quick and
// silent when no daemon runs.

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
// And workflows (workflow.list takes at most 200 a page).
constexpr std::size_t kCompletionWorkflowLimit = 100;

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
int print_known(const CliContext& context, const std::string& what) {
  try {
    auto client = context.connect_if_running();
    if (!client) return kExitOk;
    const bool workflows = what == "workflows";
    const char* list = workflows ? "workflows" : "executions";
    const char* name_key = workflows ? "name" : "agentName";
    auto page = workflows ? client->call("workflow.list", {{"limit", kCompletionWorkflowLimit}})
                          : client->call("execution.list", {{"limit", kCompletionExecutionLimit}});
    std::set<std::string> names;
    std::string out;
    for (const auto& record : page.at(list)) {
      out += record.at("id").get<std::string>() + "\n";
      // A shell splits words at blanks: a name with one is offered by id.
      if (record.contains(name_key) && record.at(name_key).is_string()) {
        const std::string name = record.at(name_key).get<std::string>();
        if (name.find_first_of(" \t\n'\"\\") == std::string::npos) names.insert(name);
      }
    }
    for (const auto& name : names) out += name + "\n";
    if (!page.at(list).empty()) out += "@last\n";
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
  command.add_option("what", *what, "executions or workflows")
      ->required()
      ->check(CLI::IsMember({"executions", "workflows"}));
  // `what` is captured: the option writes into it while parsing, after
  // this function has returned.
  command.callback([&context, what] {
    context.action = [&context, what] { return print_known(context, *what); };
  });
}

}  // namespace mission::cli
