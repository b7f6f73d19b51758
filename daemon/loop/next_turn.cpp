#include "daemon/loop/next_turn.hpp"

#include <cstdio>
#include <exception>

namespace mission::loop {

NextTurn::NextTurn(uv_loop_t* loop, std::function<void()> callback)
    : idle_(new uv_idle_t), check_(new uv_check_t), callback_(std::move(callback)) {
  uv_idle_init(loop, idle_);
  uv_check_init(loop, check_);
  check_->data = this;
}

NextTurn::~NextTurn() {
  cancel();
  uv_close(reinterpret_cast<uv_handle_t*>(idle_),
           [](uv_handle_t* handle) { delete reinterpret_cast<uv_idle_t*>(handle); });
  uv_close(reinterpret_cast<uv_handle_t*>(check_),
           [](uv_handle_t* handle) { delete reinterpret_cast<uv_check_t*>(handle); });
}

void NextTurn::schedule() {
  if (uv_is_active(reinterpret_cast<uv_handle_t*>(check_))) return;
  uv_idle_start(idle_, [](uv_idle_t*) {});
  uv_check_start(check_, on_check);
}

void NextTurn::cancel() {
  uv_idle_stop(idle_);
  uv_check_stop(check_);
}

void NextTurn::on_check(uv_check_t* handle) {
  auto* self = static_cast<NextTurn*>(handle->data);
  self->cancel();
  try {
    self->callback_();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: next turn: %s\n", e.what());
  } catch (...) {
  }
}

}  // namespace mission::loop
