#include "daemon/sandbox/kernel_support.hpp"

#include <sched.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "daemon/sandbox/landlock_abi.hpp"

namespace mission::daemon::sandbox {
namespace {

std::atomic<bool> g_assume_no_landlock{false};

int probe_landlock(std::string& missing) {
  if (g_assume_no_landlock.load()) {
    missing = std::string("simulated by ") + kAssumeNoLandlockVariable;
    return 0;
  }
  const long abi = landlock::create_ruleset(nullptr, 0, landlock::kCreateRulesetVersion);
  if (abi > 0) return static_cast<int>(abi);
  if (errno == EOPNOTSUPP) {
    missing =
        "Landlock is built into this kernel but not enabled (add landlock to the lsm= boot "
        "parameter)";
  } else if (errno == ENOSYS) {
    missing =
        "this kernel has no Landlock (Linux 5.13 or later, built with CONFIG_SECURITY_LANDLOCK)";
  } else {
    missing = std::string("Landlock's probe failed: ") + std::strerror(errno);
  }
  return 0;
}

// A child that tries unshare(CLONE_NEWUSER): the daemon's own namespaces
// stay as they are. vfork is not used: the child changes its credentials.
bool probe_user_namespaces() {
  const pid_t pid = ::fork();
  if (pid < 0) return false;
  if (pid == 0) _exit(::unshare(CLONE_NEWUSER) == 0 ? 0 : 1);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

bool KernelSupport::scopes() const {
  return landlock_abi >= landlock::kAbiScopes;
}

bool KernelSupport::network_rules() const {
  return landlock_abi >= landlock::kAbiNetwork;
}

void configure_from_environment() {
  const char* set = std::getenv(kAssumeNoLandlockVariable);
  if (set != nullptr && std::strcmp(set, "1") == 0) g_assume_no_landlock.store(true);
  ::unsetenv(kAssumeNoLandlockVariable);
}

const KernelSupport& kernel_support() {
  static std::once_flag once;
  static KernelSupport support;
  std::call_once(once, [] {
    support.landlock_abi = probe_landlock(support.landlock_missing);
    support.user_namespaces = probe_user_namespaces();
    // Reading the flag is enough to know the kernel has it (Linux 3.5).
    support.no_new_privs = ::prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) >= 0;
  });
  return support;
}

}  // namespace mission::daemon::sandbox
