#pragma once
// Workflow templates (seed 003's template tools): a list of plan tasks whose
// texts may hold {{variable}} placeholders, and the variables, each
// required or with a default. Pure functions: the store is elsewhere.

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "daemon/planning/requests.hpp"

namespace mission::daemon::planning {

// The placeholders of `text`, in order: "{{ name }}" gives "name".
std::vector<std::string> placeholders(const std::string& text);

// Replaces every {{name}} of `text` with values.at(name).
std::string substitute(const std::string& text, const std::map<std::string, std::string>& values);

// Refuses a definition with no task, two variables of one name, a
// placeholder no variable declares, or a plan that does not resolve
// (unknown dependency, cycle). Throws MissionError naming what is wrong.
void check_definition(const TemplateDefinition& definition);

// The definition with every placeholder replaced: `given` values, then the
// defaults. Refuses a missing required variable and a variable the
// template does not declare, naming them.
TemplateDefinition instantiate(const TemplateDefinition& definition,
                               const std::map<std::string, std::string>& given);

nlohmann::json definition_json(const TemplateDefinition& definition);
TemplateDefinition definition_from_json(const nlohmann::json& j);

}  // namespace mission::daemon::planning
