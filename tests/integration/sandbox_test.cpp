// Confined agents (daemon/sandbox/, docs/adr/0036), through the real daemon
// and the real kernel: a task's shell agent under `mission workflows run`
// tries to write outside its worktree and is refused while its own commit
// merges; a `mission run` agent cannot signal the daemon or a sibling
// agent; each holds only because of the sandbox, as the same agent with
// --sandbox off shows. A kernel without Landlock (simulated) runs agents
// unconfined and says so on the launch.

#include <signal.h>
#include <stdlib.h>

#include <algorithm>
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
  json execution;
  const bool runs = eventually(
      [&] {
        execution = json::parse(run_mission(instance, {"--json", "exec", "show", id}).out);
        return execution.value("state", "") == "running" && execution.contains("pid");
      },
      20s, 20ms);
  if (!runs) FAIL("execution " << id << " never ran: " << execution.dump());
  return execution["pid"].get<int>();
}

// Sets a variable for the daemons (and commands) started while it lives.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const char* value) : name_(name) { ::setenv(name, value, 1); }
  ~ScopedVariable() { ::unsetenv(name_); }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

 private:
  const char* name_;
};

// The test-only variable: the next daemon behaves as on a kernel without
// Landlock.
class AssumedNoLandlock : public ScopedVariable {
 public:
  AssumedNoLandlock() : ScopedVariable("MISSIOND_TEST_ASSUME_NO_LANDLOCK", "1") {}
};

bool contains(const json& list, const std::string& item) {
  return std::find(list.begin(), list.end(), json(item)) != list.end();
}

// The probe entries of a sandbox.check answer, inside or outside.
std::vector<json> probes(const json& check, bool inside) {
  std::vector<json> found;
  for (const auto& probe : check.at("probe"))
    if (probe.at("inside") == inside) found.push_back(probe);
  return found;
}

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

  // Each run says how its agents ran, in its status and its report.
  CHECK(run["sandbox"].get<std::string>().rfind("confined (Landlock ABI ", 0) == 0);
  CHECK(off_run["sandbox"] == "not confined: --sandbox off");
  const std::string status_text = run_mission(instance, {"workflows", "status", workflow}).out;
  CHECK(status_text.find("Agents confined (Landlock ABI ") != std::string::npos);
  const std::string off_text = run_mission(instance, {"workflows", "status", unconfined}).out;
  CHECK(off_text.find("Agents not confined: --sandbox off") != std::string::npos);
  CHECK(run_mission(instance, {"report", workflow}).out.find("- Agents: confined (Landlock ABI ") !=
        std::string::npos);
  CHECK(run_mission(instance, {"report", unconfined})
            .out.find("- Agents: not confined: --sandbox off") != std::string::npos);
}

TEST_CASE("a task's agent moves its own branch but not the integration branch nor a sibling's") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  // A sibling task's branch, as mission names one: in a folder of its own.
  git(instance, repo, {"branch", "mission/ws-sibling/work"});
  const std::string sibling_tip = show(instance, repo, "mission/ws-sibling/work");

  const std::string workflow = make_workflow(planner, {{"own-branch", {}}});
  const std::string script =
      "echo mine > mine.txt && git add mine.txt && git commit -q -m 'its own commit' || exit 9\n"
      "for ref in \"refs/heads/mission/run/$MISSION_WORKFLOW_ID\" "
      "refs/heads/mission/ws-sibling/work; do\n"
      "  if git update-ref \"$ref\" HEAD; then echo \"$ref: moved\"; "
      "else echo \"$ref: refused\"; fi >> outcomes.txt\n"
      "done\n"
      "git add outcomes.txt && git commit -q -m 'outcomes noted by the agent' || exit 9\n";
  ProcessResult result = run_long(instance, {"workflows", "run", workflow, "--max-attempts", "1",
                                             "--", "/bin/sh", "-c", script});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  const json run = run_status(instance, workflow);
  REQUIRE(run["status"] == "completed");
  const std::string branch = run["integrationBranch"];
  const std::string outcomes = show(instance, repo, branch + ":outcomes.txt");
  INFO(outcomes);
  CHECK(outcomes.find("refs/heads/" + branch + ": refused") != std::string::npos);
  CHECK(outcomes.find("refs/heads/mission/ws-sibling/work: refused") != std::string::npos);
  CHECK(outcomes.find("moved") == std::string::npos);
  CHECK(show(instance, repo, "mission/ws-sibling/work") == sibling_tip);
  // Its own commits merged, through its own branch.
  CHECK(show(instance, repo, branch).find("outcomes noted by the agent") != std::string::npos);
  CHECK(task_of(run, "own-branch")["attempts"][0].value("agentExecutionId", "") != "");
  // git said which lock it could not make: recorded as refused writes.
  const json refused = task_of(run, "own-branch")["attempts"][0].value("refusedWrites", json());
  INFO(refused.dump());
  CHECK(refused.dump().find("refs/heads/" + branch + ".lock") != std::string::npos);
  CHECK(refused.dump().find("refs/heads/mission/ws-sibling/work.lock") != std::string::npos);
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
  // exec show says how it ran.
  const json confined_execution =
      json::parse(run_mission(instance, {"--json", "exec", "show", "@last"}).out);
  CHECK(confined_execution["sandbox"].get<std::string>().rfind("confined (Landlock ABI ", 0) == 0);

  ProcessResult off = run_mission(instance, {"run", "--no-tty", "--sandbox", "off", "--cwd",
                                             cwd.string(), "--", "sh", "-c", probe});
  INFO(off.out << off.err);
  CHECK(off.out.find("signal " + std::to_string(daemon.pid()) + ": sent") != std::string::npos);
  CHECK(off.out.find("signal " + std::to_string(sibling_pid) + ": sent") != std::string::npos);
  CHECK(run_mission(instance, {"exec", "show", "@last"}).out.find("not confined: --sandbox off") !=
        std::string::npos);
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
  CHECK(json::parse(run_mission(instance, {"--json", "exec", "show", "@last"}).out)["sandbox"] ==
        "not confined: kernel has no Landlock; secrets not hidden");
}

