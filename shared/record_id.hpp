#pragma once
// Ids of the records mission makes: executions ("ae-"), missions, tasks,
// events... They are not secrets (session tokens are made elsewhere, from
// getrandom): short enough to type, random enough that two never meet in
// one state dir (the insert would refuse anyway).

#include <cstddef>
#include <string>
#include <string_view>

namespace mission {

// `prefix` and `length` characters of [a-z0-9].
std::string new_random_id(std::string_view prefix, std::size_t length);

inline constexpr std::string_view kExecutionIdPrefix = "ae-";
inline constexpr std::size_t kExecutionIdRandomChars = 10;

// "ae-" and 10 characters.
std::string new_execution_id();

// Whether `word` has the shape new_execution_id gives (not whether such an
// execution exists).
bool is_execution_id(std::string_view word);

// "ev-" and 20 characters, for signals sent without an eventId.
std::string new_event_id();

}  // namespace mission
