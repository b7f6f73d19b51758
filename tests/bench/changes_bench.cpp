// mission_changes_bench: the change-set targets (tests/bench/changes_bench.sh
// prepares the trees and runs it).
//
//   mission_changes_bench make-tree DIR DIRS FILES
//       writes DIRS directories of FILES small (~100 byte) files under DIR.
//   mission_changes_bench measure --dir DIR [--runs N] [--changes COUNT]
//                                 [--target RATIO] [--label NAME] -- REFERENCE...
//       takes a snapshot of DIR (the task starts), changes COUNT files of the
//       make-tree tree (half modified, a quarter added, a quarter deleted),
//       then times N times each, interleaved in the same run after one
//       warm-up of each: the REFERENCE command (a process started in DIR,
//       output discarded, so its time includes process start-up, as a user
//       running it sees), take_snapshot(DIR), and compute_change_set of the
//       start snapshot (checked to hold exactly COUNT paths). The two library
//       calls are timed in-process, as the daemon makes them. Prints medians,
//       minimums, and each call's ratio to the reference's median.
//
// Exit status 0, or 1 when something failed or a ratio is over the target.

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "daemon/git/change_set.hpp"

using Clock = std::chrono::steady_clock;
using namespace mission::daemon::git;
namespace fs = std::filesystem;

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

void change_tree(const fs::path& root, int count) {
  int modified = count / 2, added = count / 4, deleted = count - modified - added;
  // Spread over the tree: directories 7, 17, 27, ...
  for (int i = 0; i < modified; ++i) {
    write_file(root / file_name(7 + 10 * i, 3), "modified content " + std::to_string(i) + "\n");
  }
  for (int i = 0; i < added; ++i) {
    write_file(root / ("d" + std::to_string(100 + i) + "-new.txt"), "added " + std::to_string(i) + "\n");
  }
  for (int i = 0; i < deleted; ++i) fs::remove(root / file_name(5 + 10 * i, 9));
}

// Runs `argv` in `dir` with its output discarded; returns its wall time.
// posix_spawn, not fork: a fork would leave this process's pages (libgit2's
// index among them) copy-on-write, and the library call timed next would
// pay a page fault for each page it writes.
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
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("the reference command failed");
  return ms;
}

void row(const char* name, const std::vector<double>& times, double reference, double target) {
  double med = median(times);
  if (reference <= 0) {
    std::printf("  %-28s %9.2f ms %9.2f ms\n", name, med, minimum(times));
  } else {
    std::printf("  %-28s %9.2f ms %9.2f ms %8.2fx   %s %.2fx\n", name, med, minimum(times), med / reference,
                med / reference <= target ? "meets" : "MISSES", target);
  }
}

int measure(int argc, char** argv) {
  std::string dir, label = "reference";
  int runs = 15;
  int changes = 20;
  double target = 1.5;
  int i = 2;
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (i + 1 >= argc) throw std::runtime_error("missing value for " + arg);
    std::string value = argv[++i];
    if (arg == "--dir") dir = value;
    else if (arg == "--runs") runs = std::stoi(value);
    else if (arg == "--changes") changes = std::stoi(value);
    else if (arg == "--target") target = std::stod(value);
    else if (arg == "--label") label = value;
    else throw std::runtime_error("unknown option " + arg);
  }
  std::vector<char*> reference(argv + i, argv + argc);
  if (dir.empty() || reference.empty()) throw std::runtime_error("need --dir and a reference command");
  reference.push_back(nullptr);

  // The task starts on the prepared tree, then its files change.
  auto t_start = Clock::now();
  Snapshot start = take_snapshot(dir);
  double first_snapshot_ms = ms_since(t_start);
  change_tree(dir, changes);

  // One warm-up run of each, then the timed runs, interleaved so that any
  // other load on the machine hits all three alike.
  run_reference(dir, reference);
  take_snapshot(dir);
  compute_change_set(start);
  std::vector<double> reference_ms, snapshot_ms, compute_ms;
  std::size_t data_bytes = 0;
  for (int run = 0; run < runs; ++run) {
    reference_ms.push_back(run_reference(dir, reference));
    auto t0 = Clock::now();
    Snapshot snapshot = take_snapshot(dir);
    snapshot_ms.push_back(ms_since(t0));
    data_bytes = snapshot.data.size();
    auto t1 = Clock::now();
    ChangeSet change_set = compute_change_set(start);
    compute_ms.push_back(ms_since(t1));
    std::size_t found = change_set.added.size() + change_set.modified.size() + change_set.deleted.size();
    if (found != static_cast<std::size_t>(changes)) {
      throw std::runtime_error("the change set has " + std::to_string(found) + " entries, not " +
                               std::to_string(changes));
    }
  }

  double ref = median(reference_ms);
  std::printf("%s (%s snapshot, %zu bytes of data on the start tree, %zu after the changes)\n",
              dir.c_str(), start.type.c_str(), start.data.size(), data_bytes);
  std::printf("  first snapshot, before any warm-up: %.2f ms\n", first_snapshot_ms);
  std::printf("  %d runs each, interleaved       median        min    ratio   target\n", runs);
  std::printf("  %-28s %9.2f ms %9.2f ms\n", label.c_str(), ref, minimum(reference_ms));
  row("take_snapshot (in-process)", snapshot_ms, ref, target);
  row("compute_change_set (in-proc)", compute_ms, ref, target);
  return median(snapshot_ms) / ref <= target && median(compute_ms) / ref <= target ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "make-tree" && argc == 5) return make_tree(argv[2], std::stoi(argv[3]), std::stoi(argv[4]));
    if (mode == "measure") return measure(argc, argv);
    std::fprintf(stderr,
                 "usage: mission_changes_bench make-tree DIR DIRS FILES\n"
                 "       mission_changes_bench measure --dir DIR [--runs N] [--changes COUNT]\n"
                 "                             [--target RATIO] [--label NAME] -- COMMAND...\n");
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "mission_changes_bench: %s\n", error.what());
    return 1;
  }
}
