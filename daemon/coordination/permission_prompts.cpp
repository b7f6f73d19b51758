#include "daemon/coordination/permission_prompts.hpp"

#include "daemon/execution/execution_events.hpp"
#include "daemon/execution/observation_ledger.hpp"
#include "daemon/store/agent_repository.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/inbox_repository.hpp"
#include "daemon/store/observation_repository.hpp"
#include "daemon/terminal/permission_prompt.hpp"
#include "shared/bounded_json.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/record_id.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::coordination {

nlohmann::json open_permission_prompts(store::Database& db) {
  // A menu is read only while its agent runs; a final one shows none.
  static constexpr ExecutionState kLive[] = {
      ExecutionState::running, ExecutionState::awaiting_input, ExecutionState::awaiting_permission,
      ExecutionState::blocked};
  nlohmann::json out = nlohmann::json::array();
  store::ObservationRepository observations(db);
  for (const auto& execution : store::ExecutionRepository(db).list_in_states(kLive)) {
    if (out.size() >= store::kMaxInboxEntries) break;
    auto prompt = observations.open_permission_prompt(execution.id);
    if (!prompt) continue;
    nlohmann::json payload = parse_json_or_discarded(prompt->payload);
    if (!payload.is_object()) continue;
    nlohmann::json item = {{"agentExecutionId", execution.id},
                           {"question", payload.value("question", "")},
                           {"options", payload.value("options", nlohmann::json::array())},
                           // Read off a screen, or reported by the agent over ACP.
                           {"detected", payload.value("detected", true)},
                           {"since", format_utc_iso8601(prompt->created_at)}};
    auto agent = store::AgentRepository(db).find(execution.id);
    if (agent && agent->name) item["agentName"] = *agent->name;
    out.push_back(std::move(item));
  }
  return out;
}

bool answers_on_screen(const execution::Launcher& launcher, const std::string& execution_id,
                       std::string_view adapter) {
  return launcher.speaks_acp(execution_id) || (terminal::reads_permission_prompts(adapter) &&
                                               launcher.terminal(execution_id) != nullptr);
}

nlohmann::json answer_permission_prompt(store::Database& db, events::EventBatch& events,
                                        execution::Launcher& launcher,
                                        const std::string& execution_id, std::string_view adapter,
                                        std::int64_t choice, const std::string& person) {
  // The screen decides, not what was read from it before: a menu answered
  // at the agent's terminal meanwhile is gone, and nothing is typed.
  auto prompt = launcher.permission_prompt(execution_id);
  if (!prompt) {
    throw MissionError(ErrorCode::invalid_argument,
                       "agent execution " + execution_id +
                           " shows no permission prompt on its screen any more, and asks no "
                           "question",
                       "mission inbox lists what waits for you; mission attach " + execution_id +
                           " shows its screen",
                       {{"agentExecutionId", execution_id}});
  }
  const auto options = static_cast<std::int64_t>(prompt->options.size());
  if (choice < 1 || choice > options) {
    throw MissionError(ErrorCode::invalid_argument,
                       "choice " + std::to_string(choice) + " is not one of the " +
                           std::to_string(options) + " options of the permission prompt",
                       "give --choice between 1 and " + std::to_string(options),
                       {{"options", prompt->options}});
  }
  const std::string option = prompt->options.at(static_cast<std::size_t>(choice - 1));
  // Over ACP the chosen option's id is the answer to the agent's request;
  // on a terminal the option's key is typed into the menu.
  const bool over_acp = launcher.speaks_acp(execution_id);
  if (over_acp) {
    launcher.answer_permission(execution_id, static_cast<std::size_t>(choice));
  } else {
    launcher.type_into(execution_id,
                       terminal::keys_for_choice(adapter, static_cast<std::size_t>(choice)), false);
  }
  nlohmann::json ack = execution::ObservationLedger(db).record_fact(
      execution_id, over_acp ? store::kAcpOrigin : store::kScreenOrigin,
      store::kPermissionAnswerKind, new_event_id(),
      {{"question", prompt->question}, {"choice", choice}, {"option", option}, {"by", person}});
  execution::add_signal_events(events, db, execution_id, ack);
  return {{"agentExecutionId", execution_id},
          {"question", prompt->question},
          {"choice", choice},
          {"option", option}};
}

}  // namespace mission::daemon::coordination
