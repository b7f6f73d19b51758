#pragma once
// task_load_context within a token budget (docs/adr/0015, "Context within a
// budget").
//
// The estimator: a text of N bytes is ceil(N / 4) tokens, and an answer is
// the estimate of its compact JSON (UTF-8, no spaces). Four bytes a token is
// the usual figure for English prose and code with today's tokenizers; it
// overestimates dense prose slightly, which is the safe side for a budget.
//
// What does not fit is cut in this order, and `omitted` counts each cut:
//   1. the details of checkpoints other than the newest (oldest first);
//   2. prior tasks (the task's DAG ancestors), oldest first, outcome and all;
//   3. the source text (workflow.source_summary), from its end.
// Should the rest still not fit (a huge description or plan), sibling
// tasks, dependency outcomes and older checkpoints go, then the longest
// remaining texts are shortened; the answer never exceeds the budget.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace mission::daemon::planning {

std::size_t estimate_tokens(std::string_view text);
inline std::size_t estimate_tokens(const std::string& text) {
  return estimate_tokens(std::string_view(text));
}
inline std::size_t estimate_tokens(const char* text) {
  return estimate_tokens(std::string_view(text));
}
std::size_t estimate_tokens(const nlohmann::json& value);
// The compact JSON the estimate is taken of.
std::string compact(const nlohmann::json& value);
// At most `bytes` bytes of `text`, cut on a UTF-8 character boundary.
std::string utf8_prefix(std::string_view text, std::size_t bytes);

struct ContextParts {
  nlohmann::json workflow;  // object; source_summary is set from source_text
  std::string source_text;
  nlohmann::json current_task;              // object; checkpoints are set from `checkpoints`
  std::vector<nlohmann::json> checkpoints;  // oldest first; each may have "detail"
  bool include_prior = true;
  std::vector<nlohmann::json> prior_tasks;  // newest first: the first ones are kept
  bool include_siblings = true;
  std::vector<nlohmann::json> siblings;
  bool include_dependency_outcomes = true;
  std::vector<nlohmann::json> dependency_outcomes;
};

// The answer of task_load_context: at most `max_tokens` by the estimator,
// with `token_estimate` and `omitted`.
nlohmann::json fit_context(ContextParts parts, std::size_t max_tokens);

}  // namespace mission::daemon::planning
