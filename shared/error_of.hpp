#pragma once
// What a deferred call's pool work threw, kept for the loop to answer with.

#include <functional>
#include <optional>

#include "shared/error_code.hpp"

namespace mission {

// Runs `work` and gives what it threw as a MissionError, any other
// exception as an internal one to retry; nullopt when it did not throw.
std::optional<MissionError> error_of(const std::function<void()>& work);

}  // namespace mission
