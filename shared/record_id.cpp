#include "shared/record_id.hpp"

#include <random>

namespace mission {

std::string new_random_id(std::string_view prefix, std::size_t length) {
  static constexpr std::string_view kAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  // Seeded once from the system: ids need to be unique, not unguessable.
  static std::mt19937_64 generator{std::random_device{}()};
  std::uniform_int_distribution<std::size_t> pick(0, kAlphabet.size() - 1);
  std::string id(prefix);
  for (std::size_t i = 0; i < length; ++i) id.push_back(kAlphabet[pick(generator)]);
  return id;
}

std::string new_execution_id() { return new_random_id("ae-", 10); }

std::string new_event_id() { return new_random_id("ev-", 20); }

}  // namespace mission
