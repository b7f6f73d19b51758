// mission_planning_bench: planned work at scale (docs/adr/0015). A real
// SQLite file in a temp directory, the daemon's own code for the tools
// (decoders, planning/, store/), one workflow of 10,000 tasks and 30,000
// depends_on edges. Times, each the median of its runs:
//   workflow_set_plan         decoding the arguments, checking the DAG,
//                             writing the tasks and edges, committing;
//   workflow_next_tasks and workflow_progress, as the tool answers them
//                             (the DAG cache current, and right after a
//                             task changed, when it reloads);
//   task_load_context         at 8,000 tokens for a task with thousands of
//                             ancestors;
// and beside them, in the same run, the same queries done the naive way a
// reference implementation does them: every call reads every task and
// every edge, and looks up each task's dependencies by scanning the edges.
// Usage: mission_planning_bench [--runs N] [--set-plan-only]. Output:
// `key: value` lines; workflow_set_plan also in this thread's CPU time.
// PLANNING_BENCH_SET_PLAN_RUNS sets how many times the plan is set.

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "daemon/mcp/planning_decoders.hpp"
#include "daemon/planning/workflows.hpp"
#include "daemon/store/database.hpp"
#include "daemon/store/migrations.hpp"

using namespace mission;
using namespace mission::daemon;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::size_t kTasks = 10000;
constexpr std::size_t kEdges = 30000;
constexpr std::size_t kStage = 100;  // tasks a sequence

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// This thread's CPU time: on a shared machine the wall clock also counts
// the time other processes had the cores.
double cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double time_runs(int runs, const std::function<void()>& body) {
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    auto start = Clock::now();
    body();
    times.push_back(ms_since(start));
  }
  return median(times);
}

nlohmann::json plan_arguments(const std::string& id) {
  std::mt19937 rng(42);
  nlohmann::json tasks = nlohmann::json::array();
  std::size_t edges = 0;
  for (std::size_t i = 0; i < kTasks; ++i) {
    nlohmann::json task = {
        {"name", "task-" + std::to_string(i)},
        {"description", "Do step " + std::to_string(i) + " of the plan"},
        {"sequence", i / kStage},
        {"files_likely_affected", {"src/module" + std::to_string(i % 500) + ".cpp"}}};
    if (i >= kStage) {
      // Three (the last 300: four) distinct tasks of earlier sequences.
      const std::size_t want = i >= kTasks - (kEdges - 3 * (kTasks - kStage)) ? 4 : 3;
      std::vector<std::size_t> picked;
      const std::size_t earlier = (i / kStage) * kStage;
      while (picked.size() < want) {
        std::size_t j = rng() % earlier;
        if (std::find(picked.begin(), picked.end(), j) == picked.end()) picked.push_back(j);
      }
      nlohmann::json names = nlohmann::json::array();
      for (std::size_t j : picked) names.push_back("task-" + std::to_string(j));
      task["depends_on"] = std::move(names);
      edges += want;
    }
    tasks.push_back(std::move(task));
  }
  if (edges != kEdges) std::cerr << "edges: " << edges << "\n";
  return {{"id", id},
          {"plan", {{"summary", "bench"}, {"approach", "stages"}, {"tasks", std::move(tasks)}}}};
}

struct NaiveTask {
  std::string id;
  std::string status;
  std::int64_t sequence;
};

// The reference's way: read everything, scan the edges for each task.
std::size_t naive_next_tasks(store::Database& db, const std::string& workflow_id) {
  std::vector<NaiveTask> tasks;
  auto s =
      db.prepare("SELECT id, status, sequence FROM tasks WHERE mission_id = ? ORDER BY plan_order");
  s.bind(1, workflow_id);
  while (s.step()) tasks.push_back({s.text(0), s.text(1), s.integer(2)});
  std::vector<std::pair<std::string, std::string>> edges;
  auto e = db.prepare(
      "SELECT d.task_id, d.depends_on_id FROM task_dependencies d JOIN tasks t ON t.id = d.task_id "
      "WHERE t.mission_id = ?");
  e.bind(1, workflow_id);
  while (e.step()) edges.push_back({e.text(0), e.text(1)});
  std::size_t ready = 0;
  for (const auto& task : tasks) {
    if (task.status != "pending") continue;
    bool ok = true;
    for (const auto& [from, to] : edges) {
      if (from != task.id) continue;
      auto dep =
          std::find_if(tasks.begin(), tasks.end(), [&](const NaiveTask& t) { return t.id == to; });
      if (dep != tasks.end() && dep->status != "success") ok = false;
    }
    ready += ok ? 1 : 0;
  }
  return ready;
}

