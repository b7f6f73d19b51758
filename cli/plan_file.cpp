#include "cli/plan_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "cli/toml_document.hpp"
#include "shared/bounded_json.hpp"
#include "shared/edit_distance.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::cli {
namespace {

using nlohmann::json;

constexpr std::string_view kPlanKeys[] = {"summary",
                                          "approach",
                                          "tasks",
                                          "risks",
                                          "assumptions",
                                          "max_parallel_tasks",
                                          "auto_create_workspaces"};
constexpr std::string_view kTaskKeys[] = {"name",
                                          "description",
                                          "sequence",
                                          "parallel_group",
                                          "depends_on",
                                          "estimated_complexity",
                                          "files_likely_affected",
                                          "acceptance_criteria"};

std::string key_list(std::span<const std::string_view> keys) {
  std::string out;
  for (auto key : keys) out += (out.empty() ? "" : ", ") + std::string(key);
  return out;
}

// Characters as JSON Schema's maxLength counts them: code points.
std::size_t code_points(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

const char* type_word(const json& value) {
  switch (value.type()) {
    case json::value_t::string:
      return "text";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "an integer";
    case json::value_t::number_float:
      return "a number with a fraction";
    case json::value_t::boolean:
      return "true or false";
    case json::value_t::array:
      return "a list";
    case json::value_t::object:
      return "a table";
    default:
      return "null";
  }
}

bool is_integer(const json& value) {
  return value.is_number_integer() || value.is_number_unsigned();
}

class PlanChecker {
 public:
  PlanChecker(const LinedDocument& document, const std::string& file_name)
      : document_(document), file_(file_name) {}

  json check() {
    const json& root = document_.root;
    if (!root.is_object()) {
      fail("", "", std::string("a plan is a table of keys (a JSON object), not ") + type_word(root),
           "start from the example in mission(1), PLAN FILES");
    }
    refuse_unknown_keys(root, "", "", kPlanKeys, "a plan");
    json plan = json::object();
    plan["summary"] = *text(root, "", "summary", "", 0, true);
    plan["approach"] = text(root, "", "approach", "", 0, false).value_or("");
    plan["risks"] = texts(root, "", "risks", "", 0);
    plan["assumptions"] = texts(root, "", "assumptions", "", 0);
    json out = json::object();
    if (root.contains("max_parallel_tasks")) {
      const json& value = root["max_parallel_tasks"];
      if (!is_integer(value) || value.get<std::int64_t>() < 1 ||
          value.get<std::int64_t>() > kMaxParallelTasks) {
        fail("/max_parallel_tasks", "",
             "max_parallel_tasks must be an integer from 1 to " +
                 std::to_string(kMaxParallelTasks) + ", not " +
                 (is_integer(value) ? value.dump() : std::string(type_word(value))),
             "say how many tasks may run at once, e.g. max_parallel_tasks = 2");
      }
      out["maxParallelTasks"] = value.get<std::int64_t>();
    }
    if (root.contains("auto_create_workspaces")) {
      const json& value = root["auto_create_workspaces"];
      if (!value.is_boolean()) {
        fail("/auto_create_workspaces", "",
             std::string("auto_create_workspaces must be true or false, not ") + type_word(value),
             "write auto_create_workspaces = true or false");
      }
      out["autoCreateWorkspaces"] = value.get<bool>();
    }
    plan["tasks"] = tasks(root);
    out["plan"] = std::move(plan);
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& pointer, const std::string& task,
                         const std::string& message, const std::string& hint) const {
    const std::size_t line = document_.line_of(pointer);
    std::string where = file_ + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": ";
    if (!task.empty()) where += task + ": ";
    json detail = {{"file", file_}};
    if (line > 0) {
      detail["line"] = line;
    } else if (!pointer.empty()) {
      detail["pointer"] = pointer;
    }
    // Without lines (JSON), where in the document it is.
    const std::string at = line == 0 && !pointer.empty() ? " (at " + pointer + ")" : "";
    throw MissionError(ErrorCode::invalid_argument, where + message + at, hint, std::move(detail));
  }

  void refuse_unknown_keys(const json& table, const std::string& pointer, const std::string& task,
                           std::span<const std::string_view> known, const char* what) const {
    for (const auto& [key, value] : table.items()) {
      if (std::find(known.begin(), known.end(), key) != known.end()) continue;
      std::string hint = std::string(what) + " takes " + key_list(known);
      for (auto candidate : known) {
        if (edit_distance(key, candidate) <= 2) {
          hint = "did you mean " + std::string(candidate) + "? " + hint;
          break;
        }
      }
      fail(pointer + "/" + pointer_token(key), task, "unknown key `" + key + "`", hint);
    }
  }

  // The text at `key` of `table`: nullopt when absent and not required.
  // `max_chars` 0: no limit here (the daemon's schema holds it).
  std::optional<std::string> text(const json& table, const std::string& pointer, const char* key,
                                  const std::string& task, std::size_t max_chars,
                                  bool required) const {
    const std::string at = pointer + "/" + key;
    if (!table.contains(key)) {
      if (!required) return std::nullopt;
      fail(pointer, task, std::string("`") + key + "` is missing",
           std::string("give it ") + key + " = \"...\"");
    }
    const json& value = table[key];
    if (!value.is_string())
      fail(at, task, std::string(key) + " must be text, not " + type_word(value), "quote it");
    std::string out = value.get<std::string>();
    if (max_chars > 0 && code_points(out) > max_chars) {
      fail(at, task,
           std::string(key) + " has " + std::to_string(code_points(out)) +
               " characters, more than the " + std::to_string(max_chars) + " it may have",
           "shorten it");
    }
    return out;
  }

  json texts(const json& table, const std::string& pointer, const char* key,
             const std::string& task, std::size_t max_items) const {
    if (!table.contains(key)) return json::array();
    const std::string at = pointer + "/" + key;
    const json& value = table[key];
    if (!value.is_array()) {
      fail(at, task, std::string(key) + " must be a list of text, not " + type_word(value),
           std::string("write ") + key + " = [\"...\", \"...\"]");
    }
    if (max_items > 0 && value.size() > max_items) {
      fail(at, task,
           std::string(key) + " has " + std::to_string(value.size()) + " entries, more than the " +
               std::to_string(max_items) + " it may have",
           "keep the ones that matter");
    }
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (!value[i].is_string()) {
        fail(at + "/" + std::to_string(i), task,
             std::string(key) + " must be a list of text; entry " + std::to_string(i + 1) + " is " +
                 type_word(value[i]),
             "quote it");
      }
    }
    return value;
  }

  json tasks(const json& root) {
    if (!root.contains("tasks")) {
      fail("", "", "the plan has no tasks",
           "add one [[tasks]] table per task (in JSON a \"tasks\" list)");
    }
    const json& list = root["tasks"];
    if (!list.is_array() || list.empty()) {
      fail("/tasks", "",
           list.is_array() ? std::string("the plan has no tasks")
                           : std::string("tasks must be a list of tables, not ") + type_word(list),
           "add one [[tasks]] table per task (in JSON a \"tasks\" list)");
    }
    if (list.size() > limits::kMaxPlanTasks) {
      fail("/tasks", "",
           "the plan has " + std::to_string(list.size()) + " tasks, more than the " +
               std::to_string(limits::kMaxPlanTasks) + " a workflow may have",
           "split the work over several workflows");
    }
    json out = json::array();
    std::map<std::string, std::size_t> index_of;
    std::vector<std::string> labels;
    std::size_t edges = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string at = "/tasks/" + std::to_string(i);
      const json& entry = list[i];
      std::string label = "task " + std::to_string(i + 1);
      if (!entry.is_object())
        fail(at, label, std::string("a task is a table, not ") + type_word(entry),
             "write each task as a [[tasks]] table (in JSON an object)");
      if (entry.contains("name") && entry["name"].is_string())
        label = "task `" + entry["name"].get<std::string>() + "`";
      refuse_unknown_keys(entry, at, label, kTaskKeys, "a task");
      const std::string name = *text(entry, at, "name", label, limits::kMaxPlanTaskNameChars, true);
      if (name.empty()) fail(at + "/name", label, "its name is empty", "name the task");
      if (auto [first, fresh] = index_of.emplace(name, i); !fresh) {
        const std::size_t line = document_.line_of("/tasks/" + std::to_string(first->second));
        fail(at + "/name", label,
             "a task named `" + name + "` is already " +
                 (line > 0 ? "at line " + std::to_string(line)
                           : "task " + std::to_string(first->second + 1)),
             "give each task a name of its own: depends_on names tasks by it");
      }
      json task = json::object();
      task["name"] = name;
      task["description"] =
          *text(entry, at, "description", label, limits::kMaxPlanTaskDescriptionChars, true);
      std::int64_t sequence = 0;
      if (entry.contains("sequence")) {
        const json& value = entry["sequence"];
        if (!is_integer(value) || value.get<std::int64_t>() < 0) {
          fail(at + "/sequence", label,
               "sequence must be an integer from 0, not " +
                   (is_integer(value) ? value.dump() : std::string(type_word(value))),
               "tasks of a lower sequence run first; or name prerequisites in depends_on");
        }
        sequence = value.get<std::int64_t>();
      }
      task["sequence"] = sequence;
      sequences_.push_back(sequence);
      if (auto group =
              text(entry, at, "parallel_group", label, limits::kMaxPlanTaskGroupChars, false))
        task["parallel_group"] = *group;
      if (auto complexity = text(entry, at, "estimated_complexity", label, 0, false)) {
        if (*complexity != "low" && *complexity != "medium" && *complexity != "high") {
          fail(at + "/estimated_complexity", label,
               "estimated_complexity is `" + *complexity + "`; it is low, medium or high",
               "write one of low, medium or high");
        }
        task["estimated_complexity"] = *complexity;
      }
      task["depends_on"] = texts(entry, at, "depends_on", label, limits::kMaxTaskDependencies);
      edges += task["depends_on"].size();
      if (edges > limits::kMaxPlanEdges) {
        fail(at + "/depends_on", label,
             "the plan's depends_on lists name more than " + std::to_string(limits::kMaxPlanEdges) +
                 " prerequisites in all",
             "split the work over several workflows");
      }
      task["files_likely_affected"] = texts(entry, at, "files_likely_affected", label, 0);
      task["acceptance_criteria"] = texts(entry, at, "acceptance_criteria", label, 0);
      labels.push_back(label);
      out.push_back(std::move(task));
    }
    // Every depends_on answered by a task, none by the task itself.
    prerequisites_.assign(out.size(), {});
    for (std::size_t i = 0; i < out.size(); ++i) {
      const json& depends_on = out[i]["depends_on"];
      for (std::size_t k = 0; k < depends_on.size(); ++k) {
        const std::string wanted = depends_on[k].get<std::string>();
        const std::string at = "/tasks/" + std::to_string(i) + "/depends_on/" + std::to_string(k);
        auto found = index_of.find(wanted);
        if (found == index_of.end()) {
          fail(at, labels[i], "depends_on names `" + wanted + "`, which no task has",
               "name a task of this plan by its name");
        }
        if (found->second == i) {
          fail(at, labels[i], "it depends on itself",
               "take `" + wanted + "` out of its own depends_on");
        }
        prerequisites_[i].push_back(found->second);
      }
    }
    refuse_cycle(out);
    return out;
  }

