// A new user's first run, from the README's loop, as a person types it on
// an 80-column terminal: a plan from a TOML file, its run drawn live by
// `mission workflows run` on a pseudo-terminal, a shell agent's question
// answered from another shell after `mission inbox` names it, each task
// approved, the run's work reviewed and landed on the person's branch.

#include <catch2/catch.hpp>
#include <string>

#include "integration/harness.hpp"
#include "integration/pty_child.hpp"
#include "integration/run_helpers.hpp"
#include "integration/tracking_agent.hpp"
#include "shared/display_text.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

const char* const kPlan = R"(summary = "Greet the world"
approach = "the greeting first, then its docs"

[[tasks]]
name = "greeting"
description = "write greeting.txt with the greeting the person chooses"
files_likely_affected = ["greeting.txt"]

[[tasks]]
name = "docs"
description = "document the greeting in GREETING.md"
depends_on = ["greeting"]
files_likely_affected = ["GREETING.md"]
)";

// The agent: the greeting task asks which greeting (a stdout marker) and
// writes what it reads on stdin; the docs task writes its file.
std::string agent_script() {
  return std::string(kMarkerShellFunction) +
         "if [ \"$MISSION_TASK_NAME\" = greeting ]; then\n"
         "  m q1 '{\"type\":\"needs_input\",\"question\":\"Which greeting?\","
         "\"choices\":[\"hello\",\"hi\"]}'\n"
         "  read answer || exit 9\n"
         "  printf '%s world\\n' \"$answer\" > greeting.txt\n"
         "else\n"
         "  printf '# Greeting\\nSee greeting.txt.\\n' > GREETING.md\n"
         "fi\n";
}

// Waits until `mission --json inbox` lists something under `key`, and
// gives the first.
json first_waiting(const Instance& instance, const std::string& key) {
  json found;
  const bool listed = eventually(
      [&] {
        const json inbox = mission_json(instance, {"inbox"});
        if (!inbox.contains(key) || inbox[key].empty()) return false;
        found = inbox[key][0];
        return true;
      },
      30s, 50ms);
  INFO("waiting for the inbox to list " << key);
  REQUIRE(listed);
  return found;
}

}  // namespace

TEST_CASE("a first run from the README: plan file, live board, answer, approve, land") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path repo = make_repo(instance);
  write_file(repo / "plan.toml", kPlan);
  write_file(instance.root.path() / "agent.sh", agent_script());
  auto env = instance.env();
  env["COLUMNS"] = "80";
  env.erase("NO_COLOR");

  ProcessResult made =
      run_mission(instance, {"workflows", "create", "greet", "--from",
                             (repo / "plan.toml").string(), "--cwd", repo.string()});
  INFO(made.err);
  REQUIRE(made.exit_code == 0);

  // The run on the person's terminal, 80 by 24, drawing its board.
  PtyChild run({MISSION_PATH, "workflows", "run", "@last", "--approve", "--", "/bin/sh",
                (instance.root.path() / "agent.sh").string()},
               env, 24, 80);
  run.wait_for_text("greeting");

  // The question waits in the inbox, with the command that answers it.
  const json question = first_waiting(instance, "questions");
  ProcessResult inbox = run_mission(instance, {"inbox"});
  CHECK(inbox.out.find("Which greeting?") != std::string::npos);
  CHECK(inbox.out.find("mission answer") != std::string::npos);
  run.wait_for_text("Which greeting?");
  const std::string asker = question.value("agentExecutionId", "");
  REQUIRE_FALSE(asker.empty());
  ProcessResult answered = run_mission(instance, {"answer", asker, "hello"});
  INFO(answered.err);
  REQUIRE(answered.exit_code == 0);

  // Each task waits for the person's approval, named in the inbox.
  for (const char* task : {"greeting", "docs"}) {
    INFO(task);
    const json approval = first_waiting(instance, "approvals");
    CHECK(approval.value("taskName", "") == task);
    inbox = run_mission(instance, {"inbox"});
    CHECK(inbox.out.find("mission approve") != std::string::npos);
    ProcessResult approved = run_mission(instance, {"approve", task});
    INFO(approved.err);
    REQUIRE(approved.exit_code == 0);
  }
  CHECK(run.wait_exit(60s) == 0);
  // The board never drew a line wider than the terminal.
  for (int row = 0; row < 24; ++row) CHECK(mission::text::display_width(run.row(row)) <= 80);

  // Review, then land on the person's branch.
  ProcessResult diff = run_mission(instance, {"workflows", "diff", "@last", "--stat"});
  INFO(diff.err);
  CHECK(diff.exit_code == 0);
  CHECK(diff.out.find("greeting.txt") != std::string::npos);
  CHECK(diff.out.find("GREETING.md") != std::string::npos);
  ProcessResult landed = run_mission(instance, {"workflows", "land", "@last"});
  INFO(landed.out << landed.err);
  REQUIRE(landed.exit_code == 0);
  CHECK(show(instance, repo, "main:greeting.txt") == "hello world\n");
  CHECK(show(instance, repo, "main:GREETING.md") == "# Greeting\nSee greeting.txt.\n");
  // The person's checkout, clean and on main, moved with it.
  CHECK(fs::exists(repo / "greeting.txt"));
}
