// Confined agents (daemon/sandbox/, docs/adr/0036), through the real daemon
// and the real kernel: a task's shell agent under `mission workflows run`
// tries to write outside its worktree and is refused while its own commit
// merges; a `mission run` agent cannot signal the daemon or a sibling
// agent; each holds only because of the sandbox, as the same agent with
// --sandbox off shows. A kernel without Landlock (simulated) runs agents
// unconfined and says so on the launch.

#include <signal.h>
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <thread>

#include "integration/run_helpers.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// The places a task's agent must not write, by name, and the shell
// command that writes each (the run's repository is the main checkout;
// HOME is the instance's root, which holds the repository).
std::vector<std::pair<std::string, std::string>> escapes(const fs::path& repo,
                                                         const fs::path& other_worktree) {
  return {{"main-checkout", "echo x > '" + (repo / "escaped.txt").string() + "'"},
          {"home", "echo x > \"$HOME/escaped.txt\""},
          {"git-config", "echo '[escaped]' >> '" + (repo / ".git/config").string() + "'"},
          {"git-hooks", "echo x > '" + (repo / ".git/hooks/escaped").string() + "'"},
          {"other-worktree", "echo x > '" + (other_worktree / "escaped.txt").string() + "'"}};
}

// A task agent that tries every escape, notes each outcome in its own
// worktree (NAME: refused, or NAME: written), then commits that note
// itself: a failed commit fails the attempt.
std::vector<std::string> escaping_agent(const fs::path& repo, const fs::path& other_worktree) {
  std::string script;
  for (const auto& [name, write] : escapes(repo, other_worktree)) {
    script += "if (" + write + ") 2>/dev/null; then echo '" + name + ": written'; else echo '" +
              name + ": refused'; fi >> outcomes.txt\n";
  }
  script += "git add outcomes.txt && git commit -q -m 'outcomes noted by the agent' || exit 9\n";
  return {"--", "/bin/sh", "-c", script};
}

std::vector<std::string> args_of(std::vector<std::string> head,
                                 const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

std::string detach(const Instance& instance, const fs::path& cwd,
                   const std::vector<std::string>& command) {
  std::vector<std::string> args{"run", "--detach", "--cwd", cwd.string()};
  args.insert(args.end(), command.begin(), command.end());
  ProcessResult result = run_mission(instance, args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return result.out.substr(0, result.out.find('\n'));
}

// The pid of a detached execution once it runs.
int running_pid(const Instance& instance, const std::string& id) {
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  json execution;
  while (std::chrono::steady_clock::now() < deadline) {
    execution = json::parse(run_mission(instance, {"--json", "exec", "show", id}).out);
    if (execution.value("state", "") == "running" && execution.contains("pid"))
      return execution["pid"].get<int>();
    std::this_thread::sleep_for(20ms);
  }
  FAIL("execution " << id << " never ran: " << execution.dump());
  return -1;
}

// Sets the test-only variable for the next daemon started while it lives.
class AssumedNoLandlock {
 public:
  AssumedNoLandlock() { ::setenv("MISSIOND_TEST_ASSUME_NO_LANDLOCK", "1", 1); }
  ~AssumedNoLandlock() { ::unsetenv("MISSIOND_TEST_ASSUME_NO_LANDLOCK"); }
  AssumedNoLandlock(const AssumedNoLandlock&) = delete;
  AssumedNoLandlock& operator=(const AssumedNoLandlock&) = delete;
};

}  // namespace

TEST_CASE("a confined task agent cannot write outside its worktree while its own commit merges") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const fs::path other_worktree = instance.root.path() / "other-worktree";
  git(instance, repo, {"worktree", "add", "-q", "-b", "other", other_worktree.string()});
  const std::string config_before = read_file(repo / ".git/config");

  const std::string workflow = make_workflow(planner, {{"confined", {}}});
  ProcessResult result =
      run_long(instance, args_of({"workflows", "run", workflow, "--max-attempts", "1"},
                                 escaping_agent(repo, other_worktree)));
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  const json run = run_status(instance, workflow);
  CHECK(run["status"] == "completed");
  const std::string branch = run["integrationBranch"];
  const std::string outcomes = show(instance, repo, branch + ":outcomes.txt");
  for (const auto& [name, write] : escapes(repo, other_worktree))
    CHECK(outcomes.find(name + ": refused") != std::string::npos);
  CHECK(outcomes.find("written") == std::string::npos);
  CHECK(show(instance, repo, branch).find("outcomes noted by the agent") != std::string::npos);
  CHECK_FALSE(fs::exists(repo / "escaped.txt"));
  CHECK_FALSE(fs::exists(instance.root.path() / "escaped.txt"));
  CHECK_FALSE(fs::exists(repo / ".git/hooks/escaped"));
  CHECK_FALSE(fs::exists(other_worktree / "escaped.txt"));
  CHECK(read_file(repo / ".git/config") == config_before);

  // The same agent with --sandbox off writes every one: the refusals
  // above are the sandbox's, and opting out is kept with the run.
  const std::string unconfined = make_workflow(planner, {{"unconfined", {}}});
  ProcessResult off = run_long(
      instance, args_of({"workflows", "run", unconfined, "--max-attempts", "1", "--sandbox", "off"},
                        escaping_agent(repo, other_worktree)));
  INFO(off.out << off.err);
  REQUIRE(off.exit_code == 0);
  const json off_run = run_status(instance, unconfined);
  const std::string written =
      show(instance, repo, std::string(off_run["integrationBranch"]) + ":outcomes.txt");
  for (const auto& [name, write] : escapes(repo, other_worktree))
    CHECK(written.find(name + ": written") != std::string::npos);
  CHECK(fs::exists(repo / "escaped.txt"));
  CHECK(fs::exists(repo / ".git/hooks/escaped"));
}

