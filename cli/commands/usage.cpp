// mission usage [WF] [--since TIME]: the tokens and cost agents used, by
// workflow (an execution of `mission run` on its own line), or each
// execution of one workflow, with the totals. Figures are those an
// agent's own stream stated (Claude Code, Codex, OpenCode in their JSON
// modes), else the tokens it reported in complete_task.

#include <algorithm>
#include <cstdio>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"
#include "cli/table.hpp"
#include "cli/workflow_reference.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/time_format.hpp"

namespace mission::cli {
namespace {

struct UsageOptions {
  std::string workflow;
  std::string since;
};

// "24,763", or "-" when no execution stated the figure.
std::string count_text(const nlohmann::json& tokens, const char* key) {
  if (!tokens.contains(key) || !tokens.at(key).is_number_integer()) return "-";
  std::string digits = std::to_string(tokens.at(key).get<std::int64_t>());
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

std::string cost_text(const nlohmann::json& row) {
  if (!row.contains("costUsd") || !row.at("costUsd").is_number()) return "-";
  char dollars[48];
  std::snprintf(dollars, sizeof dollars, "$%.4f", row.at("costUsd").get<double>());
  return dollars;
}

// Where the figures came from: "stream", "reported", or both counted.
std::string source_text(const nlohmann::json& row) {
  const std::int64_t streams = row.value("fromStream", std::int64_t{0});
  const std::int64_t reports = row.value("fromReports", std::int64_t{0});
  if (reports == 0) return "stream";
  if (streams == 0) return "reported";
  return std::to_string(streams) + " stream, " + std::to_string(reports) + " reported";
}

std::vector<TableCell> figures(const nlohmann::json& row) {
  const nlohmann::json tokens = row.value("tokens", nlohmann::json::object());
  return {{count_text(tokens, "input")},
          {count_text(tokens, "output")},
          {count_text(tokens, "cacheRead")},
          {count_text(tokens, "cacheWrite")},
          {cost_text(row)},
          {source_text(row)}};
}

void print_usage(const nlohmann::json& result) {
  const bool one_workflow = result.contains("workflowId");
  const nlohmann::json& rows = result.at("rows");
  if (rows.empty()) {
    std::puts(one_workflow
                  ? "No execution of this workflow stated or reported its usage."
                  : "No agent stated or reported its usage. Claude Code (-p), Codex (exec "
                    "--json) and OpenCode (run --format json) state theirs in their streams.");
    return;
  }
  std::vector<TableColumn> columns;
  if (one_workflow) {
    columns = {{"EXECUTION", TableColumn::Fit::whole},
               {"TASK", TableColumn::Fit::flexible},
               {"ADAPTER", TableColumn::Fit::elide, 3}};
  } else {
    columns = {{"WORKFLOW/EXECUTION", TableColumn::Fit::whole},
               {"NAME", TableColumn::Fit::flexible}};
  }
  for (TableColumn column :
       std::initializer_list<TableColumn>{{"IN", TableColumn::Fit::whole},
                                          {"OUT", TableColumn::Fit::whole},
                                          {"CACHE READ", TableColumn::Fit::whole, 2},
                                          {"CACHE WRITE", TableColumn::Fit::whole, 2},
                                          {"COST", TableColumn::Fit::whole},
                                          {"FROM", TableColumn::Fit::elide, 1}})
    columns.push_back(column);
  Table table(std::move(columns));
  for (const auto& row : rows) {
    std::vector<TableCell> cells = {{row.value("id", "")}};
    if (one_workflow) {
      std::string task = row.value("task", "");
      if (row.contains("attempt"))
        task += " (attempt " + std::to_string(row.value("attempt", 0)) + ")";
      cells.push_back({task});
      cells.push_back({row.value("adapter", "")});
    } else {
      cells.push_back({row.value("name", "")});
    }
    for (auto& cell : figures(row)) cells.push_back(std::move(cell));
    table.add_row(std::move(cells));
  }
  std::vector<TableCell> total = {{"total", Tone::bold}, {""}};
  if (one_workflow) total.push_back({""});
  for (auto& cell : figures(result.at("total")))
    total.push_back({std::move(cell.text), Tone::bold});
  table.add_row(std::move(total));
  table.print();
  if (result.value("truncated", false)) {
    std::puts("(only the newest lines are shown; the total counts them all)");
  }
}

int run_usage(const CliContext& context, const UsageOptions& options) {
  DaemonConnection connection = context.connect();
  nlohmann::json params = nlohmann::json::object();
  if (!options.workflow.empty())
    params["workflowId"] = resolve_workflow(connection.client, options.workflow);
  if (!options.since.empty()) {
    const std::int64_t now = unix_ms_now();
    const std::int64_t since = CliContext::since_option(options.since, now);
    params["withinMs"] = std::max<std::int64_t>(now - since, 1);
  }
  nlohmann::json result = connection.client.call("usage.list", params);
  if (context.options.json) {
    print_json(result);
  } else {
    print_usage(result);
  }
  return kExitOk;
}

}  // namespace

void define_usage_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<UsageOptions>();
  command.add_option("workflow", options->workflow, "Only this workflow, one line per execution")
      ->type_name("WF");
  command
      .add_option("--since", options->since,
                  "Only executions started since then: 2h, 3d, yesterday or an ISO 8601 time")
      ->type_name("TIME");
  command.callback([&context, options] {
    context.action = [&context, options] { return run_usage(context, *options); };
  });
}

}  // namespace mission::cli
