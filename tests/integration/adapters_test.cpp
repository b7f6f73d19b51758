// Agent adapters through the real daemon: `mission run --adapter X --bin
// <fake agent>` where the fake agent is a shell script that reports what it
// was given (argv, environment, its config file and that file's modes) and,
// for Claude Code, starts the bridge exactly as its config says. Also
// `mission mcp config` and `mission adapters list`.

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "integration/harness.hpp"

using namespace mission::test;
using nlohmann::json;
using Strings = std::vector<std::string>;

namespace {

// Reports on stdout: each argument, which variables are set (never a
// token's value: the output goes to the log), and the config it was given.
// A copy of the config goes to $FAKE_DUMP, whose directory the test owns.
// With FAKE_BRIDGE=1 it also runs the bridge as the config names it and
// lists the tools, as an MCP client would.
constexpr const char* kFakeAgent = R"SH(#!/bin/sh
touch "$FAKE_DUMP/started"
for a in "$@"; do printf 'arg:%s\n' "$a"; done
for v in MISSION_MCP_TOKEN OPENCODE_CONFIG MCP_CONNECTION_NONBLOCKING; do
  eval "value=\${$v-}"; eval "set_=\${$v+set}"
  if [ "$set_" = set ] && [ "$v" = MISSION_MCP_TOKEN ]; then value=set; fi
  printf 'env:%s=%s\n' "$v" "${set_:+$value}"
done
config=
for a in "$@"; do
  case "$a" in
    --mcp-config=*) config=${a#--mcp-config=} ;;
    @*) config=${a#@} ;;
  esac
done
if [ -n "${OPENCODE_CONFIG-}" ]; then config=$OPENCODE_CONFIG; fi
if [ -n "$config" ]; then
  printf 'config:%s\n' "$config"
  printf 'modes:%s %s\n' "$(stat -c %a "$config")" "$(stat -c %a "$(dirname "$config")")"
  cp "$config" "$FAKE_DUMP/config"
fi
if [ "${FAKE_BRIDGE-}" = 1 ]; then
  field() { sed -n "s/^ *\"$1\": \"\\(.*\\)\",\\{0,1\\}\$/\\1/p" "$config" | head -n 1; }
  printf '%s\n' \
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fake-agent","version":"1"}}}' \
    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' |
    MISSION_MCP_TOKEN="$(field MISSION_MCP_TOKEN)" MISSION_SOCKET="$(field MISSION_SOCKET)" \
      "$(field command)" mcp connect --agent-execution "$MISSION_AGENT_EXECUTION_ID" \
      >"$FAKE_DUMP/bridge.out"
  printf 'bridge:%s\n' "$?"
fi
if [ -n "${FAKE_MARKER-}" ]; then
  printf '@agent-execution::{"version":1,"agentExecutionId":"%s","eventId":"m1","signal":{"type":"progress","summary":"from pi"}}\n' "$MISSION_AGENT_EXECUTION_ID"
fi
)SH";

