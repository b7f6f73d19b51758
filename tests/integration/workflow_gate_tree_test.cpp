// A run's kept gate worktrees (docs/adr/0041, "Gate worktrees"), end to
// end through the real daemon, real git and shell agents: the gate's
// worktree is made while the agents work and moved from one merged tree
// to the next, with what a gate wrote there undone; the run removes it at
// its end, `mission workspaces clean` and a starting daemon remove those
// of runs that ended; and a conflict found after a restart still names the
// task that landed the file. The gates and agents note what they saw in a
// folder outside the worktrees, so they run with --sandbox off.

#include <catch2/catch.hpp>
#include <csignal>
#include <optional>

#include "integration/run_helpers.hpp"
#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

bool ended(const json& run) {
  return run["status"] != "running" && run["status"] != "stopping";
}

fs::path gate_tree(const fs::path& repo, const std::string& run_id, int slot) {
  return fs::path(repo.string() + ".worktrees") / ("gate-" + run_id + "-" + std::to_string(slot));
}

std::string gate_branches(const Instance& instance, const fs::path& repo) {
  return git_out(instance, repo, {"branch", "--list", "mission/gate/*"});
}

}  // namespace

TEST_CASE(
    "a run keeps its gate worktree and moves it: the second gate runs where the first did, on the "
    "new merged tree, without what the first gate wrote there, and it goes when the run ends") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  write_file(repo / ".gitignore", "build/\n");
  write_file(repo / "kept.txt", "as committed\n");
  write_file(repo / "doomed.txt", "tracked\n");
  git(instance, repo, {"add", "-A"});
  git(instance, repo, {"commit", "-q", "-m", "files a gate writes over"});
  const std::string workflow = make_workflow(planner, {{"first", {}}, {"second", {"first"}}});
  const fs::path notes = instance.root.path() / "notes";
  fs::create_directories(notes);
  // Notes where it runs and what it finds, then writes every kind of
  // thing a build might: an untracked file, an ignored folder, an edit
  // and a deletion of tracked files.
  const fs::path gate = notes / "gate.sh";
  write_file(gate, "notes='" + notes.string() +
                       "'\n"
                       "pwd -P >> \"$notes/gate-dirs\"\n"
                       "n=$(wc -l < \"$notes/gate-dirs\" | tr -d ' ')\n"
                       "{ [ -e scribble.txt ] && echo untracked\n"
                       "  [ -e build ] && echo ignored\n"
                       "  grep -qx 'as committed' kept.txt || echo edited\n"
                       "  [ -e doomed.txt ] || echo deleted\n"
                       "  [ -e first.txt ] && echo first\n"
                       "  [ -e second.txt ] && echo second\n"
                       "} > \"$notes/seen-$n\"\n"
                       "echo s > scribble.txt; mkdir -p build; echo o > build/out.o\n"
                       "echo scribbled >> kept.txt; rm doomed.txt\n");
  ProcessResult result = run_long(
      instance, args({"workflows", "run", workflow, "--gate", "sh '" + gate.string() + "'",
                      "--sandbox", "off"},
                     agent(notes, "echo \"$MISSION_TASK_NAME\" > \"$MISSION_TASK_NAME.txt\"\n")));
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  const json run = run_status(instance, workflow);
  INFO(run.dump());
  CHECK(run["status"] == "completed");
  const std::string dirs = read_file(notes / "gate-dirs");
  const fs::path kept = gate_tree(fs::canonical(repo), run["id"], 0);
  CHECK(dirs == kept.string() + "\n" + kept.string() + "\n");
  CHECK(read_file(notes / "seen-1") == "first\n");
  CHECK(read_file(notes / "seen-2") == "first\nsecond\n");
  // The run's end removes it, and its branch.
  CHECK(eventually([&] { return !fs::exists(kept); }, 30s));
  // The branch goes after the worktree, in the same pool work.
  CHECK(eventually([&] { return gate_branches(instance, repo).empty(); }, 30s));
}

