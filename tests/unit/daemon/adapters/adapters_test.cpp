// Agent adapters: the exact argv, environment and files each one prepares,
// delivery selection, the cleanup, and provisioning failures that fail the
// launch instead of falling back.

#include <sys/stat.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "daemon/adapters/adapter_table.hpp"
#include "shared/acp_adapters.hpp"
#include "shared/agent_stream.hpp"
#include "shared/error_code.hpp"
#include "support/temp_dir.hpp"

using namespace mission::daemon::adapters;
using mission::ErrorCode;
using mission::MissionError;
using Strings = std::vector<std::string>;
using Env = std::map<std::string, std::string>;

namespace {

const std::string kId = "ae-test000001";
const std::string kToken = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
const std::string kMission = "/opt/mission/bin/mission";
const std::string kSocket = "/run/mission/daemon.sock";
const std::string kInstructions = "Report to mission by printing marker lines.\n";

struct Launch {
  mission::test::TempDir root;
  LaunchRequest request;

  Launch(std::string_view delivery, std::string binary, Strings arguments) {
    request.execution_id = kId;
    request.delivery = mission::require_name<mission::Delivery>(delivery, "delivery");
    request.binary = std::move(binary);
    request.arguments = std::move(arguments);
    request.env = {{"PATH", "/usr/bin:/bin"},
                   {"MISSION_MCP_TOKEN", kToken},
                   {"MISSION_AGENT_EXECUTION_ID", kId},
                   {"MISSION_SOCKET", kSocket}};
    request.files_dir = dir();
    if (request.delivery == mission::Delivery::mcp_tool) {
      request.bridge = BridgeEntry{
          kMission, {"mcp", "connect", "--agent-execution", kId}, kSocket, kToken, false};
    } else {
      request.marker_instructions = [] { return kInstructions; };
    }
  }
  std::filesystem::path dir() const { return root.path() / "launch" / kId; }
  LaunchPlan prepare(std::string_view adapter) const {
    return require_adapter(adapter).prepare_launch(request);
  }
};

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

unsigned mode_of(const std::filesystem::path& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return st.st_mode & 0777;
}

// Everything a plan puts on a command line, joined: no secret may be in it.
std::string joined(const Strings& argv) {
  std::string all;
  for (const auto& word : argv) all += word + "\n";
  return all;
}

BridgeEntry pasted_bridge(bool with_execution) {
  BridgeEntry bridge{kMission, {"mcp", "connect"}, kSocket, "", with_execution};
  if (with_execution) {
    bridge.args.push_back("--agent-execution");
    bridge.args.push_back(kId);
  }
  return bridge;
}

}  // namespace

TEST_CASE("the table has one adapter per provider, and each declares what it supports") {
  Strings names;
  for (const AgentAdapter* adapter : adapter_table()) names.emplace_back(adapter->name);
  CHECK(names == Strings{"claude-code", "codex", "copilot", "opencode", "pi", "generic", "acp",
                         "claude-code-acp", "codex-acp"});
  // The CLI's list of the adapters driven over ACP (shared/acp_adapters.hpp)
  // is this table's.
  for (const AgentAdapter* adapter : adapter_table()) {
    INFO(adapter->name);
    const bool over_acp = adapter->output_format != nullptr &&
                          adapter->output_format({}) == mission::daemon::adapters::kAcpStreamFormat;
    CHECK(mission::driven_over_acp(adapter->name) == over_acp);
  }

  const AgentAdapter& claude = require_adapter("claude-code");
  CHECK(claude.binary == "claude");
  CHECK(supports(claude, mission::Delivery::mcp_tool));
  CHECK(supports(claude, mission::Delivery::stdout_marker));
  CHECK(claude.capabilities.provisioning.requires_runtime_config);
  CHECK(claude.capabilities.provisioning.supports_stdio_bridge);

  const AgentAdapter& pi = require_adapter("pi");
  CHECK_FALSE(supports(pi, mission::Delivery::mcp_tool));
  CHECK_FALSE(pi.capabilities.provisioning.supports_stdio_bridge);
  CHECK(pi.manual_config == nullptr);

  const AgentAdapter& generic = require_adapter("generic");
  CHECK(generic.binary.empty());
  CHECK_FALSE(generic.capabilities.provisioning.requires_runtime_config);

  CHECK(bin_variable("claude-code") == "MISSION_CLAUDE_CODE_BIN");
  CHECK(bin_variable("opencode") == "MISSION_OPENCODE_BIN");

  try {
    require_adapter("aider");
    FAIL("an unknown adapter was accepted");
  } catch (const MissionError& e) {
    CHECK(e.code() == ErrorCode::invalid_argument);
    CHECK(e.details().at("available").size() == 9);
  }
}

