// Planned work from the shell (docs/adr/0015): mission workflows list|show
// (--follow: its run, docs/adr/0026), mission workflows create (a person's
// plan file, cli/plan_file.hpp) and rm,
// mission plan (the task DAG drawn by dependency depth, or as DOT or
// Mermaid), mission next, mission progress, mission templates list|show|apply.
// Each asks the daemon's workflow.* or template.* method, which runs the
// planning module's own query; this file only lays the answers out.

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>

#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/list_pages.hpp"
#include "cli/output.hpp"
#include "cli/plan_file.hpp"
#include "cli/run_board.hpp"
#include "cli/table.hpp"
#include "cli/workflow_reference.hpp"
#include "shared/display_text.hpp"
#include "shared/error_code.hpp"

namespace mission::cli {
namespace {

struct PlanningOptions {
  std::string id;
  std::string format = "text";
  std::size_t limit = 0;
  // templates apply
  std::vector<std::string> variables;  // NAME=VALUE
  std::string name;
  std::string repository;
  std::int64_t max_parallel = 0;
  std::string cwd;
  bool follow = false;  // workflows show --follow
  std::string from;     // workflows create --from: a plan file, or - for stdin
};

std::string text_of(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : (value.is_null() ? "-" : value.dump());
}

// The mark of a task status in `mission plan` and `mission next`.
const char* status_mark(const std::string& status) {
  if (status == "completed") return "[x]";
  if (status == "in_progress") return "[>]";
  if (status == "ready") return "[ ]";
  if (status == "failed") return "[!]";
  if (status == "skipped") return "[-]";
  return "[.]";  // pending: waits for a prerequisite
}

Tone status_tone(const std::string& status) {
  if (status == "completed") return Tone::good;
  if (status == "failed") return Tone::bad;
  if (status == "in_progress") return Tone::attention;
  if (status == "pending" || status == "skipped") return Tone::dim;
  return Tone::plain;
}

// `options` with the workflow its id names (a prefix, a name, @last)
// given by its id.
PlanningOptions resolved(DaemonClient& client, PlanningOptions options) {
  options.id = resolve_workflow(client, options.id);
  return options;
}

int run_list(const CliContext& context, const PlanningOptions& options) {
  nlohmann::json params = nlohmann::json::object();
  if (options.limit > 0) params["limit"] = options.limit;
  nlohmann::json result = context.connect().client.call("workflow.list", params);
  if (context.options.json) {
    print_json(result);
    return kExitOk;
  }
  result = for_display(result);  // agents' text, printed as text only
  const auto& workflows = result.value("workflows", nlohmann::json::array());
  if (workflows.empty()) {
    std::printf(
        "No planned workflows (mission workflows create NAME --from PLAN makes one; an agent "
        "makes them with workflow_create or template_apply).\n");
    return kExitOk;
  }
  Table table({{"ID", TableColumn::Fit::whole},
               {"STATUS", TableColumn::Fit::whole},
               {"TASKS", TableColumn::Fit::whole, 1},
               {"NAME", TableColumn::Fit::flexible}});
  for (const auto& workflow : workflows) {
    const std::string tasks = std::to_string(workflow.value("inProgress", 0)) + " run/" +
                              std::to_string(workflow.value("taskCount", 0));
    table.add_row({{text_of(workflow["id"])},
                   {text_of(workflow["status"])},
                   {tasks},
                   {text_of(workflow["name"])}});
  }
  table.print();
  if (result.contains("nextCursor"))
    std::printf("(more: %zu shown of %s)\n", workflows.size(), text_of(result["total"]).c_str());
  return kExitOk;
}

// workflows show --follow: the workflow's run as `mission workflows run`
// shows it, from where it is now to its end.
int follow_show(const CliContext& context, DaemonConnection& connection,
                const PlanningOptions& options) {
  DaemonClient& client = connection.client;
  // Subscribed first, so nothing it does after we read it is missed.
  client.call("events.subscribe", nlohmann::json::object());
  nlohmann::json run;
  try {
    run = client.call("workflow.runStatus", {{"id", options.id}}).at("run");
  } catch (const MissionError& e) {
    if (e.code() != ErrorCode::not_found) throw;
    throw MissionError(
        ErrorCode::not_found, "workflow " + options.id + " has no run to follow: it was never run",
        "start one with mission workflows run " + options.id + " -- CMD (it draws the same board)",
        {{"workflow_id", options.id}});
  }
  const std::string status = text_of(run["status"]);
  const bool ended = run_has_ended(status);
  if (context.options.json) {
    std::printf("%s\n", json_text({{"type", "run.current"},
                                   {"runId", run["id"]},
                                   {"workflowId", options.id},
                                   {"run", run}})
                            .c_str());
    std::fflush(stdout);
  }
  // "3 tasks (1 merged, 2 running)".
  std::string counts;
  const nlohmann::json by_status = run.value("counts", nlohmann::json::object());
  for (const auto& [name, count] : by_status.items()) {
    counts += (counts.empty() ? "" : ", ") + text_of(count) + " " + name;
  }
  std::string header =
      (ended ? "No run under way: the last run of workflow " : "Following workflow ") + options.id +
      " (run " + text_of(run["id"]) +
      "): " + std::to_string(run.value("tasks", nlohmann::json::array()).size()) + " tasks" +
      (counts.empty() ? "" : " (" + counts + ")") + ", merged into " +
      text_of(run["integrationBranch"]);
  return follow_run(client, run, header, context.options.json);
}

int run_show(const CliContext& context, const PlanningOptions& given) {
  DaemonConnection connection = context.connect();
  const PlanningOptions options = resolved(connection.client, given);
  if (options.follow) return follow_show(context, connection, options);
  nlohmann::json result = connection.client.call("workflow.get", {{"id", options.id}});
  if (context.options.json) {
    print_json(result);
    return kExitOk;
  }
  result = for_display(result);  // agents' text, printed as text only
  std::vector<Field> fields = {{"id", text_of(result["id"])},
                               {"name", text_of(result["name"])},
                               {"status", text_of(result["status"])},
                               {"tasks", text_of(result["taskCount"])},
                               {"max parallel", text_of(result["maxParallelTasks"])},
                               {"directory", text_of(result["cwd"])},
                               {"created", short_time(result["createdAt"])}};
  if (result.contains("plan")) {
    fields.push_back({"summary", text_of(result["plan"]["summary"]), true});
    fields.push_back({"approach", text_of(result["plan"]["approach"]), true});
  }
  print_fields(fields);
  const std::size_t columns = output_columns();
  // Indented under the fields, by the mark of its status.
  Table tasks({{"", TableColumn::Fit::whole},
               {"", TableColumn::Fit::whole},
               {"", TableColumn::Fit::flexible}});
  for (const auto& task : result.value("tasks", nlohmann::json::array())) {
    const std::string status = text_of(task["status"]);
    tasks.add_row({{status_mark(status), status_tone(status)},
                   {text_of(task["id"])},
                   {text_of(task["name"])}});
  }
  const std::vector<std::string> task_lines = tasks.lines(columns - 2);
  for (std::size_t i = 1; i < task_lines.size(); ++i) std::printf("  %s\n", task_lines[i].c_str());
  if (result.value("tasksTruncated", false))
    std::printf("  ... (mission plan %s draws them all)\n", options.id.c_str());
  return kExitOk;
}

// Layers by dependency depth: a task with no prerequisite is at depth 0,
// any other one past its deepest prerequisite.
std::vector<std::vector<std::size_t>> layers_of(
    const nlohmann::json& nodes, const nlohmann::json& edges,
    std::vector<std::vector<std::size_t>>& prerequisites) {
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < nodes.size(); ++i) index[nodes[i]["id"].get<std::string>()] = i;
  prerequisites.assign(nodes.size(), {});
  std::vector<std::vector<std::size_t>> dependents(nodes.size());
  std::vector<std::size_t> waiting(nodes.size(), 0);
  for (const auto& edge : edges) {
    auto from = index.find(edge["from"].get<std::string>());
    auto to = index.find(edge["to"].get<std::string>());
    if (from == index.end() || to == index.end()) continue;
    prerequisites[to->second].push_back(from->second);
    dependents[from->second].push_back(to->second);
    ++waiting[to->second];
  }
  std::vector<std::size_t> depth(nodes.size(), 0);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (waiting[i] == 0) order.push_back(i);
  }
  for (std::size_t k = 0; k < order.size(); ++k) {
    for (std::size_t next : dependents[order[k]]) {
      depth[next] = std::max(depth[next], depth[order[k]] + 1);
      if (--waiting[next] == 0) order.push_back(next);
    }
  }
  std::vector<std::vector<std::size_t>> layers;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (depth[i] >= layers.size()) layers.resize(depth[i] + 1);
    layers[depth[i]].push_back(i);
  }
  return layers;
}

