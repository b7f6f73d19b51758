// Secrets hidden from confined agents (daemon/sandbox/hidden_reads.hpp,
// docs/adr/0051), through the real daemon and the real kernel's Landlock:
// an agent cannot read or list the person's keys and credentials, another
// task's worktree or the daemon's files, while it reads the person's
// dotfiles, the repository and its own worktree, commits there and reaches
// the daemon over its socket. --sandbox off hides nothing; --hide hides
// more. Each case is skipped, saying why, on a kernel without Landlock.

#include <sys/syscall.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "integration/run_helpers.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// Whether this kernel has Landlock, which hiding needs; says why the case
// is skipped when it has not.
bool hiding_possible() {
  constexpr unsigned kVersion = 1U << 0;  // LANDLOCK_CREATE_RULESET_VERSION
  if (::syscall(SYS_landlock_create_ruleset, nullptr, 0, kVersion) > 0) return true;
  WARN("skipped: this kernel has no Landlock, so nothing can be hidden from an agent");
  return false;
}

// A HOME as people have one: keys, a cloud credential, git's dotfile and a
// plain note.
void fill_home(const fs::path& home) {
  write_file(home / ".ssh/id_ed25519", "SSH-PRIVATE-KEY\n");
  write_file(home / ".aws/credentials", "AWS-SECRET-KEY\n");
  write_file(home / ".gitconfig", "[user]\n\tname = Dotfile Person\n\temail = p@example.com\n");
  write_file(home / "notes.txt", "a plain note\n");
}

// `mission run ARGS...` with HOME at `home`, git identity from its dotfile.
ProcessResult run_at_home(const Instance& instance, const fs::path& home,
                          const std::vector<std::string>& args) {
  std::vector<std::string> argv{MISSION_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  std::map<std::string, std::string> env = instance.env();
  env["HOME"] = home.string();
  env["GIT_CONFIG_NOSYSTEM"] = "1";
  return run_process(argv, env, 30s);
}

std::string last_sandbox(const Instance& instance) {
  return json::parse(run_mission(instance, {"--json", "exec", "show", "@last"}).out)["sandbox"];
}

}  // namespace

TEST_CASE(
    "a confined agent cannot read or list the person's secrets but reads their dotfiles, commits "
    "and reaches the daemon") {
  if (!hiding_possible()) return;
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path home = instance.root.path();
  fill_home(home);
  const fs::path repo = make_repo(instance);
  const fs::path own = repo.string() + ".worktrees/own";
  git(instance, repo, {"worktree", "add", "-q", "-b", "own", own.string()});

  const std::string script =
      "cat \"$HOME/.ssh/id_ed25519\" \"$HOME/.aws/credentials\" \"$HOME/.gitconfig\" "
      "\"$HOME/notes.txt\"\n"
      "ls \"$HOME/.ssh\"\n"
      "cat '" +
      (instance.state_dir() / "mission.db").string() +
      "' >/dev/null\n"
      "echo mine > mine.txt && git add mine.txt && git commit -q -m mine && echo committed\n"
      "'" MISSION_PATH "' daemon status >/dev/null && echo reached the daemon\n";
  ProcessResult confined = run_at_home(
      instance, home, {"run", "--no-tty", "--cwd", own.string(), "--", "/bin/sh", "-c", script});
  const std::string output = confined.out + confined.err;
  INFO(output);
  CHECK(output.find("SSH-PRIVATE-KEY") == std::string::npos);
  CHECK(output.find("AWS-SECRET-KEY") == std::string::npos);
  CHECK(output.find(".ssh/id_ed25519: Permission denied") != std::string::npos);
  CHECK(output.find(".aws/credentials: Permission denied") != std::string::npos);
  CHECK(output.find("mission.db: Permission denied") != std::string::npos);
  CHECK(output.find("cannot open directory") != std::string::npos);
  CHECK(output.find("Dotfile Person") != std::string::npos);
  CHECK(output.find("a plain note") != std::string::npos);
  CHECK(output.find("committed") != std::string::npos);
  CHECK(output.find("reached the daemon") != std::string::npos);
  // git read the identity from the person's .gitconfig.
  CHECK(git_out(instance, own, {"log", "-1", "--format=%an"}) == "Dotfile Person\n");
  const std::string state = last_sandbox(instance);
  CHECK(state.rfind("confined (Landlock ABI ", 0) == 0);
  CHECK(state.find("; secrets hidden") != std::string::npos);
  // A read of a hidden file is not a refused write.
  const json execution =
      json::parse(run_mission(instance, {"--json", "exec", "show", "@last"}).out);
  CHECK(execution.value("refusedWrites", json::array()).empty());

  // With --sandbox off nothing is hidden, and the record says so.
  ProcessResult off = run_at_home(instance, home,
                                  {"run", "--no-tty", "--sandbox", "off", "--cwd", own.string(),
                                   "--", "/bin/sh", "-c", "cat \"$HOME/.ssh/id_ed25519\""});
  INFO(off.out << off.err);
  CHECK(off.out.find("SSH-PRIVATE-KEY") != std::string::npos);
  CHECK(last_sandbox(instance) == "not confined: --sandbox off; secrets not hidden");
}

