#pragma once
// Who may change a tracked record: the rule lives in the store
// (daemon/store/ownership.hpp) so tracking and planning hold the same one.

#include "daemon/store/ownership.hpp"

namespace mission::daemon::tracking {

using store::require_mission_writer;
using store::require_task_writer;

}  // namespace mission::daemon::tracking