std::size_t naive_progress(store::Database& db, const std::string& workflow_id) {
  std::map<std::string, std::size_t> counts;
  auto s = db.prepare("SELECT status FROM tasks WHERE mission_id = ?");
  s.bind(1, workflow_id);
  while (s.step()) ++counts[s.text(0)];
  return naive_next_tasks(db, workflow_id) + counts.size();  // blocked = pending - ready
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 20;
  bool set_plan_only = false;  // --set-plan-only: for a profiler (perf record)
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--runs" && i + 1 < argc) runs = std::stoi(argv[i + 1]);
    if (std::string(argv[i]) == "--set-plan-only") set_plan_only = true;
  }
  char dir_template[] = "/tmp/mission-planning-bench-XXXXXX";
  const std::filesystem::path dir = mkdtemp(dir_template);
  int status = 0;
  try {
    store::Database db(dir / "mission.db");
    store::migrate(db);
    db.exec(
        "INSERT INTO executions (id, adapter, delivery, descriptor, cwd, command, state, "
        "created_at, "
        "updated_at) VALUES ('ae-bench', 'generic', 'mcp-tool', '{}', '/tmp', '[]', 'running', 0, "
        "0)");
    planning::Caller caller{db, "ae-bench", nullptr, nullptr, {}};
    std::string workflow_id;
    {
      store::Transaction transaction(db);
      planning::WorkflowCreateRequest create{
          "bench", "prompt", std::nullopt, std::string(20000, 'x'), std::nullopt, 4, false};
      workflow_id = planning::workflow_create(caller, create)["id"];
      transaction.commit();
    }
    const nlohmann::json arguments = plan_arguments(workflow_id);
    // workflow_set_plan: decode, check, write, commit. Later runs replace
    // the plan (no task has started), which deletes 10,000 tasks first.
    std::vector<double> set_plan_times;
    std::vector<double> set_plan_cpu;
    const int set_plan_runs = std::getenv("PLANNING_BENCH_SET_PLAN_RUNS") != nullptr
                                  ? std::atoi(std::getenv("PLANNING_BENCH_SET_PLAN_RUNS"))
                                  : std::max(3, runs / 4);
    for (int i = 0; i < set_plan_runs; ++i) {
      auto start = Clock::now();
      const double cpu_start = cpu_ms();
      store::Transaction transaction(db);
      auto request = arguments.get<planning::WorkflowSetPlanRequest>();
      planning::workflow_set_plan(caller, request);
      transaction.commit();
      set_plan_times.push_back(ms_since(start));
      set_plan_cpu.push_back(cpu_ms() - cpu_start);
    }
    std::cout << "tasks: " << kTasks << "\nedges: " << kEdges << "\n";
    std::cout << "workflow_set_plan_first_ms: " << set_plan_times.front() << "\n";
    std::cout << "workflow_set_plan_first_cpu_ms: " << set_plan_cpu.front() << "\n";
    if (set_plan_times.size() > 1) {
      std::cout << "workflow_set_plan_replace_median_ms: "
                << median({set_plan_times.begin() + 1, set_plan_times.end()}) << "\n";
      std::cout << "workflow_set_plan_replace_median_cpu_ms: "
                << median({set_plan_cpu.begin() + 1, set_plan_cpu.end()}) << "\n";
    }

    if (set_plan_only) {
      std::filesystem::remove_all(dir);
      return 0;
    }
    // Half the stages done, the next stage half in progress.
    db.exec(
        "UPDATE tasks SET status = 'success', started_at = 0, completed_at = 60000 "
        "WHERE mission_id = '" +
        workflow_id + "' AND sequence < 50");
    db.exec("UPDATE tasks SET status = 'in_progress', started_at = 0 WHERE mission_id = '" +
            workflow_id + "' AND sequence = 50 AND plan_order % 2 = 0");

    planning::PlanCache cache;
    planning::NextTasksRequest next{workflow_id, true, 0};
    planning::WorkflowIdRequest progress{workflow_id};
    std::size_t offered = 0;
    const double next_warm = time_runs(runs, [&] {
      offered = planning::workflow_next_tasks(db, &cache, next, KeyStyle::snake)["available_count"]
                    .get<std::size_t>();
    });
    const double progress_warm = time_runs(
        runs, [&] { planning::workflow_progress(db, &cache, progress, KeyStyle::snake); });
    // Cold: a task changes before each call (the trigger bumps the revision).
    std::vector<double> cold;
    for (int i = 0; i < runs; ++i) {
      db.exec("UPDATE tasks SET completed_at = " + std::to_string(60000 + i) +
              " WHERE mission_id = '" + workflow_id + "' AND plan_order = 0");
      auto start = Clock::now();
      planning::workflow_next_tasks(db, &cache, next, KeyStyle::snake);
      cold.push_back(ms_since(start));
    }
    std::size_t naive_offered = 0;
    const double next_naive = time_runs(std::max(1, runs / 10),
                                        [&] { naive_offered = naive_next_tasks(db, workflow_id); });
    const double progress_naive =
        time_runs(std::max(1, runs / 10), [&] { naive_progress(db, workflow_id); });

    // task_load_context: a task of the last stage, thousands of ancestors.
    auto s =
        db.prepare("SELECT id FROM tasks WHERE mission_id = ? ORDER BY plan_order DESC LIMIT 1");
    s.bind(1, workflow_id);
    s.step();
    planning::TaskLoadContextRequest context{s.text(0), {}, 8000};
    std::size_t tokens = 0;
    const double context_ms = time_runs(runs, [&] {
      tokens =
          planning::task_load_context(db, &cache, context)["token_estimate"].get<std::size_t>();
    });

    std::cout << "ready_tasks: " << offered << " (naive: " << naive_offered << ")\n";
    std::cout << "workflow_next_tasks_ms: " << next_warm << "\n";
    std::cout << "workflow_next_tasks_after_a_change_ms: " << median(cold) << "\n";
    std::cout << "workflow_next_tasks_naive_ms: " << next_naive << "\n";
    std::cout << "workflow_progress_ms: " << progress_warm << "\n";
    std::cout << "workflow_progress_naive_ms: " << progress_naive << "\n";
    std::cout << "task_load_context_8000_ms: " << context_ms << "\n";
    std::cout << "task_load_context_tokens: " << tokens << "\n";
    std::cout << "cache_loads: " << cache.loads() << "\n";
    std::cout << "cache_refreshes: " << cache.refreshes() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "mission_planning_bench: " << e.what() << "\n";
    status = 1;
  }
  std::filesystem::remove_all(dir);
  return status;
}
