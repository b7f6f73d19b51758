#include "shared/agent_stream.hpp"

#include <catch2/catch.hpp>

#include "shared/display_text.hpp"

using mission::StreamStep;
using Kind = mission::StreamStep::Kind;

namespace {

// Sample lines written after each CLI's documented event shapes.
constexpr const char* kClaudeLines[] = {
    R"({"type":"system","subtype":"init","cwd":"/src/app","session_id":"5f0c","tools":["Bash","Read","Edit"],"mcp_servers":[{"name":"mission","status":"connected"}],"model":"claude-sonnet-4-5","permissionMode":"default"})",
    R"({"type":"assistant","message":{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"thinking","thinking":"The failing test is in the parser.\nLook there first."},{"type":"text","text":"I'll run the tests first."}],"stop_reason":null},"session_id":"5f0c"})",
    R"({"type":"assistant","message":{"id":"msg_02","role":"assistant","content":[{"type":"tool_use","id":"toolu_01","name":"Bash","input":{"command":"ctest --output-on-failure -R parser","description":"Run the parser tests"}}]},"session_id":"5f0c"})",
    R"({"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_01","type":"tool_result","content":"1/1 Test #3: parser ....***Failed\nexpected 2, got 3","is_error":false}]},"session_id":"5f0c"})",
    R"({"type":"assistant","message":{"id":"msg_03","role":"assistant","content":[{"type":"tool_use","id":"toolu_02","name":"Edit","input":{"file_path":"src/parser.cpp","old_string":"n + 1","new_string":"n"}}]},"session_id":"5f0c"})",
    R"({"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_02","type":"tool_result","content":[{"type":"text","text":"File not found: src/parser.cpp"}],"is_error":true}]},"session_id":"5f0c"})",
    R"({"type":"result","subtype":"success","is_error":false,"duration_ms":41300,"duration_api_ms":38000,"num_turns":6,"result":"Fixed the off-by-one in the parser.","session_id":"5f0c","total_cost_usd":0.0831,"usage":{"input_tokens":1200,"output_tokens":340}})",
};

constexpr const char* kCodexLines[] = {
    R"({"type":"thread.started","thread_id":"0199a213-81c0-7800-8aa1-bbab2a035a53"})",
    R"({"type":"turn.started"})",
    R"({"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"**Finding the failing test**"}})",
    R"({"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"bash -lc 'cargo test -p parser'","aggregated_output":"","exit_code":null,"status":"in_progress"}})",
    R"({"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc 'cargo test -p parser'","aggregated_output":"test result: FAILED. 11 passed; 1 failed\n","exit_code":101,"status":"failed"}})",
    R"({"type":"item.completed","item":{"id":"item_2","type":"file_change","changes":[{"path":"parser/src/lib.rs","kind":"update"}],"status":"completed"}})",
    R"({"type":"item.started","item":{"id":"item_3","type":"mcp_tool_call","server":"mission","tool":"progress","arguments":{"summary":"parser fixed"},"status":"in_progress"}})",
    R"({"type":"item.completed","item":{"id":"item_3","type":"mcp_tool_call","server":"mission","tool":"progress","arguments":{"summary":"parser fixed"},"result":{"content":[{"type":"text","text":"recorded"}]},"error":null,"status":"completed"}})",
    R"({"type":"item.completed","item":{"id":"item_4","type":"agent_message","text":"The parser test passes now."}})",
    R"({"type":"turn.completed","usage":{"input_tokens":24763,"cached_input_tokens":24448,"output_tokens":122}})",
    R"({"type":"item.completed","item":{"id":"item_5","type":"error","message":"Falling back to default metadata for this model."}})",
    R"({"type":"turn.failed","error":{"message":"stream disconnected before completion"}})",
};

