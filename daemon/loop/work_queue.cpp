#include "daemon/loop/work_queue.hpp"

#include <cstdio>
#include <exception>
#include <memory>

namespace mission::loop {
namespace {

struct Job {
  uv_work_t request{};
  std::function<void()> work;
  std::function<void()> done;
};

// Nothing may cross into libuv: a throw here would end in std::terminate.
void run_guarded(const char* what, const std::function<void()>& step) noexcept {
  try {
    step();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: %s failed: %s\n", what, e.what());
  } catch (...) {
    std::fprintf(stderr, "missiond: %s failed\n", what);
  }
}

void run_work(uv_work_t* request) {
  run_guarded("thread-pool work", static_cast<Job*>(request->data)->work);
}

void after_work(uv_work_t* request, int) {
  // Work requests cannot be cancelled once queued here, so status is always
  // 0 and `done` always runs; the job is freed after it.
  std::unique_ptr<Job> job(static_cast<Job*>(request->data));
  run_guarded("finishing thread-pool work", job->done);
}

}  // namespace

void queue_work(uv_loop_t* loop, std::function<void()> work, std::function<void()> done) {
  auto job = std::make_unique<Job>();
  job->request.data = job.get();
  job->work = std::move(work);
  job->done = std::move(done);
  int rc = uv_queue_work(loop, &job->request, run_work, after_work);
  if (rc == 0) {
    job.release();  // owned by the request until after_work
    return;
  }
  // Only fails for invalid arguments; run inline rather than lose the work.
  run_guarded("thread-pool work", job->work);
  run_guarded("finishing thread-pool work", job->done);
}

}  // namespace mission::loop
