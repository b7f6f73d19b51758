#include "daemon/loop/timer.hpp"

#include <cstdint>
#include <cstdio>

namespace mission::loop {

Timer::Timer(uv_loop_t* loop, std::function<void()> callback)
    : handle_(new uv_timer_t), callback_(std::move(callback)) {
  uv_timer_init(loop, handle_);
  handle_->data = this;
}

Timer::~Timer() {
  uv_timer_stop(handle_);
  uv_close(reinterpret_cast<uv_handle_t*>(handle_),
           [](uv_handle_t* handle) { delete reinterpret_cast<uv_timer_t*>(handle); });
}

void Timer::start(int milliseconds) {
  uv_timer_start(handle_, on_timeout, static_cast<std::uint64_t>(milliseconds), 0);
}

void Timer::stop() {
  uv_timer_stop(handle_);
}

void Timer::on_timeout(uv_timer_t* handle) {
  auto* self = static_cast<Timer*>(handle->data);
  try {
    self->callback_();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: timer: %s\n", e.what());
  } catch (...) {
  }
}

}  // namespace mission::loop
