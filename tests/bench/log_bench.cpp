// mission_log_bench: the execution log's targets. Writes a log up to its size
// bound (limits::kMaxExecutionLogBytes, 1 GiB) through ExecutionLogWriter,
// lines of 40-200 characters fed in 64 KiB chunks the way pipe reads arrive
// (stdout and stderr interleaved, lines cut across chunks), and reports the
// write throughput. Then times read_execution_log with limit 100:
//   - newest: the last 100 lines (target: <= 10 ms);
//   - cursor: a page from the middle of the log (cursor = last_line / 2);
//   - after:  the lines after last_line - 50;
// each the median (and max) of 50 runs with the files in the page cache, and
// once each "cold", after the files' cached pages are dropped
// (posix_fadvise DONTNEED on these two files only).
//
// Usage: mission_log_bench [DIR] [BYTES]   DIR defaults to a fresh directory
// under $TMPDIR (or /tmp), removed at the end with the log in it; BYTES
// (the size bound) defaults to 1 GiB. Results go to stdout as `key: value`
// lines. Exit status 0, or 1 when something failed.

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "daemon/execution/execution_log.hpp"
#include "shared/limits.hpp"

using mission::daemon::execution::ExecutionLogWriter;
using mission::daemon::execution::LogPage;
using mission::daemon::execution::LogQuery;
using mission::daemon::execution::read_execution_log;
using Clock = std::chrono::steady_clock;

namespace {

const std::string kId = "ae-bench";
constexpr int kRuns = 50;
constexpr std::size_t kChunkBytes = 64 * 1024;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Deterministic text: lines of 40-200 printable characters.
std::string make_text(std::size_t bytes) {
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  std::string text;
  text.reserve(bytes + 256);
  while (text.size() < bytes) {
    std::size_t length = 40 + next() % 161;
    for (std::size_t i = 0; i < length; ++i) text.push_back(static_cast<char>(' ' + next() % 95));
    text.push_back('\n');
  }
  return text;
}

// Drops the page cache of `path` (its pages are clean after fsync).
void evict(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::fdatasync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

struct Timing {
  double cold_ms = 0;
  double median_ms = 0;
  double max_ms = 0;
  std::size_t lines = 0;
};

Timing time_query(const std::filesystem::path& dir, const LogQuery& query) {
  Timing timing;
  evict(dir / (kId + ".log"));
  evict(dir / (kId + ".idx"));
  auto start = Clock::now();
  LogPage page = read_execution_log(dir, kId, query);
  timing.cold_ms = ms_since(start);
  timing.lines = page.lines.size();
  std::vector<double> samples;
  for (int i = 0; i < kRuns; ++i) {
    start = Clock::now();
    page = read_execution_log(dir, kId, query);
    samples.push_back(ms_since(start));
    if (page.lines.size() != timing.lines) throw std::runtime_error("page size changed");
  }
  std::sort(samples.begin(), samples.end());
  timing.median_ms = (samples[kRuns / 2 - 1] + samples[kRuns / 2]) / 2;
  timing.max_ms = samples.back();
  return timing;
}

void report(const char* name, const Timing& timing) {
  std::printf("%s_lines: %zu\n%s_cold_ms: %.3f\n%s_median_ms: %.3f\n%s_max_ms: %.3f\n", name,
              timing.lines, name, timing.cold_ms, name, timing.median_ms, name, timing.max_ms);
}

int run(const std::filesystem::path& dir, std::uint64_t bound) {
  const std::string text = make_text(16 * 1024 * 1024);
  std::uint64_t fed = 0;
  double write_ms = 0;
  std::uint64_t lines = 0;
  {
    ExecutionLogWriter writer(dir, kId, bound);
    std::size_t at = 0;
    std::uint64_t chunk = 0;
    auto start = Clock::now();
    while (writer.dropped_bytes() == 0) {
      std::size_t size = std::min(kChunkBytes, text.size() - at);
      // One chunk in eight is stderr.
      writer.append(chunk++ % 8 == 7 ? 'e' : 'o', std::string_view(text).substr(at, size));
      fed += size;
      at = (at + size) % text.size();
    }
    writer.close();
    write_ms = ms_since(start);
    lines = writer.line_count();
  }
  const auto log_bytes = std::filesystem::file_size(dir / (kId + ".log"));
  const auto index_bytes = std::filesystem::file_size(dir / (kId + ".idx"));
  std::printf("log_bytes: %ju\nindex_bytes: %ju\nlines: %ju\n",
              static_cast<std::uintmax_t>(log_bytes), static_cast<std::uintmax_t>(index_bytes),
              static_cast<std::uintmax_t>(lines));
  std::printf("write_ms: %.1f\nwrite_mib_per_s: %.1f\nwrite_lines_per_s: %.0f\n", write_ms,
              static_cast<double>(fed) / (1024.0 * 1024.0) / (write_ms / 1000.0),
              static_cast<double>(lines) / (write_ms / 1000.0));

  Timing newest = time_query(dir, {std::nullopt, std::nullopt, 100});
  Timing middle = time_query(dir, {std::nullopt, lines / 2, 100});
  Timing after = time_query(dir, {lines - 50, std::nullopt, 100});
  report("newest", newest);
  report("cursor_middle", middle);
  report("after_near_end", after);
  if (newest.lines != 100 || middle.lines != 100 || after.lines != 50) {
    std::fprintf(stderr, "log_bench: unexpected page sizes\n");
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path dir;
  bool remove_dir = false;
  if (argc > 1 && *argv[1] != '\0') {
    dir = argv[1];
  } else {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/mission-log-bench-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
      std::perror("log_bench: mkdtemp");
      return 1;
    }
    dir = pattern;
    remove_dir = true;
  }
  std::uint64_t bound =
      argc > 2 ? std::strtoull(argv[2], nullptr, 10) : mission::limits::kMaxExecutionLogBytes;
  int status = 1;
  try {
    status = run(dir, bound);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "log_bench: %s\n", e.what());
  }
  std::error_code ignored;
  std::filesystem::remove(dir / (kId + ".log"), ignored);
  std::filesystem::remove(dir / (kId + ".idx"), ignored);
  if (remove_dir) std::filesystem::remove(dir, ignored);
  return status;
}
