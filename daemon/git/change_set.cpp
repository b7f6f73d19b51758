#include "daemon/git/change_set.hpp"

#include <sys/stat.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>

#include "daemon/git/checksum_snapshot.hpp"
#include "daemon/git/git_backend.hpp"
#include "daemon/git/watch_ticket.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::git {
namespace {

// Whether `directory` or a parent holds a .git (a directory, or the file a
// linked worktree or submodule has): only then can it be in a work tree.
// libgit2 decides the rest (a bare repository, GIT_DIR) once loaded.
bool inside_git_work_tree(const std::string& directory) {
  if (std::getenv("GIT_DIR") != nullptr) return true;
  for (std::filesystem::path at = directory;; at = at.parent_path()) {
    std::error_code ignored;
    if (std::filesystem::exists(at / ".git", ignored)) return true;
    if (at == at.parent_path()) return false;
  }
}

}  // namespace
namespace {

std::atomic<std::uint64_t>& cancel_generation() {
  static std::atomic<std::uint64_t> generation{0};
  return generation;
}

// Tells the watcher the work is over, however it ended.
class TicketDone {
 public:
  explicit TicketDone(WatchTicket* ticket) : ticket_(ticket) {}
  ~TicketDone() {
    if (ticket_ == nullptr) return;
    ticket_->report.succeeded = succeeded_;
    if (ticket_->on_done) ticket_->on_done();
  }
  TicketDone(const TicketDone&) = delete;
  TicketDone& operator=(const TicketDone&) = delete;
  void succeeded() { succeeded_ = true; }

 private:
  WatchTicket* ticket_;
  bool succeeded_ = false;
};

}  // namespace

void cancel_running_snapshots() {
  cancel_generation().fetch_add(1, std::memory_order_relaxed);
}

Snapshot take_snapshot(const std::string& cwd, WatchTicket* watch) {
  SnapshotControl control(cancel_generation(), cwd);
  return take_snapshot(cwd, watch, control);
}

ChangeSet compute_change_set(const Snapshot& start, WatchTicket* watch) {
  SnapshotControl control(cancel_generation(), start.root);
  return compute_change_set(start, watch, control);
}

Snapshot take_snapshot(const std::string& cwd, WatchTicket* watch, SnapshotControl& control) {
  TicketDone done(watch);
  if (cwd.find('\0') != std::string::npos) {
    // The system calls would see only the part before it: another directory.
    throw MissionError(ErrorCode::invalid_argument, "the working directory contains a NUL byte",
                       "pass the path of an existing directory");
  }
  if (cwd.empty() || cwd.front() != '/') {
    throw MissionError(ErrorCode::invalid_argument,
                       "working directory \"" + cwd + "\" is not absolute",
                       "pass an absolute directory");
  }
  struct stat st;
  if (::stat(cwd.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throw MissionError(ErrorCode::not_found, "directory " + cwd + " does not exist",
                       "pass the task's existing working directory");
  }
  GitWork work{control, watch};
  // Outside any work tree the git module is not even loaded (ADR 0007):
  // checksum snapshots need nothing of libgit2.
  if (inside_git_work_tree(cwd)) {
    if (auto snapshot = git_backend().take_snapshot(cwd, work)) {
      done.succeeded();
      return std::move(*snapshot);
    }
  }
  Snapshot snapshot = take_checksum_snapshot(cwd, control);
  done.succeeded();
  return snapshot;
}

ChangeSet compute_change_set(const Snapshot& start, WatchTicket* watch, SnapshotControl& control) {
  TicketDone done(watch);
  if (start.type == "git") {
    GitWork work{control, watch};
    ChangeSet changes = git_backend().compute_change_set(start, work);
    done.succeeded();
    return changes;
  }
  if (start.type == "checksum") {
    ChangeSet changes = compute_checksum_change_set(start, control);
    done.succeeded();
    return changes;
  }
  throw MissionError(ErrorCode::invalid_argument, "unknown snapshot type \"" + start.type + "\"",
                     "start the task again to take a new snapshot");
}

nlohmann::json to_json(const ChangeSet& changes) {
  nlohmann::json renamed = nlohmann::json::array();
  for (const auto& rename : changes.renamed)
    renamed.push_back({{"from", rename.from}, {"to", rename.to}});
  return {{"added", changes.added},
          {"modified", changes.modified},
          {"deleted", changes.deleted},
          {"renamed", std::move(renamed)}};
}

nlohmann::json to_json(const ScopeVerification& verification) {
  return {{"scope_match", verification.scope_match},
          {"unexpected_files", verification.unexpected_files},
          {"warnings", verification.warnings}};
}

}  // namespace mission::daemon::git
