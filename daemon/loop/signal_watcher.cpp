#include "daemon/loop/signal_watcher.hpp"

#include <cstdio>

namespace mission::loop {

SignalWatcher::SignalWatcher(uv_loop_t* loop, int signum, std::function<void(int)> callback)
    : handle_(new uv_signal_t), callback_(std::move(callback)) {
  uv_signal_init(loop, handle_);
  handle_->data = this;
  uv_signal_start(handle_, on_signal, signum);
}

SignalWatcher::~SignalWatcher() {
  close();
}

void SignalWatcher::close() {
  if (handle_ == nullptr) return;
  uv_signal_stop(handle_);
  uv_close(reinterpret_cast<uv_handle_t*>(handle_),
           [](uv_handle_t* handle) { delete reinterpret_cast<uv_signal_t*>(handle); });
  handle_ = nullptr;
}

void SignalWatcher::on_signal(uv_signal_t* handle, int signum) {
  auto* self = static_cast<SignalWatcher*>(handle->data);
  try {
    self->callback_(signum);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: signal handler: %s\n", e.what());
  } catch (...) {
  }
}

}  // namespace mission::loop
