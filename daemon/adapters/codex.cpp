// Codex (`codex`). MCP: one `-c mcp_servers.mission={...}` TOML override,
// no file. Codex passes its MCP servers almost no environment, so the entry
// names MISSION_SOCKET itself and forwards MISSION_MCP_TOKEN from codex's
// own environment with `env_vars`: the token never appears in an argv.
// Markers: the instructions as `developer_instructions`.

#include <algorithm>
#include <cstdio>

#include "daemon/adapters/acp_launch.hpp"
#include "daemon/adapters/adapter.hpp"
#include "shared/error_code.hpp"
#include "shared/toml_string.hpp"
#include "shared/vocabulary.hpp"

namespace mission::daemon::adapters {
namespace {

constexpr Delivery kDeliveries[] = {Delivery::mcp_tool, Delivery::stdout_marker};

// Codex's sandbox mode that runs its commands as they are.
constexpr std::string_view kNoOwnSandbox = "danger-full-access";

// Compact for the -c override, spaced for a config file.
struct TomlStyle {
  std::string_view separator;
  std::string_view assign;
  std::string_view pad;
};
constexpr TomlStyle kCompact{",", "=", ""};
constexpr TomlStyle kSpaced{", ", " = ", " "};

using TomlFields = std::vector<std::pair<std::string, std::string>>;

std::string toml_array(const std::vector<std::string>& items, const TomlStyle& style) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "" : std::string(style.separator)) + toml_basic_string(items[i]);
  }
  return out + "]";
}

std::string toml_inline_table(const TomlFields& fields, const TomlStyle& style) {
  std::string out = "{" + std::string(style.pad);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    out += (i == 0 ? "" : std::string(style.separator)) + fields[i].first +
           std::string(style.assign) + fields[i].second;
  }
  return out + std::string(style.pad) + "}";
}

// The server's fields, in order. The token is never one of them, only the
// name of the variable that carries it.
TomlFields server_fields(const BridgeEntry& bridge, const TomlStyle& style) {
  TomlFields fields{
      {"command", toml_basic_string(bridge.command)},
      {"args", toml_array(bridge.args, style)},
      {"env", toml_inline_table({{"MISSION_SOCKET", toml_basic_string(bridge.socket)}}, style)}};
  if (!bridge.token.empty() || bridge.token_from_env) {
    fields.emplace_back("env_vars", toml_array({"MISSION_MCP_TOKEN"}, style));
  }
  return fields;
}

// `codex exec --json`: thread, turn and item events, one JSON object a line.
constexpr std::string_view kStreamFormat = "codex-json";

bool is_json_flag(const std::string& word) {
  return word == "--json" || word == "--experimental-json";
}

std::string_view output_format(const std::vector<std::string>& argv) {
  const bool exec = std::find(argv.begin(), argv.end(), "exec") != argv.end();
  return exec && std::any_of(argv.begin(), argv.end(), is_json_flag) ? kStreamFormat
                                                                     : std::string_view();
}

// The sandbox the person chose for codex's own commands in `words`
// (`-c sandbox_mode=X`, `--sandbox X`, `-s X`, `--full-auto`), or empty.
std::string own_sandbox(const std::vector<std::string>& words) {
  constexpr std::string_view kMode = "sandbox_mode=";
  std::string chosen;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    const bool has_next = i + 1 < words.size();
    if ((word == "-c" || word == "--config") && has_next && words[i + 1].starts_with(kMode)) {
      chosen = words[i + 1].substr(kMode.size());
      chosen.erase(std::remove(chosen.begin(), chosen.end(), '"'), chosen.end());
    } else if ((word == "--sandbox" || word == "-s") && has_next) {
      chosen = words[i + 1];
    } else if (word.starts_with("--sandbox=")) {
      chosen = word.substr(std::string_view("--sandbox=").size());
    } else if (word == "--full-auto") {
      chosen = "workspace-write";
    } else if (word == "--dangerously-bypass-approvals-and-sandbox") {
      chosen = kNoOwnSandbox;
    }
  }
  return chosen;
}