// The DAG for a terminal: one block per depth, each task with its status
// mark and what it waits for, every line within the output width.
void draw_plan(const nlohmann::json& graph) {
  const nlohmann::json& nodes = graph["nodes"];
  std::vector<std::vector<std::size_t>> prerequisites;
  auto layers = layers_of(nodes, graph["edges"], prerequisites);
  const std::size_t columns = output_columns();
  const auto& workflow = graph["workflow"];
  std::printf("%s\n",
              fit(text_of(workflow["name"]) + " (" + text_of(workflow["id"]) + ", " +
                      text_of(workflow["status"]) + ", " + std::to_string(nodes.size()) + " tasks)",
                  columns)
                  .c_str());
  std::printf("%s\n",
              fit("[x] completed  [>] in progress  [ ] ready  [.] waiting  [!] failed  [-] skipped",
                  columns)
                  .c_str());
  for (std::size_t depth = 0; depth < layers.size(); ++depth) {
    std::string head =
        "-- depth " + std::to_string(depth) + " (" + std::to_string(layers[depth].size()) + ") ";
    if (text::display_width(head) < columns)
      head += std::string(columns - text::display_width(head), '-');
    std::printf("%s\n", head.c_str());
    for (std::size_t node : layers[depth]) {
      const std::string status = text_of(nodes[node]["status"]);
      std::string line =
          std::string(status_mark(status)) + " " + safe(text_of(nodes[node]["name"]));
      if (!prerequisites[node].empty()) {
        std::string after;
        for (std::size_t p : prerequisites[node]) {
          after += (after.empty() ? "" : ", ") + safe(text_of(nodes[p]["name"]));
        }
        line += "  <- " + after;
      }
      std::string shown = text::elide_end(line, columns);
      std::printf("%s%s\n", styled(shown.substr(0, 3), status_tone(status)).c_str(),
                  shown.substr(3).c_str());
    }
  }
}

