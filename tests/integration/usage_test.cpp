// Tokens and cost read from the agents' own streams (shared/agent_usage.hpp)
// through the real daemon: fake agent CLIs print the JSON lines Claude Code
// and Codex print in their headless modes, under a workflow run and under
// `mission run`; `mission report` and `mission usage` show exactly their
// numbers, and what an agent also reported through complete_task stays
// beside them, each figure saying where it came from.

#include <catch2/catch.hpp>
#include <thread>

#include "integration/run_helpers.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// A fake `claude -p --output-format stream-json`: writes NAME.txt in its
// worktree, then an assistant message (whose per-call usage must not
// count) and the result with the run's usage and cost, different per task.
fs::path fake_claude(const Instance& instance) {
  const fs::path script = instance.root.path() / "fake-claude.sh";
  write_file(
      script,
      "#!/bin/sh\n"
      "printf '%s\\n' \"$MISSION_TASK_NAME\" > \"$MISSION_TASK_NAME.txt\"\n"
      "case \"$MISSION_TASK_NAME\" in\n"
      "  first) usage='\"input_tokens\":1200,\"cache_creation_input_tokens\":1500,"
      "\"cache_read_input_tokens\":3000,\"output_tokens\":340'; cost=0.0831;;\n"
      "  *) usage='\"input_tokens\":20,\"cache_creation_input_tokens\":0,"
      "\"cache_read_input_tokens\":0,\"output_tokens\":21'; cost=0.00088;;\n"
      "esac\n"
      "printf '%s\\n' '{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"6b04\"}'\n"
      "printf '%s\\n' '{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":"
      "[{\"type\":\"text\",\"text\":\"done\"}],\"usage\":{\"input_tokens\":999,\"output_tokens\":"
      "999}},\"session_id\":\"6b04\"}'\n"
      "printf '{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"num_turns\":2,"
      "\"result\":\"done\",\"session_id\":\"6b04\",\"total_cost_usd\":%s,\"usage\":{%s}}\\n' "
      "\"$cost\" \"$usage\"\n"
      // Waits for the test, when asked to, after stating its usage.
      "if [ -n \"$HOLD\" ]; then while [ ! -e \"$HOLD\" ]; do sleep 0.05; done; fi\n");
  fs::permissions(script, fs::perms::owner_all);
  return script;
}

// A fake `codex exec --json` that states its usage in turn.completed and
// also reports tokens in complete_task's metadata, over mission's MCP bridge.
fs::path fake_codex(const Instance& instance) {
  const fs::path script = instance.root.path() / "fake-codex.sh";
  write_file(script,
             "#!/bin/sh\n"
             "printf '%s\\n' \"$MISSION_TASK_NAME\" > \"$MISSION_TASK_NAME.txt\"\n" +
                 shell_mcp_call(">/dev/null") +
                 "call start_task \"{\\\"task_id\\\":\\\"$MISSION_TASK_ID\\\"}\"\n"
                 "printf '%s\\n' '{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":5000,"
                 "\"cached_input_tokens\":4000,\"output_tokens\":60}}'\n"
                 "call complete_task "
                 "\"{\\\"task_id\\\":\\\"$MISSION_TASK_ID\\\",\\\"status\\\":\\\"success\\\","
                 "\\\"outcome\\\":{\\\"summary\\\":\\\"done\\\"},"
                 "\\\"metadata\\\":{\\\"tokens_input\\\":100,\\\"tokens_output\\\":10}}\"\n");
  fs::permissions(script, fs::perms::owner_all);
  return script;
}

}  // namespace