constexpr const char* kOpencodeLines[] = {
    R"({"type":"step_start","timestamp":1767000000000,"sessionID":"ses_4a1b","part":{"id":"prt_1","sessionID":"ses_4a1b","messageID":"msg_1","type":"step-start","snapshot":"9c1e"}})",
    R"({"type":"tool_use","timestamp":1767000001000,"sessionID":"ses_4a1b","part":{"id":"prt_2","sessionID":"ses_4a1b","messageID":"msg_1","type":"tool","callID":"call_1","tool":"read","state":{"status":"completed","input":{"filePath":"/src/app/README.md"},"output":"# app\nA small app.","title":"README.md","metadata":{},"time":{"start":1767000000500,"end":1767000001000}}}})",
    R"({"type":"tool_use","timestamp":1767000002000,"sessionID":"ses_4a1b","part":{"id":"prt_3","sessionID":"ses_4a1b","messageID":"msg_1","type":"tool","callID":"call_2","tool":"bash","state":{"status":"error","input":{"command":"make check"},"error":"make: *** No rule to make target 'check'.","time":{"start":1767000001500,"end":1767000002000}}}})",
    R"({"type":"step_finish","timestamp":1767000002100,"sessionID":"ses_4a1b","part":{"id":"prt_4","type":"step-finish","reason":"tool-calls","cost":0,"tokens":{"input":900,"output":40,"reasoning":0,"cache":{"read":0,"write":0}}}})",
    R"({"type":"text","timestamp":1767000003000,"sessionID":"ses_4a1b","part":{"id":"prt_5","sessionID":"ses_4a1b","messageID":"msg_2","type":"text","text":"There is no check target; `make test` runs the tests.","time":{"start":1767000002500,"end":1767000003000}}})",
    R"({"type":"step_finish","timestamp":1767000003100,"sessionID":"ses_4a1b","part":{"id":"prt_6","type":"step-finish","reason":"stop","cost":0,"tokens":{"input":950,"output":20,"reasoning":0,"cache":{"read":0,"write":0}}}})",
    R"({"type":"error","timestamp":1767000004000,"sessionID":"ses_4a1b","error":{"name":"APIError","data":{"message":"rate limited, retry in 20s","statusCode":429}}})",
};

std::vector<StreamStep> decode_all(std::string_view format, std::span<const char* const> lines) {
  const auto* decoder = mission::find_stream_decoder(format);
  REQUIRE(decoder != nullptr);
  std::vector<StreamStep> steps;
  for (const char* line : lines) {
    auto decoded = mission::decode_stream_line(*decoder, line);
    REQUIRE(decoded.has_value());
    steps.insert(steps.end(), decoded->begin(), decoded->end());
  }
  return steps;
}

