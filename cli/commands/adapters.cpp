// mission adapters list: every agent adapter, whether its binary is found
// (MISSION_<ADAPTER>_BIN, else PATH) and its version, and the deliveries it
// supports. The table comes from the daemon; the binaries are looked up
// here, in the user's own environment.

#include <cstdio>
#include <cstdlib>

#include "cli/adapter_probe.hpp"
#include "cli/commands/command_table.hpp"
#include "cli/exit_codes.hpp"
#include "cli/output.hpp"

namespace mission::cli {
namespace {

// Adds path, found, version (and why there is none) to each adapter that
// has a binary of its own.
void locate_binaries(nlohmann::json& adapters) {
  std::vector<std::string> paths;
  std::vector<nlohmann::json*> found;
  for (auto& adapter : adapters) {
    if (!adapter.contains("binary")) continue;
    std::string name = adapter.value("binary", "");
    const char* chosen = std::getenv(adapter.value("binVariable", "").c_str());
    if (chosen != nullptr && *chosen != '\0') name = chosen;
    auto path = find_executable(name);
    adapter["found"] = path.has_value();
    adapter["path"] = path ? nlohmann::json(*path) : nlohmann::json();
    adapter["version"] = nullptr;
    if (!path) continue;
    paths.push_back(*path);
    found.push_back(&adapter);
  }
  auto probes = probe_versions(paths);
  for (std::size_t i = 0; i < probes.size(); ++i) {
    nlohmann::json& adapter = *found[i];
    if (!probes[i].version.empty()) adapter["version"] = probes[i].version;
    if (!probes[i].problem.empty()) adapter["versionProblem"] = probes[i].problem;
  }
}

// "mcp-tool*, stdout-marker": the one `mission run` picks first, starred.
std::string deliveries_text(const nlohmann::json& adapter) {
  const std::string preferred = adapter.at("preferred").value("attached", "");
  std::string text = preferred + "*";
  for (const auto& delivery : adapter.value("deliveries", nlohmann::json::array())) {
    if (delivery.get<std::string>() != preferred) text += ", " + delivery.get<std::string>();
  }
  const std::string detached = adapter.at("preferred").value("detached", "");
  if (detached != preferred) text += " (--detach: " + detached + ")";
  return text;
}

void print_adapter_table(const nlohmann::json& adapters) {
  // 13 + 10 + 28 = 51 columns, and the deliveries in the rest.
  std::printf(
      "%s\n",
      styled("ADAPTER      BINARY    VERSION                     DELIVERIES", Tone::dim).c_str());
  for (const auto& adapter : adapters) {
    std::string line = padded(adapter.value("name", ""), 13);
    if (!adapter.contains("binary")) {
      line += padded("(any)", 10) + padded("-", 28);
    } else {
      line += padded(fit(adapter.value("binary", ""), 9), 10);
      std::string version;
      Tone tone = Tone::plain;
      if (!adapter.value("found", false)) {
        version = "not found";
        tone = Tone::bad;
      } else if (adapter.at("version").is_string()) {
        version = adapter.at("version").get<std::string>();
      } else {
        version = "found, " + adapter.value("versionProblem", "no version");
        tone = Tone::dim;
      }
      line += styled(padded(fit(version, 27), 28), tone);
    }
    line += fit(deliveries_text(adapter), output_columns() - 51);
    std::printf("%s\n", line.c_str());
  }
  std::printf(
      "%s\n",
      styled("* preferred: what mission run selects without --delivery", Tone::dim).c_str());
}

int list_adapters(const CliContext& context) {
  DaemonConnection connection = context.connect();
  nlohmann::json result = connection.client.call("adapter.list", nlohmann::json::object());
  nlohmann::json adapters = result.value("adapters", nlohmann::json::array());
  locate_binaries(adapters);
  if (context.options.json) {
    print_json({{"adapters", adapters}});
  } else {
    print_adapter_table(adapters);
  }
  return kExitOk;
}

}  // namespace

void define_adapters_command(CLI::App& command, CliContext& context) {
  command.require_subcommand(1);
  CLI::App* list = command.add_subcommand(
      "list", "Each adapter: its binary and version, and the deliveries it supports");
  list->fallthrough();
  list->callback([&context] { context.action = [&context] { return list_adapters(context); }; });
}

}  // namespace mission::cli
