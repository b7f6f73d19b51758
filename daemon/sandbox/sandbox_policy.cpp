#include "daemon/sandbox/sandbox_policy.hpp"

#include <atomic>

#include "daemon/sandbox/kernel_support.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::sandbox {
namespace {

std::atomic<SandboxPolicy> g_policy{SandboxPolicy::on};

}  // namespace

SandboxPolicy policy_from_name(std::string_view name) {
  return name == "require" ? SandboxPolicy::require : SandboxPolicy::on;
}

std::string_view name_of(SandboxPolicy policy) {
  return policy == SandboxPolicy::require ? "require" : "on";
}

void set_policy(SandboxPolicy policy) {
  g_policy.store(policy);
}

SandboxPolicy policy() {
  return g_policy.load();
}

std::string confinement_state(bool asked) {
  if (!asked) return "not confined: --sandbox off";
  const KernelSupport& support = kernel_support();
  if (support.landlock_abi == 0) return "not confined: kernel has no Landlock";
  return "confined (Landlock ABI " + std::to_string(support.landlock_abi) + ")";
}

void require_confinable() {
  if (policy() != SandboxPolicy::require) return;
  const KernelSupport& support = kernel_support();
  if (support.landlock_abi > 0) return;
  throw MissionError(
      ErrorCode::forbidden,
      "missiond requires confined agents (--sandbox require) and this kernel cannot confine "
      "one: " +
          support.landlock_missing,
      "enable Landlock (Linux 5.13 or later, landlock in the lsm= boot parameter), or restart "
      "missiond with --sandbox on to run agents unconfined with a warning, or opt this launch "
      "out with --sandbox off",
      {{"sandbox", "require"}, {"landlockMissing", support.landlock_missing}});
}

}  // namespace mission::daemon::sandbox
