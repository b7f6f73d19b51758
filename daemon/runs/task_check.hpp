#pragma once
// A run's --check command, run with `sh -c` in a task's worktree once its
// agent has ended: the task passes it when the command exits 0 within
// kCheckTimeoutMs. Runs on the loop as a child process; what it printed is
// kept as a tail of kCheckOutputTailBytes.

#include <uv.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "daemon/loop/child_process.hpp"
#include "daemon/loop/timer.hpp"
#include "daemon/sandbox/confined_launch.hpp"

namespace mission::daemon::runs {

struct CheckResult {
  bool passed = false;
  std::string reason;  // why it failed; empty when it passed
  std::string output;  // the tail of stdout and stderr, interleaved
};

// How a check is confined: as the task's agent is (its worktree and a
// private TMPDIR under `temp_root`, named `name`), unless the run said
// --sandbox off.
struct CheckConfinement {
  bool confined = true;
  std::filesystem::path temp_root;
  std::string name;
  std::vector<std::filesystem::path> writable;  // the run's --allow-write
  std::vector<std::filesystem::path> hidden;    // execution::hidden_paths
};

class TaskCheck {
 public:
  // Starts `command` in `cwd` with `env`; `done` is called once, on the
  // loop, unless this object is destroyed first (which kills the check).
  TaskCheck(uv_loop_t* loop, const std::string& command, const std::string& cwd,
            std::vector<std::string> env, const CheckConfinement& confinement,
            std::function<void(CheckResult)> done);
  ~TaskCheck();
  TaskCheck(const TaskCheck&) = delete;
  TaskCheck& operator=(const TaskCheck&) = delete;

 private:
  void on_timer();
  void finish(CheckResult result);

  loop::ChildProcess* child_ = nullptr;
  std::unique_ptr<sandbox::ConfinedLaunch> confinement_;
  loop::Timer timeout_;
  std::string output_;
  bool timed_out_ = false;
  std::string spawn_error_;
  std::function<void(CheckResult)> done_;
};

}  // namespace mission::daemon::runs