std::vector<std::string> rendered(const std::vector<StreamStep>& steps, std::size_t columns) {
  std::vector<std::string> lines;
  for (const auto& step : steps) {
    for (auto& line : mission::render_stream_step(step, columns)) lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace

TEST_CASE("Claude Code stream-json reads as messages, tool calls, results and the end") {
  auto steps = decode_all("claude-stream-json", kClaudeLines);
  REQUIRE(steps.size() == 7);
  CHECK(steps[0].kind == Kind::thinking);
  CHECK(steps[1].kind == Kind::message);
  CHECK(steps[1].text == "I'll run the tests first.");
  CHECK(steps[2].kind == Kind::tool_call);
  CHECK(steps[2].text == "Bash(ctest --output-on-failure -R parser)");
  CHECK(steps[3].kind == Kind::tool_result);
  CHECK(steps[4].text == "Edit(src/parser.cpp)");
  CHECK(steps[5].kind == Kind::error);
  CHECK(steps[5].text == "File not found: src/parser.cpp");
  CHECK(steps[6].kind == Kind::done);
  CHECK(steps[6].text == "success, 6 turns, 41.3 s, $0.0831");
  auto lines = rendered(steps, 80);
  CHECK(lines[0] == "∴ The failing test is in the parser. (+1 lines)");
  CHECK(lines[1] == "● I'll run the tests first.");
  CHECK(lines[2] == "→ Bash(ctest --output-on-failure -R parser)");
  CHECK(lines[3] == "  ← 1/1 Test #3: parser ....***Failed (+1 lines)");
  CHECK(lines[5] == "✗ File not found: src/parser.cpp");
}

TEST_CASE("codex exec --json reads as commands with their exit, edits, MCP calls and messages") {
  auto steps = decode_all("codex-json", kCodexLines);
  REQUIRE(steps.size() == 10);
  CHECK(steps[0].kind == Kind::thinking);
  CHECK(steps[1].kind == Kind::tool_call);
  // The script the model wrote, not the shell wrapper codex runs it in.
  CHECK(steps[1].text == "shell(cargo test -p parser)");
  CHECK(steps[2].kind == Kind::error);  // exit 101
  CHECK(steps[2].text.starts_with("exit 101: test result: FAILED."));
  CHECK(steps[3].text == "apply_patch(update parser/src/lib.rs)");
  CHECK(steps[4].text == R"(mission.progress({"summary":"parser fixed"}))");
  CHECK(steps[5].kind == Kind::tool_result);
  CHECK(steps[5].text == "recorded");
  CHECK(steps[6].kind == Kind::message);
  CHECK(steps[7].kind == Kind::done);
  CHECK(steps[7].text == "turn completed, tokens in 24763, out 122");
  // A notice codex goes on after is a warning, not a failure.
  CHECK(steps[8].kind == Kind::warning);
  CHECK(steps[8].text == "Falling back to default metadata for this model.");
  CHECK(render_stream_step(steps[8], 80).at(0) ==
        "! Falling back to default metadata for this model.");
  CHECK(steps[9].kind == Kind::error);
  CHECK(steps[9].text == "stream disconnected before completion");
}

TEST_CASE("opencode run --format json reads as tool calls with results, text and errors") {
  auto steps = decode_all("opencode-json", kOpencodeLines);
  REQUIRE(steps.size() == 7);
  CHECK(steps[0].text == "read(/src/app/README.md)");
  CHECK(steps[1].kind == Kind::tool_result);
  CHECK(steps[2].text == "bash(make check)");
  CHECK(steps[3].kind == Kind::error);
  CHECK(steps[4].kind == Kind::message);
  CHECK(steps[5].kind == Kind::done);
  CHECK(steps[5].text == "stop");
  CHECK(steps[6].kind == Kind::error);
  CHECK(steps[6].text == "rate limited, retry in 20s");
}

// What the pinned CLIs printed for one write and a final text, captured from
// tests/agents/run-stream.test.mjs (paths shortened, long fields dropped):
// Claude Code 2.1.330, Codex 0.169.0, OpenCode 1.18.33.
constexpr const char* kClaudeCaptured[] = {
    R"j({"type":"system","subtype":"init","cwd":"/src/app","session_id":"6b04","tools":["Task","Bash","Edit","Read","Write","mcp__mission__progress"],"model":"claude-opus-5-5","permissionMode":"acceptEdits"})j",
    R"j({"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"tool_use","id":"toolu_2","name":"Write","input":{"file_path":"/src/app/hello.txt","content":"hello\n"}}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1},"context_management":null},"parent_tool_use_id":null,"session_id":"6b04","uuid":"6fab","timestamp":"2026-11-26T02:58:27.487Z"})j",
    R"j({"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_2","type":"tool_result","content":"File created successfully at: /src/app/hello.txt (file state is current in your context — no need to Read it back)"}]},"parent_tool_use_id":null,"session_id":"6b04","uuid":"6bc9","timestamp":"2026-11-26T02:58:27.588Z","tool_use_result":{"type":"create","filePath":"/src/app/hello.txt","content":"hello\n","structuredPatch":[],"originalFile":null,"userModified":false}})j",
    R"j({"type":"assistant","message":{"id":"msg_3","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"text","text":"hello.txt is written."}],"stop_reason":null},"parent_tool_use_id":null,"session_id":"6b04","uuid":"3eb9"})j",
    R"j({"duration_api_ms":104,"stop_reason":"end_turn","session_id":"6b04","total_cost_usd":0.00088,"permission_denials":[],"terminal_reason":"completed","is_error":false,"num_turns":2,"subtype":"success","api_error_status":null,"result":"hello.txt is written.","ttft_ms":120,"type":"result","duration_ms":299,"uuid":"9fe6"})j",
};