// Confined, codex's own sandbox (bubblewrap, which must write
// /proc/self/uid_map) fails every command it runs, and the model reports
// success over the failures: mission's confinement stands in for it.
void leave_own_sandbox_off(const LaunchRequest& request, LaunchPlan& plan) {
  const std::string chosen = own_sandbox(request.arguments);
  if (chosen.empty()) {
    plan.argv.push_back("-c");
    plan.argv.push_back("sandbox_mode=\"" + std::string(kNoOwnSandbox) + "\"");
    return;
  }
  if (chosen == kNoOwnSandbox) return;
  throw MissionError(
      ErrorCode::invalid_argument,
      "codex's own sandbox (" + chosen +
          ") cannot start inside mission's confinement: every command it ran would fail",
      "leave out codex's sandbox option (mission already keeps codex to its worktree), or pass "
      "--sandbox off to use codex's own sandbox instead of mission's",
      {{"adapter", "codex"}, {"sandbox_mode", chosen}});
}

LaunchPlan prepare(const LaunchRequest& request) {
  LaunchPlan plan{{request.binary}, {}, {}, LaunchFiles(request.files_dir)};
  if (request.confined) leave_own_sandbox_off(request, plan);
  std::string value;
  if (request.delivery == Delivery::mcp_tool) {
    value = "mcp_servers." + std::string(kServerName) + "=" +
            toml_inline_table(server_fields(require_bridge(request), kCompact), kCompact);
  } else {
    value = "developer_instructions=" + toml_basic_string(request.marker_instructions());
  }
  // Root options come before the user's subcommand (exec, ...).
  plan.argv.push_back("-c");
  plan.argv.push_back(value);
  const auto first_word = static_cast<std::ptrdiff_t>(plan.argv.size());
  plan.argv.insert(plan.argv.end(), request.arguments.begin(), request.arguments.end());
  // `codex exec` off a terminal: its JSON events, right after the
  // subcommand, so the run shows its steps as they happen. Not with
  // stdout-marker delivery, whose markers must start lines of plain text.
  const auto& words = request.arguments;
  auto exec = std::find(plan.argv.begin() + first_word, plan.argv.end(), "exec");
  if (exec != plan.argv.end() && !request.on_terminal && request.delivery == Delivery::mcp_tool &&
      std::none_of(words.begin(), words.end(), is_json_flag)) {
    plan.argv.insert(exec + 1, "--json");
  }
  return plan;
}

// Over ACP: Codex's ACP adapter (@zed-industries/codex-acp), which takes
// the same -c overrides and reads the same CODEX_HOME.
LaunchPlan prepare_over_acp(const LaunchRequest& request) {
  LaunchPlan plan = acp_launch_plan(request, {request.binary});
  if (request.confined) {
    LaunchPlan own{{}, {}, {}, LaunchFiles()};
    leave_own_sandbox_off(request, own);
    plan.argv.insert(plan.argv.begin() + 1, own.argv.begin(), own.argv.end());
  }
  return plan;
}

ManualConfig manual(const BridgeEntry& bridge) {
  std::string text = "[mcp_servers." + std::string(kServerName) + "]\n";
  for (const auto& [key, field] : server_fields(bridge, kSpaced))
    text += key + " = " + field + "\n";
  return {"toml", "~/.codex/config.toml (or $CODEX_HOME/config.toml)", text};
}

// Codex reads the bearer token from the variable it names.
ManualConfig remote(const std::string& url) {
  std::string text = "[mcp_servers." + std::string(kServerName) + "]\n";
  text += "url = " + toml_basic_string(url) + "\n";
  text += "bearer_token_env_var = \"MISSION_MCP_TOKEN\"\n";
  return {"toml", "~/.codex/config.toml (or $CODEX_HOME/config.toml)", text};
}

}  // namespace

// What its CLI writes under HOME.
constexpr StatePath kStatePaths[] = {{"CODEX_HOME", ".codex", "", true}};

extern const AgentAdapter kCodexAdapter;
const AgentAdapter kCodexAdapter = {
    "codex",
    "codex",
    {kDeliveries, Delivery::mcp_tool, Delivery::mcp_tool, {true, true, true}, false},
    prepare,
    manual,
    remote,
    output_format,
    kStatePaths,
};

extern const AgentAdapter kCodexAcpAdapter;
const AgentAdapter kCodexAcpAdapter =
    over_acp("codex-acp", "codex-acp", prepare_over_acp, kStatePaths);

}  // namespace mission::daemon::adapters