// An identifier DOT and Mermaid take: the task id without its dash.
std::string node_name(const nlohmann::json& id) {
  std::string out = text_of(id);
  std::replace(out.begin(), out.end(), '-', '_');
  return out;
}

std::string quoted(const std::string& text, bool mermaid) {
  std::string out;
  for (char c : safe(text)) {
    if (c == '"') {
      out += mermaid ? "#quot;" : "\\\"";
    } else if (c == '\\' && !mermaid) {
      out += "\\\\";
    } else {
      out += c;
    }
  }
  return "\"" + out + "\"";
}

void print_dot(const nlohmann::json& graph) {
  std::printf("digraph workflow {\n  rankdir=LR;\n  node [shape=box];\n");
  for (const auto& node : graph["nodes"]) {
    const std::string status = text_of(node["status"]);
    const char* colour = status == "completed"     ? "palegreen"
                         : status == "in_progress" ? "lightblue"
                         : status == "failed"      ? "salmon"
                         : status == "ready"       ? "white"
                                                   : "lightgrey";
    std::printf("  %s [label=%s, style=filled, fillcolor=%s];\n", node_name(node["id"]).c_str(),
                quoted(text_of(node["name"]) + " (" + status + ")", false).c_str(), colour);
  }
  for (const auto& edge : graph["edges"]) {
    std::printf("  %s -> %s%s;\n", node_name(edge["from"]).c_str(), node_name(edge["to"]).c_str(),
                edge.value("implied", false) ? " [style=dashed]" : "");
  }
  std::printf("}\n");
}

