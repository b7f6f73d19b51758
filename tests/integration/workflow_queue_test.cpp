// The --gate's queue (docs/adr/0041, "The queue"), end to end through the
// real daemon, real git and shell agents: tasks waiting to land are gated
// together, a failure is bisected to its culprit, which goes back to its
// agent while the rest land; and a daemon killed with SIGKILL while a gate
// runs, or in the middle of a bisection, resumes without moving the branch
// to a tree the gate did not pass and without merging anything twice.
//
// The gate notes each run in a folder outside the worktrees (so the runs
// use --sandbox off): the tree it judged in NOTES/gate-runs, "pass TREE" or
// "fail TREE" in NOTES/verdicts. Its n-th run waits for NOTES/go-n when
// NOTES/hold-n exists (after touching NOTES/held-n), and the first run after
// a failure does the same when NOTES/hold-bisect exists: the moments a test
// acts on.

#include <algorithm>
#include <catch2/catch.hpp>
#include <csignal>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "integration/run_helpers.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

fs::path queue_gate(const fs::path& notes) {
  const fs::path script = notes / "gate.sh";
  const std::string n = "'" + notes.string() + "'";
  write_file(script, "notes=" + n +
                         "\n"
                         "echo \"$MISSION_GATE_TREE\" >> \"$notes/gate-runs\"\n"
                         "n=$(wc -l < \"$notes/gate-runs\" | tr -d ' ')\n"
                         "hold=\n"
                         "[ -f \"$notes/hold-$n\" ] && hold=$n\n"
                         "if [ -f \"$notes/hold-bisect\" ] && [ ! -f \"$notes/held-bisect\" ] && "
                         "grep -q '^fail' \"$notes/verdicts\" 2>/dev/null; then hold=bisect; fi\n"
                         "if [ -n \"$hold\" ]; then\n"
                         "  touch \"$notes/held-$hold\"\n"
                         "  while [ ! -f \"$notes/go-$hold\" ]; do sleep 0.01; done\n"
                         "fi\n"
                         "if [ -f broken.txt ]; then\n"
                         "  echo 'broken.txt is in the tree'\n"
                         "  echo \"fail $MISSION_GATE_TREE\" >> \"$notes/verdicts\"\n"
                         "  exit 1\n"
                         "fi\n"
                         "echo \"pass $MISSION_GATE_TREE\" >> \"$notes/verdicts\"\n");
  return script;
}

// Each task writes NAME.txt; task `bad`'s first attempt also breaks the
// gate (broken.txt), after every other task noted it was done, so that it
// lands in a batch with others. Prompts are kept as NOTES/prompt-NAME-N.
std::vector<std::string> queue_agent(const fs::path& notes, const std::string& bad,
                                     std::size_t tasks) {
  const std::string n = "'" + notes.string() + "'";
  return {"--", "/bin/sh", "-c",
          "cp \"$MISSION_TASK_PROMPT_FILE\" " + n +
              "/prompt-\"$MISSION_TASK_NAME-$MISSION_TASK_ATTEMPT\"\n"
              "echo \"$MISSION_TASK_NAME\" > \"$MISSION_TASK_NAME.txt\"\n"
              "if [ \"$MISSION_TASK_NAME\" = '" +
              bad +
              "' ] && [ \"$MISSION_TASK_ATTEMPT\" = 1 ]; then\n"
              "  while [ $(ls " +
              n + " | grep -c '^done-') -lt " + std::to_string(tasks - 1) +
              " ]; do sleep 0.01; done\n"
              "  echo broken > broken.txt\n"
              "fi\n"
              "touch " +
              n + "/done-\"$MISSION_TASK_NAME\"\n"};
}

std::vector<std::string> run_args(const std::string& workflow, const fs::path& gate,
                                  const std::vector<std::string>& agent,
                                  const std::string& parallel) {
  std::vector<std::string> out{"workflows",  "run",    workflow, "--detach",
                               "--parallel", parallel, "--gate", "sh '" + gate.string() + "'",
                               "--sandbox",  "off"};
  out.insert(out.end(), agent.begin(), agent.end());
  return out;
}