TEST_CASE("mission sandbox check shows an adapter's profile and proves it with a confined probe") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path cwd = instance.root.path() / "work";
  const fs::path codex_home = instance.root.path() / "codex-home";
  fs::create_directories(cwd);
  fs::create_directories(codex_home);
  std::map<std::string, std::string> env = instance.env();
  env["CODEX_HOME"] = codex_home.string();
  ProcessResult result = run_process(
      {MISSION_PATH, "--json", "sandbox", "check", "--adapter", "codex", "--cwd", cwd.string()},
      env);
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  const json check = json::parse(result.out);
  CHECK(check["confined"] == true);
  CHECK(check["holds"] == true);
  CHECK(check["kernel"]["landlockAbi"].get<int>() >= 1);
  CHECK(check["kernel"]["noNewPrivs"] == true);
  CHECK(check["kernel"].value("networkFilter", "").starts_with("seccomp (libseccomp "));
  CHECK(check["adapter"] == "codex");
  const json& profile = check["profile"];
  CHECK(contains(profile["writableTrees"], cwd.string()));
  CHECK(contains(profile["writableTrees"], codex_home.string()));
  CHECK(contains(profile["statePaths"], codex_home.string()));
  CHECK(contains(profile["writableFiles"], "/dev/null"));
  // The daemon's own folders are hidden from the agent.
  CHECK(contains(profile["hidden"], instance.state_dir().string()));
  CHECK(contains(profile["hidden"], instance.runtime_dir().string()));

  // The child wrote its working directory and its TMPDIR, and was refused
  // the daemon's state dir, which the daemon itself writes.
  const std::vector<json> inside = probes(check, true);
  const std::vector<json> outside = probes(check, false);
  REQUIRE(inside.size() == 2);
  REQUIRE(outside.size() == 1);
  for (const auto& probe : inside) CHECK(probe["written"] == true);
  CHECK(fs::path(inside[0]["path"].get<std::string>()).parent_path() == cwd);
  CHECK(outside[0]["written"] == false);
  CHECK(outside[0]["expected"] == "refused");
  CHECK(fs::path(outside[0]["path"].get<std::string>()).parent_path() == instance.state_dir());
  CHECK(fs::is_empty(cwd));
  // It read its working directory and was refused a hidden path: the
  // daemon's own state dir, there on every machine.
  const json& reads = check.at("readProbe");
  REQUIRE(reads.size() == 2);
  CHECK(reads[0]["path"] == cwd.string());
  CHECK(reads[0]["read"] == true);
  CHECK(reads[0]["hidden"] == false);
  CHECK(reads[1]["hidden"] == true);
  CHECK(contains(profile["hidden"], reads[1]["path"].get<std::string>()));
  CHECK(reads[1]["read"] == false);
  CHECK(reads[1]["expected"] == "refused");
  CHECK(reads[1]["error"] == "Permission denied");

  ProcessResult text = run_mission(instance, {"sandbox", "check", "--cwd", cwd.string()});
  INFO(text.out << text.err);
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("profile of a generic launch in " + cwd.string()) != std::string::npos);
  CHECK(text.out.find("refused (Permission denied)") != std::string::npos);
  CHECK(text.out.find("\n  hidden            /") != std::string::npos);
  CHECK(text.out.find("  hidden  refused (Permission denied)") != std::string::npos);
}