TEST_CASE("delivery: the preferred one per launch mode, a supported request, never another") {
  for (const char* name : {"claude-code", "codex", "copilot", "opencode"}) {
    INFO(name);
    const AgentAdapter& adapter = require_adapter(name);
    CHECK(select_delivery(adapter, std::nullopt, LaunchMode::attached) ==
          mission::Delivery::mcp_tool);
    CHECK(select_delivery(adapter, std::nullopt, LaunchMode::detached) ==
          mission::Delivery::mcp_tool);
  }
  for (const char* name : {"pi", "generic"}) {
    INFO(name);
    const AgentAdapter& adapter = require_adapter(name);
    CHECK(select_delivery(adapter, std::nullopt, LaunchMode::attached) ==
          mission::Delivery::stdout_marker);
    CHECK(select_delivery(adapter, std::nullopt, LaunchMode::detached) ==
          mission::Delivery::stdout_marker);
  }
  // An MCP-capable provider can still be launched with markers.
  CHECK(select_delivery(require_adapter("claude-code"), mission::Delivery::stdout_marker,
                        LaunchMode::attached) == mission::Delivery::stdout_marker);
  CHECK(select_delivery(require_adapter("generic"), mission::Delivery::mcp_tool,
                        LaunchMode::detached) == mission::Delivery::mcp_tool);
  for (auto [name, requested] : {std::pair{"pi", "mcp-tool"}, std::pair{"copilot", "stdout-marker"},
                                 std::pair{"opencode", "stdout-marker"}}) {
    INFO(name);
    try {
      select_delivery(require_adapter(name),
                      mission::require_name<mission::Delivery>(requested, "delivery"),
                      LaunchMode::attached);
      FAIL("an unsupported delivery was selected");
    } catch (const MissionError& e) {
      CHECK(e.code() == ErrorCode::invalid_argument);
      CHECK(std::string(e.what()).find(std::string(name) + " does not support " + requested) !=
            std::string::npos);
      CHECK(e.details().at("supported") == nlohmann::json(std::string(name) == "pi"
                                                              ? Strings{"stdout-marker"}
                                                              : Strings{"mcp-tool"}));
    }
  }
}

TEST_CASE("claude-code: a 0600 --mcp-config file with the bridge, strict, tools allowed") {
  Launch launch("mcp-tool", "/usr/local/bin/claude", {"-p", "fix the bug"});
  LaunchPlan plan = launch.prepare("claude-code");
  const auto file = launch.dir() / "claude-mcp.json";
  CHECK(plan.argv == Strings{"/usr/local/bin/claude", "--mcp-config=" + file.string(),
                             "--strict-mcp-config", "--allowedTools=mcp__mission",
                             "--output-format=stream-json", "--verbose", "-p", "fix the bug"});
  CHECK(plan.env_set == Env{{"MCP_CONNECTION_NONBLOCKING", "false"}});
  CHECK(plan.env_unset == Strings{"MISSION_MCP_TOKEN"});
  CHECK(read_file(file) == R"({
  "mcpServers": {
    "mission": {
      "type": "stdio",
      "command": "/opt/mission/bin/mission",
      "args": [
        "mcp",
        "connect",
        "--agent-execution",
        "ae-test000001"
      ],
      "env": {
        "MISSION_MCP_TOKEN": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        "MISSION_SOCKET": "/run/mission/daemon.sock"
      }
    }
  }
}
)");
  CHECK(mode_of(file) == 0600);
  CHECK(mode_of(launch.dir()) == 0700);
  CHECK(mode_of(launch.dir().parent_path()) == 0700);
  CHECK(joined(plan.argv).find(kToken) == std::string::npos);

  SECTION("the cleanup removes the file and its directory") {
    plan.files.remove();
    CHECK_FALSE(std::filesystem::exists(launch.dir()));
    plan.files.remove();  // idempotent
  }
  SECTION("so does the end of the plan") {
    { LaunchPlan moved = std::move(plan); }
    CHECK_FALSE(std::filesystem::exists(launch.dir()));
  }
}

