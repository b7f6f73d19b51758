#include "daemon/planning/templates.hpp"

#include <algorithm>
#include <set>

#include "daemon/planning/dag.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::planning {
namespace {

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

// Calls `visit(name, begin, end)` for each {{...}} of `text`.
template <class Visit>
void scan(const std::string& text, Visit visit) {
  std::size_t at = 0;
  while ((at = text.find("{{", at)) != std::string::npos) {
    const std::size_t close = text.find("}}", at + 2);
    if (close == std::string::npos) return;
    visit(trim(text.substr(at + 2, close - at - 2)), at, close + 2);
    at = close + 2;
  }
}

template <class Each>
void each_text(const TemplateDefinition& definition, Each each) {
  for (const auto& task : definition.tasks) {
    each(task.name);
    each(task.description);
    if (task.parallel_group) each(*task.parallel_group);
    for (const auto& name : task.depends_on) each(name);
  }
}

std::vector<PlanEntry> entries_of(const TemplateDefinition& definition) {
  std::vector<PlanEntry> entries;
  for (const auto& task : definition.tasks)
    entries.push_back({task.name, task.sequence, task.depends_on});
  return entries;
}

}  // namespace

std::vector<std::string> placeholders(const std::string& text) {
  std::vector<std::string> out;
  scan(text, [&](const std::string& name, std::size_t, std::size_t) { out.push_back(name); });
  return out;
}

std::size_t text_chars(std::string_view text) {
  std::size_t chars = 0;
  for (char c : text) chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return chars;
}

std::optional<std::string> substitute(const std::string& text,
                                      const std::map<std::string, std::string>& values,
                                      std::size_t max_chars, std::size_t max_bytes) {
  std::string out;
  std::size_t chars = 0;
  bool over = false;
  // Each piece is measured before it is appended, so a text of many
  // placeholders never grows past the limits it is held to.
  auto append = [&](std::string_view piece) {
    if (over) return;
    chars += text_chars(piece);
    if (chars > max_chars || out.size() + piece.size() > max_bytes) {
      over = true;
      return;
    }
    out += piece;
  };
  std::size_t copied = 0;
  const std::string_view whole(text);
  scan(text, [&](const std::string& name, std::size_t begin, std::size_t end) {
    auto found = values.find(name);
    if (found == values.end()) return;
    append(whole.substr(copied, begin - copied));
    append(found->second);
    copied = end;
  });
  append(whole.substr(copied));
  if (over) return std::nullopt;
  return out;
}

void check_definition(const TemplateDefinition& definition) {
  if (definition.tasks.empty()) {
    throw MissionError(ErrorCode::invalid_argument, "the template has no task",
                       "give template.tasks at least one task, or from_workflow_id",
                       {{"field", "template.tasks"}});
  }
  std::set<std::string> declared;
  for (const auto& variable : definition.variables) {
    if (!declared.insert(variable.name).second) {
      throw MissionError(ErrorCode::invalid_argument,
                         "the template declares variable '" + variable.name + "' twice",
                         "declare each variable once",
                         {{"field", "template.variables"}, {"name", variable.name}});
    }
  }
  each_text(definition, [&](const std::string& text) {
    for (const auto& name : placeholders(text)) {
      if (declared.count(name) == 0) {
        throw MissionError(ErrorCode::invalid_argument,
                           "the template uses {{" + name + "}}, which no variable declares",
                           "add {name: \"" + name + "\", ...} to template.variables",
                           {{"field", "template.variables"}, {"name", name}});
      }
    }
  });
  auto entries = entries_of(definition);
  resolve_plan(entries);
}

