// A permission menu on an agent's terminal, through the real CLI and
// daemon: a stand-in for Claude Code (the claude-code adapter, --bin a
// script) draws the menu Claude Code draws and waits for one key. `mission
// inbox` lists it as detected, `mission exec show` says the execution
// awaits permission, `mission answer --choice N` types the digit, and once
// the menu has left the screen the inbox is empty and a second answer is
// refused.

#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "integration/harness.hpp"
#include "support/eventually.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// Claude Code 2.1's menu (tests/unit/daemon/terminal/fixtures), then one
// key read raw; the key is written to `picked` (whole, by a rename) and the
// input box drawn.
const char* kMenuAgent = R"sh(#!/bin/sh
printf '\342\227\217 Bash(touch made)\n\n Do you want to proceed?\n \342\235\257 1. Yes\n'
printf '   2. Yes, and always allow access to\n      this folder from this project\n   3. No\n\n'
printf ' Esc to cancel \302\267 Tab to amend\n'
stty raw -echo
key=$(dd bs=1 count=1 2>/dev/null)
stty sane
printf '%s' "$key" > picked.part && mv picked.part picked
printf '\033[2J\033[H\342\227\217 picked %s\n\342\224\200\342\224\200\342\224\200\n\342\235\257\n' "$key"
exec sleep 600
)sh";

json inbox(const Instance& instance) {
  ProcessResult listed = run_mission(instance, {"--json", "inbox"});
  REQUIRE(listed.exit_code == 0);
  return json::parse(listed.out);
}

}  // namespace

TEST_CASE("a permission menu on an agent's terminal is listed in the inbox and answered") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const auto agent = instance.root.path() / "claude";
  {
    std::ofstream out(agent);
    out << kMenuAgent;
  }
  std::filesystem::permissions(agent, std::filesystem::perms::owner_all);
  ProcessResult run = run_mission(
      instance, {"run", "--tty", "--detach", "--sandbox", "off", "--adapter", "claude-code",
                 "--bin", agent.string(), "--cwd", instance.root.path().string()});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const std::string id = run.out.substr(0, run.out.find('\n'));

  json listed;
  REQUIRE(eventually([&] {
    listed = inbox(instance);
    return !listed.value("prompts", json::array()).empty();
  }));
  const json prompt = listed.at("prompts").at(0);
  CHECK(prompt.at("agentExecutionId") == id);
  CHECK(prompt.at("detected") == true);
  CHECK(prompt.at("question") == "Do you want to proceed?");
  CHECK(
      prompt.at("options") ==
      json::array({"Yes", "Yes, and always allow access to this folder from this project", "No"}));

  ProcessResult text = run_mission(instance, {"inbox"});
  CHECK(text.out.find(id + " awaits permission (detected from its screen): Do you want to "
                           "proceed?") != std::string::npos);
  CHECK(text.out.find("  3. No") != std::string::npos);
  CHECK(text.out.find("answer: mission answer " + id + " --choice N") != std::string::npos);
  json shown = json::parse(run_mission(instance, {"--json", "exec", "show", id}).out);
  CHECK(shown.at("awaitingPermission").at("detected") == true);
  CHECK(run_mission(instance, {"exec", "show", id}).out.find("awaiting permission") !=
        std::string::npos);

  // A text, or an option it does not have, is refused with what to give.
  ProcessResult worded = run_mission(instance, {"answer", id, "yes"});
  CHECK(worded.exit_code != 0);
  CHECK(worded.err.find("not a text") != std::string::npos);
  ProcessResult fourth = run_mission(instance, {"answer", id, "--choice", "4"});
  CHECK(fourth.exit_code != 0);
  CHECK(fourth.err.find("between 1 and 3") != std::string::npos);

  ProcessResult answered = run_mission(instance, {"answer", id, "--choice", "2"});
  INFO(answered.err);
  REQUIRE(answered.exit_code == 0);
  CHECK(answered.out.find("permission prompt: 2. Yes, and always allow") != std::string::npos);
  const auto picked = instance.root.path() / "picked";
  REQUIRE(eventually([&] { return std::filesystem::exists(picked); }));
  std::ifstream in(picked);
  std::string key((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(key == "2");  // the digit alone: the menu takes it without Enter

  REQUIRE(eventually([&] { return inbox(instance).value("prompts", json::array()).empty(); }));
  shown = json::parse(run_mission(instance, {"--json", "exec", "show", id}).out);
  CHECK_FALSE(shown.contains("awaitingPermission"));
  ProcessResult again = run_mission(instance, {"answer", id, "--choice", "1"});
  CHECK(again.exit_code != 0);
  CHECK(again.err.find("no permission prompt on its screen any more") != std::string::npos);
  // The menu, its clearing and the answer are on the record.
  ProcessResult logged = run_mission(instance, {"--json", "exec", "signals", id});
  CHECK(logged.out.find("\"permission_prompt\"") != std::string::npos);
  CHECK(logged.out.find("\"permission_answer\"") != std::string::npos);
  CHECK(logged.out.find("\"permission_prompt_cleared\"") != std::string::npos);
  run_mission(instance, {"exec", "stop", id, "--force"});
}
