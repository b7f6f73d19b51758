#include "daemon/runs/usage_watch.hpp"

#include <algorithm>

namespace mission::daemon::runs {

UsageWatch::UsageWatch(uv_loop_t* loop, execution::Launcher& launcher,
                       std::function<void(const std::string&)> check)
    : launcher_(launcher), check_(std::move(check)), turn_(loop, [this] {
        std::vector<std::string> changed;
        changed.swap(changed_);
        for (const auto& id : changed) check_(id);
      }) {
  token_ = launcher_.add_usage_observer([this](const std::string& execution_id) {
    // A stream states usage once a turn or a model call: one check a turn
    // is enough, and the list stays short.
    if (std::find(changed_.begin(), changed_.end(), execution_id) == changed_.end())
      changed_.push_back(execution_id);
    turn_.schedule();
  });
}

UsageWatch::~UsageWatch() {
  launcher_.remove_usage_observer(token_);
}

}  // namespace mission::daemon::runs
