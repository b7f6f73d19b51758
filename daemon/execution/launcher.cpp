#include "daemon/execution/launcher.hpp"

#include "daemon/execution/execution_runner.hpp"
#include "shared/error_code.hpp"
#include "shared/terminal_limits.hpp"

namespace mission::daemon::execution {

Launcher::Launcher(RunnerServices services) : services_(std::move(services)) {
  services_.usage_recorded = [this](const std::string& execution_id) {
    // A copy: an observer may add or remove observers.
    const auto observers = usage_observers_;
    for (const auto& [token, observer] : observers) observer(execution_id);
  };
}

Launcher::~Launcher() {
  release_all();
}

void Launcher::launch(LaunchSpec spec) {
  const std::string id = spec.execution_id;
  auto runner =
      std::make_unique<ExecutionRunner>(services_, spec, [this](const std::string& finished) {
        // The runner, and this closure with it, are gone after the erase:
        // only locals are used past it.
        Launcher* self = this;
        const std::string ended = finished;
        self->runners_.erase(ended);
        // A copy: an observer may add or remove observers.
        const auto observers = self->end_observers_;
        for (const auto& [token, observer] : observers) observer(ended);
      });
  ExecutionRunner& started = *runner;
  runners_[id] = std::move(runner);
  try {
    started.start(spec);
  } catch (...) {
    // A runner whose process never started is done; one whose process was
    // killed after a failed write stays until that process has ended.
    if (!started.running()) runners_.erase(id);
    throw;
  }
}

bool Launcher::stop(const std::string& execution_id, bool force) {
  auto found = runners_.find(execution_id);
  if (found == runners_.end()) return false;
  found->second->stop(force);
  return true;
}

terminal::TerminalSession* Launcher::terminal(const std::string& execution_id) const {
  auto found = runners_.find(execution_id);
  return found == runners_.end() ? nullptr : found->second->terminal();
}

std::optional<terminal::PermissionPrompt> Launcher::permission_prompt(
    const std::string& execution_id) const {
  auto found = runners_.find(execution_id);
  return found == runners_.end() ? std::nullopt : found->second->permission_prompt();
}

bool Launcher::type_into(const std::string& execution_id, std::string_view text, bool enter) {
  terminal::TerminalSession* session = terminal(execution_id);
  if (session == nullptr) return false;
  session->type(text, enter);
  return true;
}

bool Launcher::speaks_acp(const std::string& execution_id) const {
  auto found = runners_.find(execution_id);
  return found != runners_.end() && found->second->speaks_acp();
}

bool Launcher::answer_permission(const std::string& execution_id, std::size_t choice) {
  auto found = runners_.find(execution_id);
  return found != runners_.end() && found->second->answer_permission(choice);
}

void Launcher::require_input_room(const std::string& execution_id, std::size_t bytes) const {
  auto found = runners_.find(execution_id);
  if (found == runners_.end()) return;
  const std::optional<std::size_t> queued = found->second->queued_input();
  if (!queued || *queued + bytes <= limits::kMaxQueuedInputBytes) return;
  throw MissionError(
      ErrorCode::agent_not_reading,
      "agent execution " + execution_id + " is not reading its input: " + std::to_string(*queued) +
          " bytes typed or written for it wait already, and " + std::to_string(bytes) +
          " more would pass the " + std::to_string(limits::kMaxQueuedInputBytes) + "-byte bound",
      "send it again once it reads (mission attach " + execution_id + " shows what it does)",
      {{"agentExecutionId", execution_id},
       {"queuedBytes", *queued},
       {"maxQueuedBytes", limits::kMaxQueuedInputBytes}});
}

bool Launcher::deliver_inbound(const std::string& execution_id, const std::string& line,
                               bool press_enter) {
  auto found = runners_.find(execution_id);
  return found != runners_.end() && found->second->deliver_inbound(line, press_enter);
}

std::vector<PartialLine> Launcher::partial_lines(const std::string& execution_id) const {
  auto found = runners_.find(execution_id);
  return found == runners_.end() ? std::vector<PartialLine>{} : found->second->partial_lines();
}

void Launcher::release_all() {
  runners_.clear();
}

}  // namespace mission::daemon::execution
