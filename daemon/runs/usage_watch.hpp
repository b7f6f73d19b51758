#pragma once
// A run's budgets are checked each time an agent's usage is recorded
// (docs/adr/0049): this hears the launcher's usage observer and hands each
// execution whose usage changed to a check on the next turn of the loop.

#include <uv.h>

#include <functional>
#include <string>
#include <vector>

#include "daemon/execution/launcher.hpp"
#include "daemon/loop/next_turn.hpp"

namespace mission::daemon::runs {

// `check` runs on the next turn, once per execution and turn: outside the
// runner's read, where stopping the execution is safe.
class UsageWatch {
 public:
  UsageWatch(uv_loop_t* loop, execution::Launcher& launcher,
             std::function<void(const std::string& execution_id)> check);
  ~UsageWatch();
  UsageWatch(const UsageWatch&) = delete;
  UsageWatch& operator=(const UsageWatch&) = delete;

 private:
  execution::Launcher& launcher_;
  std::size_t token_ = 0;
  std::vector<std::string> changed_;
  std::function<void(const std::string&)> check_;
  loop::NextTurn turn_;
};

}  // namespace mission::daemon::runs
