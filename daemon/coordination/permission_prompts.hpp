#pragma once
// Permission prompts on agents' terminals as people see and answer them:
// the menus the daemon read from interactive agents' screens
// (daemon/terminal/permission_prompt.hpp) listed in `mission inbox`, and
// `mission answer EXEC --choice N` typing the option's key into the menu.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "daemon/events/event_sink.hpp"
#include "daemon/execution/launcher.hpp"
#include "daemon/store/database.hpp"

namespace mission::daemon::coordination {

// The prompts live executions showed when their screens were last read,
// oldest first: [{agentExecutionId, agentName?, question, options,
// detected: true, since}].
nlohmann::json open_permission_prompts(store::Database& db);

// Whether `mission answer` for the execution is for a menu on its screen:
// it runs on a terminal of `launcher` with an adapter whose menus are read.
bool answers_on_screen(const execution::Launcher& launcher, const std::string& execution_id,
                       std::string_view adapter);

// Types the key of option `choice` (1-based) into the permission prompt the
// execution's screen shows now, and records the answer. Throws
// MissionError invalid_argument when no prompt is on the screen any more,
// or `choice` is not one of its options. {agentExecutionId, choice,
// option, question}.
nlohmann::json answer_permission_prompt(store::Database& db, events::EventBatch& events,
                                        execution::Launcher& launcher,
                                        const std::string& execution_id, std::string_view adapter,
                                        std::int64_t choice, const std::string& person);

}  // namespace mission::daemon::coordination
