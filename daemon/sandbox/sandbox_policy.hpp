#pragma once
// What the daemon does when the kernel cannot confine an agent: run it
// unconfined with a warning (on, the default), or refuse to launch it
// (require: missiond --sandbox require, MISSION_SANDBOX=require). Set once
// at start, before any launch.

#include <string>
#include <string_view>

namespace mission::daemon::sandbox {

enum class SandboxPolicy { on, require };

// The policy named by missiond --sandbox (on or require).
SandboxPolicy policy_from_name(std::string_view name);
std::string_view name_of(SandboxPolicy policy);

// missiond at start; any thread after.
void set_policy(SandboxPolicy policy);
SandboxPolicy policy();

// How a launch that asked to be confined (or, false, asked for --sandbox
// off) runs on this kernel, in the words people read: "confined (Landlock
// ABI N)", "not confined: --sandbox off", "not confined: kernel has no
// Landlock". Recorded with a run and an execution.
std::string confinement_state(bool asked);

// Throws MissionError forbidden when a launch asked to be confined cannot
// be on this kernel and the policy is require; the message says why and
// what to do. Does nothing otherwise.
void require_confinable();

}  // namespace mission::daemon::sandbox
