// The mission CLI as a user and CI run it: real processes, real daemon.

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <future>
#include <set>
#include <sstream>
#include <thread>

#include "integration/harness.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// Stops whatever daemon the instance auto-started, at the end of a test.
struct StopDaemonAtExit {
  const Instance& instance;
  ~StopDaemonAtExit() { run_mission(instance, {"daemon", "stop", "--force"}); }
};

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("mission status starts the daemon and prints the documented JSON") {
  Instance instance;
  StopDaemonAtExit stop{instance};
  ProcessResult result = run_mission(instance, {"status", "--json"});
  REQUIRE(result.exit_code == 0);
  json status = json::parse(result.out);
  CHECK(status["daemon"]["running"] == true);
  CHECK(status["daemon"]["protocol"] == 1);
  CHECK(status["daemon"]["socket"] == instance.socket().string());
  CHECK(status["daemon"]["stateDir"] == instance.state_dir().string());
  CHECK(status["daemon"]["pid"].get<int>() > 0);
  CHECK(status["executions"]["total"] == 0);
  CHECK(status["executions"]["active"] == 0);
  CHECK(process_alive(status["daemon"]["pid"].get<pid_t>()));

  // The global flag also works before the subcommand, and the daemon stays.
  ProcessResult again = run_mission(instance, {"--json", "status"});
  REQUIRE(again.exit_code == 0);
  CHECK(json::parse(again.out)["daemon"]["pid"] == status["daemon"]["pid"]);
}

TEST_CASE("without auto-start, status fails with exit 3 and a JSON error") {
  Instance instance;
  ProcessResult result = run_mission(instance, {"--no-autostart", "status", "--json"});
  CHECK(result.exit_code == 3);
  json error = json::parse(result.out)["error"];
  CHECK(error["code"] == "daemon_unavailable");
  CHECK(error["hint"].get<std::string>().find("mission daemon start") != std::string::npos);
  CHECK(result.err.find("not running") != std::string::npos);
  CHECK(!fs::exists(instance.socket()));
}

TEST_CASE("usage errors exit 2 and help exits 0") {
  Instance instance;
  CHECK(run_mission(instance, {"no-such-command"}).exit_code == 2);
  CHECK(run_mission(instance, {"daemon"}).exit_code == 2);
  CHECK(run_mission(instance, {"status", "--bogus"}).exit_code == 2);
  ProcessResult help = run_mission(instance, {"--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("daemon") != std::string::npos);
  CHECK(!fs::exists(instance.socket()));
}

TEST_CASE("daemon start, status and stop manage one daemon") {
  Instance instance;
  StopDaemonAtExit stop_at_exit{instance};
  ProcessResult absent = run_mission(instance, {"daemon", "status", "--json"});
  CHECK(absent.exit_code == 3);
  CHECK(json::parse(absent.out) ==
        json{{"running", false}, {"socket", instance.socket().string()}});

  json started = json::parse(run_mission(instance, {"daemon", "start", "--json"}).out);
  CHECK(started["started"] == true);
  json again = json::parse(run_mission(instance, {"daemon", "start", "--json"}).out);
  CHECK(again["started"] == false);
  CHECK(again["pid"] == started["pid"]);

  ProcessResult status = run_mission(instance, {"daemon", "status", "--json"});
  CHECK(status.exit_code == 0);
  CHECK(json::parse(status.out)["pid"] == started["pid"]);

  ProcessResult stop = run_mission(instance, {"daemon", "stop", "--json"});
  CHECK(stop.exit_code == 0);
  CHECK(json::parse(stop.out) == json{{"stopped", true}, {"pid", started["pid"]}});
  // The lock is released in the kernel's exit path, a moment before the
  // process itself is gone.
  CHECK(eventually([&] { return !process_alive(started["pid"].get<pid_t>()); }));
  ProcessResult idempotent = run_mission(instance, {"daemon", "stop", "--json"});
  CHECK(idempotent.exit_code == 0);
  CHECK(json::parse(idempotent.out)["stopped"] == false);
}

TEST_CASE("CLIs racing to auto-start start exactly one daemon") {
  Instance instance;
  StopDaemonAtExit stop{instance};
  constexpr int kRacers = 8;
  std::vector<std::future<ProcessResult>> racers;
  for (int i = 0; i < kRacers; ++i) {
    racers.push_back(std::async(std::launch::async, [&instance] {
      return run_mission(instance, {"status", "--json"});
    }));
  }
  std::set<int> pids;
  for (auto& racer : racers) {
    ProcessResult result = racer.get();
    REQUIRE(result.exit_code == 0);
    pids.insert(json::parse(result.out)["daemon"]["pid"].get<int>());
  }
  CHECK(pids.size() == 1);
  CHECK(count(read_file(instance.log()), "listening on") == 1);
}

TEST_CASE("human output fits 80 columns even with long paths") {
  Instance instance;
  StopDaemonAtExit stop{instance};
  ProcessResult result = run_mission(instance, {"status"});
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find("running (pid") != std::string::npos);
  CHECK(result.out.find("\x1b[") == std::string::npos);  // NO_COLOR and not a tty
  std::istringstream lines(result.out);
  for (std::string line; std::getline(lines, line);) {
    INFO(line);
    CHECK(line.size() <= 80);
  }
}

TEST_CASE("mission daemon run stays in the foreground until SIGTERM") {
  Instance instance;
  std::vector<std::string> argv{MISSION_PATH, "daemon", "run"};
  auto run = std::async(std::launch::async, [&] { return run_process(argv, instance.env(), 10s); });
  json status;
  eventually([&] {
    ProcessResult probe = run_mission(instance, {"--no-autostart", "daemon", "status", "--json"});
    if (probe.exit_code == 0) status = json::parse(probe.out);
    return probe.exit_code == 0;
  });
  REQUIRE(status.contains("pid"));
  ::kill(status["pid"].get<pid_t>(), SIGTERM);
  ProcessResult result = run.get();
  CHECK(result.exit_code == 0);
  CHECK(result.err.find("stopped") != std::string::npos);
}

TEST_CASE("a mistyped command says what was meant, and run without a command is a usage error") {
  Instance instance;
  ProcessResult typo = run_mission(instance, {"--no-autostart", "stauts"});
  CHECK(typo.exit_code == 2);
  CHECK(typo.err.find("did you mean 'status'?") != std::string::npos);
  ProcessResult prefix = run_mission(instance, {"--no-autostart", "miss"});
  CHECK(prefix.err.find("did you mean 'missions'?") != std::string::npos);
  ProcessResult run = run_mission(instance, {"--no-autostart", "run"});
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("no command to run") != std::string::npos);
}

