#include "cli/budget_values.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "shared/error_code.hpp"

namespace mission::cli {

std::int64_t budget_tokens(const std::string& flag, const std::string& text) {
  auto refuse = [&]() -> std::int64_t {
    throw MissionError(ErrorCode::invalid_argument,
                       flag + " '" + text + "' is not a budget of tokens",
                       "give a whole number of tokens above 0, e.g. " + flag +
                           " 200000 (or 200k, "
                           "2M), at most " +
                           std::to_string(kMaxBudgetTokens));
  };
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  // More digits than the bound has cannot be in range.
  if (digits == 0 || digits > 16) return refuse();
  std::int64_t scale = 1;
  const std::string unit = text.substr(digits);
  if (unit == "k" || unit == "K") {
    scale = 1000;
  } else if (unit == "m" || unit == "M") {
    scale = 1000 * 1000;
  } else if (!unit.empty()) {
    return refuse();
  }
  const std::int64_t count = std::stoll(text.substr(0, digits));
  if (count < 1 || count > kMaxBudgetTokens / scale) return refuse();
  return count * scale;
}

double budget_usd(const std::string& flag, const std::string& text) {
  const std::string amount = !text.empty() && text.front() == '$' ? text.substr(1) : text;
  char* end = nullptr;
  errno = 0;
  const double value = amount.empty() ? 0 : std::strtod(amount.c_str(), &end);
  // Digits and one point only: no sign, exponent, hex or "inf".
  const bool plain =
      !amount.empty() && amount.find_first_not_of("0123456789.") == std::string::npos;
  if (!plain || errno != 0 || end == nullptr || *end != '\0' || !std::isfinite(value) ||
      value <= 0 || value > kMaxBudgetUsd) {
    throw MissionError(ErrorCode::invalid_argument, flag + " '" + text + "' is not a budget in USD",
                       "give an amount above 0, e.g. " + flag + " 2.50, at most 1000000000");
  }
  return value;
}

}  // namespace mission::cli