TEST_CASE(
    "mission workspaces clean removes the gate worktrees and branches of runs that ended and keeps "
    "a running run's, and a starting daemon removes them too") {
  Instance instance;
  std::optional<DaemonProcess> daemon;
  daemon.emplace(instance);
  REQUIRE(daemon->ready());
  const fs::path repo = make_repo(instance);
  Agent planner{instance, repo, kToolsets};
  const fs::path notes = instance.root.path() / "notes";
  fs::create_directories(notes);

  const std::string done = make_workflow(planner, {{"done", {}}});
  ProcessResult finished =
      run_long(instance, args({"workflows", "run", done, "--gate", "true", "--sandbox", "off"},
                              agent(notes, "echo d > d.txt\n")));
  INFO(finished.out << finished.err);
  REQUIRE(finished.exit_code == 0);
  const std::string ended_run = run_status(instance, done)["id"];
  // The run removed its own when it ended.
  REQUIRE(eventually([&] { return gate_branches(instance, repo).empty(); }, 30s));
  // What a daemon killed mid-run leaves of an ended run: a gate worktree
  // with a gate's output in it, and the branch of another slot.
  auto leave = [&] {
    const fs::path left = gate_tree(repo, ended_run, 0);
    git(instance, repo,
        {"worktree", "add", "-q", "-b", "mission/gate/" + ended_run + "/0", left.string()});
    write_file(left / "out.o", "built\n");
    git(instance, repo, {"branch", "mission/gate/" + ended_run + "/1"});
    return left;
  };
  fs::path left = leave();

  // A running run's gate worktree, made while its agent works.
  const std::string live = make_workflow(planner, {{"live", {}}});
  ProcessResult started = run_long(
      instance, args({"workflows", "run", live, "--detach", "--gate", "true", "--sandbox", "off"},
                     agent(notes, "while [ ! -f '" + notes.string() +
                                      "/go' ]; do sleep 0.01; done\necho l > l.txt\n")));
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
  const std::string live_run = run_status(instance, live)["id"];
  const fs::path live_tree = gate_tree(repo, live_run, 0);
  REQUIRE(eventually([&] { return fs::exists(live_tree / ".git"); }, 30s));

  const json cleaned = mission_json(instance, {"workspaces", "clean"});
  INFO(cleaned.dump());
  CHECK(!fs::exists(left));
  CHECK(gate_branches(instance, repo).find(ended_run) == std::string::npos);
  CHECK(cleaned.dump().find("mission/gate/" + ended_run + "/0") != std::string::npos);
  CHECK(fs::exists(live_tree / ".git"));

  write_file(notes / "go", "");
  const json run = wait_for_run(instance, live, ended, 60s);
  CHECK(run["status"] == "completed");

  left = leave();
  daemon.reset();
  daemon.emplace(instance);
  REQUIRE(daemon->ready());
  CHECK(
      eventually([&] { return !fs::exists(left) && gate_branches(instance, repo).empty(); }, 30s));
}

TEST_CASE(
    "a conflict found after the daemon restarted still names the task that landed the file in the "
    "next attempt's prompt") {
  Instance instance;
  std::optional<DaemonProcess> daemon;
  daemon.emplace(instance);
  REQUIRE(daemon->ready());
  const fs::path repo = make_repo(instance);
  Agent planner{instance, repo, kToolsets};
  const std::string workflow = make_workflow(planner, {{"one", {}}, {"two", {}}});
  const fs::path notes = instance.root.path() / "notes";
  fs::create_directories(notes);
  const std::string n = "'" + notes.string() + "'";
  // The first gate (one's) holds until NOTES/go; two finishes while it
  // holds, so both wait in the queue when the daemon is killed.
  const std::string gate = "echo run >> " + n + "/gate-runs; if [ $(wc -l < " + n +
                           "/gate-runs) = 1 ]; then touch " + n + "/held; while [ ! -f " + n +
                           "/go ]; do sleep 0.01; done; fi";
  // Both first attempts write shared.txt; a later one adds its line.
  const std::string body =
      "if [ \"$MISSION_TASK_ATTEMPT\" = 1 ]; then\n"
      "  if [ \"$MISSION_TASK_NAME\" = two ]; then while [ ! -f " +
      n +
      "/held ]; do sleep 0.01; done; fi\n"
      "  printf 'line %s\\n' \"$MISSION_TASK_NAME\" > shared.txt\n"
      "else printf 'line %s\\n' \"$MISSION_TASK_NAME\" >> shared.txt; fi\n";
  ProcessResult started =
      run_long(instance, args({"workflows", "run", workflow, "--detach", "--parallel", "2",
                               "--gate", gate, "--sandbox", "off"},
                              agent(notes, body)));
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
  wait_for_run(instance, workflow, [](const json& run) {
    const json& attempts = task_of(run, "two")["attempts"];
    return !attempts.empty() && attempts.back()["status"] == "queued";
  });
  daemon->signal(SIGKILL);
  REQUIRE(daemon->wait_exit());
  write_file(notes / "go", "");
  daemon.reset();
  daemon.emplace(instance);
  REQUIRE(daemon->ready());

  const json run = wait_for_run(instance, workflow, ended, 60s);
  INFO(run.dump());
  CHECK(run["status"] == "completed");
  // The resumed queue lands either first; the other conflicts with it.
  const bool two_sent_back = task_of(run, "two")["attempts"].size() == 2;
  const std::string sent_back = two_sent_back ? "two" : "one";
  const std::string landed = two_sent_back ? "one" : "two";
  const json& attempts = task_of(run, sent_back)["attempts"];
  REQUIRE(attempts.size() == 2);
  CHECK(attempts[0]["status"] == "conflicted");
  CHECK(task_of(run, landed)["attempts"].size() == 1);
  const std::string prompt = read_file(notes / ("prompt-" + sent_back + "-2"));
  CHECK(prompt.find("shared.txt") != std::string::npos);
  CHECK(prompt.find("task '" + landed + "'") != std::string::npos);
  CHECK(prompt.find("make " + landed) != std::string::npos);
  CHECK(show(instance, repo, run["integrationBranch"].get<std::string>() + ":shared.txt") ==
        "line " + landed + "\nline " + sent_back + "\n");
}
