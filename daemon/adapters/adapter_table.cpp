// The one table of agent adapters. Adding a provider: a file under
// daemon/adapters/ defining its AgentAdapter, its declaration here, and
// its entry in the table.

#include "daemon/adapters/adapter_table.hpp"

#include <nlohmann/json.hpp>

#include "shared/error_code.hpp"

namespace mission::daemon::adapters {

extern const AgentAdapter kClaudeCodeAdapter;
extern const AgentAdapter kCodexAdapter;
extern const AgentAdapter kCopilotAdapter;
extern const AgentAdapter kOpenCodeAdapter;
extern const AgentAdapter kPiAdapter;
extern const AgentAdapter kGenericAdapter;
extern const AgentAdapter kAcpAdapter;
extern const AgentAdapter kClaudeCodeAcpAdapter;
extern const AgentAdapter kCodexAcpAdapter;

std::span<const AgentAdapter* const> adapter_table() {
  static const AgentAdapter* const kAdapters[] = {
      &kClaudeCodeAdapter, &kCodexAdapter, &kCopilotAdapter,       &kOpenCodeAdapter, &kPiAdapter,
      &kGenericAdapter,    &kAcpAdapter,   &kClaudeCodeAcpAdapter, &kCodexAcpAdapter,
  };
  return kAdapters;
}

const AgentAdapter* find_adapter(std::string_view name) {
  for (const AgentAdapter* adapter : adapter_table()) {
    if (adapter->name == name) return adapter;
  }
  return nullptr;
}

const AgentAdapter& require_adapter(std::string_view name) {
  if (const AgentAdapter* adapter = find_adapter(name)) return *adapter;
  nlohmann::json available = nlohmann::json::array();
  std::string names;
  for (const AgentAdapter* adapter : adapter_table()) {
    available.push_back(adapter->name);
    names += (names.empty() ? "" : ", ") + std::string(adapter->name);
  }
  throw MissionError(ErrorCode::invalid_argument, "unknown adapter '" + std::string(name) + "'",
                     "use one of " + names + " ('mission adapters list' shows them)",
                     {{"adapter", name}, {"available", available}});
}

}  // namespace mission::daemon::adapters
