#include "daemon/execution/retention.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <set>
#include <string>
#include <vector>

namespace mission::daemon::execution {
namespace {

std::uint64_t size_on_disk(const std::filesystem::path& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 ? static_cast<std::uint64_t>(info.st_size) : 0;
}

// Ids of final executions that ended before `before`, and whose logs are
// still on disk or whose rows are to go.
std::vector<std::string> ended_before(store::Database& db, std::int64_t before) {
  auto s = db.prepare(
      "SELECT id FROM executions WHERE ended_at IS NOT NULL AND ended_at < ?1 AND state IN "
      "('completed', 'failed', 'cancelled', 'lost')");
  s.bind(1, before);
  std::vector<std::string> ids;
  while (s.step()) ids.push_back(s.text(0));
  return ids;
}

void remove_logs(const RuntimePaths& paths, const std::string& id, bool dry_run,
                 SweepReport& report) {
  bool removed_any = false;
  for (const char* suffix : {".log", ".idx"}) {
    const std::filesystem::path path = paths.logs_dir() / (id + suffix);
    const std::uint64_t size = size_on_disk(path);
    if (size == 0 && !std::filesystem::exists(path)) continue;
    removed_any = true;
    report.log_bytes_freed += size;
    if (!dry_run) {
      std::error_code ignored;
      std::filesystem::remove(path, ignored);
    }
  }
  if (removed_any) ++report.logs_removed;
}

// missiond writes its log through stderr, which the starting CLI pointed
// at missiond.log; the file is rotated only when stderr is that file.
void rotate_daemon_log(const RuntimePaths& paths, std::uint64_t max_bytes, bool dry_run,
                       SweepReport& report) {
  if (max_bytes == 0) return;
  const std::filesystem::path log = paths.daemon_log();
  struct stat on_disk {};
  struct stat on_stderr {};
  if (::stat(log.c_str(), &on_disk) != 0 || ::fstat(STDERR_FILENO, &on_stderr) != 0) return;
  if (on_disk.st_dev != on_stderr.st_dev || on_disk.st_ino != on_stderr.st_ino) return;
  if (static_cast<std::uint64_t>(on_disk.st_size) <= max_bytes) return;
  report.daemon_log_bytes_rotated = static_cast<std::uint64_t>(on_disk.st_size);
  if (dry_run) return;
  std::filesystem::path previous = log;
  previous += ".1";
  std::error_code error;
  std::filesystem::rename(log, previous, error);
  if (error) return;
  std::FILE* fresh = std::freopen(log.c_str(), "a", stderr);
  if (fresh != nullptr) ::fchmod(STDERR_FILENO, 0600);
}

}  // namespace

SweepReport sweep(store::Database& db, const RuntimePaths& paths, const RetentionSettings& settings,
                  std::int64_t now, bool dry_run) {
  SweepReport report;
  std::vector<std::string> logs;
  if (settings.final_logs_ms > 0) logs = ended_before(db, now - settings.final_logs_ms);
  std::vector<std::string> executions;
  if (settings.final_executions_ms > 0)
    executions = ended_before(db, now - settings.final_executions_ms);

  if (!executions.empty()) {
    store::Transaction transaction(db);
    auto count = db.prepare("SELECT count(*) FROM observations WHERE execution_id = ?1");
    auto remove = db.prepare("DELETE FROM executions WHERE id = ?1");
    for (const auto& id : executions) {
      count.reset();
      count.bind(1, id);
      count.step();
      report.observations_removed += count.integer(0);
      if (!dry_run) {
        remove.reset();
        remove.bind(1, id);
        remove.run();
      }
    }
    report.executions_removed = static_cast<std::int64_t>(executions.size());
    if (!dry_run) transaction.commit();
  }
  // After the commit: a log outlives its row for a moment, never the
  // reverse. Every execution removed is also past the log retention or
  // not; either way its log goes, once.
  std::set<std::string> with_logs(logs.begin(), logs.end());
  with_logs.insert(executions.begin(), executions.end());
  for (const auto& id : with_logs) remove_logs(paths, id, dry_run, report);
  rotate_daemon_log(paths, settings.daemon_log_bytes, dry_run, report);
  return report;
}

}  // namespace mission::daemon::execution