constexpr const char* kCodexCaptured[] = {
    R"j({"type":"thread.started","thread_id":"01a215ca-506e-7cb1-85bd-0059a71a2d98"})j",
    R"j({"type":"item.completed","item":{"id":"item_0","type":"error","message":"Model metadata for `gpt-4.1` not found. Defaulting to fallback metadata; this can degrade performance and cause issues."}})j",
    R"j({"type":"turn.started"})j",
    R"j({"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -lc \"printf '%s\\\\n' 'hello' > '/src/app/hello.txt'\"","aggregated_output":"","exit_code":null,"status":"in_progress"}})j",
    R"j({"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"/bin/bash -lc \"printf '%s\\\\n' 'hello' > '/src/app/hello.txt'\"","aggregated_output":"","exit_code":0,"status":"completed"}})j",
    R"j({"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"hello.txt is written."}})j",
    R"j({"type":"turn.completed","usage":{"input_tokens":20,"cached_input_tokens":0,"cache_write_input_tokens":0,"output_tokens":40,"reasoning_output_tokens":0}})j",
};

constexpr const char* kOpencodeCaptured[] = {
    R"j({"type":"step_start","timestamp":1795661920897,"sessionID":"ses_dea3","part":{"id":"prt_1","messageID":"msg_1","sessionID":"ses_dea3","type":"step-start"}})j",
    R"j({"type":"tool_use","timestamp":1795661920897,"sessionID":"ses_dea3","part":{"type":"tool","tool":"write","callID":"toolu_3","state":{"status":"completed","input":{"filePath":"/src/app/hello.txt","content":"hello\n"},"output":"Wrote file successfully.","metadata":{"diagnostics":{},"filepath":"/src/app/hello.txt","exists":false,"truncated":false},"title":"src/app/hello.txt","time":{"start":1795661920845,"end":1795661920864}},"id":"prt_2","sessionID":"ses_dea3","messageID":"msg_1"}})j",
    R"j({"type":"step_finish","timestamp":1795661920897,"sessionID":"ses_dea3","part":{"id":"prt_3","reason":"tool-calls","messageID":"msg_1","sessionID":"ses_dea3","type":"step-finish","tokens":{"total":30,"input":10,"output":20,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0.00033}})j",
    R"j({"type":"step_start","timestamp":1795661921046,"sessionID":"ses_dea3","part":{"id":"prt_4","messageID":"msg_2","sessionID":"ses_dea3","type":"step-start"}})j",
    R"j({"type":"text","timestamp":1795661921046,"sessionID":"ses_dea3","part":{"id":"prt_5","messageID":"msg_2","sessionID":"ses_dea3","type":"text","text":"hello.txt is written.","time":{"start":1795661920988,"end":1795661920995}}})j",
    R"j({"type":"step_finish","timestamp":1795661921046,"sessionID":"ses_dea3","part":{"id":"prt_6","reason":"stop","messageID":"msg_2","sessionID":"ses_dea3","type":"step-finish","tokens":{"total":30,"input":10,"output":20,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0.00033}})j",
};

