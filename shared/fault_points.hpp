#pragma once
// Test-only fault points (docs/adr/0021-fuzzing-and-fault-injection.md).
// Compiled into every build and inert unless missiond starts with
// MISSIOND_TEST_FAULTS set: the crash and fault-injection tests set it to
// kill the daemon, fail a write or fail an allocation at a chosen point.
// missiond reads the variable once at start and removes it from its own
// environment, so nothing it launches inherits it; no request, control or
// MCP, can arm a point. Unarmed, a point costs one relaxed atomic load.
//
// The spec is a comma-separated list of POINT:ACTION[@FIRST[-[LAST]]]:
// the action is taken at hits FIRST to LAST of that point (1-based; LAST
// defaults to FIRST, "FIRST-" means from FIRST on), e.g.
//   reply_unsent:kill@40          SIGKILL at the 40th reply about to be sent
//   db_write:fail@200-260         SQLite writes 200 to 260 fail with EIO
//   request:oom@5-9               requests 5 to 9 fail to allocate
//   worktree_made:slow@2          the second worktree is made late

#include <atomic>
#include <optional>
#include <string_view>

namespace mission::faults {

enum class FaultPoint {
  // A reply (control or MCP) is written, its work committed: after the
  // ledger's commit and before the acknowledgement leaves.
  reply_unsent,
  // Every statement of a transaction has run, COMMIT not yet.
  before_commit,
  // Between the files and directories of a snapshot's walk.
  snapshot_walk,
  // A write to a file of the database (the database itself, its WAL).
  db_write,
  // A write to an execution's output log.
  log_write,
  // A request (control method or MCP message) is about to be handled.
  request,
  // A workspace's worktree and branch are made in git, its row not yet
  // written (on the thread pool).
  worktree_made,
};

enum class FaultAction {
  kill,  // SIGKILL the daemon there
  fail,  // the write fails with EIO (SQLITE_IOERR_WRITE)
  full,  // the write fails with ENOSPC (SQLITE_FULL)
  oom,   // std::bad_alloc is thrown there
  slow,  // the thread waits kFaultSlowMs there: work done on the pool then
         // ends after work queued later, an order a race needs to be tested
};

// How long a slow action holds its thread. Long beside the daemon's own
// steps (a launch takes milliseconds), so the order it makes holds under
// load; the test's verdict never depends on it.
inline constexpr int kFaultSlowMs = 1500;

inline constexpr const char* kFaultsEnvironmentVariable = "MISSIOND_TEST_FAULTS";

namespace detail {
extern std::atomic<bool> g_armed;
std::optional<FaultAction> hit_armed(FaultPoint point);
}  // namespace detail

// Arms the points `spec` names (replacing any earlier spec). Throws
// MissionError invalid_argument on a malformed spec. An empty spec disarms.
void configure(std::string_view spec);

// missiond at start: configure() from MISSIOND_TEST_FAULTS if set, then
// unset it. Returns the spec ("" when unset), for the daemon's log.
std::string_view configure_from_environment();

// Whether any point is armed.
inline bool hit_is_armed() {
  return detail::g_armed.load(std::memory_order_relaxed);
}

// Counts a hit of `point`. A kill action kills the process here; any other
// action due at this hit is returned for the caller to carry out; nullopt
// when there is nothing to do.
inline std::optional<FaultAction> hit(FaultPoint point) {
  if (!detail::g_armed.load(std::memory_order_relaxed)) return std::nullopt;
  return detail::hit_armed(point);
}

// hit(), with oom carried out (throws std::bad_alloc); fail and full are
// for the points that write and are ignored here.
void at(FaultPoint point);

}  // namespace mission::faults
