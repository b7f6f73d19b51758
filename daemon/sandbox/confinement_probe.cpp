#include "daemon/sandbox/confinement_probe.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "shared/error_code.hpp"

namespace mission::daemon::sandbox {

std::vector<ProbeOutcome> probe_access(const Confinement* rules,
                                       const std::vector<ProbeTarget>& targets) {
  std::vector<ProbeOutcome> outcomes;
  const std::string name = ".mission-sandbox-probe-" + std::to_string(::getpid());
  for (const auto& target : targets) {
    outcomes.push_back(
        {target.access == ProbeAccess::write ? target.path / name : target.path, target.access});
  }
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    throw MissionError(ErrorCode::internal,
                       std::string("cannot start the sandbox probe: ") + std::strerror(errno),
                       "check the daemon's open file limit");
  }
  // Between fork and _exit the child of a threaded daemon may only make
  // system calls: the paths are ready before it starts.
  std::vector<const char*> files;
  std::vector<bool> writes;
  for (const auto& outcome : outcomes) {
    files.push_back(outcome.file.c_str());
    writes.push_back(outcome.access == ProbeAccess::write);
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int cause = errno;
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    throw MissionError(ErrorCode::internal,
                       std::string("cannot start the sandbox probe: ") + std::strerror(cause),
                       "check the daemon's process limit");
  }
  if (pid == 0) {
    ::close(pipe_fds[0]);
    int applied = rules != nullptr ? rules->apply_to_this_thread() : 0;
    for (std::size_t i = 0; i < files.size(); ++i) {
      int error = applied;  // a rule that failed to apply tries nothing
      if (applied == 0 && writes[i]) {
        const int fd = ::open(files[i], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        error = fd >= 0 ? 0 : errno;
        if (fd >= 0) {
          ::close(fd);
          ::unlink(files[i]);
        }
      } else if (applied == 0) {
        // Not O_PATH: Landlock judges only an open that may read.
        const int fd = ::open(files[i], O_RDONLY | O_CLOEXEC);
        error = fd >= 0 ? 0 : errno;
        if (fd >= 0) ::close(fd);
      }
      if (::write(pipe_fds[1], &error, sizeof error) != sizeof error) _exit(1);
    }
    _exit(0);
  }
  ::close(pipe_fds[1]);
  for (auto& outcome : outcomes) {
    int error = EIO;
    ssize_t got = 0;
    do {
      got = ::read(pipe_fds[0], &error, sizeof error);
    } while (got < 0 && errno == EINTR);
    if (got != sizeof error) error = EIO;  // the child died before it said
    outcome.allowed = error == 0;
    outcome.error = error < 0 ? -error : error;
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return outcomes;
}

}  // namespace mission::daemon::sandbox