void print_mermaid(const nlohmann::json& graph) {
  std::printf("flowchart LR\n");
  for (const auto& node : graph["nodes"]) {
    std::printf("  %s[%s]:::%s\n", node_name(node["id"]).c_str(),
                quoted(text_of(node["name"]) + " (" + text_of(node["status"]) + ")", true).c_str(),
                text_of(node["status"]).c_str());
  }
  for (const auto& edge : graph["edges"]) {
    std::printf("  %s %s %s\n", node_name(edge["from"]).c_str(),
                edge.value("implied", false) ? "-.->" : "-->", node_name(edge["to"]).c_str());
  }
  std::printf(
      "  classDef completed fill:#cfc\n  classDef in_progress fill:#cdf\n  classDef failed "
      "fill:#fcc\n");
}

int run_plan(const CliContext& context, const PlanningOptions& given) {
  // A plan of thousands of tasks comes in pages of nodes and edges.
  DaemonConnection connection = context.connect();
  const PlanningOptions options = resolved(connection.client, given);
  nlohmann::json graph =
      fetch_document(connection.client, "workflow.graph", {{"id", options.id}}, {"nodes", "edges"});
  if (context.options.json) {
    print_json(graph);
    return kExitOk;
  }
  graph = for_display(graph);  // agents' text, printed as text only
  if (options.format == "dot") {
    print_dot(graph);
  } else if (options.format == "mermaid") {
    print_mermaid(graph);
  } else {
    draw_plan(graph);
  }
  return kExitOk;
}

int run_next(const CliContext& context, const PlanningOptions& given) {
  DaemonConnection connection = context.connect();
  const PlanningOptions options = resolved(connection.client, given);
  nlohmann::json params = {{"id", options.id}};
  if (options.limit > 0) params["limit"] = options.limit;
  nlohmann::json result = connection.client.call("workflow.next", params);
  if (context.options.json) {
    print_json(result);
    return kExitOk;
  }
  result = for_display(result);  // agents' text, printed as text only
  const std::size_t columns = output_columns();
  std::printf("%s ready, %s in progress, %s recommended (max parallel %s)%s\n",
              text_of(result["availableCount"]).c_str(), text_of(result["inProgressCount"]).c_str(),
              text_of(result["recommendedCount"]).c_str(), text_of(result["maxParallel"]).c_str(),
              result.value("allComplete", false) ? "; every task is done" : "");
  for (const auto& task : result.value("tasks", nlohmann::json::array())) {
    const bool recommended = task.value("recommended", false);
    std::string line = std::string(recommended ? "* " : "  ") + text_of(task["id"]) + "  chain " +
                       text_of(task["criticalPathLength"]) + "  " + safe(text_of(task["name"]));
    if (task.contains("heldBack")) line += "  (" + text_of(task["heldBack"]) + ")";
    std::printf(
        "%s\n",
        styled(text::elide_end(line, columns), recommended ? Tone::bold : Tone::plain).c_str());
  }
  return kExitOk;
}

// "[#####.....]  5/10" in `width` columns on a terminal.
std::string bar(std::int64_t done, std::int64_t total, std::size_t width) {
  const std::size_t filled =
      total > 0 ? static_cast<std::size_t>(done * static_cast<std::int64_t>(width) / total) : 0;
  return "[" + std::string(filled, '#') + std::string(width - filled, '.') + "]";
}

