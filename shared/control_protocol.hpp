#pragma once
// Constants of the control API between the CLI (or bridge) and missiond.

namespace mission {

// Bumped whenever a control-API method changes incompatibly. Clients send it
// in `hello`; the daemon refuses any other value with protocol_mismatch.
inline constexpr int kControlProtocolVersion = 1;

}  // namespace mission
