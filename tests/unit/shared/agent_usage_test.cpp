#include "shared/agent_usage.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "shared/usage_limits.hpp"

using mission::AgentUsage;
using mission::StreamUsageReader;
using mission::usage_of_line;

namespace {

// Lines of the shapes the CLIs print (Claude Code 2.1, Codex 0.169,
// OpenCode 1.18), long fields shortened.
constexpr const char* kClaudeResult =
    R"j({"type":"result","subtype":"success","is_error":false,"duration_ms":299,"num_turns":2,"result":"hello.txt is written.","session_id":"6b04","total_cost_usd":0.00088,"usage":{"input_tokens":20,"cache_creation_input_tokens":1500,"cache_read_input_tokens":3000,"output_tokens":21,"server_tool_use":{"web_search_requests":0},"service_tier":"standard"},"permission_denials":[],"uuid":"9fe6"})j";
// An assistant message carries the usage of its model call too: the result
// is the run's, and only it counts.
constexpr const char* kClaudeAssistant =
    R"j({"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"result"}],"usage":{"input_tokens":10,"output_tokens":1}},"session_id":"6b04"})j";
constexpr const char* kCodexTurn =
    R"j({"type":"turn.completed","usage":{"input_tokens":24763,"cached_input_tokens":24448,"output_tokens":122}})j";
constexpr const char* kOpencodeStep1 =
    R"j({"type":"step_finish","timestamp":1795661920897,"sessionID":"ses_dea3","part":{"id":"prt_3","reason":"tool-calls","type":"step-finish","tokens":{"total":30,"input":10,"output":20,"reasoning":0,"cache":{"write":5,"read":7}},"cost":0.00033}})j";
constexpr const char* kOpencodeStep2 =
    R"j({"type":"step_finish","timestamp":1795661921046,"sessionID":"ses_dea3","part":{"id":"prt_6","reason":"stop","type":"step-finish","tokens":{"total":30,"input":11,"output":19,"reasoning":0,"cache":{"write":0,"read":1}},"cost":0.00017}})j";

std::string lines(std::initializer_list<const char*> each) {
  std::string out;
  for (const char* line : each) out += std::string(line) + "\n";
  return out;
}

}  // namespace

TEST_CASE("Claude Code's result gives the run's tokens, cache and cost as it states them") {
  auto event = usage_of_line("claude-stream-json", kClaudeResult);
  REQUIRE(event);
  CHECK(event->cumulative);
  CHECK(event->usage.input_tokens == 20);
  CHECK(event->usage.output_tokens == 21);
  CHECK(event->usage.cache_read_tokens == 3000);
  CHECK(event->usage.cache_write_tokens == 1500);
  CHECK(event->usage.cost_usd == 0.00088);
  CHECK_FALSE(usage_of_line("claude-stream-json", kClaudeAssistant));
}

TEST_CASE("a Claude Code result with a cost and no usage gives the cost alone") {
  auto event = usage_of_line(
      "claude-stream-json",
      R"j({"duration_api_ms":104,"total_cost_usd":0.00088,"is_error":false,"num_turns":2,"subtype":"success","result":"done","type":"result"})j");
  REQUIRE(event);
  CHECK(event->usage ==
        AgentUsage{std::nullopt, std::nullopt, std::nullopt, std::nullopt, 0.00088});
}

TEST_CASE("Codex's turn.completed gives its input, cached input and output") {
  auto event = usage_of_line("codex-json", kCodexTurn);
  REQUIRE(event);
  CHECK(event->cumulative);
  CHECK(event->usage == AgentUsage{24763, 122, 24448, std::nullopt, std::nullopt});
  CHECK_FALSE(usage_of_line("codex-json", R"({"type":"turn.started"})"));
}

TEST_CASE("OpenCode's steps add up, and a cumulative event replaces what came before") {
  StreamUsageReader opencode("opencode-json");
  CHECK(opencode.feed(lines({kOpencodeStep1, kOpencodeStep2})));
  CHECK(opencode.total().input_tokens == 21);
  CHECK(opencode.total().output_tokens == 39);
  CHECK(opencode.total().cache_read_tokens == 8);
  CHECK(opencode.total().cache_write_tokens == 5);
  REQUIRE(opencode.total().cost_usd);
  CHECK(*opencode.total().cost_usd == Approx(0.0005));

  StreamUsageReader codex("codex-json");
  CHECK(codex.feed(lines({kCodexTurn})));
  CHECK(codex.feed(
      lines({R"({"type":"turn.completed","usage":{"input_tokens":30000,"output_tokens":200}})"})));
  CHECK(codex.total() == AgentUsage{30000, 200, std::nullopt, std::nullopt, std::nullopt});
}

TEST_CASE("a usage line split across reads is read once it ends, and at the end without newline") {
  const std::string line = kClaudeResult;
  StreamUsageReader reader("claude-stream-json");
  CHECK_FALSE(reader.feed(line.substr(0, 40)));
  CHECK_FALSE(reader.feed(line.substr(40, 100)));
  CHECK(reader.feed(line.substr(140) + "\n"));
  CHECK(reader.total().output_tokens == 21);

  StreamUsageReader unfinished("codex-json");
  CHECK_FALSE(unfinished.feed(kCodexTurn));
  CHECK(unfinished.finish());
  CHECK(unfinished.total().input_tokens == 24763);
}