int run_progress(const CliContext& context, const PlanningOptions& given) {
  DaemonConnection connection = context.connect();
  const PlanningOptions options = resolved(connection.client, given);
  nlohmann::json result = connection.client.call("workflow.progress", {{"id", options.id}});
  if (context.options.json) {
    print_json(result);
    return kExitOk;
  }
  result = for_display(result);  // agents' text, printed as text only
  const bool terminal = ::isatty(STDOUT_FILENO) == 1;
  const std::size_t columns = output_columns();
  std::string counts;
  for (const auto& [status, count] : result["byStatus"].items()) {
    counts +=
        (counts.empty() ? "" : ", ") + std::to_string(count.get<std::int64_t>()) + " " + status;
  }
  std::printf("%s: %s tasks (%s)\n", text_of(result["workflowStatus"]).c_str(),
              text_of(result["totalTasks"]).c_str(), counts.c_str());
  if (!result["estimatedRemaining"].is_null()) {
    std::printf("about %s s left (from %s finished tasks' durations)\n",
                text_of(result["estimatedRemaining"]).c_str(),
                text_of(result["estimateBasis"]).c_str());
  }
  auto rows = [&](const char* title, const nlohmann::json& list, const char* key) {
    if (list.empty()) return;
    std::printf("%s\n", title);
    for (const auto& entry : list) {
      const std::int64_t done = entry["completed"].get<std::int64_t>();
      const std::int64_t total = entry["taskCount"].get<std::int64_t>();
      const std::string label = fit(text_of(entry[key]), 16);
      const std::string tally = std::to_string(done) + "/" + std::to_string(total);
      if (terminal) {
        const std::size_t width = columns > 40 ? std::min<std::size_t>(columns - 32, 50) : 8;
        std::printf(
            "  %s %s %s\n", padded(label, 16).c_str(),
            styled(bar(done, total, width), done == total ? Tone::good : Tone::plain).c_str(),
            tally.c_str());
      } else {
        std::printf("  %s %s completed\n", padded(label, 16).c_str(), tally.c_str());
      }
    }
  };
  rows("sequences:", result["sequences"], "sequence");
  rows("parallel groups:", result["parallelGroups"], "groupId");
  const auto& blocked = result["blockedTasks"];
  if (!blocked.empty()) {
    std::printf("blocked (%s):\n", text_of(result["blockedCount"]).c_str());
    for (const auto& task : blocked) {
      std::printf("  %s\n", text::elide_end(safe(text_of(task["name"])) + " <- " +
                                                safe(joined(task["blockedBy"], ", ")),
                                            columns > 2 ? columns - 2 : columns)
                                .c_str());
    }
  }
  return kExitOk;
}

int run_templates_list(const CliContext& context, const PlanningOptions& options) {
  nlohmann::json params = nlohmann::json::object();
  if (options.limit > 0) params["limit"] = options.limit;
  nlohmann::json result = context.connect().client.call("template.list", params);
  if (context.options.json) {
    print_json(result);
    return kExitOk;
  }
  result = for_display(result);  // agents' text, printed as text only
  const auto& templates = result.value("templates", nlohmann::json::array());
  if (templates.empty())
    std::printf("No templates (an agent creates them with template_create).\n");
  const std::size_t columns = output_columns();
  for (const auto& entry : templates) {
    std::string variables;
    for (const auto& variable : entry["variables"]) {
      variables += (variables.empty() ? "" : " ") + safe(text_of(variable["name"])) +
                   (variable.value("required", false) ? "" : "?");
    }
    std::printf("%s\n", text::elide_end(text_of(entry["id"]) + "  " + safe(text_of(entry["name"])) +
                                            "  " + text_of(entry["taskCount"]) + " tasks" +
                                            (variables.empty() ? "" : "  {" + variables + "}"),
                                        columns)
                            .c_str());
  }
  return kExitOk;
}

int run_templates_show(const CliContext& context, const PlanningOptions& options) {
  nlohmann::json result = context.connect().client.call("template.get", {{"id", options.id}});
  if (context.options.json) {
    print_json(result);
    return kExitOk;
  }
  result = for_display(result);  // agents' text, printed as text only
  print_fields({{"id", text_of(result["id"])},
                {"name", text_of(result["name"])},
                {"description", text_of(result["description"]), true},
                {"created", short_time(result["createdAt"])}});
  const auto& definition = result["definition"];
  for (const auto& variable : definition.value("variables", nlohmann::json::array())) {
    std::printf("  {{%s}}%s%s\n", safe(text_of(variable["name"])).c_str(),
                variable.value("required", false) ? " required" : "",
                variable.contains("default")
                    ? (" default " + safe(text_of(variable["default"]))).c_str()
                    : "");
  }
  const std::size_t columns = output_columns();
  for (const auto& task : definition.value("tasks", nlohmann::json::array())) {
    std::string line = "  " + text_of(task["sequence"]) + ". " + safe(text_of(task["name"]));
    if (task.contains("depends_on") && !task["depends_on"].empty())
      line += "  <- " + safe(joined(task["depends_on"], ", "));
    std::printf("%s\n", text::elide_end(line, columns).c_str());
  }
  return kExitOk;
}

