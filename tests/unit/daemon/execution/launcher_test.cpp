// The Launcher and the thread-pool seam on a real libuv loop and a real
// SQLite file: a process runs only while its row says so, and nothing a
// callback throws reaches libuv.

#include "daemon/execution/launcher.hpp"

#include <signal.h>
#include <uv.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <vector>

#include "daemon/events/event_sink.hpp"
#include "daemon/execution/execution_registry.hpp"
#include "daemon/loop/work_queue.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/migrations.hpp"
#include "shared/error_code.hpp"
#include "support/temp_dir.hpp"

using namespace mission;
using namespace mission::daemon;

namespace {

class CollectingSink : public events::EventSink {
 public:
  bool has_subscribers() const override { return true; }
  void publish(nlohmann::json event) override { events.push_back(std::move(event)); }
  std::vector<nlohmann::json> events;
};

struct Loop {
  uv_loop_t loop{};
  Loop() { uv_loop_init(&loop); }
  ~Loop() {
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
  }
};

struct Fixture {
  test::TempDir dir;
  store::Database db{dir.path() / "mission.db"};
  CollectingSink sink;
  Loop loop;
  Fixture() { store::migrate(db); }

  std::string created_execution() {
    execution::CreateSpec spec;
    spec.kind = ExecutionKind::launched;
    spec.cwd = dir.path().string();
    spec.state = ExecutionState::launching;
    return execution::AgentExecutionRegistry(db).create(spec).row.id;
  }

  execution::LaunchSpec spec_for(const std::string& id, std::vector<std::string> argv) {
    execution::LaunchSpec spec;
    spec.execution_id = id;
    spec.cwd = dir.path().string();
    spec.argv = std::move(argv);
    spec.env = {"PATH=/usr/bin:/bin"};
    return spec;
  }

  // A confined launch takes its private TMPDIR under temp_root.
  execution::RunnerServices services(const std::filesystem::path& logs) {
    std::filesystem::create_directories(dir.path() / "tmp");
    return {&loop.loop, db, sink, logs, dir.path() / "tmp", {}};
  }
};

}  // namespace

TEST_CASE("a launched process runs, is recorded running, and its end is recorded") {
  Fixture f;
  {
    execution::Launcher launcher(f.services(f.dir.path() / "logs"));
    const std::string id = f.created_execution();
    launcher.launch(f.spec_for(id, {"sh", "-c", "exit 3"}));
    CHECK(launcher.owns(id));
    CHECK(store::ExecutionRepository(f.db).find(id)->state == ExecutionState::running);
    uv_run(&f.loop.loop, UV_RUN_DEFAULT);
    CHECK_FALSE(launcher.owns(id));
    auto row = store::ExecutionRepository(f.db).find(id);
    CHECK(row->state == ExecutionState::failed);
    CHECK(row->exit_code == 3);
  }
  // Each change was published once its transaction had committed.
  REQUIRE(f.sink.events.size() == 2);
  CHECK(f.sink.events[0]["execution"]["state"] == "running");
  CHECK(f.sink.events[1]["execution"]["state"] == "failed");
}

TEST_CASE("a spawn that fails marks the execution failed and throws") {
  Fixture f;
  execution::Launcher launcher(f.services(f.dir.path() / "logs"));
  const std::string id = f.created_execution();
  CHECK_THROWS_AS(launcher.launch(f.spec_for(id, {"/nonexistent/agent"})), MissionError);
  CHECK_FALSE(launcher.owns(id));
  CHECK(store::ExecutionRepository(f.db).find(id)->state == ExecutionState::failed);
}

TEST_CASE("a process whose running state cannot be recorded is killed, not left running unowned") {
  Fixture f;
  execution::Launcher launcher(f.services(f.dir.path() / "logs"));
  // No row: recording `running` fails after the spawn.
  CHECK_THROWS_AS(launcher.launch(f.spec_for("ae-vanished00", {"sleep", "30"})), MissionError);
  // The runner stays until its killed process has ended, then goes.
  CHECK(launcher.owns("ae-vanished00"));
  uv_run(&f.loop.loop, UV_RUN_DEFAULT);  // returns only once nothing runs any more
  CHECK_FALSE(launcher.owns("ae-vanished00"));
}

TEST_CASE("an exception in thread-pool work or in its completion never reaches libuv") {
  Loop loop;
  bool finished = false;
  loop::queue_work(
      &loop.loop, [] { throw std::runtime_error("work failed"); },
      [&finished] { finished = true; });
  loop::queue_work(
      &loop.loop, [] {}, [] { throw std::runtime_error("completion failed"); });
  uv_run(&loop.loop, UV_RUN_DEFAULT);
  CHECK(finished);
}

TEST_CASE("a burst on a terminal reaches the log and a viewer whole and in order") {
  // The terminal is read on while a burst lasts (several reads handled as
  // one): no byte may be lost, doubled or reordered, up to the agent's end.
  struct Watching : terminal::Viewer {
    void send_output(std::string_view bytes) override { output += bytes; }
    void send_notice(std::string_view) override {}
    void send_end(const std::string& status) override { ended = status; }
    std::size_t backlog() const override { return 0; }
    std::string output;
    std::string ended;
  };
  Fixture f;
  Watching viewer;
  std::string expected_log;
  std::string expected_screen;
  for (int i = 1; i <= 300000; ++i) {
    expected_log += std::to_string(i) + "\n";
    expected_screen += std::to_string(i) + "\r\n";
  }
  const std::filesystem::path logs = f.dir.path() / "logs";
  std::string id;
  {
    execution::Launcher launcher(f.services(logs));
    id = f.created_execution();
    execution::LaunchSpec spec = f.spec_for(id, {"seq", "1", "300000"});
    spec.on_terminal = true;
    launcher.launch(std::move(spec));
    REQUIRE(launcher.terminal(id) != nullptr);
    launcher.terminal(id)->attach(viewer, false, 0, 0);
    uv_run(&f.loop.loop, UV_RUN_DEFAULT);
    CHECK_FALSE(launcher.owns(id));
  }
  CHECK(store::ExecutionRepository(f.db).find(id)->state == ExecutionState::completed);
  CHECK(viewer.ended.find("completed") != std::string::npos);
  // The viewer's first bytes are the repaint of the empty screen.
  const std::size_t start = viewer.output.find("1\r\n2\r\n");
  REQUIRE(start != std::string::npos);
  CHECK(viewer.output.substr(start) == expected_screen);
  std::ifstream log(logs / (id + ".log"), std::ios::binary);
  const std::string logged((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  CHECK(logged == expected_log);
}
