// A run's permission policy (docs/adr/0053) through the real CLI and
// daemon, with the scripted ACP agent (integration/agents/acp_agent.mjs,
// mode policy): a deny rule rejects `rm` without asking and wins over an
// allow rule for it, an allowed edit is answered without asking, and a
// request no rule matches waits in the inbox for `mission answer`. Each
// decision is on the record with its rule; a workflow run keeps its policy
// through a daemon restart; bad patterns are refused before anything runs.

#include <catch2/catch.hpp>
#include <csignal>
#include <map>
#include <string>

#include "integration/run_helpers.hpp"
#include "support/eventually.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

json open_prompts(const Instance& instance) {
  return mission_json(instance, {"inbox"}).value("prompts", json::array());
}

// The policy's answers among the execution's observations: "rule -> option".
std::vector<std::string> policy_answers(const Instance& instance, const std::string& id) {
  std::vector<std::string> out;
  const json signals = mission_json(instance, {"exec", "signals", id});
  for (const json& row : signals["observations"]) {
    if (row.value("kind", "") != "permission_answer") continue;
    const json payload = row.value("payload", json::object());
    if (payload.value("by", "") != "policy") continue;
    out.push_back(payload.value("question", "") + ": " + payload.value("rule", "") + " -> " +
                  payload.value("option", ""));
  }
  return out;
}

}  // namespace

TEST_CASE(
    "an ACP agent's permission policy rejects rm unasked, allows an edit unasked and leaves the "
    "rest to the inbox") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  const fs::path cwd = instance.root.path();
  ProcessResult run = run_mission(
      instance,
      {"run",      "--detach", "--sandbox",  "off",     "--adapter",       "acp",    "--prompt",
       "Tidy up.", "--cwd",    cwd.string(), "--allow", "execute:rm *",    "--deny", "execute:rm *",
       "--allow",  "edit",     "--",         "node",    MISSION_ACP_AGENT, "policy"});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const std::string id = run.out.substr(0, run.out.find('\n'));

  // Only the request no rule matches reaches a person.
  json prompts;
  REQUIRE(eventually([&] {
    prompts = open_prompts(instance);
    return !prompts.empty();
  }));
  REQUIRE(prompts.size() == 1);
  CHECK(prompts[0].at("question") == "git status");
  // The agent heard the policy's answers before it asked the third time.
  CHECK(read_file(cwd / "decisions.txt") == "rm: reject-once\nnotes: allow-once\n");
  CHECK(read_file(cwd / "notes.md") == "noted\n");
  CHECK(policy_answers(instance, id) ==
        std::vector<std::string>{"rm -rf scratch: deny execute:rm * -> Reject",
                                 "Edit notes.md: allow edit -> Allow once"});

  ProcessResult answered = run_mission(instance, {"answer", id, "--choice", "1"});
  INFO(answered.err);
  REQUIRE(answered.exit_code == 0);
  REQUIRE(eventually([&] {
    return mission_json(instance, {"exec", "show", id})["state"] == "completed";
  }));
  CHECK(read_file(cwd / "decisions.txt") ==
        "rm: reject-once\nnotes: allow-once\nstatus: allow-once\n");
  CHECK(open_prompts(instance).empty());

  // Who decided shows where a person looks.
  // The daemon's own line, on the agent's stderr side of its log.
  ProcessResult logs = run_mission(instance, {"exec", "logs", id});
  CHECK(logs.err.find("permission for rm -rf scratch answered by the policy (deny execute:rm *): "
                      "Reject") != std::string::npos);
  // Wide enough that the table does not cut the rule.
  std::map<std::string, std::string> wide = instance.env();
  wide["COLUMNS"] = "200";
  ProcessResult signals = run_process({MISSION_PATH, "exec", "signals", id}, wide);
  CHECK(signals.out.find("by policy (deny execute:rm *): Reject") != std::string::npos);
}