int run_templates_apply(const CliContext& context, const PlanningOptions& options) {
  nlohmann::json variables = nlohmann::json::object();
  for (const auto& assignment : options.variables) {
    const auto equals = assignment.find('=');
    variables[assignment.substr(0, equals)] = assignment.substr(equals + 1);
  }
  nlohmann::json params = {{"id", options.id},
                           {"variables", std::move(variables)},
                           {"cwd", CliContext::working_directory(options.cwd)}};
  if (!options.name.empty()) params["name"] = options.name;
  if (!options.repository.empty())
    params["repositoryPath"] = CliContext::working_directory(options.repository);
  if (options.max_parallel > 0) params["maxParallelTasks"] = options.max_parallel;
  nlohmann::json result = context.connect().client.call("template.apply", params);
  if (context.options.json) {
    print_json(result);
    return kExitOk;
  }
  result = for_display(result);  // agents' text, printed as text only
  const std::string workflow = text_of(result["workflowId"]);
  std::printf("Workflow %s created from template %s: %s tasks, %s.\n", workflow.c_str(),
              safe(text_of(result["templateId"])).c_str(), text_of(result["tasksCreated"]).c_str(),
              text_of(result["status"]).c_str());
  std::printf("Next: mission next %s (agents take its tasks with task_claim)\n", workflow.c_str());
  return kExitOk;
}

int run_create_from_plan(const CliContext& context, const PlanningOptions& options) {
  const bool from_stdin = options.from == "-";
  const std::string shown = from_stdin ? "stdin" : options.from;
  // Checked here, with the file's lines; the daemon gets the plan whole.
  nlohmann::json params = parse_plan_file(read_plan_text(options.from), shown);
  params["name"] = options.name;
  params["cwd"] = CliContext::working_directory(options.cwd);
  params["sourceRef"] = from_stdin
                            ? std::string("stdin")
                            : std::filesystem::absolute(options.from).lexically_normal().string();
  nlohmann::json result = context.connect().client.call("workflow.create", params);
  if (context.options.json) {
    print_json(result);
    return kExitOk;
  }
  const std::string workflow = text_of(result["workflowId"]);
  const std::int64_t tasks = result.value("tasksCreated", std::int64_t{0});
  const std::int64_t dependencies = result.value("dependencies", std::int64_t{0});
  std::printf("Workflow %s (%s) created: %lld task%s, %lld dependenc%s, %s.\n", workflow.c_str(),
              safe(options.name).c_str(), static_cast<long long>(tasks), tasks == 1 ? "" : "s",
              static_cast<long long>(dependencies), dependencies == 1 ? "y" : "ies",
              text_of(result["status"]).c_str());
  std::printf("Next: mission plan %s to review it; mission workflows run %s -- AGENT to run it.\n",
              workflow.c_str(), workflow.c_str());
  return kExitOk;
}

int run_remove_workflow(const CliContext& context, const PlanningOptions& given) {
  DaemonConnection connection = context.connect();
  const PlanningOptions options = resolved(connection.client, given);
  nlohmann::json result = connection.client.call("workflow.delete", {{"id", options.id}});
  if (context.options.json) {
    print_json(result);
    return kExitOk;
  }
  result = for_display(result);  // agents' text, printed as text only
  const std::int64_t tasks = result.value("tasksDeleted", std::int64_t{0});
  std::printf("Workflow %s (%s, %s) deleted with its %lld task%s.\n", text_of(result["id"]).c_str(),
              text_of(result["name"]).c_str(), text_of(result["status"]).c_str(),
              static_cast<long long>(tasks), tasks == 1 ? "" : "s");
  return kExitOk;
}

template <int (*Run)(const CliContext&, const PlanningOptions&)>
void on_run(CLI::App* command, CliContext& context, std::shared_ptr<PlanningOptions> options) {
  command->callback([&context, options] {
    context.action = [&context, options] { return Run(context, *options); };
  });
}

}  // namespace