std::vector<PlannedTask> tasks_named(std::size_t count, std::vector<std::string>& names) {
  for (std::size_t i = 1; i <= count; ++i)
    names.push_back((i < 10 ? "t0" : "t") + std::to_string(i));
  std::vector<PlannedTask> plan;
  for (const auto& name : names) plan.push_back({name.c_str(), {}});
  return plan;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

// Each wait here stays under ctest's bound once scaled for the sanitized
// build (4 x 20 s against 120 s), so a run that sticks fails with its state
// printed instead of being killed silently. These runs end within seconds.
constexpr std::chrono::seconds kRunBound = 20s;

void wait_for_file(const fs::path& path) {
  if (!eventually([&] { return fs::exists(path); }, kRunBound)) FAIL("no " << path << " in time");
}

bool all_queued(const json& run, std::size_t tasks) {
  std::size_t queued = 0;
  for (const auto& task : run["tasks"]) {
    const auto& attempts = task["attempts"];
    if (!attempts.empty() && attempts.back()["status"] == "queued") ++queued;
  }
  return queued == tasks;
}

bool ended(const json& run) {
  return run["status"] != "running" && run["status"] != "stopping";
}

// What a run's integration branch went through: every value it ever had
// (its reflog) is a tree the gate passed, or where it began; no commit of
// its first-parent line holds a tree the gate failed; each task's merge is
// on that line once.
void check_branch(const Instance& instance, const fs::path& repo, const fs::path& notes,
                  const json& run, const std::vector<std::string>& names) {
  std::set<std::string> passed;
  std::set<std::string> failed;
  for (const auto& line : lines_of(read_file(notes / "verdicts"))) {
    (line.rfind("pass ", 0) == 0 ? passed : failed).insert(line.substr(5));
  }
  const std::string branch = run["integrationBranch"];
  const std::string base = run["baseCommit"];
  const auto values =
      lines_of(git_out(instance, repo, {"reflog", "show", "--format=%H", "refs/heads/" + branch}));
  CHECK(values.size() >= 2);
  for (const auto& commit : values) {
    if (commit == base) continue;
    const std::string tree =
        lines_of(git_out(instance, repo, {"rev-parse", commit + "^{tree}"})).at(0);
    INFO("the branch pointed at " << commit);
    CHECK(passed.count(tree) == 1);
  }
  for (const auto& line :
       lines_of(git_out(instance, repo, {"log", "--first-parent", "--format=%T", branch}))) {
    CHECK(failed.count(line) == 0);
  }
  // Each task's file came in by one commit of that line (its merge, or a
  // fast-forward to its own commit), against the commit before it.
  std::map<std::string, int> added;
  for (const auto& line : lines_of(git_out(instance, repo,
                                           {"log", "--first-parent", "--diff-merges=first-parent",
                                            "--name-only", "--format=", branch}))) {
    added[line] += 1;
  }
  for (const auto& name : names) {
    INFO(name);
    CHECK(added[name + ".txt"] == 1);
  }
}

// Every task merged, in one merged attempt.
void check_all_merged(const json& run, const std::vector<std::string>& names) {
  CHECK(run["status"] == "completed");
  for (const auto& name : names) {
    const json& attempts = task_of(run, name)["attempts"];
    std::size_t merged = 0;
    for (const auto& attempt : attempts) merged += attempt["status"] == "merged" ? 1 : 0;
    INFO(name);
    CHECK(merged == 1);
    CHECK(attempts.back()["status"] == "merged");
  }
}

}  // namespace

