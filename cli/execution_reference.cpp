#include "cli/execution_reference.hpp"

#include <cctype>

#include "shared/error_code.hpp"
#include "shared/record_id.hpp"

namespace mission::cli {
namespace {

constexpr std::string_view kLast = "@last";
// A name, an id or a prefix: what execution.resolve takes besides @last.
constexpr std::size_t kMaxReferenceLength = 128;

bool reference_shaped(std::string_view reference) {
  if (reference == kLast) return true;
  if (reference.empty() || reference.size() > kMaxReferenceLength) return false;
  if (!std::isalnum(static_cast<unsigned char>(reference.front()))) return false;
  for (char c : reference) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
      return false;
  }
  return true;
}

}  // namespace

std::string resolve_execution(DaemonClient& client, const std::string& reference) {
  if (is_execution_id(reference)) return reference;
  // Refused here, in a person's words, before the daemon's schema would
  // answer with a pattern: `@lats` is a typo of @last.
  if (!reference_shaped(reference)) {
    const bool alias = !reference.empty() && reference.front() == '@';
    throw MissionError(
        ErrorCode::invalid_argument,
        "'" + reference + "' names no execution" + (alias ? "; did you mean @last?" : ""),
        "name it by its id, a unique prefix of the id, the name given with "
        "mission run --name, or @last (mission exec list shows them)");
  }
  return client.call("execution.resolve", {{"reference", reference}})
      .at("executionId")
      .get<std::string>();
}

}  // namespace mission::cli