TEST_CASE("help as a command, a group alone lists its commands, a mistyped reference is named") {
  Instance instance;
  ProcessResult help = run_mission(instance, {"--no-autostart", "help", "exec"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("Usage: mission exec") != std::string::npos);
  ProcessResult top = run_mission(instance, {"--no-autostart", "help"});
  CHECK(top.exit_code == 0);
  CHECK(top.out.find("workflows") != std::string::npos);

  ProcessResult group = run_mission(instance, {"--no-autostart", "workflows"});
  CHECK(group.exit_code == 2);
  CHECK(group.err.find("mission workflows: name one of its commands") != std::string::npos);
  CHECK(group.err.find("Usage: mission workflows") != std::string::npos);
  CHECK(group.err.find("status") != std::string::npos);

  // Refused before the daemon is asked: no schema path, the alias meant.
  StopDaemonAtExit stop{instance};
  ProcessResult typo = run_mission(instance, {"exec", "logs", "@lats"});
  CHECK(typo.exit_code == 1);
  CHECK(typo.err.find("'@lats' names no execution; did you mean @last?") != std::string::npos);
  CHECK(typo.err.find("schemas/") == std::string::npos);
  ProcessResult spaced = run_mission(instance, {"exec", "show", "a b"});
  CHECK(spaced.err.find("mission exec list shows them") != std::string::npos);
}

TEST_CASE("what an agent says reaches the terminal with its escape sequences neutralised") {
  Instance instance;
  StopDaemonAtExit stop{instance};
  // A progress summary that would retitle the terminal and clear it, a
  // question in Japanese longer than a line, and raw escapes in the output.
  const std::string script =
      std::string(kMarkerShellFunction) +
      "m e1 '{\"type\":\"progress\",\"summary\":\"\\u001b]0;pwned\\u0007done \\u001b[2Jhalf\"}';"
      "printf '\\033]0;title\\007plain \\033[31mred\\033[0m text\\n'";
  ProcessResult run = run_mission(instance, {"run", "--", "sh", "-c", script});
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find('\x1b') == std::string::npos);
  CHECK(run.out.find("plain red text") != std::string::npos);
  json list = json::parse(run_mission(instance, {"--json", "exec", "list"}).out);
  const std::string id = list.at("executions").at(0).at("id");
  ProcessResult signals = run_mission(instance, {"exec", "signals", id});
  CHECK(signals.out.find('\x1b') == std::string::npos);
  CHECK(signals.out.find('\x07') == std::string::npos);
  CHECK(signals.out.find("done half") != std::string::npos);
  ProcessResult raw = run_mission(instance, {"exec", "logs", "--raw", id});
  CHECK(raw.out.find("\x1b[31mred") != std::string::npos);
}

TEST_CASE("human output takes the width COLUMNS gives when not on a terminal") {
  Instance instance;
  StopDaemonAtExit stop{instance};
  const std::string word(100, 'x');
  ProcessResult run = run_mission(instance, {"run", "--detach", "--", "echo", word});
  REQUIRE(run.exit_code == 0);
  const std::string id = run.out.substr(0, run.out.find('\n'));
  std::map<std::string, std::string> env = instance.env();
  env["COLUMNS"] = "200";
  ProcessResult wide = run_process({MISSION_PATH, "exec", "show", id}, env);
  CHECK(wide.out.find("echo " + word) != std::string::npos);
  ProcessResult narrow = run_mission(instance, {"exec", "show", id});
  CHECK(narrow.out.find("echo " + word) == std::string::npos);
  CHECK(narrow.out.find("...") != std::string::npos);
}