TEST_CASE(
    "a workflow run keeps its permission policy through a daemon restart and reports each "
    "decision") {
  Instance instance;
  const fs::path repo = make_repo(instance);
  std::string workflow;
  std::string first;
  {
    DaemonProcess daemon(instance);
    REQUIRE(daemon.ready());
    Agent planner(instance, repo, kToolsets);
    workflow = make_workflow(planner, {{"tidy", {}}});
    ProcessResult started =
        run_long(instance, {"workflows", "run", workflow, "--detach", "--adapter", "acp",
                            "--sandbox", "off", "--deny", "execute:rm *", "--allow", "edit", "--",
                            "node", MISSION_ACP_AGENT, "policy"});
    INFO(started.err);
    REQUIRE(started.exit_code == 0);
    REQUIRE(eventually([&] { return open_prompts(instance).size() == 1; }));
    first = open_prompts(instance)[0].at("agentExecutionId");
    CHECK(policy_answers(instance, first).size() == 2);
    daemon.signal(SIGKILL);
    REQUIRE(daemon.wait_exit());
  }
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  // The run goes on with a new attempt, answered by the same rules.
  json prompts;
  REQUIRE(eventually([&] {
    prompts = open_prompts(instance);
    return prompts.size() == 1 && prompts[0].at("agentExecutionId") != first;
  }));
  const std::string second = prompts[0].at("agentExecutionId");
  CHECK(policy_answers(instance, second) ==
        std::vector<std::string>{"rm -rf scratch: deny execute:rm * -> Reject",
                                 "Edit notes.md: allow edit -> Allow once"});
  REQUIRE(run_mission(instance, {"answer", second, "--choice", "3"}).exit_code == 0);
  json run =
      wait_for_run(instance, workflow, [](const json& r) { return r["status"] == "completed"; });
  CHECK(run["options"]["permissionPolicy"] ==
        json::parse(R"({"allow":["edit"],"deny":["execute:rm *"]})"));
  const std::string branch = run["integrationBranch"];
  CHECK(show(instance, repo, branch + ":decisions.txt").find("status: reject-once\n") !=
        std::string::npos);
  ProcessResult report = run_mission(instance, {"report", workflow});
  INFO(report.out);
  CHECK(report.out.find("Permission for rm -rf scratch: Reject, by policy (`deny execute:rm *`)") !=
        std::string::npos);
}

TEST_CASE(
    "bad permission patterns and policies for agents that ask nothing are refused before a run") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"only", {}}});
  auto refused = [&](const std::vector<std::string>& words, const std::string& said) {
    ProcessResult result = run_mission(instance, words);
    INFO(result.out << result.err);
    CHECK(result.exit_code != 0);
    CHECK(result.err.find(said) != std::string::npos);
  };
  refused({"run", "--detach", "--adapter", "acp", "--prompt", "p", "--deny", "shell:rm *", "--",
           "node", "x.mjs"},
          "--deny 'shell:rm *': 'shell' is not a tool call kind");
  refused({"run", "--detach", "--allow", "fetch:", "--", "true"},
          "--allow 'fetch:': nothing follows");
  refused(
      {"run", "--detach", "--allow", "edit", "--", "true"},
      "answer the permission requests of agents driven over ACP; the generic adapter makes none");
  const fs::path policy = instance.root.path() / "policy.toml";
  write_file(policy, "allow = [\"edit\"]\nask = [\"fetch\"]\n");
  refused({"run", "--detach", "--adapter", "acp", "--prompt", "p", "--policy", policy.string(),
           "--", "node", "x.mjs"},
          "policy.toml line 2: a policy file has no key 'ask'");
  refused(
      {"run", "--detach", "--policy", (instance.root.path() / "none.toml").string(), "--", "true"},
      "cannot read the policy file");
  // No agent was started by any of them: the planner's is the only one.
  CHECK(mission_json(instance, {"exec", "list"})["executions"].size() == 1);

  const std::vector<std::string> run{"workflows", "run", workflow, "--detach"};
  refused(args(run, {"--deny", "execute", "--deny", "bogus", "--", "true"}), "--deny 'bogus'");
  refused(args(run, {"--allow", "edit", "--", "true"}), "the generic adapter makes none");
  // Nothing was started.
  CHECK(run_mission(instance, {"workflows", "status", workflow}).exit_code != 0);
}
