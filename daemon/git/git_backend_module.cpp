// The entry point of libmission_git.so (see git_backend.hpp).

#include "daemon/git/git_backend.hpp"
#include "daemon/git/git_snapshot.hpp"

extern "C" __attribute__((visibility("default"))) const mission::daemon::git::GitBackend*
mission_git_backend() {
  static const mission::daemon::git::GitBackend kBackend{
      mission::daemon::git::take_git_snapshot,
      mission::daemon::git::compute_git_change_set,
  };
  return &kBackend;
}
