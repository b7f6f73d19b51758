#pragma once
// Shell completion scripts generated from the parser the command table
// builds, so they cannot drift from it: `mission completion bash|zsh|fish`
// prints one, and a test compares completions/* with what it prints.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mission::cli {

// What a shell offers for an option's value or a positional argument.
enum class ValueKind {
  none,   // free text: nothing to offer
  words,  // one of `words`
  list,   // items of `words` separated by commas
  files,
  directories,
  environment,  // K=V: the names of the environment, then a free value
  executions,   // ids and names the daemon knows (mission __complete executions)
  workflows,    // ids and names of workflows (mission __complete workflows)
  command,      // after --: a command line of its own
};

struct CompletionOption {
  std::vector<std::string> names;  // "--follow", "-f"
  std::string description;
  bool takes_value = false;
  ValueKind kind = ValueKind::none;
  std::vector<std::string> words;
};

struct CompletionCommand {
  std::string path;  // "" for mission itself, "exec list"
  std::string description;
  std::vector<CompletionOption> options;
  std::vector<std::pair<std::string, std::string>> subcommands;  // name, summary
  std::vector<ValueKind> positionals;
};

// Every command of `root`, depth first, `root` first; hidden ones left out.
std::vector<CompletionCommand> completion_model(CLI::App& root);

// The script for `shell` (bash, zsh or fish); nullopt for another shell.
std::optional<std::string> completion_script(std::string_view shell, CLI::App& root);

}  // namespace mission::cli
