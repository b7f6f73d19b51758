#pragma once
// How big a test of scale is in each build.

#include "support/eventually.hpp"

namespace mission::test {

// How many of a thing a test of scale makes in the sanitized build, out of
// `count` in the normal one: a tenth, never fewer than `floor`. The normal
// build holds the size; the sanitized one runs the same paths several
// times slower, to find what the sanitizers see, which a tenth of the
// items reaches as well (docs/adr/0048).
constexpr int scaled_count(int count, int floor = 1) {
  const int scaled = count / (kWaitScale == 1 ? 1 : 10);
  return scaled < floor ? floor : scaled;
}

}  // namespace mission::test
