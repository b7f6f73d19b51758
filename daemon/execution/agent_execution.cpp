#include "daemon/execution/agent_execution.hpp"

#include <array>
#include <chrono>
#include <random>

namespace mission::daemon::execution {
std::string new_random_id(std::string_view prefix, std::size_t length) {
  static constexpr std::string_view kAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  // Ids are not secrets (tokens are made elsewhere, from getrandom), so a
  // generator seeded once from the system is enough.
  static std::mt19937_64 generator{std::random_device{}()};
  std::uniform_int_distribution<std::size_t> pick(0, kAlphabet.size() - 1);
  std::string id(prefix);
  for (std::size_t i = 0; i < length; ++i) id.push_back(kAlphabet[pick(generator)]);
  return id;
}

bool is_final_state(std::string_view state) {
  return state == kCompleted || state == kFailed || state == kCancelled || state == kLost;
}

bool is_known_state(std::string_view state) {
  static constexpr std::array kAll{kCreated, kLaunching, kRunning,   kAwaitingInput, kBlocked,
                                   kCompleted, kFailed,  kCancelled, kLost};
  for (auto known : kAll) {
    if (known == state) return true;
  }
  return false;
}

const std::vector<std::string>& active_states() {
  static const std::vector<std::string> kActive{std::string(kCreated), std::string(kLaunching),
                                                std::string(kRunning), std::string(kAwaitingInput),
                                                std::string(kBlocked)};
  return kActive;
}

std::string new_execution_id() { return new_random_id("ae-", 10); }

std::string new_event_id() { return new_random_id("ev-", 20); }

std::int64_t unix_ms_now() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace mission::daemon::execution
