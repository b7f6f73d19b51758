// An ACP agent steered by its facts, through the real CLI and daemon: its
// state follows the session (awaiting_permission while a request waits,
// awaiting_input when a turn ends on a question, idle between turns of a
// session kept open), `mission send` while it works is its next turn,
// `mission exec stop` sends session/cancel before any signal, and the
// usage it states is the execution's. The scripted agent is
// integration/agents/acp_agent.mjs.

#include <catch2/catch.hpp>
#include <string>

#include "integration/run_helpers.hpp"
#include "support/eventually.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

std::string launch_acp(const Instance& instance, const std::string& mode,
                       const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args{
      "run", "--detach", "--sandbox",    "off",   "--adapter",
      "acp", "--prompt", "Make a file.", "--cwd", instance.root.path().string()};
  args.insert(args.end(), extra.begin(), extra.end());
  for (const char* word : {"--", "node", MISSION_ACP_AGENT}) args.emplace_back(word);
  args.push_back(mode);
  ProcessResult run = run_mission(instance, args);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  return run.out.substr(0, run.out.find('\n'));
}

std::string state_of(const Instance& instance, const std::string& id) {
  return mission_json(instance, {"exec", "show", id}).value("state", "");
}

bool reaches(const Instance& instance, const std::string& id, const std::string& state) {
  return eventually([&] { return state_of(instance, id) == state; });
}

json prompts_seen(const Instance& instance) {
  const fs::path file = instance.root.path() / "prompts.json";
  return fs::exists(file) ? json::parse(read_file(file)) : json::array();
}

}  // namespace

TEST_CASE("an ACP session's state follows its turns and a follow-up sent while it works waits") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const std::string id = launch_acp(instance, "steer", {"--keep-open"});

  // Turn 1 asks permission: the execution says why it waits.
  REQUIRE(reaches(instance, id, "awaiting_permission"));
  ProcessResult shown = run_mission(instance, {"exec", "show", id});
  CHECK(shown.out.find("awaiting_permission") != std::string::npos);
  REQUIRE(run_mission(instance, {"answer", id, "--choice", "1"}).exit_code == 0);

  // It ends on a question: awaiting_input, the question in the inbox.
  REQUIRE(reaches(instance, id, "awaiting_input"));
  const json inbox = mission_json(instance, {"inbox"});
  INFO(inbox.dump(2));
  REQUIRE(inbox.at("questions").size() == 1);
  CHECK(inbox.at("questions").at(0).at("question") == "Which name should the file have?");
  ProcessResult answered = run_mission(instance, {"answer", id, "named"});
  INFO(answered.err);
  REQUIRE(answered.exit_code == 0);

  // Turn 2 is the answer; while it waits on its permission, a message is
  // queued, not sent into the turn.
  REQUIRE(reaches(instance, id, "awaiting_permission"));
  CHECK(prompts_seen(instance) == json::array({"Make a file.", "named"}));
  ProcessResult sent = run_mission(instance, {"send", id, "then tidy up"});
  INFO(sent.err);
  REQUIRE(sent.exit_code == 0);
  REQUIRE(run_mission(instance, {"answer", id, "--choice", "1"}).exit_code == 0);

  // Turn 2 ends without a question; the queued message is turn 3; then
  // the session waits, idle.
  REQUIRE(reaches(instance, id, "idle"));
  CHECK(prompts_seen(instance) == json::array({"Make a file.", "named", "then tidy up"}));
  CHECK_FALSE(fs::exists(instance.root.path() / "overlap.txt"));

  // Its usage is what it stated: two turns' tokens, its last cumulative cost.
  const json usage = mission_json(instance, {"usage"});
  INFO(usage.dump(2));
  REQUIRE(usage.at("rows").size() == 1);
  CHECK(usage["rows"][0]["id"] == id);
  CHECK(usage["rows"][0]["tokens"] == json{{"input", 150}, {"output", 30}, {"cacheRead", 5}});
  CHECK(usage["rows"][0]["costUsd"] == 0.4);

  // Stopped between turns, its turns having ended: completed.
  REQUIRE(run_mission(instance, {"exec", "stop", id}).exit_code == 0);
  REQUIRE(reaches(instance, id, "completed"));
}

TEST_CASE("mission exec stop sends an ACP agent session/cancel before any signal") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const std::string id = launch_acp(instance, "hang");
  REQUIRE(eventually([&] { return prompts_seen(instance).size() == 1; }));
  CHECK(state_of(instance, id) == "running");
  REQUIRE(run_mission(instance, {"exec", "stop", id}).exit_code == 0);
  REQUIRE(reaches(instance, id, "cancelled"));
  // The execution is cancelled when its turn ends; the SIGTERM that ends the
  // process follows, and a loaded machine may run the test first.
  const fs::path order = instance.root.path() / "order.txt";
  CHECK(eventually([&] { return read_file(order).find("SIGTERM") != std::string::npos; }));
  CHECK(read_file(order) == "session/cancel\nSIGTERM\n");
}

TEST_CASE("workflows run drives each task's agent over ACP with the task's prompt") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"only", {}}});
  ProcessResult result =
      run_long(instance, {"workflows", "run", workflow, "--adapter", "acp", "--max-attempts", "1",
                          "--", "node", MISSION_ACP_AGENT, "task"});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  const json run = run_status(instance, workflow);
  CHECK(task_of(run, "only")["status"] == "merged");
  // The agent wrote the prompt it was given: the task's.
  const std::string written =
      show(instance, repo, run["integrationBranch"].get<std::string>() + ":only.txt");
  CHECK(written.find("make only") != std::string::npos);
  const json report = mission_json(instance, {"report", workflow, "--format", "json"});
  INFO(report.dump(2));
  CHECK(task_of(report["run"], "only")["attempts"][0]["tokens"]["source"] == "stream");
  CHECK(task_of(report["run"], "only")["attempts"][0]["tokens"]["input"] == 7);
}