TEST_CASE(
    "on a kernel without Landlock mission status warns and mission sandbox check fails, its "
    "probe writing outside") {
  Instance instance;
  std::optional<DaemonProcess> daemon;
  {
    AssumedNoLandlock assumed;
    daemon.emplace(instance);
  }
  REQUIRE(daemon->ready());
  ProcessResult status = run_mission(instance, {"status"});
  INFO(status.out << status.err);
  CHECK(status.exit_code == 0);
  CHECK(status.out.find("runs unconfined") != std::string::npos);
  CHECK(status.out.find("--sandbox require") != std::string::npos);
  const json status_json = json::parse(run_mission(instance, {"--json", "status"}).out);
  CHECK(status_json["daemon"]["sandbox"]["confined"] == false);

  const fs::path cwd = instance.root.path() / "work";
  fs::create_directories(cwd);
  ProcessResult result =
      run_mission(instance, {"--json", "sandbox", "check", "--cwd", cwd.string()});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  CHECK(result.err.find("agents run unconfined") != std::string::npos);
  const json check = json::parse(result.out);
  CHECK(check["confined"] == false);
  CHECK(check["kernel"]["landlockAbi"] == 0);
  CHECK(check["kernel"]["landlockMissing"].get<std::string>().find(
            "MISSIOND_TEST_ASSUME_NO_LANDLOCK") != std::string::npos);
  const std::vector<json> outside = probes(check, false);
  REQUIRE(outside.size() == 1);
  CHECK(outside[0]["written"] == true);
  CHECK_FALSE(fs::exists(outside[0]["path"].get<std::string>()));
  // Unconfined, the probe reads what a confined one would be refused.
  const json& reads = check.at("readProbe");
  REQUIRE(reads.size() == 2);
  CHECK(reads[1]["hidden"] == true);
  CHECK(reads[1]["read"] == true);
  CHECK(reads[1]["expected"] == "read");
}

TEST_CASE(
    "missiond --sandbox require refuses an agent it cannot confine and says what to do, unless "
    "the launch opts out") {
  Instance instance;
  std::optional<DaemonProcess> daemon;
  const bool by_variable = GENERATE(false, true);
  {
    AssumedNoLandlock assumed;
    std::optional<ScopedVariable> variable;
    if (by_variable) variable.emplace("MISSION_SANDBOX", "require");
    daemon.emplace(instance, by_variable ? std::vector<std::string>{}
                                         : std::vector<std::string>{"--sandbox", "require"});
  }
  REQUIRE(daemon->ready());
  const fs::path cwd = instance.root.path() / "work";
  fs::create_directories(cwd);
  const fs::path outside = instance.root.path() / "outside.txt";
  const std::string write = "echo x > '" + outside.string() + "'";
  ProcessResult refused =
      run_mission(instance, {"run", "--no-tty", "--cwd", cwd.string(), "--", "sh", "-c", write});
  INFO(refused.out << refused.err);
  CHECK(refused.exit_code != 0);
  CHECK(refused.err.find("requires confined agents (--sandbox require)") != std::string::npos);
  CHECK(refused.err.find("enable Landlock") != std::string::npos);
  CHECK_FALSE(fs::exists(outside));
  ProcessResult status = run_mission(instance, {"status"});
  CHECK(status.out.find("agents are not launched (missiond --sandbox require)") !=
        std::string::npos);

  ProcessResult opted_out = run_mission(instance, {"run", "--no-tty", "--sandbox", "off", "--cwd",
                                                   cwd.string(), "--", "sh", "-c", write});
  INFO(opted_out.out << opted_out.err);
  CHECK(opted_out.exit_code == 0);
  CHECK(fs::exists(outside));
}