TEST_CASE(
    "claude-code: keeping the agent's servers drops --strict-mcp-config, a set variable stays") {
  Launch launch("mcp-tool", "claude", {"-p", "hi"});
  launch.request.keep_mcp_servers = true;
  launch.request.env["MCP_CONNECTION_NONBLOCKING"] = "true";
  LaunchPlan plan = launch.prepare("claude-code");
  CHECK(plan.argv == Strings{"claude",
                             "--mcp-config=" + (launch.dir() / "claude-mcp.json").string(),
                             "--allowedTools=mcp__mission", "--output-format=stream-json",
                             "--verbose", "-p", "hi"});
  CHECK(plan.env_set.empty());
}

TEST_CASE("claude-code with markers: the instructions appended to the system prompt, no file") {
  Launch launch("stdout-marker", "claude", {"-p", "hi"});
  LaunchPlan plan = launch.prepare("claude-code");
  CHECK(plan.argv == Strings{"claude", "--append-system-prompt", kInstructions, "-p", "hi"});
  CHECK(plan.env_set.empty());
  CHECK(plan.env_unset.empty());
  CHECK_FALSE(std::filesystem::exists(launch.dir()));
}

TEST_CASE("codex: one -c override, no file, the token forwarded by name only") {
  Launch launch("mcp-tool", "codex", {"exec", "--skip-git-repo-check", "say \"hi\""});
  LaunchPlan plan = launch.prepare("codex");
  CHECK(
      plan.argv ==
      Strings{
          "codex", "-c",
          R"(mcp_servers.mission={command="/opt/mission/bin/mission",args=["mcp","connect","--agent-execution","ae-test000001"],env={MISSION_SOCKET="/run/mission/daemon.sock"},env_vars=["MISSION_MCP_TOKEN"]})",
          "exec", "--json", "--skip-git-repo-check", "say \"hi\""});
  // Codex forwards MISSION_MCP_TOKEN from its own environment to the bridge.
  CHECK(plan.env_set.empty());
  CHECK(plan.env_unset.empty());
  CHECK(joined(plan.argv).find(kToken) == std::string::npos);
  CHECK_FALSE(std::filesystem::exists(launch.dir()));
}

TEST_CASE("codex with markers: the instructions as developer_instructions, TOML-escaped") {
  Launch launch("stdout-marker", "codex", {"exec", "hi"});
  launch.request.marker_instructions = [] {
    return std::string("Say \"@agent-execution::{...}\"\n\ta\\b");
  };
  LaunchPlan plan = launch.prepare("codex");
  CHECK(plan.argv == Strings{"codex", "-c",
                             R"(developer_instructions="Say \"@agent-execution::{...}\"\n\ta\\b")",
                             "exec", "hi"});
}