TEST_CASE("exec show gives the command as a shell would read it, its start kept") {
  Instance instance;
  StopDaemonAtExit stop{instance};
  const std::string prompt = "fix it's test\n" + std::string(200, 'p') + " the tail";
  ProcessResult run =
      run_mission(instance, {"run", "--detach", "--", "sh", "-c", "exit 0", "agent", prompt});
  REQUIRE(run.exit_code == 0);
  const std::string id = run.out.substr(0, run.out.find('\n'));
  std::map<std::string, std::string> env = instance.env();
  env["COLUMNS"] = "80";
  ProcessResult shown = run_process({MISSION_PATH, "exec", "show", id}, env);
  CHECK(shown.out.find("command       sh -c 'exit 0' agent 'fix it'\\''s test ppp") !=
        std::string::npos);
  CHECK(shown.out.find("the tail") == std::string::npos);
  CHECK(shown.out.find("p...\n") != std::string::npos);
}

TEST_CASE("executions are named by id, unique prefix, --name or @last, and status counts them") {
  Instance instance;
  StopDaemonAtExit stop{instance};
  ProcessResult first =
      run_mission(instance, {"run", "--detach", "--name", "fix-auth", "--", "true"});
  REQUIRE(first.exit_code == 0);
  const std::string first_id = first.out.substr(0, first.out.find('\n'));
  ProcessResult second = run_mission(instance, {"run", "--detach", "--", "sleep", "30"});
  REQUIRE(second.exit_code == 0);
  const std::string second_id = second.out.substr(0, second.out.find('\n'));

  auto shown_id = [&](const std::string& reference) {
    ProcessResult show = run_mission(instance, {"--json", "exec", "show", reference});
    INFO(reference << ": " << show.err);
    REQUIRE(show.exit_code == 0);
    return json::parse(show.out).at("id").get<std::string>();
  };
  CHECK(shown_id("fix-auth") == first_id);
  CHECK(shown_id("@last") == second_id);
  CHECK(shown_id(second_id.substr(3, 4)) == second_id);
  CHECK(shown_id(first_id.substr(0, 9)) == first_id);
  ProcessResult named = run_mission(instance, {"exec", "show", "fix-auth"});
  CHECK(named.out.find("fix-auth") != std::string::npos);

  ProcessResult unknown = run_mission(instance, {"exec", "show", "no-such-name"});
  CHECK(unknown.exit_code == 1);
  CHECK(unknown.err.find("no agent execution matches 'no-such-name'") != std::string::npos);
  CHECK(unknown.err.find("hint:") != std::string::npos);
  ProcessResult bad_name =
      run_mission(instance, {"run", "--detach", "--name", "has space", "--", "true"});
  CHECK(bad_name.exit_code != 0);

  json status = json::parse(run_mission(instance, {"status", "--json"}).out);
  CHECK(status["executions"]["total"] == 2);
  CHECK(status["executions"]["active"] == 1);

  ProcessResult stop_last = run_mission(instance, {"exec", "stop", "@last"});
  CHECK(stop_last.exit_code == 0);
  CHECK(stop_last.out.find(second_id) != std::string::npos);
}

TEST_CASE("daemon stop refuses while executions are active, and --force goes on") {
  Instance instance;
  StopDaemonAtExit stop{instance};
  ProcessResult run = run_mission(instance, {"run", "--detach", "--", "sleep", "30"});
  REQUIRE(run.exit_code == 0);
  const std::string id = run.out.substr(0, run.out.find('\n'));

  ProcessResult refused = run_mission(instance, {"daemon", "stop"});
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find(id) != std::string::npos);
  CHECK(refused.err.find("next daemon marks their executions lost") != std::string::npos);
  CHECK(refused.err.find("--force") != std::string::npos);
  ProcessResult refused_json = run_mission(instance, {"--json", "daemon", "stop"});
  CHECK(refused_json.exit_code == 1);
  json document = json::parse(refused_json.out);
  CHECK(document["stopped"] == false);
  CHECK(document["activeExecutions"][0]["id"] == id);
  CHECK(run_mission(instance, {"--no-autostart", "status"}).exit_code == 0);

  const pid_t agent =
      json::parse(run_mission(instance, {"--json", "exec", "show", id}).out).value("pid", 0);
  ProcessResult forced = run_mission(instance, {"daemon", "stop", "--force"});
  CHECK(forced.exit_code == 0);
  CHECK(run_mission(instance, {"--no-autostart", "status"}).exit_code == 3);
  // The agent outlives the daemon by design (ADR 0004); end it here.
  if (agent > 0) ::kill(agent, SIGKILL);
}
