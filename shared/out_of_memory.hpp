#pragma once
// The answer to a request that failed to allocate memory (std::bad_alloc):
// nothing it did was committed, and retrying may succeed.

#include <string_view>

#include "shared/error_code.hpp"

namespace mission {

MissionError out_of_memory_error(std::string_view request);

}  // namespace mission
