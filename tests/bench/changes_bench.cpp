// mission_changes_bench: the change-set targets (tests/bench/changes_bench.sh
// prepares the trees and runs it).
//
//   mission_changes_bench make-tree DIR DIRS FILES
//       writes DIRS directories of FILES small (~100 byte) files under DIR.
//   mission_changes_bench measure --dir DIR [--runs N] [--changes COUNT]
//                                 [--target RATIO] [--watched-target MS]
//                                 [--label NAME] -- REFERENCE...
//       takes a snapshot of DIR (the task starts; its cost is shown apart,
//       as the tree's first snapshot), then times N times each, interleaved
//       in the same run after one warm-up of each: the REFERENCE command (a
//       process started in DIR, output discarded, so its time includes
//       process start-up, as a user running it sees), take_snapshot(DIR),
//       and compute_change_set of the start snapshot (checked to hold
//       exactly COUNT paths). Before each timed call the same COUNT files of
//       the make-tree tree change again (half modified, a quarter added, a
//       quarter deleted), so every call sees COUNT fresh changes. The
//       library calls are timed in-process, as the daemon makes them. In a
//       git tree the same is then done with the tree watched (a watcher
//       service on a libuv loop, as in missiond --watch-trees), the first
//       watched snapshot shown apart. Prints medians, minimums, ratios to
//       the reference's median, and this process's memory.
//   mission_changes_bench daemon-rss --missiond PATH --dir DIR [--changes COUNT]
//       starts `missiond --watch-trees` on a scratch runtime and state dir,
//       attaches an MCP session with DIR as its cwd (the control protocol
//       straight on the socket), and runs start_mission, start_task (the
//       tree's first snapshot: watching starts), COUNT changes, then
//       complete_task; prints each call's time and the daemon's resident
//       memory (VmRSS) after each, and its peak (VmHWM).
//   mission_changes_bench daemon-tasks --missiond PATH --dir DIR [--changes COUNT]
//                                      [--runs N] [--target-ms MS]
//       the same daemon, and tasks one after another on DIR: COUNT changes,
//       `git status --porcelain` (the reference, a process), COUNT changes,
//       start_task, COUNT changes, complete_task; N rounds after the tree's
//       first task and a warm-up round; medians, and each call's ratio to
//       the reference (tests/bench/start_task_bench.sh).
//
// Exit status 0, or 1 when something failed or a target is missed.

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "daemon/git/change_set.hpp"
#include "daemon/git/tree_watch_service.hpp"
#include "daemon/git/watch_ticket.hpp"
#include "shared/control_protocol.hpp"

using Clock = std::chrono::steady_clock;
using namespace mission::daemon::git;
namespace fs = std::filesystem;
using json = nlohmann::json;

extern char** environ;

