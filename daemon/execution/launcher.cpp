#include "daemon/execution/launcher.hpp"

#include "daemon/execution/execution_runner.hpp"

namespace mission::daemon::execution {

Launcher::Launcher(RunnerServices services) : services_(std::move(services)) {}

Launcher::~Launcher() { release_all(); }

void Launcher::launch(LaunchSpec spec) {
  const std::string id = spec.execution_id;
  auto runner = std::make_unique<ExecutionRunner>(
      services_, spec, [this](const std::string& finished) { runners_.erase(finished); });
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

bool Launcher::deliver_inbound(const std::string& execution_id, const std::string& line) {
  auto found = runners_.find(execution_id);
  return found != runners_.end() && found->second->deliver_inbound(line);
}

void Launcher::release_all() { runners_.clear(); }

}  // namespace mission::daemon::execution
