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
#include "cli/table.hpp"

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
  Table table({{"ADAPTER", TableColumn::Fit::whole},
               {"BINARY", TableColumn::Fit::elide, 2},
               {"VERSION", TableColumn::Fit::elide, 1},
               {"DELIVERIES", TableColumn::Fit::flexible}});
  for (const auto& adapter : adapters) {
    TableCell binary{"(any)"};
    TableCell version{"-"};
    if (adapter.contains("binary")) {
      binary.text = adapter.value("binary", "");
      if (!adapter.value("found", false)) {
        version = {"not found", Tone::bad};
      } else if (adapter.at("version").is_string()) {
        version.text = adapter.at("version").get<std::string>();
      } else {
        version = {"found, " + adapter.value("versionProblem", "no version"), Tone::dim};
      }
    }
    table.add_row({{adapter.value("name", "")}, binary, version, {deliveries_text(adapter)}});
  }
  table.print();
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