namespace {

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double minimum(const std::vector<double>& values) {
  return *std::min_element(values.begin(), values.end());
}

std::string file_name(int dir, int file) {
  char name[32];
  std::snprintf(name, sizeof name, "d%03d/f%03d.txt", dir, file);
  return name;
}

void write_file(const fs::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

int make_tree(const fs::path& root, int dirs, int files) {
  for (int d = 0; d < dirs; ++d) {
    fs::create_directories((root / file_name(d, 0)).parent_path());
    for (int f = 0; f < files; ++f) {
      write_file(root / file_name(d, f), "line one of file " + std::to_string(d * files + f) +
                                             "\nsome ordinary source text, about a hundred bytes "
                                             "long in all.\n");
    }
  }
  return 0;
}

// Changes the same `count` files again (half modified, a quarter added, a
// quarter deleted, spread over directories 5, 7, 15, 17, ...), with content
// of round `round`: each round is `count` fresh changes against the start.
void change_tree(const fs::path& root, int count, int round) {
  int modified = count / 2, added = count / 4, deleted = count - modified - added;
  std::string suffix = " (round " + std::to_string(round) + ")\n";
  for (int i = 0; i < modified; ++i) {
    write_file(root / file_name(7 + 10 * i, 3), "modified content " + std::to_string(i) + suffix);
  }
  for (int i = 0; i < added; ++i) {
    write_file(root / ("d" + std::to_string(100 + i) + "-new.txt"),
               "added " + std::to_string(i) + suffix);
  }
  for (int i = 0; i < deleted; ++i) {
    fs::path gone = root / file_name(5 + 10 * i, 9);
    if (round > 0) write_file(gone, "back for a moment" + suffix);
    fs::remove(gone);
  }
}

// Runs `argv` in `dir` with its output discarded; returns its wall time.
// posix_spawn, not fork: a fork would leave this process's pages
// copy-on-write, and the library call timed next would pay a page fault
// for each page it writes.
double run_reference(const std::string& dir, const std::vector<char*>& argv) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  auto start = Clock::now();
  pid_t pid = 0;
  int rc = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error(std::string("cannot start ") + argv[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  double ms = ms_since(start);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("the reference command failed");
  return ms;
}

// A field of /proc/PID/status in KiB ("VmRSS", "VmHWM").
long status_kib(pid_t pid, const std::string& field) {
  std::ifstream in("/proc/" + (pid == 0 ? std::string("self") : std::to_string(pid)) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0)
      return std::strtol(line.c_str() + field.size() + 1, nullptr, 10);
  }
  return -1;
}

bool row(const char* name, const std::vector<double>& times, double reference, double target) {
  double med = median(times);
  if (reference <= 0) {
    std::printf("  %-36s %9.2f ms %9.2f ms\n", name, med, minimum(times));
    return true;
  }
  bool meets = med / reference <= target;
  std::printf("  %-36s %9.2f ms %9.2f ms %8.2fx   %s %.2fx\n", name, med, minimum(times),
              med / reference, meets ? "meets" : "MISSES", target);
  return meets;
}

bool absolute_row(const char* name, const std::vector<double>& times, double target_ms) {
  double med = median(times);
  bool meets = target_ms <= 0 || med <= target_ms;
  if (target_ms > 0) {
    std::printf("  %-36s %9.2f ms %9.2f ms %10s   %s %.0f ms\n", name, med, minimum(times), "",
                meets ? "meets" : "MISSES", target_ms);
  } else {
    std::printf("  %-36s %9.2f ms %9.2f ms\n", name, med, minimum(times));
  }
  return meets;
}

void check_count(const ChangeSet& changes, int expected) {
  std::size_t found = changes.added.size() + changes.modified.size() + changes.deleted.size();
  if (found != static_cast<std::size_t>(expected)) {
    throw std::runtime_error("the change set has " + std::to_string(found) + " entries, not " +
                             std::to_string(expected));
  }
}

// The watcher service on a loop of its own; the works run inline here.
class Watching {
 public:
  Watching() {
    uv_loop_init(&loop_);
    service_ = std::make_unique<TreeWatchService>(&loop_, TreeWatchSettings{true, 0},
                                                  [](const std::string&) { return true; });
  }
  ~Watching() {
    service_.reset();
    uv_run(&loop_, UV_RUN_NOWAIT);
    uv_loop_close(&loop_);
  }
  Snapshot snapshot(const std::string& dir, SnapshotStats* stats = nullptr) {
    auto ticket = service_->ticket_for(dir);
    Snapshot snapshot = take_snapshot(dir, ticket.get());
    service_->collect_finished();
    if (stats != nullptr) *stats = ticket->report.stats;
    return snapshot;
  }
  ChangeSet changes(const Snapshot& start, SnapshotStats* stats = nullptr) {
    auto ticket = service_->ticket_for(start.root);
    ChangeSet changes = compute_change_set(start, ticket.get());
    service_->collect_finished();
    if (stats != nullptr) *stats = ticket->report.stats;
    return changes;
  }
  json status() const { return service_->status(); }

 private:
  uv_loop_t loop_{};
  std::unique_ptr<TreeWatchService> service_;
};

int measure(int argc, char** argv) {
  std::string dir, label = "reference";
  int runs = 15;
  int changes = 20;
  double target = 1.0;
  double watched_target_ms = 0;
  int i = 2;
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (i + 1 >= argc) throw std::runtime_error("missing value for " + arg);
    std::string value = argv[++i];
    if (arg == "--dir")
      dir = value;
    else if (arg == "--runs")
      runs = std::stoi(value);
    else if (arg == "--changes")
      changes = std::stoi(value);
    else if (arg == "--target")
      target = std::stod(value);
    else if (arg == "--watched-target")
      watched_target_ms = std::stod(value);
    else if (arg == "--label")
      label = value;
    else
      throw std::runtime_error("unknown option " + arg);
  }
  std::vector<char*> reference(argv + i, argv + argc);
  if (dir.empty() || reference.empty())
    throw std::runtime_error("need --dir and a reference command");
  reference.push_back(nullptr);

  // The task starts on the prepared tree: the tree's first snapshot in this
  // process (the git module loads, nothing is remembered yet).
  run_reference(dir, reference);  // the page cache warm for both
  auto t_start = Clock::now();
  Snapshot start = take_snapshot(dir);
  double first_ms = ms_since(t_start);
  int round = 0;
  change_tree(dir, changes, round++);

  // One warm-up run of each, then the timed runs, interleaved so that any
  // other load on the machine hits all of them alike.
  run_reference(dir, reference);
  take_snapshot(dir);
  compute_change_set(start);
  std::vector<double> reference_ms, snapshot_ms, compute_ms;
  std::size_t data_bytes = 0;
  for (int run = 0; run < runs; ++run) {
    change_tree(dir, changes, round++);
    reference_ms.push_back(run_reference(dir, reference));
    change_tree(dir, changes, round++);
    auto t0 = Clock::now();
    Snapshot snapshot = take_snapshot(dir);
    snapshot_ms.push_back(ms_since(t0));
    data_bytes = snapshot.data.size();
    change_tree(dir, changes, round++);
    auto t1 = Clock::now();
    ChangeSet change_set = compute_change_set(start);
    compute_ms.push_back(ms_since(t1));
    check_count(change_set, changes);
  }

  double ref = median(reference_ms);
  bool ok = true;
  std::printf("%s (%s snapshot, %zu bytes of data on the start tree, %zu after the changes)\n",
              dir.c_str(), start.type.c_str(), start.data.size(), data_bytes);
  std::printf(
      "  %d runs each, %d fresh changes before each   median        min    ratio   target\n", runs,
      changes);
  std::printf("  %-36s %9.2f ms\n", "first snapshot of the tree (cold)", first_ms);
  std::printf("  %-36s %9.2f ms %9.2f ms\n", label.c_str(), ref, minimum(reference_ms));
  ok &= row("take_snapshot", snapshot_ms, ref, target);
  ok &= row("compute_change_set", compute_ms, ref, target);

  if (start.type == "git") {
    Watching watching;
    SnapshotStats stats;
    auto t_watch = Clock::now();
    watching.snapshot(dir, &stats);
    double first_watched_ms = ms_since(t_watch);
    json status = watching.status();
    std::size_t watches = status.value("watches", std::size_t{0});
    if (watches == 0) throw std::runtime_error("the tree is not watched: " + status.dump());
    change_tree(dir, changes, round++);
    watching.snapshot(dir);
    watching.changes(start);
    std::vector<double> watched_snapshot_ms, watched_compute_ms;
    std::size_t checked = 0;
    for (int run = 0; run < runs; ++run) {
      change_tree(dir, changes, round++);
      auto t0 = Clock::now();
      watching.snapshot(dir, &stats);
      watched_snapshot_ms.push_back(ms_since(t0));
      if (!stats.watched_pass)
        throw std::runtime_error("a watched snapshot looked at the whole tree: " +
                                 stats.full_because);
      checked = stats.paths_checked;
      change_tree(dir, changes, round++);
      auto t1 = Clock::now();
      ChangeSet change_set = watching.changes(start, &stats);
      watched_compute_ms.push_back(ms_since(t1));
      if (!stats.watched_pass)
        throw std::runtime_error("a watched change set looked at the whole tree: " +
                                 stats.full_because);
      check_count(change_set, changes);
    }
    std::printf("  watched (%zu inotify watches; %zu paths looked at per call)\n", watches,
                checked);
    std::printf("  %-36s %9.2f ms\n", "first snapshot, watching starts", first_watched_ms);
    ok &= absolute_row("take_snapshot, watched", watched_snapshot_ms, watched_target_ms);
    ok &= absolute_row("compute_change_set, watched", watched_compute_ms, watched_target_ms);
  }
  std::printf("  this process: VmRSS %.1f MiB, VmHWM %.1f MiB\n", status_kib(0, "VmRSS") / 1024.0,
              status_kib(0, "VmHWM") / 1024.0);
  return ok ? 0 : 1;
}

// --- daemon-rss: a real missiond, the control protocol on its socket ------

class LineClient {
 public:
  explicit LineClient(const std::string& path) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::snprintf(address.sun_path, sizeof address.sun_path, "%s", path.c_str());
    for (int attempt = 0; attempt < 500; ++attempt) {
      fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) return;
      ::close(fd_);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    throw std::runtime_error("cannot connect to " + path);
  }
  ~LineClient() { ::close(fd_); }