TEST_CASE("codex confined: its own sandbox left off, a chosen one refused with what to do") {
  SECTION("no choice: codex runs its commands as they are, mission confines them") {
    Launch launch("stdout-marker", "codex", {"exec", "hi"});
    launch.request.marker_instructions = [] { return std::string("m"); };
    launch.request.confined = true;
    LaunchPlan plan = launch.prepare("codex");
    CHECK(plan.argv == Strings{"codex", "-c", R"(sandbox_mode="danger-full-access")", "-c",
                               R"(developer_instructions="m")", "exec", "hi"});
  }
  SECTION("danger-full-access or the bypass flag given: kept, nothing added") {
    for (const Strings& words :
         {Strings{"-c", R"(sandbox_mode="danger-full-access")", "exec", "hi"},
          Strings{"exec", "--dangerously-bypass-approvals-and-sandbox", "hi"}}) {
      Launch launch("stdout-marker", "codex", words);
      launch.request.marker_instructions = [] { return std::string("m"); };
      launch.request.confined = true;
      LaunchPlan plan = launch.prepare("codex");
      CHECK(plan.argv.size() == 3 + words.size());
    }
  }
  SECTION("its own sandbox asked for: refused, naming the choice and --sandbox off") {
    for (const Strings& words :
         {Strings{"-c", R"(sandbox_mode="workspace-write")", "exec", "x"},
          Strings{"exec", "--full-auto", "x"}, Strings{"--sandbox", "read-only", "exec", "x"},
          Strings{"-s", "workspace-write", "x"}}) {
      Launch launch("stdout-marker", "codex", words);
      launch.request.marker_instructions = [] { return std::string("m"); };
      launch.request.confined = true;
      try {
        launch.prepare("codex");
        FAIL("codex's own sandbox was accepted under confinement");
      } catch (const MissionError& e) {
        CHECK(e.code() == ErrorCode::invalid_argument);
        CHECK(std::string(e.what()).find("cannot start inside mission's confinement") !=
              std::string::npos);
        CHECK(e.hint().find("--sandbox off") != std::string::npos);
      }
    }
  }
  SECTION("not confined: the person's choice passes as given") {
    Launch launch("stdout-marker", "codex", {"--full-auto", "exec", "x"});
    launch.request.marker_instructions = [] { return std::string("m"); };
    LaunchPlan plan = launch.prepare("codex");
    CHECK(plan.argv ==
          Strings{"codex", "-c", R"(developer_instructions="m")", "--full-auto", "exec", "x"});
  }
}

TEST_CASE("claude-code-acp and codex-acp: their ACP adapter, the words after it, no file") {
  Launch claude("mcp-tool", "claude-agent-acp", {"--verbose"});
  LaunchPlan plan = claude.prepare("claude-code-acp");
  CHECK(plan.argv == Strings{"claude-agent-acp", "--verbose"});
  // The bridge reaches it in session/new: no config file, no token in its env.
  CHECK_FALSE(std::filesystem::exists(claude.dir()));
  CHECK(plan.env_unset == Strings{"MISSION_MCP_TOKEN"});
  CHECK(joined(plan.argv).find(kToken) == std::string::npos);
  // It writes what Claude Code writes.
  CHECK(require_adapter("claude-code-acp").state_paths.data() ==
        require_adapter("claude-code").state_paths.data());

  Launch codex("mcp-tool", "codex-acp", {});
  codex.request.confined = true;
  CHECK(codex.prepare("codex-acp").argv ==
        Strings{"codex-acp", "-c", R"(sandbox_mode="danger-full-access")"});
  Launch own("mcp-tool", "codex-acp", {"-c", R"(sandbox_mode="workspace-write")"});
  own.request.confined = true;
  CHECK_THROWS_AS(own.prepare("codex-acp"), MissionError);
  CHECK(require_adapter("codex-acp").state_paths.data() ==
        require_adapter("codex").state_paths.data());

  Launch on_terminal("mcp-tool", "claude-agent-acp", {});
  on_terminal.request.on_terminal = true;
  CHECK_THROWS_WITH(on_terminal.prepare("claude-code-acp"),
                    Catch::Contains("cannot run on a terminal"));
}

