#pragma once
// The documented exit statuses of every mission command (mission(1)).

namespace mission::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,
  kExitUsage = 2,
  kExitDaemonUnavailable = 3,
};

}  // namespace mission::cli