TEST_CASE(
    "the streams the pinned agent CLIs print read as the call, its result, the text and the end") {
  CHECK(rendered(decode_all("claude-stream-json", kClaudeCaptured), 160) ==
        std::vector<std::string>{
            "→ Write(/src/app/hello.txt)",
            "  ← File created successfully at: /src/app/hello.txt (file state is "
            "current in your context — no need to Read it back)",
            "● hello.txt is written.", "■ success, 2 turns, 0.3 s, $0.0009"});
  // Codex prints a warning as an error item; the command is shown as the
  // model wrote it, out of codex's `/bin/bash -lc "..."`.
  CHECK(rendered(decode_all("codex-json", kCodexCaptured), 160) ==
        std::vector<std::string>{
            "! Model metadata for `gpt-4.1` not found. Defaulting to fallback metadata; this can "
            "degrade performance and cause issues.",
            R"(→ shell(printf '%s\n' 'hello' > '/src/app/hello.txt'))", "  ← exit 0",
            "● hello.txt is written.", "■ turn completed, tokens in 20, out 40"});
  CHECK(rendered(decode_all("opencode-json", kOpencodeCaptured), 160) ==
        std::vector<std::string>{"→ write(/src/app/hello.txt)", "  ← Wrote file successfully.",
                                 "● hello.txt is written.", "■ stop"});
}

TEST_CASE("a shell command is shown as its script when it is one word after bash -lc or sh -c") {
  const auto* decoder = mission::find_stream_decoder("codex-json");
  REQUIRE(decoder != nullptr);
  auto call = [&](std::string command) {
    nlohmann::json event = {{"type", "item.started"},
                            {"item", {{"type", "command_execution"}, {"command", command}}}};
    auto steps = mission::decode_stream_line(*decoder, event.dump());
    REQUIRE(steps.has_value());
    REQUIRE(steps->size() == 1);
    return (*steps)[0].text;
  };
  CHECK(call(R"(/bin/bash -lc "echo \"a \$HOME\" \\ b")") == R"(shell(echo "a $HOME" \ b))");
  CHECK(call(R"(bash -lc 'it'\''s')") == "shell(it's)");
  CHECK(call("sh -c ls") == "shell(ls)");
  // More than one word, an open quote, or no script: the command as it is.
  CHECK(call("bash -lc ls -la") == "shell(bash -lc ls -la)");
  CHECK(call(R"(bash -lc "open)") == R"(shell(bash -lc "open))");
  CHECK(call("bash -lc ''") == "shell(bash -lc '')");
  CHECK(call("rg -n TODO") == "shell(rg -n TODO)");
}

TEST_CASE("a stream step is cut to the width by display width, and agent text is neutralised") {
  StreamStep call{
      Kind::tool_call,
      "Bash(echo 日本語日本語日本語日本語 \x1b]0;pwned\x07 && printf '\\e[2J' && sleep 1)"};
  auto lines = mission::render_stream_step(call, 30);
  REQUIRE(lines.size() == 1);
  CHECK(mission::text::display_width(lines[0]) <= 30);
  CHECK(lines[0].find('\x1b') == std::string::npos);
  CHECK(lines[0].ends_with("..."));
  CHECK(lines[0].starts_with("→ Bash(echo 日本語"));

  StreamStep message{Kind::message,
                     "first line\x1b[31m red\nsecond line is long enough to wrap here"};
  auto wrapped = mission::render_stream_step(message, 24);
  REQUIRE(wrapped.size() >= 3);
  CHECK(wrapped[0] == "● first line red");
  CHECK(wrapped[1].starts_with("  second"));
  for (const auto& line : wrapped) CHECK(mission::text::display_width(line) <= 24);
}

TEST_CASE("a stream line that is no event is left to be printed as it is") {
  const auto* decoder = mission::find_stream_decoder("claude-stream-json");
  REQUIRE(decoder != nullptr);
  CHECK_FALSE(mission::decode_stream_line(*decoder, "npm WARN deprecated").has_value());
  CHECK_FALSE(
      mission::decode_stream_line(*decoder, R"({"type":"assistant","message":{"con)").has_value());
  CHECK_FALSE(mission::decode_stream_line(*decoder, "[1,2]").has_value());
  // An event of a type the decoder does not show says nothing.
  auto quiet = mission::decode_stream_line(*decoder, R"({"type":"stream_event","event":{}})");
  REQUIRE(quiet.has_value());
  CHECK(quiet->empty());
  CHECK(mission::find_stream_decoder("text") == nullptr);
  CHECK(mission::find_stream_decoder("") == nullptr);
}
