// mission resolve ISSUE: a person has reviewed an issue an agent flagged
// requires_human_review; it stops being a blocker.

#include <cstdio>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"

namespace mission::cli {

void define_resolve_command(CLI::App& command, CliContext& context) {
  auto id = std::make_shared<std::string>();
  auto note = std::make_shared<std::string>();
  command.add_option("issue", *id, "Issue id (is-...), as missions show lists it")
      ->required()
      ->type_name("ISSUE");
  command.add_option("--note", *note, "What the review concluded")->type_name("TEXT");
  command.callback([&context, id, note] {
    context.action = [&context, id, note] {
      nlohmann::json params = {{"id", *id}};
      if (!note->empty()) params["note"] = *note;
      nlohmann::json result = context.connect().client.call("issue.resolve", params);
      if (context.options.json) {
        print_json(result);
      } else {
        std::printf("resolved %s\n", id->c_str());
      }
      return int{kExitOk};
    };
  });
}

}  // namespace mission::cli