void define_workflows_command(CLI::App& command, CliContext& context) {
  command.require_subcommand(1);
  auto options = std::make_shared<PlanningOptions>();
  CLI::App* list = command.add_subcommand("list", "List planned workflows");
  list->add_option("--limit", options->limit, "At most this many (default 20)")
      ->check(CLI::Range(1, 200))
      ->type_name("N");
  on_run<run_list>(list, context, options);
  CLI::App* show = command.add_subcommand("show", "Show a planned workflow, its plan and tasks");
  show->add_option("id", options->id, kWorkflowArgumentHelp)->required()->type_name("WF");
  show->add_flag(
      "--follow", options->follow,
      "Follow its run until it ends: a live board on a terminal, else a line per change");
  on_run<run_show>(show, context, options);
  CLI::App* create =
      command.add_subcommand("create", "Create a planned workflow from a plan file (TOML or JSON)");
  create->add_option("name", options->name, "The workflow's name")->required()->type_name("NAME");
  create
      ->add_option("--from", options->from,
                   "The plan file: .toml, .json, or - to read it from stdin (see PLAN FILES)")
      ->required()
      ->type_name("FILE");
  create->add_option("--cwd", options->cwd, "The workflow's working directory (default: current)")
      ->type_name("DIR");
  on_run<run_create_from_plan>(create, context, options);
  CLI::App* remove = command.add_subcommand(
      "rm", "Delete a workflow with its tasks and records (not while it runs)");
  remove->add_option("id", options->id, kWorkflowArgumentHelp)->required()->type_name("WF");
  on_run<run_remove_workflow>(remove, context, options);
  define_workflow_run_commands(command, context);
  define_workflow_budget_command(command, context);
  define_workflow_review_commands(command, context);
  define_workflow_plan_command(command, context);
  define_workflow_edit_command(command, context);
}

void define_plan_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<PlanningOptions>();
  command.add_option("id", options->id, kWorkflowArgumentHelp)->required()->type_name("WF");
  command.add_option("--format", options->format, "text (default), dot or mermaid")
      ->check(CLI::IsMember({"text", "dot", "mermaid"}))
      ->type_name("FORMAT");
  on_run<run_plan>(&command, context, options);
}

void define_next_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<PlanningOptions>();
  command.add_option("id", options->id, kWorkflowArgumentHelp)->required()->type_name("WF");
  command.add_option("--limit", options->limit, "At most this many tasks (default and most: 50)")
      ->check(CLI::Range(1, 50))
      ->type_name("N");
  on_run<run_next>(&command, context, options);
}

void define_progress_command(CLI::App& command, CliContext& context) {
  auto options = std::make_shared<PlanningOptions>();
  command.add_option("id", options->id, kWorkflowArgumentHelp)->required()->type_name("WF");
  on_run<run_progress>(&command, context, options);
}

void define_templates_command(CLI::App& command, CliContext& context) {
  command.require_subcommand(1);
  auto options = std::make_shared<PlanningOptions>();
  CLI::App* list = command.add_subcommand("list", "List workflow templates");
  list->add_option("--limit", options->limit, "At most this many (default 50)")
      ->check(CLI::Range(1, 200))
      ->type_name("N");
  on_run<run_templates_list>(list, context, options);
  CLI::App* show = command.add_subcommand("show", "Show a template: variables and tasks");
  show->add_option("id", options->id, "Template id or name")->required()->type_name("ID");
  on_run<run_templates_show>(show, context, options);
  CLI::App* apply = command.add_subcommand("apply", "Create a planned workflow from a template");
  apply->add_option("id", options->id, "Template id or name")->required()->type_name("TEMPLATE");
  apply
      ->add_option("--var", options->variables, "Give the template's {{NAME}} a value (repeatable)")
      ->type_name("NAME=VALUE")
      ->check([](const std::string& value) {
        return value.find('=') == std::string::npos || value.front() == '='
                   ? std::string("expected NAME=VALUE")
                   : std::string();
      });
  apply->add_option("--name", options->name, "The workflow's name (default: the template's)")
      ->type_name("NAME");
  apply
      ->add_option("--repository", options->repository,
                   "Register the workflow's repository (a path)")
      ->type_name("DIR");
  apply
      ->add_option("--max-parallel", options->max_parallel,
                   "Tasks that may run at once (default 1)")
      ->check(CLI::Range(1, 64))
      ->type_name("N");
  apply->add_option("--cwd", options->cwd, "The workflow's working directory (default: current)")
      ->type_name("DIR");
  on_run<run_templates_apply>(apply, context, options);
}

}  // namespace mission::cli