TEST_CASE("mission report and mission usage show the tokens and cost Claude Code's stream stated") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"first", {}}, {"second", {"first"}}});
  ProcessResult result = run_long(
      instance, {"workflows", "run", workflow, "--adapter", "claude-code", "--max-attempts", "1",
                 "--env", "MISSION_CLAUDE_CODE_BIN=" + fake_claude(instance).string()});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  // The line that ends the run's board says what its agents used.
  CHECK(result.out.find("Its agents used 1220 tokens in, 361 out, $0.0840.\n") !=
        std::string::npos);

  const json report = mission_json(instance, {"report", workflow, "--format", "json"});
  INFO(report.dump(2));
  const json& run = report["run"];
  CHECK(run["tokens"] == json{{"input", 1220},
                              {"output", 361},
                              {"total", 1581},
                              {"cacheRead", 3000},
                              {"cacheWrite", 1500},
                              {"attemptsReporting", 2},
                              {"attemptsFromStream", 2}});
  CHECK(run["costUsd"].get<double>() == Approx(0.08398));
  const json& first = task_of(run, "first");
  CHECK(first["tokens"] == json{{"input", 1200},
                                {"output", 340},
                                {"total", 1540},
                                {"cacheRead", 3000},
                                {"cacheWrite", 1500}});
  CHECK(first["costUsd"] == 0.0831);
  CHECK(first["attempts"][0]["tokens"]["source"] == "stream");
  CHECK_FALSE(first["attempts"][0].contains("reportedTokens"));
  CHECK(task_of(run, "second")["attempts"][0]["tokens"] ==
        json{{"input", 20}, {"output", 21}, {"total", 41}, {"source", "stream"}});
  CHECK(task_of(run, "second")["costUsd"] == 0.00088);

  ProcessResult markdown = run_mission(instance, {"report", workflow});
  INFO(markdown.out);
  CHECK(markdown.out.find("- Tokens: 1,581 (1,220 in, 361 out, 3,000 cache read, 1,500 cache "
                          "write), from the streams of 2 of 2 attempts, $0.0840\n") !=
        std::string::npos);
  CHECK(markdown.out.find(", tokens 1,540 (1,200 in, 340 out, 3,000 cache read, 1,500 cache "
                          "write), $0.0831 from its stream\n") != std::string::npos);

  // The workflow's line, and each of its executions.
  const json usage = mission_json(instance, {"usage"});
  INFO(usage.dump(2));
  REQUIRE(usage["rows"].size() == 1);
  const json& line = usage["rows"][0];
  CHECK(line["kind"] == "workflow");
  CHECK(line["id"] == workflow);
  CHECK(line["name"] == "run-test");
  CHECK(line["executions"] == 2);
  CHECK(line["fromStream"] == 2);
  CHECK(line["tokens"] ==
        json{{"input", 1220}, {"output", 361}, {"cacheRead", 3000}, {"cacheWrite", 1500}});
  CHECK(line["costUsd"].get<double>() == Approx(0.08398));
  CHECK(usage["total"]["tokens"] == line["tokens"]);
  CHECK(usage["truncated"] == false);

  const json per_execution = mission_json(instance, {"usage", workflow});
  INFO(per_execution.dump(2));
  REQUIRE(per_execution["rows"].size() == 2);
  CHECK(per_execution["rows"][0]["task"] == "second");
  CHECK(per_execution["rows"][0]["adapter"] == "claude-code");
  CHECK(per_execution["rows"][0]["tokens"] ==
        json{{"input", 20}, {"output", 21}, {"cacheRead", 0}, {"cacheWrite", 0}});
  CHECK(per_execution["rows"][1]["task"] == "first");
  CHECK(per_execution["rows"][1]["attempt"] == 1);
  CHECK(per_execution["rows"][1]["costUsd"] == 0.0831);

  ProcessResult table = run_mission(instance, {"usage", workflow});
  INFO(table.out << table.err);
  CHECK(table.exit_code == 0);
  CHECK(table.out.find("1,200") != std::string::npos);
  CHECK(table.out.find("$0.0831") != std::string::npos);
  CHECK(table.out.find("total") != std::string::npos);
  CHECK(table.out.find("$0.0840") != std::string::npos);

  // --since leaves out what started before it.
  ProcessResult future = run_mission(instance, {"--json", "usage", "--since", "2099-01-01"});
  INFO(future.out << future.err);
  CHECK(future.exit_code == 0);
  CHECK(json::parse(future.out)["rows"].empty());
  ProcessResult unreadable = run_mission(instance, {"usage", "--since", "soon"});
  CHECK(unreadable.exit_code != 0);
  CHECK(unreadable.err.find("cannot read --since 'soon'") != std::string::npos);
}

TEST_CASE("an agent's usage is recorded as its stream states it, before it ends") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const fs::path hold = instance.root.path() / "release";
  ProcessResult started =
      run_mission(instance, {"run", "--detach", "--adapter", "claude-code", "--bin",
                             fake_claude(instance).string(), "--env", "HOLD=" + hold.string(),
                             "--cwd", repo.string(), "--", "-p", "say hello"});
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
  const std::string id = started.out.substr(0, started.out.find('\n'));

  json usage;
  eventually(
      [&] {
        usage = mission_json(instance, {"usage"});
        return !usage["rows"].empty();
      },
      30s, 50ms);
  INFO(usage.dump(2));
  REQUIRE(usage["rows"].size() == 1);
  const json& line = usage["rows"][0];
  CHECK(line["kind"] == "execution");
  CHECK(line["id"] == id);
  CHECK(line["adapter"] == "claude-code");
  CHECK(line["tokens"] == json{{"input", 20}, {"output", 21}, {"cacheRead", 0}, {"cacheWrite", 0}});
  CHECK(line["costUsd"] == 0.00088);
  // Still running: the figures came from its stream, not from its end.
  CHECK(mission_json(instance, {"exec", "show", id})["state"] == "running");
  write_file(hold, "");
  json execution;
  eventually(
      [&] {
        execution = mission_json(instance, {"exec", "show", id});
        return execution.contains("endedAt");
      },
      30s, 20ms);
  CHECK(execution["state"] == "completed");
  CHECK(mission_json(instance, {"usage"})["rows"][0]["tokens"] == line["tokens"]);
}

TEST_CASE("an attempt whose agent both streamed and reported tokens shows both, each named") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  const std::string workflow = make_workflow(planner, {{"only", {}}});
  ProcessResult result =
      run_long(instance, {"workflows", "run", workflow, "--adapter", "codex", "--max-attempts", "1",
                          "--env", "MISSION_CODEX_BIN=" + fake_codex(instance).string()});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);

  const json report = mission_json(instance, {"report", workflow, "--format", "json"});
  INFO(report.dump(2));
  const json& attempt = task_of(report["run"], "only")["attempts"][0];
  CHECK(attempt["tokens"] == json{{"input", 5000},
                                  {"output", 60},
                                  {"total", 5060},
                                  {"cacheRead", 4000},
                                  {"source", "stream"}});
  CHECK(attempt["reportedTokens"] == json{{"input", 100}, {"output", 10}, {"total", 110}});
  CHECK_FALSE(attempt.contains("costUsd"));

  ProcessResult markdown = run_mission(instance, {"report", workflow});
  INFO(markdown.out);
  CHECK(markdown.out.find(", tokens 5,060 (5,000 in, 60 out, 4,000 cache read) from its stream "
                          "(its agent reported 110 (100 in, 10 out))") != std::string::npos);
}
