#pragma once
// The one table of agent adapters (adapter_table.cpp), and lookup by name.

#include <span>
#include <string_view>

#include "daemon/adapters/adapter.hpp"

namespace mission::daemon::adapters {

// Every adapter, in the order `mission adapters list` shows them.
std::span<const AgentAdapter* const> adapter_table();

// The adapter called `name`, or nullptr.
const AgentAdapter* find_adapter(std::string_view name);

// The adapter called `name`; invalid_argument listing the known ones if
// there is none.
const AgentAdapter& require_adapter(std::string_view name);

}  // namespace mission::daemon::adapters
