#pragma once
// Limits of reading the writes a confined agent's sandbox refused from its
// output (daemon/sandbox/refused_writes.hpp, docs/adr/0036), apart from
// shared/limits.hpp so that changing one rebuilds only the code that reads
// or shows them. Documented in mission(1), SANDBOX.

#include <cstddef>

namespace mission::limits {

// How much of one line of a confined agent's output is read for a refused
// write ("Permission denied" naming a path outside its profile): the rest
// of a longer line is skipped. A streaming agent's JSON event is one line;
// a tool's error sits near its start.
inline constexpr std::size_t kMaxRefusedWriteLineBytes = 64 * 1024;

// Refused writes recorded per execution from its output, each path once;
// later ones are not recorded (the first say where the agent went wrong).
inline constexpr std::size_t kMaxRefusedWritesPerExecution = 32;

}  // namespace mission::limits
