#pragma once
// The key style of tracking's views: shared/key_style.hpp, named here.

#include "shared/key_style.hpp"

namespace mission::daemon::tracking {

using mission::key;
using mission::KeyStyle;

}  // namespace mission::daemon::tracking