TEST_CASE(
    "a run on a kernel without Landlock says its agents were not confined, and under "
    "--sandbox require is refused before it starts") {
  std::optional<RunSetup> setup;
  const bool required = GENERATE(false, true);
  {
    AssumedNoLandlock assumed;
    std::optional<ScopedVariable> variable;
    if (required) variable.emplace("MISSION_SANDBOX", "require");
    setup.emplace();
  }
  auto& [instance, daemon, repo, planner] = *setup;
  const std::string workflow = make_workflow(planner, {{"unconfined", {}}});
  ProcessResult result =
      run_long(instance, {"workflows", "run", workflow, "--max-attempts", "1", "--", "/bin/sh",
                          "-c", "echo x > note.txt && git add note.txt && git commit -q -m note"});
  INFO(result.out << result.err);
  if (required) {
    CHECK(result.exit_code != 0);
    CHECK(result.err.find("requires confined agents (--sandbox require)") != std::string::npos);
    CHECK(run_mission(instance, {"workflows", "status", workflow}).exit_code != 0);
    return;
  }
  REQUIRE(result.exit_code == 0);
  CHECK(run_status(instance, workflow)["sandbox"] == "not confined: kernel has no Landlock");
  CHECK(run_mission(instance, {"workflows", "status", workflow})
            .out.find("Agents not confined: kernel has no Landlock") != std::string::npos);
  CHECK(run_mission(instance, {"report", workflow})
            .out.find("- Agents: not confined: kernel has no Landlock") != std::string::npos);
}

TEST_CASE(
    "a path given with --allow-write is written by a confined agent and nothing else outside, "
    "is checked, and is kept with the run") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const fs::path shared = instance.root.path() / "shared";
  const fs::path elsewhere = instance.root.path() / "elsewhere";
  const fs::path cwd = instance.root.path() / "work";
  for (const auto& folder : {shared, elsewhere, cwd}) fs::create_directories(folder);
  const std::string probe = "for d in '" + shared.string() + "' '" + elsewhere.string() +
                            "'; do if echo x > \"$d/run.txt\" 2>/dev/null; then echo \"$d: "
                            "written\"; else echo \"$d: refused\"; fi; done";
  ProcessResult result = run_mission(instance, {"run", "--no-tty", "--allow-write", shared.string(),
                                                "--cwd", cwd.string(), "--", "sh", "-c", probe});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 0);
  CHECK(result.out.find(shared.string() + ": written") != std::string::npos);
  CHECK(result.out.find(elsewhere.string() + ": refused") != std::string::npos);
  CHECK(fs::exists(shared / "run.txt"));
  CHECK_FALSE(fs::exists(elsewhere / "run.txt"));
  CHECK(json::parse(run_mission(instance, {"--json", "exec", "show", "@last"}).out)["sandbox"]
            .get<std::string>()
            .find(", also writes " + shared.string()) != std::string::npos);

  // Each path is checked before anything runs.
  const fs::path link = instance.root.path() / "link";
  fs::create_directory_symlink(shared, link);
  const std::vector<std::pair<std::vector<std::string>, std::string>> refusals = {
      {{"--allow-write", (instance.root.path() / "missing").string()}, "does not exist"},
      {{"--allow-write", link.string()}, "is not its canonical form " + shared.string()},
      {{"--allow-write", (repo / ".git").string()}, "is inside a repository's .git"},
      {{"--allow-write", shared.string(), "--sandbox", "off"}, "no effect with --sandbox off"}};
  for (const auto& [flags, message] : refusals) {
    std::vector<std::string> args{"run", "--no-tty", "--cwd", cwd.string()};
    args.insert(args.end(), flags.begin(), flags.end());
    args.insert(args.end(), {"--", "true"});
    ProcessResult refused = run_mission(instance, args);
    INFO(refused.out << refused.err);
    CHECK(refused.exit_code != 0);
    CHECK(refused.err.find(message) != std::string::npos);
  }

  // A run's agents get it too; a folder holding the repository's .git is
  // refused.
  const std::string held = make_workflow(planner, {{"held", {}}});
  ProcessResult holds = run_long(instance, {"workflows", "run", held, "--allow-write",
                                            instance.root.path().string(), "--", "true"});
  INFO(holds.out << holds.err);
  CHECK(holds.exit_code != 0);
  CHECK(holds.err.find("holds the repository's .git") != std::string::npos);
  const std::string workflow = make_workflow(planner, {{"allowed", {}}});
  ProcessResult run = run_long(
      instance, {"workflows", "run", workflow, "--max-attempts", "1", "--allow-write",
                 shared.string(), "--", "/bin/sh", "-c",
                 "echo task > '" + (shared / "task.txt").string() +
                     "' && echo x > note.txt && git add note.txt && git commit -q -m note"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(read_file(shared / "task.txt") == "task\n");
  const json status = run_status(instance, workflow);
  CHECK(status["status"] == "completed");
  CHECK(status["sandbox"].get<std::string>().find(", also writes " + shared.string()) !=
        std::string::npos);
  CHECK(run_mission(instance, {"report", workflow}).out.find("also writes " + shared.string()) !=
        std::string::npos);
}
