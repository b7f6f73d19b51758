// Terminal targets (docs/adr/0014): keystroke to echo through the daemon's
// pty against the same program on a pty of its own, output throughput with
// one viewer attached, and the repaint of `mission attach`. Driven by
// tests/bench/terminal_bench.sh, which starts the daemon; a tool, not a test.
//
// Usage: mission_terminal_bench MISSION_PATH DATA_FILE [ROUND_TRIPS]

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Pty {
  int master = -1;
  pid_t pid = -1;
};

Pty spawn_on_pty(const std::vector<std::string>& argv, unsigned short rows = 24,
                 unsigned short columns = 80) {
  Pty pty;
  pty.master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  ::grantpt(pty.master);
  ::unlockpt(pty.master);
  std::string slave = ::ptsname(pty.master);
  struct winsize size {};
  size.ws_row = rows;
  size.ws_col = columns;
  ::ioctl(pty.master, TIOCSWINSZ, &size);
  pty.pid = ::fork();
  if (pty.pid == 0) {
    ::setsid();
    int fd = ::open(slave.c_str(), O_RDWR);
    ::ioctl(fd, TIOCSCTTY, 0);
    for (int i = 0; i < 3; ++i) ::dup2(fd, i);
    std::vector<char*> args;
    for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  return pty;
}

// Reads until `needle` has been seen; false on EOF or after 30 s.
bool read_until(int fd, const std::string& needle, std::string* seen = nullptr) {
  std::string buffer;
  const auto deadline = Clock::now() + std::chrono::seconds(30);
  char chunk[65536];
  while (Clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n <= 0) return false;
    buffer.append(chunk, static_cast<std::size_t>(n));
    if (buffer.find(needle) != std::string::npos) {
      if (seen != nullptr) *seen = buffer;
      return true;
    }
    if (buffer.size() > needle.size() * 2 + 65536) buffer.erase(0, buffer.size() - needle.size());
  }
  return false;
}

void finish(Pty& pty) {
  ::kill(pty.pid, SIGKILL);
  ::waitpid(pty.pid, nullptr, 0);
  ::close(pty.master);
}

// Round trips of one byte to a `stty raw -echo; cat` behind `prefix`.
std::vector<double> echo_round_trips(const std::vector<std::string>& prefix, int count) {
  std::vector<std::string> argv = prefix;
  argv.insert(argv.end(), {"sh", "-c", "stty raw -echo; echo READY; exec cat"});
  Pty pty = spawn_on_pty(argv);
  if (!read_until(pty.master, "READY")) {
    std::fprintf(stderr, "echo program did not start\n");
    std::exit(1);
  }
  // Drain whatever follows READY.
  ::usleep(200000);
  char drain[4096];
  while (true) {
    pollfd p{pty.master, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0 || ::read(pty.master, drain, sizeof drain) <= 0) break;
  }
  std::vector<double> samples;
  for (int i = 0; i < count; ++i) {
    const char key = static_cast<char>('a' + i % 26);
    const auto start = Clock::now();
    if (::write(pty.master, &key, 1) != 1) break;
    char back = 0;
    for (;;) {
      pollfd p{pty.master, POLLIN, 0};
      ::poll(&p, 1, 1000);
      if (::read(pty.master, &back, 1) == 1 && back == key) break;
    }
    samples.push_back(ms_since(start) * 1000.0);
  }
  finish(pty);
  std::sort(samples.begin(), samples.end());
  return samples;
}

double percentile(const std::vector<double>& sorted, double p) {
  return sorted.empty()
             ? 0
             : sorted[std::min(sorted.size() - 1, static_cast<std::size_t>(p * sorted.size()))];
}

