#include "daemon/execution/execution_reference.hpp"

#include "daemon/store/execution_repository.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"
#include "shared/record_id.hpp"

namespace mission::daemon::execution {
namespace {

constexpr std::string_view kIdPrefix = kExecutionIdPrefix;

MissionError no_match(const std::string& reference, std::string why) {
  return MissionError(ErrorCode::not_found, "no agent execution matches '" + reference + "'" + why,
                      "'mission exec list' shows ids and names; give an id, a prefix of at least " +
                          std::to_string(limits::kMinExecutionIdPrefix) +
                          " characters after ae-, a name from 'mission run --name', or @last",
                      {{"reference", reference}});
}

}  // namespace

ResolvedExecution resolve_execution_reference(store::Database& db, const std::string& reference) {
  store::ExecutionRepository executions(db);
  if (reference == kLastExecutionReference) {
    if (auto id = executions.latest_id()) return {*id, "last"};
    throw no_match(reference, ": no execution has been created yet");
  }
  if (executions.find(reference)) return {reference, "id"};
  if (auto id = executions.latest_named(reference)) return {*id, "name"};

  const std::string prefix =
      reference.rfind(kIdPrefix, 0) == 0 ? reference : std::string(kIdPrefix) + reference;
  if (prefix.size() < kIdPrefix.size() + limits::kMinExecutionIdPrefix) {
    throw no_match(reference, ", and it is too short to be an id prefix");
  }
  std::vector<std::string> ids =
      executions.ids_with_prefix(prefix, limits::kMaxReferenceCandidates + 1);
  if (ids.empty()) throw no_match(reference, "");
  if (ids.size() == 1) return {ids.front(), "prefix"};
  const bool more = ids.size() > limits::kMaxReferenceCandidates;
  if (more) ids.pop_back();
  std::string listed;
  for (const auto& id : ids) listed += (listed.empty() ? "" : ", ") + id;
  throw MissionError(ErrorCode::ambiguous_target,
                     "'" + reference + "' is the start of several execution ids: " + listed +
                         (more ? ", ..." : ""),
                     "give more characters of the id",
                     {{"reference", reference}, {"candidates", ids}});
}

}  // namespace mission::daemon::execution