TEST_CASE(
    "a queue of 16 with one task that breaks the gate: the 15 land, the culprit is found by "
    "bisection and sent back, in at most 1 + 2 log2 16 gate runs") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  std::vector<std::string> names;
  const std::string workflow = make_workflow(planner, tasks_named(16, names));
  const fs::path notes = instance.root.path() / "notes";
  fs::create_directories(notes);
  const fs::path gate = queue_gate(notes);
  // The first gate waits until all 16 wait to land: the rest queue behind it.
  write_file(notes / "hold-1", "");
  ProcessResult started =
      run_long(instance, run_args(workflow, gate, queue_agent(notes, "t07", 16), "16"));
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
  wait_for_run(
      instance, workflow, [](const json& run) { return all_queued(run, 16); }, kRunBound);
  write_file(notes / "go-1", "");
  const json run = wait_for_run(instance, workflow, ended, kRunBound);
  INFO(run.dump());
  check_all_merged(run, names);

  const auto gate_runs = lines_of(read_file(notes / "gate-runs"));
  CHECK(gate_runs.size() <= 9);
  CHECK(run["gateRuns"] == gate_runs.size());
  // No tree was gated twice.
  CHECK(std::set<std::string>(gate_runs.begin(), gate_runs.end()).size() == gate_runs.size());

  // The culprit went back with the gate's output and what it was merged onto.
  const json& culprit = task_of(run, "t07")["attempts"];
  REQUIRE(culprit.size() == 2);
  CHECK(culprit[0]["status"] == "failed");
  CHECK(culprit[0]["reason"].get<std::string>().find("--gate failed") != std::string::npos);
  CHECK(culprit[0]["gate"]["passed"] == false);
  const std::string onto = culprit[0]["gate"]["onto"];
  const std::string prompt = read_file(notes / "prompt-t07-2");
  CHECK(prompt.find("broken.txt is in the tree") != std::string::npos);
  CHECK(prompt.find(onto.substr(0, 12)) != std::string::npos);
  // Every other task landed at its first attempt, with the tree that passed.
  for (const auto& name : names) {
    if (name == "t07") continue;
    const json& attempts = task_of(run, name)["attempts"];
    INFO(name);
    CHECK(attempts.size() == 1);
    CHECK(attempts[0]["gate"]["passed"] == true);
  }
  check_branch(instance, repo, notes, run, names);
  // Its headline, wrapped to the terminal, in one line.
  std::string text;
  std::istringstream words(run_long(instance, {"workflows", "status", workflow}).out);
  for (std::string word; words >> word;) text += word + " ";
  INFO(text);
  CHECK(text.find(std::to_string(gate_runs.size()) + " gate runs") != std::string::npos);
}

TEST_CASE(
    "with --gate-parallel 3 the queue gates prefixes side by side: the good tasks land, the "
    "culprit goes back, the branch never holds a failing tree") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  std::vector<std::string> names;
  const std::string workflow = make_workflow(planner, tasks_named(8, names));
  const fs::path notes = instance.root.path() / "notes";
  fs::create_directories(notes);
  const fs::path gate = queue_gate(notes);
  write_file(notes / "hold-1", "");
  std::vector<std::string> arguments = run_args(workflow, gate, queue_agent(notes, "t05", 8), "8");
  arguments.insert(arguments.begin() + 2, {"--gate-parallel", "3"});
  ProcessResult started = run_long(instance, arguments);
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
  wait_for_run(
      instance, workflow, [](const json& run) { return all_queued(run, 8); }, kRunBound);
  write_file(notes / "go-1", "");
  const json run = wait_for_run(instance, workflow, ended, kRunBound);
  INFO(run.dump());
  check_all_merged(run, names);
  CHECK(run["options"]["gateParallel"] == 3);
  CHECK(task_of(run, "t05")["attempts"].size() == 2);
  for (const auto& name : names) {
    if (name != "t05") CHECK(task_of(run, name)["attempts"].size() == 1);
  }
  const auto gate_runs = lines_of(read_file(notes / "gate-runs"));
  CHECK(run["gateRuns"] == gate_runs.size());
  check_branch(instance, repo, notes, run, names);
}

