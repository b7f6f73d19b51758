#pragma once
// A workflow's plan written as the TOML plan file people read and edit
// (mission workflows edit): the keys a plan file takes, in the order a
// person reads them, so that reading the file back unchanged gives the
// same plan (parse_plan_file).

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace mission::cli {

// `document` is workflow.get_plan's answer: {name, plan: {summary,
// approach, tasks, risks, assumptions}, maxParallelTasks,
// autoCreateWorkspaces}. A task's sequence, parallel_group and
// estimated_complexity are written only when set; its lists only when
// not empty.
std::string plan_file_toml(const nlohmann::json& document);

// `text` as a TOML string: a multi-line literal string when it spans lines
// and needs no escape, else a basic string with every control character
// escaped.
std::string toml_string(std::string_view text);

}  // namespace mission::cli