TEST_CASE("figures that are no counts are left out: strings, negatives, fractions, huge numbers") {
  auto event = usage_of_line(
      "claude-stream-json",
      R"j({"type":"result","total_cost_usd":"0.5","usage":{"input_tokens":"20","output_tokens":-3,"cache_read_input_tokens":1.5,"cache_creation_input_tokens":99999999999999999999}})j");
  CHECK_FALSE(event);
  auto past_bound = usage_of_line(
      "codex-json",
      R"j({"type":"turn.completed","usage":{"input_tokens":1000000000000001,"output_tokens":18446744073709551615,"cached_input_tokens":7}})j");
  REQUIRE(past_bound);
  CHECK(past_bound->usage == AgentUsage{std::nullopt, std::nullopt, 7, std::nullopt, std::nullopt});
  auto costly = usage_of_line(
      "opencode-json", R"j({"type":"step_finish","part":{"tokens":{"input":1},"cost":1e300}})j");
  REQUIRE(costly);
  CHECK_FALSE(costly->usage.cost_usd);
  CHECK_FALSE(usage_of_line("opencode-json", R"({"type":"step_finish","part":{"tokens":null}})"));
  CHECK_FALSE(usage_of_line("codex-json", R"({"type":"turn.completed"})"));
  CHECK_FALSE(usage_of_line("codex-json", R"(["turn.completed"])"));
  CHECK_FALSE(usage_of_line("codex-json", R"({"type":"turn.completed","usage":)"));
  CHECK_FALSE(usage_of_line("text", kCodexTurn));
}

TEST_CASE("steps that add up past the bound stop at it instead of wrapping") {
  StreamUsageReader reader("opencode-json");
  const std::string big = R"({"type":"step_finish","part":{"tokens":{"input":)" +
                          std::to_string(mission::limits::kMaxUsageTokens) +
                          R"(},"cost":900000000}})";
  reader.feed(big + "\n" + big + "\n" + big + "\n");
  CHECK(reader.total().input_tokens == mission::limits::kMaxUsageTokens);
  CHECK(reader.total().cost_usd == mission::limits::kMaxUsageCostUsd);
}

TEST_CASE("a line longer than the bound is skipped, and the next line is read") {
  StreamUsageReader reader("codex-json");
  std::string huge = R"({"type":"turn.completed","usage":{"input_tokens":5},"pad":")";
  huge.append(mission::limits::kMaxUsageLineBytes, 'x');
  huge += "\"}";
  CHECK_FALSE(reader.feed(huge.substr(0, huge.size() / 2)));
  CHECK_FALSE(reader.feed(huge.substr(huge.size() / 2) + "\n"));
  CHECK(reader.total().empty());
  CHECK(reader.feed(lines({kCodexTurn})));
  CHECK(reader.total().input_tokens == 24763);
}

TEST_CASE("ACP usage: the session's cost replaces the one before and the turns' tokens add up") {
  AgentUsage total;
  using nlohmann::json;
  CHECK(mission::take_acp_usage_update(
      total, json::parse(R"({"sessionUpdate":"usage_update","used":1200,"size":200000,
                             "cost":{"amount":0.25,"currency":"USD"}})")));
  CHECK(mission::take_acp_usage_update(
      total, json::parse(R"({"used":1300,"size":200000,"cost":{"amount":0.4,"currency":"USD"}})")));
  CHECK(total.cost_usd == 0.4);
  // The context window alone, another currency, or no figure: no change.
  CHECK_FALSE(mission::take_acp_usage_update(total, json::parse(R"({"used":9,"size":10})")));
  CHECK_FALSE(mission::take_acp_usage_update(
      total, json::parse(R"({"cost":{"amount":3,"currency":"EUR"}})")));
  CHECK_FALSE(mission::take_acp_usage_update(
      total, json::parse(R"({"cost":{"amount":-1,"currency":"USD"}})")));
  CHECK(total.cost_usd == 0.4);
  CHECK_FALSE(total.input_tokens);

  CHECK(mission::take_acp_turn_usage(
      total, json::parse(R"({"totalTokens":125,"inputTokens":100,"outputTokens":20,
                             "cachedReadTokens":5})")));
  CHECK(
      mission::take_acp_turn_usage(total, json::parse(R"({"inputTokens":50,"outputTokens":10})")));
  CHECK(total.input_tokens == 150);
  CHECK(total.output_tokens == 30);
  CHECK(total.cache_read_tokens == 5);
  CHECK_FALSE(total.cache_write_tokens);
  CHECK_FALSE(mission::take_acp_turn_usage(total, json(nullptr)));
  CHECK_FALSE(mission::take_acp_turn_usage(total, json::parse(R"({"inputTokens":"many"})")));
}
