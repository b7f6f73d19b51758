#pragma once
// Budgets as a person types them (mission workflows run --budget-tokens,
// mission workflows budget --tokens, docs/adr/0049), read here so that a
// bad one is refused in the flag's words before anything is asked of the
// daemon. The bounds are the daemon's (daemon/runs/run_budget.hpp).

#include <cstdint>
#include <string>

namespace mission::cli {

// The largest budgets: the largest figures an agent's stream may state.
inline constexpr std::int64_t kMaxBudgetTokens = 1'000'000'000'000'000;
inline constexpr double kMaxBudgetUsd = 1e9;

// A whole number of tokens from 1 to kMaxBudgetTokens ("200000", "200k",
// "2M"); throws MissionError invalid_argument naming `flag` otherwise.
std::int64_t budget_tokens(const std::string& flag, const std::string& text);
// An amount in USD above 0 and at most kMaxBudgetUsd ("2.50", "$2.50");
// throws MissionError invalid_argument naming `flag` otherwise.
double budget_usd(const std::string& flag, const std::string& text);

}  // namespace mission::cli