  // A cycle among the tasks, through depends_on or through sequence (a task
  // without depends_on waits for every task of the greatest sequence below
  // its own), refused by naming its tasks. Sequence stages are nodes of
  // their own, so the graph stays as small as the plan.
  void refuse_cycle(const json& tasks) const {
    const std::size_t n = tasks.size();
    std::vector<std::int64_t> stages(sequences_);
    std::sort(stages.begin(), stages.end());
    stages.erase(std::unique(stages.begin(), stages.end()), stages.end());
    auto stage_node = [&](std::int64_t sequence) {
      return n + static_cast<std::size_t>(std::lower_bound(stages.begin(), stages.end(), sequence) -
                                          stages.begin());
    };
    std::vector<std::vector<std::size_t>> next(n + stages.size());
    for (std::size_t i = 0; i < n; ++i) {
      next[stage_node(sequences_[i])].push_back(i);
      if (!prerequisites_[i].empty()) {
        next[i] = prerequisites_[i];
      } else if (sequences_[i] > stages.front()) {
        next[i].push_back(stage_node(sequences_[i]) - 1);
      }
    }
    // Depth-first without recursion: a chain of thousands of tasks must
    // not exhaust the stack.
    enum : char { unseen, open, closed };
    std::vector<char> state(next.size(), unseen);
    std::vector<std::pair<std::size_t, std::size_t>> stack;  // node, next edge
    for (std::size_t start = 0; start < n; ++start) {
      if (state[start] != unseen) continue;
      stack.push_back({start, 0});
      state[start] = open;
      while (!stack.empty()) {
        auto& [node, edge] = stack.back();
        if (edge == next[node].size()) {
          state[node] = closed;
          stack.pop_back();
          continue;
        }
        const std::size_t to = next[node][edge++];
        if (state[to] == unseen) {
          state[to] = open;
          stack.push_back({to, 0});
        } else if (state[to] == open) {
          std::vector<std::size_t> cycle;
          bool through_sequence = false;
          auto from = std::find_if(stack.begin(), stack.end(),
                                   [&](const auto& frame) { return frame.first == to; });
          for (; from != stack.end(); ++from) {
            if (from->first < n) {
              cycle.push_back(from->first);
            } else {
              through_sequence = true;
            }
          }
          describe_cycle(tasks, cycle, through_sequence);
        }
      }
    }
  }

