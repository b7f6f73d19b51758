#include "daemon/sandbox/confined_launch.hpp"

#include <algorithm>

#include "daemon/sandbox/private_temp.hpp"
#include "daemon/sandbox/sandbox_policy.hpp"

namespace mission::daemon::sandbox {
namespace {

// The variables agents' CLIs take their temporary folder from, each set to
// the launch's private one: TMPDIR for most; Claude Code's shell tool
// reads CLAUDE_CODE_TMPDIR and otherwise writes /tmp, which a confined
// agent may not.
constexpr std::string_view kTempVariables[] = {"TMPDIR", "CLAUDE_CODE_TMPDIR"};

}  // namespace

ConfinedLaunch::ConfinedLaunch(LaunchPlace place, const std::filesystem::path& temp_root,
                               const std::string& name, loop::ChildProcess::Options& options) {
  const KernelSupport& support = kernel_support();
  if (support.landlock_abi == 0) {
    require_confinable();
    warning_ = unconfined_warning(support);
    return;
  }
  temp_dir_ = make_private_temp(temp_root, name);
  place.temp_dir = temp_dir_;
  if (!options.terminal_path.empty()) place.terminal = options.terminal_path;
  try {
    profile_ = launch_profile(place);
    rules_ = std::make_unique<Confinement>(profile_, support);
  } catch (...) {
    remove_private_temp(temp_dir_);  // the destructor does not run
    throw;
  }
  for (std::string_view variable : kTempVariables) {
    const std::string prefix = std::string(variable) + "=";
    std::erase_if(options.env,
                  [&prefix](const std::string& entry) { return entry.rfind(prefix, 0) == 0; });
    options.env.push_back(prefix + temp_dir_.string());
  }
  options.confine_spawning_thread = rules_->spawn_hook();
}

ConfinedLaunch::~ConfinedLaunch() {
  if (!temp_dir_.empty() && !keep_temp_) remove_private_temp(temp_dir_);
}

std::string secrets_note(const ConfinedLaunch* launch) {
  if (launch == nullptr || !launch->confined()) return "; secrets not hidden";
  const Profile& profile = launch->profile();
  if (profile.hidden.empty()) {
    return profile.secrets_not_hidden.empty()
               ? "; nothing to hide"
               : "; secrets not hidden: " + profile.secrets_not_hidden;
  }
  if (profile.secrets_not_hidden.empty()) return "; secrets hidden";
  return "; secrets hidden, except " + profile.secrets_not_hidden;
}

}  // namespace mission::daemon::sandbox
