#include "cli/plan_file_writer.hpp"

#include "shared/toml_string.hpp"

namespace mission::cli {
namespace {

using nlohmann::json;

bool literal_fits(std::string_view text) {
  if (text.find('\n') == std::string_view::npos) return false;
  if (text.find("'''") != std::string_view::npos) return false;
  // A literal string ending in a quote would end early.
  if (!text.empty() && text.back() == '\'') return false;
  for (unsigned char c : text) {
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return false;
  }
  return true;
}

void add_key(std::string& out, std::string_view key, const std::string& value) {
  out.append(key).append(" = ").append(value).append("\n");
}

std::string string_list(const json& list) {
  std::string out = "[";
  bool first = true;
  for (const auto& item : list) {
    if (!item.is_string()) continue;
    out += first ? "" : ", ";
    out += toml_string(item.get<std::string>());
    first = false;
  }
  return out + "]";
}

void add_list(std::string& out, std::string_view key, const json& list) {
  if (list.is_array() && !list.empty()) add_key(out, key, string_list(list));
}

}  // namespace

std::string toml_string(std::string_view text) {
  // A newline right after the opening quotes is dropped by a reader, so one
  // is always written there: the text's own first newline survives.
  if (literal_fits(text)) return "'''\n" + std::string(text) + "'''";
  return toml_basic_string(text);
}

std::string plan_file_toml(const json& document) {
  const json& plan = document.at("plan");
  std::string out;
  // The name is left out: a comment cannot hold a newline it may have.
  out += "# The plan of workflow " + document.value("id", std::string()) + ".\n";
  out += "# Keys: mission(1), PLAN FILES. A task's depends_on names other tasks.\n";
  add_key(out, "summary", toml_string(plan.value("summary", std::string())));
  add_key(out, "approach", toml_string(plan.value("approach", std::string())));
  add_key(out, "max_parallel_tasks", std::to_string(document.value("maxParallelTasks", 1)));
  if (document.value("autoCreateWorkspaces", false)) add_key(out, "auto_create_workspaces", "true");
  add_list(out, "risks", plan.value("risks", json::array()));
  add_list(out, "assumptions", plan.value("assumptions", json::array()));
  for (const auto& task : plan.value("tasks", json::array())) {
    out += "\n[[tasks]]\n";
    add_key(out, "name", toml_string(task.value("name", std::string())));
    add_key(out, "description", toml_string(task.value("description", std::string())));
    add_list(out, "depends_on", task.value("depends_on", json::array()));
    add_list(out, "files_likely_affected", task.value("files_likely_affected", json::array()));
    add_list(out, "acceptance_criteria", task.value("acceptance_criteria", json::array()));
    if (task.value("sequence", std::int64_t{0}) != 0)
      add_key(out, "sequence", std::to_string(task.at("sequence").get<std::int64_t>()));
    if (task.contains("parallel_group") && task.at("parallel_group").is_string())
      add_key(out, "parallel_group", toml_string(task.at("parallel_group").get<std::string>()));
    if (task.contains("estimated_complexity") && task.at("estimated_complexity").is_string())
      add_key(out, "estimated_complexity",
              toml_string(task.at("estimated_complexity").get<std::string>()));
  }
  return out;
}

}  // namespace mission::cli