fs::path write_script(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

struct Fixture {
  Instance instance;
  DaemonProcess daemon{instance};
  TempDir dump;
  fs::path agent = write_script(dump.path() / "fake-agent", kFakeAgent);

  // `mission run --adapter ... --env FAKE_DUMP=...`, then the execution.
  // The agent works in the dump's directory: the only one a confined agent
  // writes beside its private TMPDIR.
  ProcessResult run(const Strings& args) {
    Strings argv{"run", "--cwd", dump.path().string(), "--env",
                 "FAKE_DUMP=" + dump.path().string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_mission(instance, argv);
  }
  json only_execution() {
    json listed = json::parse(run_mission(instance, {"--json", "exec", "list"}).out)["executions"];
    REQUIRE(listed.size() == 1);
    return json::parse(run_mission(instance, {"--json", "exec", "show", listed[0]["id"]}).out);
  }
  std::string logs(const std::string& id) {
    ProcessResult logs = run_mission(instance, {"exec", "logs", id});
    return logs.out + logs.err;
  }
  bool started() const { return fs::exists(dump.path() / "started"); }
};

// The lines of `output` that start with `prefix`, without it.
Strings lines_with(const std::string& output, const std::string& prefix) {
  Strings found;
  std::size_t start = 0;
  while (start < output.size()) {
    std::size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    std::string line = output.substr(start, end - start);
    if (line.rfind(prefix, 0) == 0) found.push_back(line.substr(prefix.size()));
    start = end + 1;
  }
  return found;
}

std::string mission_next_to_missiond() {
  return fs::canonical(fs::path(MISSIOND_PATH).parent_path() / "mission").string();
}

bool is_token(const json& value) {
  if (!value.is_string() || value.get<std::string>().size() != 64) return false;
  return value.get<std::string>().find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace

TEST_CASE("claude-code: a 0600 MCP config whose bridge reaches the daemon, removed at exit") {
  Fixture f;
  ProcessResult result = f.run({"--env", "FAKE_BRIDGE=1", "--adapter", "claude-code", "--bin",
                                f.agent.string(), "--", "-p", "say hi"});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  json execution = f.only_execution();
  const std::string id = execution["id"];
  const fs::path config = f.instance.runtime_dir() / "launch" / id / "claude-mcp.json";

  CHECK(lines_with(result.out, "arg:") ==
        Strings{"--mcp-config=" + config.string(), "--strict-mcp-config",
                "--allowedTools=mcp__mission", "--output-format=stream-json", "--verbose", "-p",
                "say hi"});
  // The token is in the file only, not in the agent's environment.
  CHECK(lines_with(result.out, "env:") ==
        Strings{"MISSION_MCP_TOKEN=", "OPENCODE_CONFIG=", "MCP_CONNECTION_NONBLOCKING=false"});
  CHECK(lines_with(result.out, "modes:") == Strings{"600 700"});

  json written = json::parse(read_file(f.dump.path() / "config"));
  const json& server = written["mcpServers"]["mission"];
  CHECK(server["type"] == "stdio");
  CHECK(server["command"] == mission_next_to_missiond());
  CHECK(server["args"] == json({"mcp", "connect", "--agent-execution", id}));
  CHECK(server["env"]["MISSION_SOCKET"] == fs::absolute(f.instance.socket()).string());
  CHECK(is_token(server["env"]["MISSION_MCP_TOKEN"]));
  const std::string token = server["env"]["MISSION_MCP_TOKEN"];

  // The bridge started as the config says attached and listed the tools.
  CHECK(lines_with(result.out, "bridge:") == Strings{"0"});
  CHECK(read_file(f.dump.path() / "bridge.out").find("\"progress\"") != std::string::npos);
  REQUIRE(execution["mcpSessions"].size() == 1);
  CHECK(execution["mcpSessions"][0]["client"]["name"] == "fake-agent");
  CHECK(execution["mcpSessions"][0]["toolLists"] == 1);

  CHECK(execution["adapter"] == "claude-code");
  CHECK(execution["delivery"] == "mcp-tool");
  CHECK(execution["state"] == "completed");
  CHECK(execution["command"] == json({f.agent.string(), "--mcp-config=" + config.string(),
                                      "--strict-mcp-config", "--allowedTools=mcp__mission",
                                      "--output-format=stream-json", "--verbose", "-p", "say hi"}));
  // Gone with the process, and the secret never reached the record or log.
  CHECK_FALSE(fs::exists(config.parent_path()));
  CHECK(execution.dump().find(token) == std::string::npos);
  CHECK(f.logs(id).find(token) == std::string::npos);
}

TEST_CASE("claude-code --delivery stdout-marker: marker instructions, no MCP config, no token") {
  Fixture f;
  ProcessResult result = f.run({"--adapter", "claude-code", "--delivery", "stdout-marker", "--bin",
                                f.agent.string(), "--", "-p", "hi"});
  REQUIRE(result.exit_code == 0);
  json execution = f.only_execution();
  CHECK(execution["delivery"] == "stdout-marker");
  Strings args = lines_with(result.out, "arg:");
  REQUIRE(args.size() >= 4);
  CHECK(args[0] == "--append-system-prompt");
  CHECK(args[1] == "Report to mission by printing marker lines on stdout, one marker per line:");
  CHECK(result.out.find("agentExecutionId is always " + execution["id"].get<std::string>()) !=
        std::string::npos);
  CHECK(lines_with(result.out, "env:") ==
        Strings{"MISSION_MCP_TOKEN=", "OPENCODE_CONFIG=", "MCP_CONNECTION_NONBLOCKING="});
  CHECK(lines_with(result.out, "config:").empty());
  CHECK_FALSE(fs::exists(f.instance.runtime_dir() / "launch" / execution["id"].get<std::string>()));
}

TEST_CASE("codex: a -c override names the bridge, the token reaches it by environment only") {
  Fixture f;
  // MISSION_CODEX_BIN instead of --bin, and a detached launch.
  ProcessResult result = f.run({"--detach", "--env", "MISSION_CODEX_BIN=" + f.agent.string(),
                                "--adapter", "codex", "--", "exec", "say hi"});
  REQUIRE(result.exit_code == 0);
  const std::string id = result.out.substr(0, result.out.find('\n'));
  json execution;
  CHECK(eventually([&] {
    execution = json::parse(run_mission(f.instance, {"--json", "exec", "show", id}).out);
    return execution.contains("endedAt");
  }));
  CHECK(execution["state"] == "completed");
  CHECK(execution["delivery"] == "mcp-tool");
  const std::string override_value =
      "mcp_servers.mission={command=\"" + mission_next_to_missiond() +
      "\",args=[\"mcp\",\"connect\",\"--agent-execution\",\"" + id + "\"],env={MISSION_SOCKET=\"" +
      fs::absolute(f.instance.socket()).string() + "\"},env_vars=[\"MISSION_MCP_TOKEN\"]}";
  // Confined (the default), codex's own sandbox is left off: it could not
  // start inside mission's.
  const std::string own_sandbox_off = "sandbox_mode=\"danger-full-access\"";
  CHECK(execution["command"] == json({f.agent.string(), "-c", own_sandbox_off, "-c", override_value,
                                      "exec", "--json", "say hi"}));
  std::string output = f.logs(id);
  CHECK(lines_with(output, "arg:") ==
        Strings{"-c", own_sandbox_off, "-c", override_value, "exec", "--json", "say hi"});
  // Codex forwards it to the bridge through env_vars.
  CHECK(lines_with(output, "env:")[0] == "MISSION_MCP_TOKEN=set");
  CHECK(lines_with(output, "config:").empty());
}

TEST_CASE("opencode: OPENCODE_CONFIG names a 0600 file, and one set already fails the launch") {
  Fixture f;
  ProcessResult result =
      f.run({"--adapter", "opencode", "--bin", f.agent.string(), "--", "run", "say hi"});
  REQUIRE(result.exit_code == 0);
  json execution = f.only_execution();
  const std::string id = execution["id"];
  const fs::path config = f.instance.runtime_dir() / "launch" / id / "opencode.json";
  CHECK(lines_with(result.out, "arg:") == Strings{"run", "--format", "json", "say hi"});
  CHECK(lines_with(result.out, "env:") ==
        Strings{"MISSION_MCP_TOKEN=", "OPENCODE_CONFIG=" + config.string(),
                "MCP_CONNECTION_NONBLOCKING="});
  CHECK(lines_with(result.out, "modes:") == Strings{"600 700"});
  json written = json::parse(read_file(f.dump.path() / "config"));
  const json& server = written["mcp"]["mission"];
  CHECK(server["type"] == "local");
  CHECK(server["command"] ==
        json({mission_next_to_missiond(), "mcp", "connect", "--agent-execution", id}));
  CHECK(is_token(server["environment"]["MISSION_MCP_TOKEN"]));
  CHECK_FALSE(fs::exists(config));

  // No fallback to markers, no silent replacement of the user's file.
  fs::remove(f.dump.path() / "started");
  ProcessResult refused = f.run({"--env", "OPENCODE_CONFIG=/home/me/opencode.json", "--adapter",
                                 "opencode", "--bin", f.agent.string(), "--", "run", "hi"});
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("OPENCODE_CONFIG is already set") != std::string::npos);
  CHECK_FALSE(f.started());
  json listed = json::parse(run_mission(f.instance, {"--json", "exec", "list"}).out)["executions"];
  REQUIRE(listed.size() == 2);
  CHECK(listed[0]["state"] == "failed");
  CHECK(listed[0]["delivery"] == "mcp-tool");
  CHECK(f.logs(listed[0]["id"]).find("[mission: opencode: cannot provision MCP") !=
        std::string::npos);
}

TEST_CASE("copilot: --additional-mcp-config @file with the bridge and its tools allowed") {
  Fixture f;
  ProcessResult result =
      f.run({"--adapter", "copilot", "--bin", f.agent.string(), "--", "-p", "hi"});
  REQUIRE(result.exit_code == 0);
  json execution = f.only_execution();
  const fs::path config =
      f.instance.runtime_dir() / "launch" / execution["id"].get<std::string>() / "copilot-mcp.json";
  CHECK(lines_with(result.out, "arg:") == Strings{"--additional-mcp-config", "@" + config.string(),
                                                  "--allow-tool=mission", "-p", "hi"});
  CHECK(lines_with(result.out, "modes:") == Strings{"600 700"});
  json server = json::parse(read_file(f.dump.path() / "config"))["mcpServers"]["mission"];
  CHECK(server["tools"] == json({"*"}));
  CHECK(server["env"]["MISSION_SOCKET"] == fs::absolute(f.instance.socket()).string());
  CHECK(is_token(server["env"]["MISSION_MCP_TOKEN"]));
  CHECK_FALSE(fs::exists(config));
}

TEST_CASE("pi: print mode, the marker instructions in its system prompt, its markers recorded") {
  Fixture f;
  ProcessResult result = f.run(
      {"--env", "FAKE_MARKER=1", "--adapter", "pi", "--bin", f.agent.string(), "--", "say hi"});
  REQUIRE(result.exit_code == 0);
  json execution = f.only_execution();
  const std::string id = execution["id"];
  const fs::path instructions = f.instance.runtime_dir() / "launch" / id / "mission-markers.md";
  CHECK(lines_with(result.out, "arg:") ==
        Strings{"--print", "--append-system-prompt", instructions.string(), "say hi"});
  CHECK(execution["adapter"] == "pi");
  CHECK(execution["delivery"] == "stdout-marker");
  CHECK(execution["observations"] == 1);
  json observations = json::parse(run_mission(f.instance, {"--json", "exec", "signals", id}).out);
  CHECK(observations["observations"][0]["payload"]["summary"] == "from pi");
  CHECK_FALSE(fs::exists(instructions.parent_path()));
}

TEST_CASE("a config that cannot be written fails the launch, says why, and starts nothing") {
  Fixture f;
  // The daemon clears leftovers at start; a file now sits where the launch
  // configs go.
  std::ofstream(f.instance.runtime_dir() / "launch") << "in the way";
  ProcessResult result =
      f.run({"--adapter", "claude-code", "--bin", f.agent.string(), "--", "-p", "hi"});
  CHECK(result.exit_code == 1);
  CHECK(result.err.find((f.instance.runtime_dir() / "launch").string()) != std::string::npos);
  CHECK(result.err.find("does not fall back") != std::string::npos);
  CHECK_FALSE(f.started());
  json execution = f.only_execution();
  CHECK(execution["state"] == "failed");
  CHECK(execution["delivery"] == "mcp-tool");
  CHECK(f.logs(execution["id"]).find("[mission: claude-code: cannot use") != std::string::npos);
}

TEST_CASE("unknown adapters, unsupported deliveries and misplaced --bin create nothing") {
  Fixture f;
  struct Case {
    Strings args;
    std::string says;
  };
  for (const Case& c : std::vector<Case>{
           {{"--adapter", "pi", "--delivery", "mcp-tool", "--", "hi"},
            "pi does not support mcp-tool delivery; it supports stdout-marker"},
           {{"--adapter", "copilot", "--delivery", "stdout-marker", "--", "hi"},
            "copilot does not support stdout-marker"},
           {{"--adapter", "aider", "--", "hi"},
            "unknown adapter 'aider'\n  hint: use one of claude-code, codex, copilot, opencode, "
            "pi, generic, acp"},
           {{"--bin", "/bin/true", "--", "true"}, "the generic adapter takes no --bin"},
           // A usage error (exit 2), refused before the daemon is asked.
           {{"--adapter", "generic"}, "no command to run"},
       }) {
    ProcessResult result = f.run(c.args);
    INFO(result.err);
    CHECK(result.exit_code == (c.says == "no command to run" ? 2 : 1));
    CHECK(result.err.find(c.says) != std::string::npos);
  }
  CHECK(json::parse(run_mission(f.instance, {"--json", "exec", "list"}).out)["executions"].empty());
  CHECK_FALSE(f.started());
}

TEST_CASE("an adapter binary that is not there fails the launch and says how to name it") {
  Fixture f;
  ProcessResult result =
      f.run({"--adapter", "codex", "--bin", "/nonexistent/codex", "--", "exec", "hi"});
  INFO(result.err);
  CHECK(result.exit_code == 1);
  CHECK(result.err.find("cannot start '/nonexistent/codex': no such file or directory") !=
        std::string::npos);
  CHECK(result.err.find("--bin PATH or MISSION_CODEX_BIN") != std::string::npos);
  json executions =
      json::parse(run_mission(f.instance, {"--json", "exec", "list"}).out)["executions"];
  REQUIRE(executions.size() == 1);
  CHECK(executions[0]["state"] == "failed");
}

TEST_CASE("mcp config prints what to paste: the bridge and placeholders, never a token") {
  Instance instance;
  DaemonProcess daemon(instance);
  ProcessResult plain = run_mission(instance, {"mcp", "config", "--adapter", "claude-code"});
  REQUIRE(plain.exit_code == 0);
  json server = json::parse(plain.out)["mcpServers"]["mission"];
  CHECK(server["command"] == mission_next_to_missiond());
  CHECK(server["args"] == json({"mcp", "connect"}));
  CHECK(server["env"] == json({{"MISSION_SOCKET", fs::absolute(instance.socket()).string()}}));

  json created = json::parse(
      run_mission(instance, {"--json", "exec", "create", "--delivery", "mcp-tool", "--print-token"})
          .out);
  const std::string id = created["execution"]["id"];
  const std::string token = created["token"];
  ProcessResult codex =
      run_mission(instance, {"mcp", "config", "--adapter", "codex", "--agent-execution", id});
  REQUIRE(codex.exit_code == 0);
  CHECK(codex.out == "[mcp_servers.mission]\ncommand = \"" + mission_next_to_missiond() +
                         "\"\nargs = [\"mcp\", \"connect\", \"--agent-execution\", \"" + id +
                         "\"]\nenv = { MISSION_SOCKET = \"" +
                         fs::absolute(instance.socket()).string() +
                         "\" }\nenv_vars = [\"MISSION_MCP_TOKEN\"]\n");
  for (const char* adapter : {"claude-code", "copilot", "opencode", "generic"}) {
    ProcessResult pasted = run_mission(
        instance, {"--json", "mcp", "config", "--adapter", adapter, "--agent-execution", id});
    INFO(adapter << ": " << pasted.out << pasted.err);
    REQUIRE(pasted.exit_code == 0);
    json document = json::parse(pasted.out);
    CHECK(document["format"] == "json");
    CHECK(document["text"].get<std::string>().find(id) != std::string::npos);
    CHECK(document["text"].get<std::string>().find("MISSION_MCP_TOKEN") != std::string::npos);
    CHECK(document["text"].get<std::string>().find(token) == std::string::npos);
  }

  ProcessResult pi = run_mission(instance, {"mcp", "config", "--adapter", "pi"});
  CHECK(pi.exit_code == 1);
  CHECK(pi.err.find("pi has no MCP client") != std::string::npos);
  std::string marker_id =
      json::parse(run_mission(instance, {"--json", "exec", "create", "--delivery", "stdout-marker"})
                      .out)["execution"]["id"];
  ProcessResult markers = run_mission(
      instance, {"mcp", "config", "--adapter", "codex", "--agent-execution", marker_id});
  CHECK(markers.exit_code == 1);
  CHECK(markers.err.find("has no MCP access") != std::string::npos);
}

TEST_CASE("adapters list finds binaries in PATH or MISSION_<A>_BIN and bounds --version") {
  Instance instance;
  DaemonProcess daemon(instance);
  TempDir bin;
  // A warning on stderr before the version (Codex warns about PATH so).
  write_script(
      bin.path() / "claude",
      "#!/bin/sh\necho 'WARNING: could not update PATH' >&2\necho '9.9.9 (Fake Claude)'\n");
  // Pi prints its version on stderr.
  write_script(bin.path() / "my-pi", "#!/bin/sh\necho 0.1.2 >&2\n");
  write_script(bin.path() / "copilot", "#!/bin/sh\nexit 3\n");
  // Hangs, and leaves a child that would hold the output open.
  write_script(bin.path() / "opencode", "#!/bin/sh\n/bin/sleep 60 &\nexec /bin/sleep 60\n");
  auto env = instance.env();
  env["PATH"] = bin.path().string();  // nothing else: codex is not found
  env["MISSION_PI_BIN"] = (bin.path() / "my-pi").string();

  const auto started = std::chrono::steady_clock::now();
  ProcessResult result = run_process({MISSION_PATH, "--json", "adapters", "list"}, env, 20s);
  const auto took = std::chrono::steady_clock::now() - started;
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(took < 9s);
  const json listed = json::parse(result.out);
  std::map<std::string, json> by_name;
  for (const auto& adapter : listed.at("adapters")) by_name[adapter.at("name")] = adapter;
  REQUIRE(by_name.size() == 9);
  // Claude Code and Codex over their ACP adapters: binaries of their own.
  CHECK(by_name["claude-code-acp"]["binary"] == "claude-agent-acp");
  CHECK(by_name["claude-code-acp"]["binVariable"] == "MISSION_CLAUDE_CODE_ACP_BIN");
  CHECK(by_name["codex-acp"]["deliveries"] == json({"mcp-tool"}));
  CHECK(by_name["claude-code"]["found"] == true);
  CHECK(by_name["claude-code"]["path"] == (bin.path() / "claude").string());
  CHECK(by_name["claude-code"]["version"] == "9.9.9 (Fake Claude)");
  CHECK(by_name["claude-code"]["deliveries"] == json({"mcp-tool", "stdout-marker"}));
  CHECK(by_name["claude-code"]["binVariable"] == "MISSION_CLAUDE_CODE_BIN");
  CHECK(by_name["codex"]["found"] == false);
  CHECK(by_name["pi"]["version"] == "0.1.2");
  CHECK(by_name["pi"]["deliveries"] == json({"stdout-marker"}));
  CHECK(by_name["copilot"]["version"].is_null());
  CHECK(by_name["copilot"]["versionProblem"] == "--version exited 3");
  CHECK(by_name["opencode"]["found"] == true);
  CHECK(by_name["opencode"]["version"].is_null());
  CHECK(by_name["opencode"]["versionProblem"].get<std::string>().find("no answer within") == 0);
  CHECK_FALSE(by_name["generic"].contains("binary"));
  CHECK(by_name["generic"]["preferred"]["attached"] == "stdout-marker");
  // Like generic, acp drives whatever command it is given.
  CHECK_FALSE(by_name["acp"].contains("binary"));

  ProcessResult table = run_process({MISSION_PATH, "adapters", "list"}, env, 20s);
  REQUIRE(table.exit_code == 0);
  // One row per adapter: its name first, then its version.
  auto row = [&table](const std::string& name) {
    std::istringstream lines(table.out);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind(name + " ", 0) == 0) return line;
    }
    return std::string();
  };
  INFO(table.out);
  CHECK(row("claude-code").find("9.9.9 (Fake Claude)") != std::string::npos);
  CHECK(row("codex").find("not found") != std::string::npos);
  CHECK(row("claude-code-acp").find("not found") != std::string::npos);
}

TEST_CASE("mcp config --add-json gives the claude mcp add-json command with the same entry") {
  Instance instance;
  DaemonProcess daemon(instance);
  ProcessResult plain = run_mission(instance, {"mcp", "config", "--adapter", "claude-code"});
  ProcessResult add =
      run_mission(instance, {"mcp", "config", "--adapter", "claude-code", "--add-json"});
  REQUIRE(add.exit_code == 0);
  const std::string prefix = "claude mcp add-json mission '";
  REQUIRE(add.out.rfind(prefix, 0) == 0);
  const std::string entry = add.out.substr(prefix.size(), add.out.rfind('\'') - prefix.size());
  CHECK(json::parse(entry) == json::parse(plain.out)["mcpServers"]["mission"]);
  CHECK(run_mission(instance, {"mcp", "config", "--adapter", "codex", "--add-json"}).exit_code ==
        1);
}