  [[noreturn]] void describe_cycle(const json& tasks, const std::vector<std::size_t>& cycle,
                                   bool through_sequence) const {
    auto name = [&](std::size_t i) { return "`" + tasks[i]["name"].get<std::string>() + "`"; };
    std::string text = name(cycle.front());
    const std::size_t shown = std::min(cycle.size(), kMaxCycleTasksShown);
    for (std::size_t k = 1; k < shown; ++k) text += " waits for " + name(cycle[k]) + ", which";
    if (shown < cycle.size()) {
      text += " ... (" + std::to_string(cycle.size()) + " tasks in all), which";
    }
    text += " waits for " + name(cycle.front());
    std::string hint = "take one of those out of the other's depends_on";
    if (through_sequence) {
      hint +=
          "; a task without depends_on waits for every task of the sequence before its own, so "
          "check the sequences too";
    }
    fail("/tasks/" + std::to_string(cycle.front()), "",
         "tasks depend on each other in a cycle: " + text, hint);
  }

  const LinedDocument& document_;
  std::string file_;
  std::vector<std::int64_t> sequences_;
  std::vector<std::vector<std::size_t>> prerequisites_;
};

LinedDocument read_json(std::string_view text, const std::string& file_name) {
  if (json_too_deep(text)) {
    throw MissionError(ErrorCode::invalid_argument,
                       file_name + ": nests lists and objects deeper than " +
                           std::to_string(limits::kMaxJsonDepth),
                       "a plan needs three levels: the plan, its tasks, their lists");
  }
  LinedDocument document;
  try {
    document.root = json::parse(text);
  } catch (const json::parse_error& e) {
    const std::size_t byte = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    const std::size_t line =
        1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + byte, '\n'));
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 2: ..."
    if (auto column = what.find("column "); column != std::string::npos) {
      if (auto colon = what.find(": ", column); colon != std::string::npos)
        what = what.substr(colon + 2);
    }
    throw MissionError(ErrorCode::invalid_argument,
                       file_name + ":" + std::to_string(line) + ": " + what,
                       "fix the JSON there; mission(1), PLAN FILES, shows a plan",
                       {{"file", file_name}, {"line", line}});
  }
  return document;
}

}  // namespace