namespace {

// A daemon of its own, killed and started again on the same state.
struct KilledRun {
  Instance instance;
  std::optional<DaemonProcess> daemon;
  fs::path repo;
  fs::path notes;
  std::vector<std::string> names;
  std::string workflow;
  // What the gate had judged when the daemon was killed.
  std::vector<std::string> verdicts_before_kill;

  explicit KilledRun(std::size_t tasks) {
    daemon.emplace(instance);
    REQUIRE(daemon->ready());
    repo = make_repo(instance);
    Agent planner{instance, repo, kToolsets};
    workflow = make_workflow(planner, tasks_named(tasks, names));
    notes = instance.root.path() / "notes";
    fs::create_directories(notes);
  }

  // SIGKILL once the gate noted `held`; the gate it held is let go (it
  // finishes as an orphan, judging for nobody); then a new daemon on the
  // same state resumes the run.
  void kill_and_restart(const std::string& hold) {
    wait_for_file(notes / ("held-" + hold));
    daemon->signal(SIGKILL);
    REQUIRE(daemon->wait_exit());
    verdicts_before_kill = lines_of(read_file(notes / "verdicts"));
    const std::size_t verdicts = verdicts_before_kill.size();
    write_file(notes / ("go-" + hold), "");
    if (!eventually([&] { return lines_of(read_file(notes / "verdicts")).size() != verdicts; },
                    kRunBound)) {
      FAIL("the held gate did not finish");
    }
    daemon.reset();
    daemon.emplace(instance);
    REQUIRE(daemon->ready());
  }
};

}  // namespace

TEST_CASE(
    "the daemon killed with SIGKILL while the gate runs: after a restart the run completes, the "
    "branch only ever held trees the gate passed and nothing merged twice") {
  KilledRun killed(4);
  const fs::path gate = queue_gate(killed.notes);
  write_file(killed.notes / "hold-1", "");
  ProcessResult started = run_long(
      killed.instance, run_args(killed.workflow, gate, queue_agent(killed.notes, "none", 4), "4"));
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
  killed.kill_and_restart("1");
  const json run = wait_for_run(killed.instance, killed.workflow, ended, kRunBound);
  INFO(run.dump());
  check_all_merged(run, killed.names);
  check_branch(killed.instance, killed.repo, killed.notes, run, killed.names);
}

TEST_CASE(
    "the daemon killed with SIGKILL in the middle of a bisection: after a restart the culprit is "
    "found without gating a judged tree again, the rest land once, the branch only ever held "
    "passing trees") {
  KilledRun killed(6);
  const fs::path gate = queue_gate(killed.notes);
  write_file(killed.notes / "hold-1", "");
  write_file(killed.notes / "hold-bisect", "");
  ProcessResult started = run_long(
      killed.instance, run_args(killed.workflow, gate, queue_agent(killed.notes, "t03", 6), "6"));
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
  wait_for_run(
      killed.instance, killed.workflow, [](const json& run) { return all_queued(run, 6); },
      kRunBound);
  write_file(killed.notes / "go-1", "");
  killed.kill_and_restart("bisect");
  const json run = wait_for_run(killed.instance, killed.workflow, ended, kRunBound);
  INFO(run.dump());
  check_all_merged(run, killed.names);
  check_branch(killed.instance, killed.repo, killed.notes, run, killed.names);
  CHECK(task_of(run, "t03")["attempts"][0]["reason"].get<std::string>().find("--gate failed") !=
        std::string::npos);
  // A tree judged failing before the kill was not gated again after it.
  const auto gate_runs = lines_of(read_file(killed.notes / "gate-runs"));
  std::size_t failed_before = 0;
  for (const auto& line : killed.verdicts_before_kill) {
    if (line.rfind("fail ", 0) != 0) continue;
    ++failed_before;
    INFO(line);
    CHECK(std::count(gate_runs.begin(), gate_runs.end(), line.substr(5)) == 1);
  }
  CHECK(failed_before >= 1);
}