TEST_CASE("copilot: a 0600 --additional-mcp-config @file, the server's tools allowed") {
  Launch launch("mcp-tool", "copilot", {"-p", "hi", "--allow-all-tools"});
  LaunchPlan plan = launch.prepare("copilot");
  const auto file = launch.dir() / "copilot-mcp.json";
  CHECK(plan.argv == Strings{"copilot", "--additional-mcp-config", "@" + file.string(),
                             "--allow-tool=mission", "-p", "hi", "--allow-all-tools"});
  CHECK(plan.env_set.empty());
  CHECK(plan.env_unset == Strings{"MISSION_MCP_TOKEN"});
  CHECK(read_file(file) == R"({
  "mcpServers": {
    "mission": {
      "type": "local",
      "command": "/opt/mission/bin/mission",
      "args": [
        "mcp",
        "connect",
        "--agent-execution",
        "ae-test000001"
      ],
      "env": {
        "MISSION_MCP_TOKEN": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        "MISSION_SOCKET": "/run/mission/daemon.sock"
      },
      "tools": [
        "*"
      ]
    }
  }
}
)");
  CHECK(mode_of(file) == 0600);
  CHECK(joined(plan.argv).find(kToken) == std::string::npos);
}

TEST_CASE("opencode: a 0600 config file named by OPENCODE_CONFIG, the user's words untouched") {
  Launch launch("mcp-tool", "opencode", {"run", "hi"});
  LaunchPlan plan = launch.prepare("opencode");
  const auto file = launch.dir() / "opencode.json";
  CHECK(plan.argv == Strings{"opencode", "run", "--format", "json", "hi"});
  CHECK(plan.env_set == Env{{"OPENCODE_CONFIG", file.string()}});
  CHECK(plan.env_unset == Strings{"MISSION_MCP_TOKEN"});
  CHECK(read_file(file) == R"({
  "$schema": "https://opencode.ai/config.json",
  "mcp": {
    "mission": {
      "type": "local",
      "command": [
        "/opt/mission/bin/mission",
        "mcp",
        "connect",
        "--agent-execution",
        "ae-test000001"
      ],
      "environment": {
        "MISSION_MCP_TOKEN": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        "MISSION_SOCKET": "/run/mission/daemon.sock"
      },
      "enabled": true
    }
  }
}
)");
  CHECK(mode_of(file) == 0600);
}

TEST_CASE("headless runs off a terminal stream JSON events, which the execution's command names") {
  SECTION("claude-code -p streams; on a terminal, with markers or a chosen format it does not") {
    Launch launch("mcp-tool", "claude", {"--print", "fix it"});
    LaunchPlan plan = launch.prepare("claude-code");
    CHECK(output_format_of("claude-code", plan.argv) == "claude-stream-json");
    CHECK(mission::find_stream_decoder(output_format_of("claude-code", plan.argv)) != nullptr);
    Launch on_terminal("mcp-tool", "claude", {"--print", "fix it"});
    on_terminal.request.on_terminal = true;
    CHECK(output_format_of("claude-code", on_terminal.prepare("claude-code").argv).empty());
    Launch chosen("mcp-tool", "claude", {"-p", "--output-format", "json", "fix it"});
    LaunchPlan kept = chosen.prepare("claude-code");
    CHECK(std::count(kept.argv.begin(), kept.argv.end(), "--verbose") == 0);
    CHECK(output_format_of("claude-code", kept.argv).empty());
    Launch interactive("mcp-tool", "claude", {"fix it"});
    CHECK(output_format_of("claude-code", interactive.prepare("claude-code").argv).empty());
    Launch markers("stdout-marker", "claude", {"-p", "fix it"});
    CHECK(output_format_of("claude-code", markers.prepare("claude-code").argv).empty());
  }
  SECTION("codex exec streams; the interactive codex and a terminal do not") {
    Launch launch("mcp-tool", "codex", {"exec", "fix it"});
    CHECK(output_format_of("codex", launch.prepare("codex").argv) == "codex-json");
    Launch given("mcp-tool", "codex", {"exec", "--json", "fix it"});
    LaunchPlan plan = given.prepare("codex");
    CHECK(std::count(plan.argv.begin(), plan.argv.end(), "--json") == 1);
    Launch interactive("mcp-tool", "codex", {"fix it"});
    CHECK(output_format_of("codex", interactive.prepare("codex").argv).empty());
    Launch on_terminal("mcp-tool", "codex", {"exec", "fix it"});
    on_terminal.request.on_terminal = true;
    CHECK(output_format_of("codex", on_terminal.prepare("codex").argv).empty());
  }
  SECTION("opencode run streams unless a format is chosen") {
    Launch launch("mcp-tool", "opencode", {"run", "fix it"});
    CHECK(output_format_of("opencode", launch.prepare("opencode").argv) == "opencode-json");
    CHECK(mission::find_stream_decoder("opencode-json") != nullptr);
    CHECK(mission::find_stream_decoder("codex-json") != nullptr);
    Launch chosen("mcp-tool", "opencode", {"run", "--format=default", "fix it"});
    LaunchPlan plan = chosen.prepare("opencode");
    CHECK(plan.argv == Strings{"opencode", "run", "--format=default", "fix it"});
    CHECK(output_format_of("opencode", plan.argv).empty());
  }
  CHECK(output_format_of("generic", {"claude", "-p", "--output-format", "stream-json"}).empty());
  CHECK(output_format_of("nobody", {}).empty());
}