  json call(const std::string& method, json params) {
    int id = next_id_++;
    json request = {
        {"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
    send(request);
    for (;;) {
      json reply = json::parse(read_line());
      if (reply.contains("id") && reply["id"] == id) {
        if (reply.contains("error"))
          throw std::runtime_error(method + ": " + reply["error"].dump());
        return reply["result"];
      }
    }
  }
  void send(const json& message) {
    std::string line = message.dump() + "\n";
    if (::write(fd_, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
      throw std::runtime_error("write failed");
    }
  }

 private:
  std::string read_line() {
    for (;;) {
      auto newline = buffer_.find('\n');
      if (newline != std::string::npos) {
        std::string line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        return line;
      }
      char chunk[65536];
      ssize_t n = ::read(fd_, chunk, sizeof chunk);
      if (n <= 0) throw std::runtime_error("the daemon closed the connection");
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }
  int fd_ = -1;
  int next_id_ = 1;
  std::string buffer_;
};

json tool(LineClient& client, const std::string& name, json arguments) {
  json result = client.call("tools/call", {{"name", name}, {"arguments", std::move(arguments)}});
  if (result.value("isError", false)) throw std::runtime_error(name + ": " + result.dump());
  return result["structuredContent"];
}

// A `missiond --watch-trees` on a scratch runtime and state dir, with an
// MCP session attached on its socket with `dir` as its cwd.
class BenchDaemon {
 public:
  BenchDaemon(const std::string& missiond, const std::string& dir) {
    char pattern[] = "/tmp/mission-bench-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) throw std::runtime_error("mkdtemp failed");
    scratch_ = pattern;
    std::vector<std::string> env_strings = {"MISSION_RUNTIME_DIR=" + scratch_ + "/run",
                                            "MISSION_STATE_DIR=" + scratch_ + "/state"};
    for (char** e = environ; *e != nullptr; ++e) {
      std::string entry = *e;
      if (entry.rfind("MISSION_", 0) != 0) env_strings.push_back(entry);
    }
    std::vector<char*> envp;
    for (auto& entry : env_strings) envp.push_back(entry.data());
    envp.push_back(nullptr);
    std::string program = missiond;
    std::string watch_flag = "--watch-trees";
    std::vector<char*> args = {program.data(), watch_flag.data(), nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 2, (scratch_ + "/missiond.log").c_str(),
                                     O_WRONLY | O_CREAT, 0600);
    int rc = ::posix_spawn(&pid_, program.c_str(), &actions, nullptr, args.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
      fs::remove_all(scratch_);
      throw std::runtime_error("cannot start " + missiond);
    }
    try {
      client_ = std::make_unique<LineClient>(scratch_ + "/run/daemon.sock");
      client_->call("hello", {{"protocol", mission::kControlProtocolVersion},
                              {"client", {{"name", "changes-bench"}}}});
      client_->call("mcp.attach", {{"cwd", dir}});
      client_->call("initialize", {{"protocolVersion", "2025-06-18"},
                                   {"capabilities", json::object()},
                                   {"clientInfo", {{"name", "changes-bench"}, {"version", "1"}}}});
      client_->send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
    } catch (...) {
      fail();
      throw;
    }
  }
  ~BenchDaemon() {
    client_.reset();
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    fs::remove_all(scratch_);
  }
  BenchDaemon(const BenchDaemon&) = delete;
  BenchDaemon& operator=(const BenchDaemon&) = delete;

  LineClient& client() { return *client_; }
  pid_t pid() const { return pid_; }
  // Prints the daemon's log: for a run that failed.
  void fail() const {
    std::ifstream log(scratch_ + "/missiond.log");
    std::string line;
    while (std::getline(log, line)) std::fprintf(stderr, "  missiond: %s\n", line.c_str());
  }

 private:
  std::string scratch_;
  pid_t pid_ = 0;
  std::unique_ptr<LineClient> client_;
};

int daemon_rss(int argc, char** argv) {
  std::string missiond, dir;
  int changes = 20;
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string arg = argv[i];
    if (arg == "--missiond")
      missiond = argv[i + 1];
    else if (arg == "--dir")
      dir = argv[i + 1];
    else if (arg == "--changes")
      changes = std::stoi(argv[i + 1]);
    else
      throw std::runtime_error("unknown option " + arg);
  }
  if (missiond.empty() || dir.empty()) throw std::runtime_error("need --missiond and --dir");
  BenchDaemon daemon(missiond, dir);
  try {
    LineClient& client = daemon.client();
    pid_t pid = daemon.pid();
    long idle_kib = status_kib(pid, "VmRSS");
    json mission =
        tool(client, "start_mission", {{"name", "bench"}, {"objective", "measure change sets"}});
    auto t0 = Clock::now();
    json task = tool(
        client, "start_task",
        {{"mission_id", mission["mission_id"]}, {"name", "bench task"}, {"goal", "change files"}});
    double start_ms = ms_since(t0);
    long watched_kib = status_kib(pid, "VmRSS");
    change_tree(dir, changes, 1);
    auto t1 = Clock::now();
    json done = tool(
        client, "complete_task",
        {{"task_id", task["task_id"]}, {"status", "success"}, {"outcome", {{"summary", "done"}}}});
    double complete_ms = ms_since(t1);
    long after_kib = status_kib(pid, "VmRSS");
    long peak_kib = status_kib(pid, "VmHWM");
    std::printf("missiond --watch-trees on %s\n", dir.c_str());
    std::printf("  idle, before any snapshot:            VmRSS %6.1f MiB\n", idle_kib / 1024.0);
    std::printf("  start_task (first snapshot, watching starts): %8.2f ms, VmRSS %6.1f MiB\n",
                start_ms, watched_kib / 1024.0);
    std::printf("  complete_task (%d changes, watched):   %8.2f ms, VmRSS %6.1f MiB\n", changes,
                complete_ms, after_kib / 1024.0);
    std::printf("  peak (VmHWM): %.1f MiB\n", peak_kib / 1024.0);
    (void)done;
    return watched_kib < 64 * 1024 ? 0 : 1;
  } catch (...) {
    daemon.fail();
    throw;
  }
}

// start_task and complete_task through the daemon's socket, one task after
// another on the same tree (the tree watched since the first), each after
// COUNT fresh changes, interleaved with `git status --porcelain` in the same
// run; medians of `runs` rounds after one warm-up round.
int daemon_tasks(int argc, char** argv) {
  std::string missiond, dir;
  int changes = 20;
  int runs = 15;
  double target_ms = 10;
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string arg = argv[i];
    if (arg == "--missiond")
      missiond = argv[i + 1];
    else if (arg == "--dir")
      dir = argv[i + 1];
    else if (arg == "--changes")
      changes = std::stoi(argv[i + 1]);
    else if (arg == "--runs")
      runs = std::stoi(argv[i + 1]);
    else if (arg == "--target-ms")
      target_ms = std::stod(argv[i + 1]);
    else
      throw std::runtime_error("unknown option " + arg);
  }
  if (missiond.empty() || dir.empty()) throw std::runtime_error("need --missiond and --dir");
  BenchDaemon daemon(missiond, dir);
  try {
    LineClient& client = daemon.client();
    json mission =
        tool(client, "start_mission", {{"name", "bench"}, {"objective", "measure start_task"}});
    std::string git = "git", status = "status", porcelain = "--porcelain";
    std::vector<char*> reference = {git.data(), status.data(), porcelain.data(), nullptr};
    std::vector<double> status_ms, start_ms, complete_ms;
    double first_ms = 0;
    int round = 1;
    for (int run = -1; run <= runs; ++run) {
      change_tree(dir, changes, round++);
      double git_ms = run_reference(dir, reference);
      change_tree(dir, changes, round++);
      auto t0 = Clock::now();
      json task = tool(client, "start_task",
                       {{"mission_id", mission["mission_id"]},
                        {"name", "bench task " + std::to_string(run + 2)},
                        {"goal", "change files"}});
      double started = ms_since(t0);
      change_tree(dir, changes, round++);
      auto t1 = Clock::now();
      tool(client, "complete_task",
           {{"task_id", task["task_id"]},
            {"status", "success"},
            {"outcome", {{"summary", "done"}}}});
      double completed = ms_since(t1);
      if (run == -1) {
        first_ms = started;  // the tree's first snapshot: watching starts
      } else if (run > 0) {  // run 0 warms up
        status_ms.push_back(git_ms);
        start_ms.push_back(started);
        complete_ms.push_back(completed);
      }
    }
    std::printf(
        "missiond --watch-trees on %s: %d tasks one after another, %d changes before "
        "each call\n",
        dir.c_str(), runs, changes);
    std::printf("  %-36s %9s %12s %9s\n", "", "median", "min", "ratio");
    std::printf("  %-36s %9.2f ms\n", "first start_task, watching starts", first_ms);
    double reference_ms = median(status_ms);
    row("git status --porcelain", status_ms, 0, 0);
    std::printf("  %-36s %9.2f ms %9.2f ms %8.2fx\n", "start_task, watched", median(start_ms),
                minimum(start_ms), median(start_ms) / reference_ms);
    std::printf("  %-36s %9.2f ms %9.2f ms %8.2fx\n", "complete_task, watched", median(complete_ms),
                minimum(complete_ms), median(complete_ms) / reference_ms);
    bool ok = absolute_row("start_task against its target", start_ms, target_ms);
    ok &= absolute_row("complete_task against its target", complete_ms, target_ms);
    return ok ? 0 : 1;
  } catch (...) {
    daemon.fail();
    throw;
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "make-tree" && argc == 5)
      return make_tree(argv[2], std::stoi(argv[3]), std::stoi(argv[4]));
    if (mode == "measure") return measure(argc, argv);
    if (mode == "daemon-rss") return daemon_rss(argc, argv);
    if (mode == "daemon-tasks") return daemon_tasks(argc, argv);
    std::fprintf(
        stderr,
        "usage: mission_changes_bench make-tree DIR DIRS FILES\n"
        "       mission_changes_bench measure --dir DIR [--runs N] [--changes COUNT]\n"
        "                             [--target RATIO] [--watched-target MS] [--label NAME] -- "
        "COMMAND...\n"
        "       mission_changes_bench daemon-rss --missiond PATH --dir DIR [--changes COUNT]\n"
        "       mission_changes_bench daemon-tasks --missiond PATH --dir DIR [--changes COUNT]\n"
        "                             [--runs N] [--target-ms MS]\n");
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "mission_changes_bench: %s\n", error.what());
    return 1;
  }
}
