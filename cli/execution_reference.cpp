#include "cli/execution_reference.hpp"

#include "shared/record_id.hpp"

namespace mission::cli {

std::string resolve_execution(DaemonClient& client, const std::string& reference) {
  if (is_execution_id(reference)) return reference;
  return client.call("execution.resolve", {{"reference", reference}})
      .at("executionId")
      .get<std::string>();
}

}  // namespace mission::cli