TEST_CASE("pi: print mode, the marker instructions in a 0600 file for --append-system-prompt") {
  Launch launch("stdout-marker", "pi", {"--no-session", "say hi"});
  LaunchPlan plan = launch.prepare("pi");
  const auto file = launch.dir() / "mission-markers.md";
  CHECK(plan.argv == Strings{"pi", "--print", "--append-system-prompt", file.string(),
                             "--no-session", "say hi"});
  CHECK(plan.env_set.empty());
  CHECK(plan.env_unset.empty());
  CHECK(read_file(file) == kInstructions);
  CHECK(mode_of(file) == 0600);
  plan.files.remove();
  CHECK_FALSE(std::filesystem::exists(launch.dir()));
}

TEST_CASE("generic: the command as given, with either delivery, and nothing written") {
  for (const char* delivery : {"stdout-marker", "mcp-tool"}) {
    INFO(delivery);
    Launch launch(delivery, "", {"my-agent", "--task", "12"});
    launch.request.bridge.reset();  // through the environment only
    LaunchPlan plan = launch.prepare("generic");
    CHECK(plan.argv == Strings{"my-agent", "--task", "12"});
    CHECK(plan.env_set.empty());
    CHECK(plan.env_unset.empty());
    CHECK_FALSE(std::filesystem::exists(launch.dir()));
  }
  Launch empty("stdout-marker", "", {});
  CHECK_THROWS_AS(empty.prepare("generic"), MissionError);
}

TEST_CASE("a provisioning failure fails the launch: no plan, no fallback, nothing left") {
  SECTION("the directory for the config cannot be made") {
    for (const char* name : {"claude-code", "copilot", "opencode"}) {
      INFO(name);
      Launch launch("mcp-tool", name, {"hi"});
      // Where the launch dir's parent should be, a regular file.
      std::ofstream(launch.dir().parent_path()) << "in the way";
      try {
        launch.prepare(name);
        FAIL("the launch was prepared");
      } catch (const MissionError& e) {
        CHECK(e.code() == ErrorCode::internal);
        CHECK(std::string(e.what()).find(launch.dir().parent_path().string()) != std::string::npos);
        CHECK(e.hint().find("does not fall back") != std::string::npos);
      }
      CHECK(std::filesystem::is_regular_file(launch.dir().parent_path()));
    }
  }
  SECTION("opencode refuses to replace the user's OPENCODE_CONFIG") {
    Launch launch("mcp-tool", "opencode", {"run", "hi"});
    launch.request.env["OPENCODE_CONFIG"] = "/home/me/my-opencode.json";
    try {
      launch.prepare("opencode");
      FAIL("the launch was prepared");
    } catch (const MissionError& e) {
      CHECK(std::string(e.what()).find("OPENCODE_CONFIG is already set") != std::string::npos);
    }
    CHECK_FALSE(std::filesystem::exists(launch.dir()));
  }
  SECTION("an mcp-tool launch without MCP access registered") {
    Launch launch("mcp-tool", "claude", {"-p", "hi"});
    launch.request.bridge.reset();
    CHECK_THROWS_AS(launch.prepare("claude-code"), MissionError);
    CHECK_FALSE(std::filesystem::exists(launch.dir()));
  }
}

