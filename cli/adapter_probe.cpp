#include "cli/adapter_probe.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>
#include <utility>

#include "shared/limits.hpp"

extern char** environ;

namespace mission::cli {
namespace {

using Clock = std::chrono::steady_clock;

// Output kept per probe: a version is one short line.
constexpr std::size_t kMaxVersionOutput = 4096;
// Longest version text shown.
constexpr std::size_t kMaxVersionText = 80;

// Its stdout and its stderr, read apart: a CLI may warn on stderr before
// its version (Codex about PATH), and the version is what stdout says.
constexpr int kStreams = 2;

struct Probe {
  pid_t pid = -1;
  int fd[kStreams] = {-1, -1};
  std::string output[kStreams];
  bool exited = false;
  int status = 0;

  bool reading() const { return fd[0] >= 0 || fd[1] >= 0; }
};

void start(Probe& probe, const std::string& path, std::string& problem) {
  int out[2];
  int err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) {
    problem = std::string("pipe: ") + std::strerror(errno);
    return;
  }
  if (::pipe2(err, O_CLOEXEC) != 0) {
    problem = std::string("pipe: ") + std::strerror(errno);
    ::close(out[0]);
    ::close(out[1]);
    return;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // Its own group, so a timeout also ends whatever it started.
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  std::string flag = "--version";
  std::string program = path;
  char* argv[] = {program.data(), flag.data(), nullptr};
  int rc = ::posix_spawn(&probe.pid, path.c_str(), &actions, &attributes, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(out[1]);
  ::close(err[1]);
  if (rc != 0) {
    ::close(out[0]);
    ::close(err[0]);
    probe.pid = -1;
    problem = std::string("cannot run it: ") + std::strerror(rc);
    return;
  }
  probe.fd[0] = out[0];
  probe.fd[1] = err[0];
}

std::string first_line(const std::string& output) {
  std::size_t start = 0;
  while (start < output.size()) {
    std::size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    std::string line = output.substr(start, end - start);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    std::size_t lead = line.find_first_not_of(" \t");
    if (lead != std::string::npos) return line.substr(lead, kMaxVersionText);
    start = end + 1;
  }
  return {};
}

}  // namespace

std::vector<VersionProbe> probe_versions(const std::vector<std::string>& paths) {
  std::vector<VersionProbe> results(paths.size());
  std::vector<Probe> probes(paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) start(probes[i], paths[i], results[i].problem);

  const auto deadline = Clock::now() + std::chrono::milliseconds(limits::kAdapterVersionTimeoutMs);
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<std::pair<std::size_t, int>> owners;  // probe, stream
    for (std::size_t i = 0; i < probes.size(); ++i) {
      for (int stream = 0; stream < kStreams; ++stream) {
        if (probes[i].fd[stream] < 0) continue;
        fds.push_back({probes[i].fd[stream], POLLIN, 0});
        owners.emplace_back(i, stream);
      }
    }
    if (fds.empty()) break;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) break;
    int ready = ::poll(fds.data(), fds.size(), static_cast<int>(left.count()));
    if (ready < 0 && errno != EINTR) break;
    for (std::size_t k = 0; k < fds.size(); ++k) {
      if (fds[k].revents == 0) continue;
      const auto [owner, stream] = owners[k];
      int& fd = probes[owner].fd[stream];
      std::string& output = probes[owner].output[stream];
      char chunk[1024];
      ssize_t n = ::read(fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        if (output.size() < kMaxVersionOutput) output.append(chunk, static_cast<std::size_t>(n));
        continue;
      }
      ::close(fd);
      fd = -1;
    }
  }

  // Output ended (or time is up): reap each, waiting out what is left of
  // the deadline for the ones still running, then kill their group.
  for (std::size_t i = 0; i < probes.size(); ++i) {
    Probe& probe = probes[i];
    if (probe.pid < 0) continue;
    for (;;) {
      pid_t done = ::waitpid(probe.pid, &probe.status, WNOHANG);
      if (done == probe.pid) {
        probe.exited = true;
        break;
      }
      if (done < 0 && errno != EINTR) break;
      if (Clock::now() >= deadline) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    // Still running, or something it started still holds the output open.
    if (!probe.exited || probe.reading()) ::kill(-probe.pid, SIGKILL);
    for (int fd : probe.fd) {
      if (fd >= 0) ::close(fd);
    }
    if (!probe.exited) {
      ::waitpid(probe.pid, &probe.status, 0);
      results[i].problem =
          "no answer within " + std::to_string(limits::kAdapterVersionTimeoutMs) + " ms";
      continue;
    }
    if (!WIFEXITED(probe.status) || WEXITSTATUS(probe.status) != 0) {
      results[i].problem =
          WIFEXITED(probe.status)
              ? "--version exited " + std::to_string(WEXITSTATUS(probe.status))
              : "--version was killed by signal " + std::to_string(WTERMSIG(probe.status));
      continue;
    }
    // stderr only when stdout is silent: some CLIs print it there.
    results[i].version = first_line(probe.output[0]);
    if (results[i].version.empty()) results[i].version = first_line(probe.output[1]);
    if (results[i].version.empty()) results[i].problem = "--version printed nothing";
  }
  return results;
}

}  // namespace mission::cli