// Seconds for `cat DATA_FILE` behind `prefix`, reading the pty to EOF.
double throughput_seconds(const std::vector<std::string>& prefix, const std::string& data,
                          std::size_t& bytes) {
  std::vector<std::string> argv = prefix;
  argv.insert(argv.end(), {"cat", data});
  const auto start = Clock::now();
  Pty pty = spawn_on_pty(argv);
  char chunk[1 << 16];
  bytes = 0;
  for (;;) {
    ssize_t n = ::read(pty.master, chunk, sizeof chunk);
    if (n <= 0) break;
    bytes += static_cast<std::size_t>(n);
  }
  const double seconds = ms_since(start) / 1000.0;
  ::waitpid(pty.pid, nullptr, 0);
  ::close(pty.master);
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s MISSION_PATH DATA_FILE [ROUND_TRIPS]\n", argv[0]);
    return 2;
  }
  const std::string mission = argv[1];
  const std::string data = argv[2];
  const int trips = argc > 3 ? std::atoi(argv[3]) : 2000;

  auto own = echo_round_trips({}, trips);
  auto through = echo_round_trips({mission, "run", "--tty", "--"}, trips);
  std::printf("keystroke to echo, own pty:    p50 %.0f us  p90 %.0f us  (%d round trips)\n",
              percentile(own, 0.5), percentile(own, 0.9), trips);
  std::printf("keystroke to echo, daemon pty: p50 %.0f us  p90 %.0f us\n", percentile(through, 0.5),
              percentile(through, 0.9));
  std::printf("added by the daemon's pty:     p50 %.0f us\n",
              percentile(through, 0.5) - percentile(own, 0.5));

  struct stat st {};
  ::stat(data.c_str(), &st);
  // Alternated runs, medians: one run of either swings by half on a
  // shared machine, the same binary from 70 to 115 MB/s.
  const char* runs_option = std::getenv("BENCH_THROUGHPUT_RUNS");
  const int runs = std::max(1, runs_option != nullptr ? std::atoi(runs_option) : 5);
  std::vector<double> alone_mbs, attached_mbs;
  std::size_t bytes = 0;
  std::size_t attached_bytes = 0;
  const double megabytes = static_cast<double>(st.st_size) / 1e6;
  for (int run = 0; run < runs; ++run) {
    alone_mbs.push_back(megabytes / throughput_seconds({}, data, bytes));
    attached_mbs.push_back(
        megabytes / throughput_seconds({mission, "run", "--tty", "--"}, data, attached_bytes));
  }
  std::sort(alone_mbs.begin(), alone_mbs.end());
  std::sort(attached_mbs.begin(), attached_mbs.end());
  std::printf("cat %.0f MB on its own pty:     median %.0f MB/s (%.0f to %.0f, %d runs)\n",
              megabytes, percentile(alone_mbs, 0.5), alone_mbs.front(), alone_mbs.back(), runs);
  std::printf(
      "cat through the daemon's pty:  median %.0f MB/s (%.0f to %.0f; one viewer, log on; %zu "
      "bytes seen)\n",
      percentile(attached_mbs, 0.5), attached_mbs.front(), attached_mbs.back(), attached_bytes);

  // A full screen, then idle: attach, time the repaint, detach; 20 times.
  const std::string draw =
      "i=1; while [ $i -le 23 ]; do printf '\\033[%d;1H%s' $i "
      "\"row $i $(printf 'x%.0s' $(seq 1 60))\"; i=$((i+1)); done; "
      "printf '\\033[24;1HEND-OF-SCREEN'; sleep 60";
  Pty launched = spawn_on_pty({mission, "run", "--tty", "--detach", "--", "sh", "-c", draw});
  std::string seen;
  read_until(launched.master, "ae-", &seen);
  ::usleep(300000);
  read_until(launched.master, "\n", &seen);
  ::waitpid(launched.pid, nullptr, 0);
  const std::size_t at = seen.find("ae-");
  std::string id = seen.substr(at, seen.find_first_of("\r\n", at) - at);
  ::usleep(500000);  // drawn
  std::vector<double> repaints;
  for (int i = 0; i < 20; ++i) {
    const auto start = Clock::now();
    Pty attach = spawn_on_pty({mission, "attach", "--read-only", id});
    if (!read_until(attach.master, "END-OF-SCREEN")) {
      std::fprintf(stderr, "no repaint\n");
      return 1;
    }
    repaints.push_back(ms_since(start));
    const char detach = 0x1d;
    [[maybe_unused]] auto written = ::write(attach.master, &detach, 1);
    ::waitpid(attach.pid, nullptr, 0);
    ::close(attach.master);
  }
  std::sort(repaints.begin(), repaints.end());
  std::printf(
      "mission attach to a full screen drawn: median %.1f ms, max %.1f ms (20 attaches, process "
      "start included)\n",
      percentile(repaints, 0.5), repaints.back());
  ::system((mission + " exec stop --force " + id + " >/dev/null").c_str());
  return 0;
}
