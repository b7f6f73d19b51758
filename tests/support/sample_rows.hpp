#pragma once
// Minimal valid store rows for tests that need something in the tables.

#include <string>

#include "daemon/store/execution_repository.hpp"

namespace mission::test {

inline store::ExecutionRow sample_execution(std::string id, ExecutionState state,
                                            Delivery delivery = Delivery::stdout_marker) {
  store::ExecutionRow row;
  row.id = std::move(id);
  row.adapter = "generic";
  row.delivery = delivery;
  row.descriptor = "{}";
  row.cwd = "/";
  row.command = "[]";
  row.state = state;
  row.created_at = row.updated_at = 1;
  return row;
}

}  // namespace mission::test