TEST_CASE(
    "a confined mission run agent cannot signal the daemon or a sibling agent, and can with "
    "--sandbox off") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path cwd = instance.root.path() / "work";
  fs::create_directories(cwd);
  const std::string sibling = detach(instance, cwd, {"--", "sleep", "60"});
  const int sibling_pid = running_pid(instance, sibling);

  const std::string probe = "for pid in " + std::to_string(daemon.pid()) + " " +
                            std::to_string(sibling_pid) +
                            "; do if kill -0 $pid 2>/dev/null; then echo \"signal $pid: sent\"; "
                            "else echo \"signal $pid: refused\"; fi; done";
  ProcessResult confined =
      run_mission(instance, {"run", "--no-tty", "--cwd", cwd.string(), "--", "sh", "-c", probe});
  INFO(confined.out << confined.err);
  CHECK(confined.exit_code == 0);
  CHECK(confined.out.find("signal " + std::to_string(daemon.pid()) + ": refused") !=
        std::string::npos);
  CHECK(confined.out.find("signal " + std::to_string(sibling_pid) + ": refused") !=
        std::string::npos);

  ProcessResult off = run_mission(instance, {"run", "--no-tty", "--sandbox", "off", "--cwd",
                                             cwd.string(), "--", "sh", "-c", probe});
  INFO(off.out << off.err);
  CHECK(off.out.find("signal " + std::to_string(daemon.pid()) + ": sent") != std::string::npos);
  CHECK(off.out.find("signal " + std::to_string(sibling_pid) + ": sent") != std::string::npos);
  run_mission(instance, {"exec", "stop", sibling, "--force"});
}

TEST_CASE("on a kernel without Landlock an agent runs unconfined and its launch says so") {
  Instance instance;
  std::optional<DaemonProcess> daemon;
  {
    AssumedNoLandlock assumed;
    daemon.emplace(instance);
  }
  REQUIRE(daemon->ready());
  const fs::path cwd = instance.root.path() / "work";
  fs::create_directories(cwd);
  const fs::path outside = instance.root.path() / "outside.txt";
  ProcessResult result = run_mission(instance, {"run", "--no-tty", "--cwd", cwd.string(), "--",
                                                "sh", "-c", "echo x > '" + outside.string() + "'"});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK(fs::exists(outside));
  CHECK((result.out + result.err).find("runs unconfined") != std::string::npos);
}
