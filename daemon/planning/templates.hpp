#pragma once
// Workflow templates (seed 003's template tools): a list of plan tasks whose
// texts may hold {{variable}} placeholders, and the variables, each
// required or with a default. Pure functions: the store is elsewhere.

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/planning/requests.hpp"

namespace mission::daemon::planning {

// The placeholders of `text`, in order: "{{ name }}" gives "name".
std::vector<std::string> placeholders(const std::string& text);

// Characters of UTF-8 `text` as JSON Schema's maxLength counts them (code
// points).
std::size_t text_chars(std::string_view text);

// `text` with every {{name}} that `values` names replaced by its value;
// nullopt as soon as the result would pass `max_chars` characters or
// `max_bytes` bytes, before more of it is built.
std::optional<std::string> substitute(const std::string& text,
                                      const std::map<std::string, std::string>& values,
                                      std::size_t max_chars, std::size_t max_bytes);

// Refuses a definition with no task, two variables of one name, a
// placeholder no variable declares, or a plan that does not resolve
// (unknown dependency, cycle). Throws MissionError naming what is wrong.
void check_definition(const TemplateDefinition& definition);

// The definition with every placeholder replaced: `given` values, then the
// defaults. Refuses a missing required variable and a variable the
// template does not declare, naming them; and a filled-in text longer than
// a plan's task may hold (limits::kMaxPlanTask*Chars), or texts that
// together pass limits::kMaxAppliedTemplateBytes, naming the task.
TemplateDefinition instantiate(const TemplateDefinition& definition,
                               const std::map<std::string, std::string>& given);

nlohmann::json definition_json(const TemplateDefinition& definition);
TemplateDefinition definition_from_json(const nlohmann::json& j);

}  // namespace mission::daemon::planning