TEST_CASE("an agent reads its own worktree and the repository but no other worktree of it") {
  if (!hiding_possible()) return;
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  const fs::path folder = repo.string() + ".worktrees";
  const fs::path far = instance.root.path() / "far-worktree";
  git(instance, repo, {"worktree", "add", "-q", "-b", "own", (folder / "own").string()});
  git(instance, repo, {"worktree", "add", "-q", "-b", "sibling", (folder / "sibling").string()});
  git(instance, repo, {"worktree", "add", "-q", "-b", "far", far.string()});

  const std::string script =
      "for f in README.md ../sibling/README.md '" + (far / "README.md").string() + "' '" +
      (repo / "README.md").string() +
      "'; do if cat \"$f\" >/dev/null; then echo \"$f: read\"; else echo \"$f: hidden\"; fi; done\n"
      "ls .. >/dev/null || echo 'worktree folder: hidden'\n";
  ProcessResult result = run_mission(
      instance,
      {"run", "--no-tty", "--cwd", (folder / "own").string(), "--", "/bin/sh", "-c", script});
  const std::string output = result.out + result.err;
  INFO(output);
  CHECK(output.find("README.md: read") != std::string::npos);
  CHECK(output.find("../sibling/README.md: hidden") != std::string::npos);
  CHECK(output.find((far / "README.md").string() + ": hidden") != std::string::npos);
  CHECK(output.find((repo / "README.md").string() + ": read") != std::string::npos);
  CHECK(output.find("worktree folder: hidden") != std::string::npos);
  CHECK(output.find("Permission denied") != std::string::npos);
}

TEST_CASE("mission run --hide hides a person's path from the agent and is checked") {
  if (!hiding_possible()) return;
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path cwd = instance.root.path() / "work";
  const fs::path plans = instance.root.path() / "plans";
  fs::create_directories(cwd);
  write_file(plans / "next.txt", "the next plan\n");
  const std::vector<std::string> reading{"--", "/bin/sh", "-c",
                                         "cat '" + (plans / "next.txt").string() + "'"};

  ProcessResult readable =
      run_mission(instance, args({"run", "--no-tty", "--cwd", cwd.string()}, reading));
  INFO(readable.out << readable.err);
  CHECK(readable.out.find("the next plan") != std::string::npos);

  ProcessResult hidden = run_mission(
      instance,
      args({"run", "--no-tty", "--hide", plans.string(), "--cwd", cwd.string()}, reading));
  INFO(hidden.out << hidden.err);
  CHECK(hidden.out.find("the next plan") == std::string::npos);
  CHECK((hidden.out + hidden.err).find("next.txt: Permission denied") != std::string::npos);
  CHECK(last_sandbox(instance).find(", also hides " + plans.string()) != std::string::npos);

  const std::vector<std::pair<std::vector<std::string>, std::string>> refusals = {
      {{"--hide", (instance.root.path() / "missing").string()}, "does not exist"},
      {{"--hide", "/"}, "is the root folder"},
      {{"--hide", plans.string(), "--sandbox", "off"}, "no effect with --sandbox off"}};
  for (const auto& [flags, message] : refusals) {
    ProcessResult refused = run_mission(
        instance, args(args({"run", "--no-tty", "--cwd", cwd.string()}, flags), {"--", "true"}));
    INFO(refused.out << refused.err);
    CHECK(refused.exit_code != 0);
    CHECK(refused.err.find(message) != std::string::npos);
  }
}

TEST_CASE(
    "a task's agent reaches the daemon over its MCP bridge while secrets and a sibling worktree "
    "stay hidden") {
  if (!hiding_possible()) return;
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  write_file(instance.root.path() / ".ssh/id_ed25519", "SSH-PRIVATE-KEY\n");
  git(instance, repo,
      {"worktree", "add", "-q", "-b", "sibling", repo.string() + ".worktrees/sibling"});
  // A fake codex (its adapter keeps the MCP token in the agent's
  // environment): notes what it could read, commits the note, then starts
  // and completes its task over mission's MCP bridge.
  const fs::path script = instance.root.path() / "fake-codex.sh";
  write_file(script,
             "#!/bin/sh\n"
             "{ cat \"$HOME/.ssh/id_ed25519\" || echo 'ssh: hidden'\n"
             "  cat ../sibling/README.md || echo 'sibling: hidden'\n"
             "  cat README.md; } > reads.txt 2>&1\n"
             "git add reads.txt && git commit -q -m reads || exit 9\n" +
                 shell_mcp_call(">/dev/null") +
                 "call start_task \"{\\\"task_id\\\":\\\"$MISSION_TASK_ID\\\"}\"\n"
                 "call complete_task "
                 "\"{\\\"task_id\\\":\\\"$MISSION_TASK_ID\\\",\\\"status\\\":\\\"success\\\","
                 "\\\"outcome\\\":{\\\"summary\\\":\\\"done\\\"}}\"\n");
  fs::permissions(script, fs::perms::owner_all);

  const std::string workflow = make_workflow(planner, {{"reader", {}}});
  ProcessResult result =
      run_long(instance, {"workflows", "run", workflow, "--max-attempts", "1", "--adapter", "codex",
                          "--env", "MISSION_CODEX_BIN=" + script.string()});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  const json run = run_status(instance, workflow);
  CHECK(run["status"] == "completed");
  const std::string reads =
      show(instance, repo, run["integrationBranch"].get<std::string>() + ":reads.txt");
  INFO(reads);
  CHECK(reads.find("ssh: hidden") != std::string::npos);
  CHECK(reads.find("sibling: hidden") != std::string::npos);
  CHECK(reads.find("SSH-PRIVATE-KEY") == std::string::npos);
  CHECK(reads.find("# demo") != std::string::npos);
}
