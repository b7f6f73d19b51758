// Text agents supply reaches a person's terminal as text only: every view
// of it (inbox, progress, missions show, context, report, the errors of
// check --from) prints it through the one sanitiser, and --json escapes it.

#include <catch2/catch.hpp>
#include <thread>

#include "integration/tracking_agent.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// A clipboard write (OSC 52), a title (OSC 0), an 8-bit CSI (U+009B, which
// xterm obeys) that clears the screen, a raw ESC colouring, and a newline.
const std::string kHostile =
    "left\x1b]52;c;cm0gLXJmIH4=\x07|\x1b]0;pwned\x07|\xc2\x9b"
    "2J|\x1b[31mred\nright";

// What must not reach a terminal: ESC, BEL, the C1 controls as UTF-8.
void check_inert(const std::string& what, const std::string& printed) {
  INFO(what << ":\n" << printed);
  CHECK(printed.find('\x1b') == std::string::npos);
  CHECK(printed.find('\x07') == std::string::npos);
  for (char c1 = '\x80'; c1 <= '\x9f'; ++c1)
    CHECK(printed.find(std::string("\xc2") + c1) == std::string::npos);
}

std::string printed(const Instance& instance, const std::vector<std::string>& args) {
  ProcessResult result = run_mission(instance, args);
  return result.out + result.err;
}

}  // namespace

TEST_CASE("every view of an agent's text prints it as text, and --json escapes it") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  fs::path repo = make_repo(instance);
  Agent agent(instance, repo, "signals,tracking,coordination,planning");

  const std::string mission =
      agent.ok("start_mission", {{"name", kHostile}, {"objective", kHostile}})["mission_id"];
  const std::string task = agent.ok(
      "start_task", {{"mission_id", mission}, {"name", kHostile}, {"goal", kHostile}})["task_id"];
  agent.ok("log_milestone", {{"task_id", task}, {"message", kHostile}});
  agent.ok("log_decision", {{"task_id", task},
                            {"category", "library_choice"},
                            {"question", kHostile},
                            {"chosen", kHostile},
                            {"reasoning", kHostile}});
  agent.ok("log_issue", {{"task_id", task},
                         {"type", "unclear_requirement"},
                         {"description", kHostile},
                         {"resolution", kHostile},
                         {"requires_human_review", true}});
  agent.ok("complete_task",
           {{"task_id", task}, {"status", "success"}, {"outcome", {{"summary", kHostile}}}});
  agent.ok("progress", {{"summary", kHostile}});
  agent.ok("message_send", {{"recipient_id", "person"},
                            {"message_type", "status_update"},
                            {"subject", kHostile},
                            {"body", kHostile}});
  agent.ok("needs_input", {{"question", kHostile}, {"choices", {kHostile, "plain"}}});
  // A planned workflow whose second task waits on the first.
  const std::string workflow =
      agent.ok("workflow_create",
               {{"name", kHostile}, {"source_type", "prompt"}, {"source_content", "x"}})["id"];
  agent.ok("workflow_set_plan",
           {{"id", workflow},
            {"plan",
             {{"summary", kHostile},
              {"approach", kHostile},
              {"tasks",
               {{{"name", kHostile}, {"description", kHostile}, {"sequence", 1}},
                {{"name", "after"},
                 {"description", "d"},
                 {"sequence", 2},
                 {"depends_on", {kHostile}}}}}}}});

  const std::string inbox = printed(instance, {"inbox"});
  check_inert("inbox", inbox);
  CHECK(inbox.find("left") != std::string::npos);
  CHECK(inbox.find("red right") != std::string::npos);
  check_inert("missions show", printed(instance, {"missions", "show", mission}));
  check_inert("missions list", printed(instance, {"missions", "list"}));
  check_inert("tasks", printed(instance, {"tasks", mission}));
  check_inert("context", printed(instance, {"context", mission}));
  check_inert("check", printed(instance, {"check", mission}));
  check_inert("exec show", printed(instance, {"exec", "show", agent.execution_id()}));
  check_inert("exec signals", printed(instance, {"exec", "signals", agent.execution_id()}));
  check_inert("progress", printed(instance, {"progress", workflow}));
  check_inert("workflows show", printed(instance, {"workflows", "show", workflow}));
  check_inert("plan", printed(instance, {"plan", workflow}));
  check_inert("next", printed(instance, {"next", workflow}));
  const std::string report = printed(instance, {"report", mission});
  check_inert("report", report);
  // The report is Markdown: the text reads as written, and breaks nothing.
  CHECK(report.find("left\\|\\|\\|red right") != std::string::npos);

  // --json is data: control characters are escaped, U+009B too.
  const std::string json_inbox = printed(instance, {"--json", "inbox"});
  check_inert("--json inbox", json_inbox);
  CHECK(json_inbox.find("\\u001b]52;c;") != std::string::npos);
  CHECK(json_inbox.find("\\u009b2J") != std::string::npos);
  CHECK(json::parse(json_inbox).at("questions").at(0).at("question") == kHostile);

  // An exported record whose format names escapes: the error quotes it as text.
  const fs::path record = instance.root.path() / "record.json";
  write_file(record, json{{"format", kHostile}, {"mission", {{"missionId", "m"}}}}.dump());
  ProcessResult check = run_mission(instance, {"check", "--from", record.string()});
  CHECK(check.exit_code == 1);
  check_inert("check --from", check.out + check.err);
  CHECK(check.err.find("unknown mission record format") != std::string::npos);
}