TEST_CASE("pasted configs name the bridge and a placeholder, never a token") {
  const AgentAdapter& claude = require_adapter("claude-code");
  ManualConfig config = claude.manual_config(pasted_bridge(true));
  CHECK(config.format == "json");
  CHECK(config.text == R"({
  "mcpServers": {
    "mission": {
      "type": "stdio",
      "command": "/opt/mission/bin/mission",
      "args": [
        "mcp",
        "connect",
        "--agent-execution",
        "ae-test000001"
      ],
      "env": {
        "MISSION_MCP_TOKEN": "${MISSION_MCP_TOKEN}",
        "MISSION_SOCKET": "/run/mission/daemon.sock"
      }
    }
  }
}
)");

  CHECK(require_adapter("codex").manual_config(pasted_bridge(true)).text ==
        R"([mcp_servers.mission]
command = "/opt/mission/bin/mission"
args = ["mcp", "connect", "--agent-execution", "ae-test000001"]
env = { MISSION_SOCKET = "/run/mission/daemon.sock" }
env_vars = ["MISSION_MCP_TOKEN"]
)");
  // Without an execution the bridge needs no token at all.
  CHECK(require_adapter("codex").manual_config(pasted_bridge(false)).text ==
        R"([mcp_servers.mission]
command = "/opt/mission/bin/mission"
args = ["mcp", "connect"]
env = { MISSION_SOCKET = "/run/mission/daemon.sock" }
)");

  std::string opencode = require_adapter("opencode").manual_config(pasted_bridge(true)).text;
  CHECK(opencode.find(R"("MISSION_MCP_TOKEN": "{env:MISSION_MCP_TOKEN}")") != std::string::npos);
  std::string copilot = require_adapter("copilot").manual_config(pasted_bridge(false)).text;
  CHECK(copilot.find("MISSION_MCP_TOKEN") == std::string::npos);
  CHECK(copilot.find(R"("args": [
        "mcp",
        "connect"
      ],)") != std::string::npos);
  CHECK(require_adapter("generic").manual_config(pasted_bridge(true)).text == R"({
  "command": "/opt/mission/bin/mission",
  "args": [
    "mcp",
    "connect",
    "--agent-execution",
    "ae-test000001"
  ],
  "env": {
    "MISSION_MCP_TOKEN": "${MISSION_MCP_TOKEN}",
    "MISSION_SOCKET": "/run/mission/daemon.sock"
  }
})"
                                                                              "\n");
}

TEST_CASE("remote configs name the HTTP endpoint and take the token from the environment") {
  const std::string url = "http://10.0.0.2:8080/mcp/ae-test000001";
  CHECK(require_adapter("claude-code").remote_config(url).text == R"({
  "mcpServers": {
    "mission": {
      "type": "http",
      "url": "http://10.0.0.2:8080/mcp/ae-test000001",
      "headers": {
        "Authorization": "Bearer ${MISSION_MCP_TOKEN}"
      }
    }
  }
}
)");
  CHECK(require_adapter("codex").remote_config(url).text == R"([mcp_servers.mission]
url = "http://10.0.0.2:8080/mcp/ae-test000001"
bearer_token_env_var = "MISSION_MCP_TOKEN"
)");
  std::string opencode = require_adapter("opencode").remote_config(url).text;
  CHECK(opencode.find(R"("type": "remote")") != std::string::npos);
  CHECK(opencode.find(R"("Authorization": "Bearer {env:MISSION_MCP_TOKEN}")") != std::string::npos);
  std::string copilot = require_adapter("copilot").remote_config(url).text;
  CHECK(copilot.find(R"("type": "http")") != std::string::npos);
  CHECK(copilot.find(R"("Authorization": "Bearer ${MISSION_MCP_TOKEN}")") != std::string::npos);
  CHECK(require_adapter("generic").remote_config(url).text.find(url) != std::string::npos);
  CHECK(require_adapter("pi").remote_config == nullptr);
}
