#pragma once
// What this kernel lets the daemon confine an agent with, probed once.

#include <string>

namespace mission::daemon::sandbox {

struct KernelSupport {
  int landlock_abi = 0;          // 0: no Landlock (not built in, not enabled, or simulated)
  std::string landlock_missing;  // why, when landlock_abi is 0
  bool user_namespaces = false;  // an unprivileged user namespace can be made
  bool no_new_privs = false;     // prctl(PR_SET_NO_NEW_PRIVS) is known to this kernel
  bool scopes() const;           // Landlock scoping of signals and abstract sockets
  bool network_rules() const;    // Landlock rules on TCP bind and connect (ABI 4)
};

// The test-mode variable: missiond started with it set to 1 behaves as on a
// kernel without Landlock (tests of the unconfined path and its warning).
// Read once at start and removed from the daemon's environment.
inline constexpr const char* kAssumeNoLandlockVariable = "MISSIOND_TEST_ASSUME_NO_LANDLOCK";

// missiond at start: honours kAssumeNoLandlockVariable, then unsets it.
void configure_from_environment();

// The probe's result, made on the first call (cheap after it). Any thread.
const KernelSupport& kernel_support();

}  // namespace mission::daemon::sandbox
