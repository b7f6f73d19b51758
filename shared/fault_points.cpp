#include "shared/fault_points.hpp"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <array>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "shared/error_code.hpp"

namespace mission::faults {
namespace detail {
std::atomic<bool> g_armed{false};
}  // namespace detail

namespace {

constexpr std::array<std::string_view, 7> kPointNames = {
    "reply_unsent", "before_commit", "snapshot_walk", "db_write",
    "log_write",    "request",       "worktree_made"};
constexpr std::array<std::string_view, 5> kActionNames = {"kill", "fail", "full", "oom", "slow"};

struct Rule {
  FaultPoint point;
  FaultAction action;
  std::uint64_t first;
  std::uint64_t last;
};

std::mutex g_mutex;
std::vector<Rule> g_rules;
std::array<std::atomic<std::uint64_t>, kPointNames.size()> g_hits{};
std::string g_spec;

template <class Enum, std::size_t N>
std::optional<Enum> lookup(const std::array<std::string_view, N>& names, std::string_view name) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == name) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

std::optional<std::uint64_t> number(std::string_view text) {
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value == 0) return std::nullopt;
  return value;
}

[[noreturn]] void bad_spec(std::string_view item) {
  throw MissionError(
      ErrorCode::invalid_argument,
      std::string(kFaultsEnvironmentVariable) + ": cannot read \"" + std::string(item) + "\"",
      "write POINT:ACTION[@FIRST[-[LAST]]], comma-separated; points: reply_unsent, "
      "before_commit, snapshot_walk, db_write, log_write, request, worktree_made; actions: kill, "
      "fail, full, oom, slow (a test-only setting: unset it)");
}

}  // namespace

namespace detail {

std::optional<FaultAction> hit_armed(FaultPoint point) {
  const std::uint64_t n =
      g_hits[static_cast<std::size_t>(point)].fetch_add(1, std::memory_order_relaxed) + 1;
  std::optional<FaultAction> action;
  {
    std::lock_guard lock(g_mutex);
    for (const Rule& rule : g_rules) {
      if (rule.point == point && n >= rule.first && n <= rule.last) {
        action = rule.action;
        break;
      }
    }
  }
  if (action == FaultAction::kill) {
    ::kill(::getpid(), SIGKILL);
    ::pause();
  }
  if (action == FaultAction::slow) {
    std::this_thread::sleep_for(std::chrono::milliseconds(kFaultSlowMs));
    return std::nullopt;
  }
  return action;
}

}  // namespace detail

void configure(std::string_view spec) {
  std::vector<Rule> rules;
  while (!spec.empty()) {
    std::size_t comma = spec.find(',');
    std::string_view item = spec.substr(0, comma);
    spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
    if (item.empty()) continue;
    std::size_t colon = item.find(':');
    if (colon == std::string_view::npos) bad_spec(item);
    std::string_view rest = item.substr(colon + 1);
    std::size_t at_sign = rest.find('@');
    auto point = lookup<FaultPoint>(kPointNames, item.substr(0, colon));
    auto action = lookup<FaultAction>(kActionNames, rest.substr(0, at_sign));
    if (!point || !action) bad_spec(item);
    Rule rule{*point, *action, 1, 1};
    if (at_sign != std::string_view::npos) {
      std::string_view range = rest.substr(at_sign + 1);
      std::size_t dash = range.find('-');
      auto first = number(range.substr(0, dash));
      if (!first) bad_spec(item);
      rule.first = rule.last = *first;
      if (dash != std::string_view::npos) {
        std::string_view last_text = range.substr(dash + 1);
        if (last_text.empty()) {
          rule.last = UINT64_MAX;
        } else {
          auto last = number(last_text);
          if (!last || *last < *first) bad_spec(item);
          rule.last = *last;
        }
      }
    }
    rules.push_back(rule);
  }
  std::lock_guard lock(g_mutex);
  g_rules = std::move(rules);
  for (auto& hits : g_hits) hits.store(0, std::memory_order_relaxed);
  detail::g_armed.store(!g_rules.empty(), std::memory_order_relaxed);
}

std::string_view configure_from_environment() {
  const char* value = std::getenv(kFaultsEnvironmentVariable);
  if (value == nullptr) return {};
  g_spec = value;
  ::unsetenv(kFaultsEnvironmentVariable);
  configure(g_spec);
  return g_spec;
}

void at(FaultPoint point) {
  if (hit(point) == FaultAction::oom) throw std::bad_alloc();
}

}  // namespace mission::faults
