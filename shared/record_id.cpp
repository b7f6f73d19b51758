#include "shared/record_id.hpp"

#include <random>

namespace mission {

namespace {
constexpr std::string_view kAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
}  // namespace

std::string new_random_id(std::string_view prefix, std::size_t length) {
  // Seeded once from the system: ids need to be unique, not unguessable.
  static std::mt19937_64 generator{std::random_device{}()};
  std::uniform_int_distribution<std::size_t> pick(0, kAlphabet.size() - 1);
  std::string id(prefix);
  for (std::size_t i = 0; i < length; ++i) id.push_back(kAlphabet[pick(generator)]);
  return id;
}

std::string new_execution_id() {
  return new_random_id(kExecutionIdPrefix, kExecutionIdRandomChars);
}

bool is_execution_id(std::string_view word) {
  if (word.size() != kExecutionIdPrefix.size() + kExecutionIdRandomChars ||
      word.substr(0, kExecutionIdPrefix.size()) != kExecutionIdPrefix) {
    return false;
  }
  return word.substr(kExecutionIdPrefix.size()).find_first_not_of(kAlphabet) ==
         std::string_view::npos;
}

std::string new_event_id() {
  return new_random_id("ev-", 20);
}

}  // namespace mission