TemplateDefinition instantiate(const TemplateDefinition& definition,
                               const std::map<std::string, std::string>& given) {
  std::map<std::string, std::string> values;
  std::vector<std::string> missing;
  for (const auto& variable : definition.variables) {
    auto found = given.find(variable.name);
    if (found != given.end()) {
      values[variable.name] = found->second;
    } else if (variable.default_value) {
      values[variable.name] = *variable.default_value;
    } else if (variable.required) {
      missing.push_back(variable.name);
    } else {
      values[variable.name] = "";
    }
  }
  if (!missing.empty()) {
    std::string names;
    for (const auto& name : missing) names += (names.empty() ? "" : ", ") + name;
    throw MissionError(ErrorCode::invalid_argument, "the template needs variables " + names,
                       "pass them in variables, e.g. {\"" + missing.front() + "\": \"...\"}",
                       {{"field", "variables"}, {"missing", missing}});
  }
  for (const auto& [name, value] : given) {
    if (values.count(name) == 0) {
      throw MissionError(ErrorCode::invalid_argument, "the template has no variable '" + name + "'",
                         "template_list shows each template's variables",
                         {{"field", "variables"}, {"name", name}});
    }
  }
  // The plan's limits hold for what is filled in, as for a plan given
  // whole; and all the texts together stay within what one
  // workflow_set_plan could carry.
  std::size_t budget = limits::kMaxAppliedTemplateBytes;
  auto fill = [&](const TemplateTask& task, const std::string& text, const char* field,
                  std::size_t max_chars) {
    std::optional<std::string> filled = substitute(text, values, max_chars, budget);
    if (filled) {
      budget -= filled->size();
      return std::move(*filled);
    }
    std::vector<std::string> used = placeholders(text);
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    // Within its own limit, it is the total that is over.
    if (substitute(text, values, max_chars, std::string::npos)) {
      throw MissionError(
          ErrorCode::payload_too_large,
          "the template's texts filled in would pass " +
              std::to_string(limits::kMaxAppliedTemplateBytes) + " bytes (at task '" + task.name +
              "')",
          "give shorter values for the variables, or split the work over several workflows",
          {{"field", "variables"},
           {"task", task.name},
           {"max_bytes", limits::kMaxAppliedTemplateBytes},
           {"variables", used}});
    }
    throw MissionError(
        ErrorCode::invalid_argument,
        "template task '" + task.name + "': its " + field + " filled in would pass " +
            std::to_string(max_chars) + " characters, the most a planned task's " + field +
            " holds",
        "give shorter values for the variables it uses, or shorten the template's text",
        {{"field", "variables"},
         {"task", task.name},
         {"text", field},
         {"max_chars", max_chars},
         {"variables", used}});
  };
  TemplateDefinition out;
  for (const auto& task : definition.tasks) {
    TemplateTask copy;
    copy.sequence = task.sequence;
    copy.name = fill(task, task.name, "name", limits::kMaxPlanTaskNameChars);
    copy.description =
        fill(task, task.description, "description", limits::kMaxPlanTaskDescriptionChars);
    if (task.parallel_group) {
      copy.parallel_group =
          fill(task, *task.parallel_group, "parallel_group", limits::kMaxPlanTaskGroupChars);
    }
    for (const auto& name : task.depends_on) {
      copy.depends_on.push_back(fill(task, name, "depends_on", limits::kMaxPlanTaskNameChars));
    }
    out.tasks.push_back(std::move(copy));
  }
  return out;
}

nlohmann::json definition_json(const TemplateDefinition& definition) {
  nlohmann::json tasks = nlohmann::json::array();
  for (const auto& task : definition.tasks) {
    nlohmann::json entry = {
        {"name", task.name}, {"description", task.description}, {"sequence", task.sequence}};
    if (task.parallel_group) entry["parallel_group"] = *task.parallel_group;
    if (!task.depends_on.empty()) entry["depends_on"] = task.depends_on;
    tasks.push_back(std::move(entry));
  }
  nlohmann::json variables = nlohmann::json::array();
  for (const auto& variable : definition.variables) {
    nlohmann::json entry = {{"name", variable.name},
                            {"description", variable.description},
                            {"required", variable.required}};
    if (variable.default_value) entry["default"] = *variable.default_value;
    variables.push_back(std::move(entry));
  }
  return {{"tasks", std::move(tasks)}, {"variables", std::move(variables)}};
}

TemplateDefinition definition_from_json(const nlohmann::json& j) {
  TemplateDefinition definition;
  for (const auto& entry : j.at("tasks")) {
    TemplateTask task;
    task.name = entry.at("name").get<std::string>();
    task.description = entry.value("description", std::string());
    task.sequence = entry.value("sequence", std::int64_t{0});
    if (entry.contains("parallel_group") && entry.at("parallel_group").is_string()) {
      task.parallel_group = entry.at("parallel_group").get<std::string>();
    }
    if (entry.contains("depends_on"))
      task.depends_on = entry.at("depends_on").get<std::vector<std::string>>();
    definition.tasks.push_back(std::move(task));
  }
  if (j.contains("variables")) {
    for (const auto& entry : j.at("variables")) {
      TemplateVariable variable;
      variable.name = entry.at("name").get<std::string>();
      variable.description = entry.value("description", std::string());
      variable.required = entry.value("required", false);
      if (entry.contains("default") && entry.at("default").is_string()) {
        variable.default_value = entry.at("default").get<std::string>();
      }
      definition.variables.push_back(std::move(variable));
    }
  }
  return definition;
}

}  // namespace mission::daemon::planning
