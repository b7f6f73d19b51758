#include "daemon/runs/task_check.hpp"

#include <signal.h>

#include "daemon/runs/run_options.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::runs {

TaskCheck::TaskCheck(uv_loop_t* loop, const std::string& command, const std::string& cwd,
                     std::vector<std::string> env, const CheckConfinement& confinement,
                     std::function<void(CheckResult)> done)
    : timeout_(loop, [this] { on_timer(); }), done_(std::move(done)) {
  loop::ChildProcess::Options options;
  options.argv = {"/bin/sh", "-c", command};
  options.env = std::move(env);
  options.cwd = cwd;
  loop::ChildProcess::Callbacks callbacks;
  callbacks.on_output = [this](char, std::string_view bytes) {
    output_.append(bytes);
    // Kept to twice the tail, cut back to it at the end.
    if (output_.size() > 2 * kCheckOutputTailBytes)
      output_.erase(0, output_.size() - kCheckOutputTailBytes);
  };
  callbacks.on_exit = [this](const loop::ChildProcess::Exit& exit) {
    child_ = nullptr;
    confinement_.reset();
    timeout_.stop();
    CheckResult result;
    if (output_.size() > kCheckOutputTailBytes)
      output_.erase(0, output_.size() - kCheckOutputTailBytes);
    result.output = std::move(output_);
    if (timed_out_) {
      result.reason = "the check ran longer than " + std::to_string(kCheckTimeoutMs / 1000) +
                      " s and was killed";
    } else if (exit.signal != 0) {
      result.reason = "the check was killed by signal " + std::to_string(exit.signal);
    } else if (exit.status != 0) {
      result.reason = "the check exited with status " + std::to_string(exit.status);
    } else {
      result.passed = true;
    }
    finish(std::move(result));
  };
  if (confinement.confined) {
    try {
      confinement_ = std::make_unique<sandbox::ConfinedLaunch>(
          sandbox::LaunchPlace{cwd, {}, {}, confinement.writable, confinement.hidden, {}},
          confinement.temp_root, confinement.name, options);
    } catch (const MissionError& e) {
      spawn_error_ = std::string("the check could not be confined: ") + e.what();
      timeout_.start(0);
      return;
    }
    // In what the attempt keeps of the check's output, first.
    if (!confinement_->confined()) output_ = "[mission: " + confinement_->warning() + "]\n";
  }
  int error = 0;
  child_ = loop::ChildProcess::spawn(loop, options, std::move(callbacks), error);
  if (confinement_) confinement_->spawned();
  if (!child_) {
    // Reported from the timer, as if it had run: the caller is not ready
    // to be called back from inside its own constructor call.
    spawn_error_ = "the check could not start /bin/sh: " + std::string(uv_strerror(error));
    timeout_.start(0);
    return;
  }
  timeout_.start(static_cast<int>(kCheckTimeoutMs));
}

TaskCheck::~TaskCheck() {
  if (child_) {
    child_->signal_group(SIGKILL);
    child_->release();
  }
}

void TaskCheck::on_timer() {
  if (!child_) {
    finish({false, spawn_error_, {}});
    return;
  }
  timed_out_ = true;
  child_->signal_group(SIGKILL);
}

void TaskCheck::finish(CheckResult result) {
  auto done = std::move(done_);
  done_ = nullptr;
  if (done) done(std::move(result));
}

}  // namespace mission::daemon::runs
