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

// "ae-" and 10 characters.
std::string new_execution_id();

// "ev-" and 20 characters, for signals sent without an eventId.
std::string new_event_id();

}  // namespace mission