PlanFormat plan_format(std::string_view file_name, std::string_view text) {
  auto ends_with = [&](std::string_view suffix) {
    return file_name.size() >= suffix.size() &&
           file_name.substr(file_name.size() - suffix.size()) == suffix;
  };
  if (ends_with(".toml")) return PlanFormat::toml;
  if (ends_with(".json")) return PlanFormat::json;
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '{' ? PlanFormat::json
                                                               : PlanFormat::toml;
}

json parse_plan_file(std::string_view text, const std::string& file_name) {
  if (text.size() > kMaxPlanFileBytes) {
    throw MissionError(ErrorCode::payload_too_large,
                       file_name + " has more than " + std::to_string(kMaxPlanFileBytes) +
                           " bytes, the most a plan file may have",
                       "split the work over several workflows, or shorten the descriptions",
                       {{"file", file_name}, {"max_bytes", kMaxPlanFileBytes}});
  }
  const LinedDocument document = plan_format(file_name, text) == PlanFormat::json
                                     ? read_json(text, file_name)
                                     : read_toml(text, file_name);
  return PlanChecker(document, file_name).check();
}

std::string read_plan_text(const std::string& path) {
  std::FILE* file = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    throw MissionError(ErrorCode::invalid_argument,
                       "cannot read the plan file " + path + ": " + std::strerror(errno),
                       "give the path of a plan file (TOML or JSON), or - to read it from stdin");
  }
  std::string text;
  char buffer[64 * 1024];
  std::size_t got = 0;
  while (text.size() <= kMaxPlanFileBytes &&
         (got = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
    text.append(buffer, got);
  }
  const bool failed = std::ferror(file) != 0;
  const int error = errno;
  if (file != stdin) std::fclose(file);
  if (failed) {
    throw MissionError(ErrorCode::invalid_argument,
                       "cannot read the plan file " + path + ": " + std::strerror(error),
                       "give the path of a plan file (TOML or JSON), or - to read it from stdin");
  }
  return text;
}

}  // namespace mission::cli
