#include "shared/error_of.hpp"

#include <exception>

namespace mission {

std::optional<MissionError> error_of(const std::function<void()>& work) {
  try {
    work();
  } catch (const MissionError& e) {
    return e;
  } catch (const std::exception& e) {
    return MissionError(ErrorCode::internal, e.what(), "retry; report it if it persists");
  }
  return std::nullopt;
}

}  // namespace mission
