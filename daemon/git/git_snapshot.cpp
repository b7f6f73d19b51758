#include "daemon/git/git_snapshot.hpp"

#include <fcntl.h>
#include <git2/sys/repository.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string_view>
#include <vector>

#include "daemon/git/file_state.hpp"
#include "daemon/git/git_index_file.hpp"
#include "daemon/git/git_staged.hpp"
#include "daemon/git/git_tree_memo.hpp"
#include "daemon/git/git_watched_pass.hpp"
#include "daemon/git/git_work_tree.hpp"
#include "daemon/git/libgit2_handles.hpp"
#include "daemon/git/memo_store.hpp"
#include "daemon/git/snapshot_text.hpp"
#include "daemon/git/watch_ticket.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::git {
namespace {

// Snapshot::data of a git snapshot:
//   mission-git-snapshot 1 <HEAD commit hex or -> <its tree hex or ->
//   <mode octal> <blob oid hex or -> <path>      one line per dirty path
// (mode 0 and "-" for a path absent from the work tree).
constexpr std::string_view kHeader = "mission-git-snapshot";
constexpr std::string_view kFormatVersion = "1";
constexpr std::string_view kNone = "-";

// git's id of the empty blob: empty files are never paired as renames.
const std::string kEmptyBlob = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";

// One status per call: staged and unstaged changes, untracked files one by
// one (never a whole untracked directory), no ignored files, no submodules.
constexpr unsigned kStatusFlags = GIT_STATUS_OPT_INCLUDE_UNTRACKED |
                                  GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS |
                                  GIT_STATUS_OPT_EXCLUDE_SUBMODULES;

bool is_file_mode(std::uint32_t mode) {
  return mode == kModeFile || mode == kModeExecutable || mode == kModeSymlink;
}

std::string work_tree_root(git_repository* repo) {
  std::string root = git_repository_workdir(repo);
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  return root;
}

// The state of `path` as it is on disk, hashed the way git would store it
// (filters applied; a symlink is its target). `mode_hint` is the mode status
// reported, which already follows core.filemode.
FileState hash_from_disk(git_repository* repo, const std::string& root, const std::string& path,
                         std::uint32_t mode_hint) {
  std::string full = root + "/" + path;
  struct stat st;
  if (::lstat(full.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return {};  // gone since the status
    throw MissionError(ErrorCode::git_error,
                       "git: cannot read " + path + ": " + std::strerror(errno),
                       "check the file's permissions, then retry");
  }
  git_oid oid;
  if (S_ISLNK(st.st_mode)) {
    std::string target(static_cast<std::size_t>(st.st_size) + 1, '\0');
    ssize_t length = ::readlink(full.c_str(), target.data(), target.size());
    if (length < 0) return {};
    target.resize(static_cast<std::size_t>(length));
    lg2::check(git_odb_hash(&oid, target.data(), target.size(), GIT_OBJECT_BLOB), "hash " + path);
    return {kModeSymlink, lg2::oid_hex(oid)};
  }
  if (!S_ISREG(st.st_mode)) return {};  // a directory now stands there: its files count one by one
  std::uint32_t mode = mode_hint;
  if (mode != kModeFile && mode != kModeExecutable) {
    mode = (st.st_mode & S_IXUSR) != 0 ? kModeExecutable : kModeFile;
  }
  if (git_repository_hashfile(&oid, repo, full.c_str(), GIT_OBJECT_BLOB, path.c_str()) < 0) {
    if (::access(full.c_str(), F_OK) != 0) return {};
    lg2::fail("hash " + path);
  }
  return {mode, lg2::oid_hex(oid)};
}

// The work tree state of one status entry's path. Status says how the work
// tree compares with the index, so a path with no work tree change is in the
// state the index holds, and only work tree changes may need hashing.
FileState entry_state(git_repository* repo, const std::string& root, const git_status_entry& entry,
                      const std::string& path) {
  const git_diff_delta* unstaged = entry.index_to_workdir;
  if ((entry.status & GIT_STATUS_CONFLICTED) != 0) return hash_from_disk(repo, root, path, 0);
  if (unstaged != nullptr) {
    if (unstaged->status == GIT_DELTA_DELETED) return {};
    const git_diff_file& file = unstaged->new_file;
    if (!is_file_mode(file.mode)) return {};  // a nested repository or a submodule
    if ((file.flags & GIT_DIFF_FLAG_VALID_ID) != 0 && git_oid_is_zero(&file.id) == 0) {
      return {file.mode, lg2::oid_hex(file.id)};
    }
    return hash_from_disk(repo, root, path, file.mode);
  }
  // Staged only: the work tree holds what the index holds. A path removed
  // from the index whose file is still there is an ignored file: absent.
  const git_diff_delta* staged = entry.head_to_index;
  if (staged == nullptr || staged->status == GIT_DELTA_DELETED) return {};
  if (!is_file_mode(staged->new_file.mode)) return {};
  return {staged->new_file.mode, lg2::oid_hex(staged->new_file.id)};
}

// Every path where the work tree differs from HEAD, with its work tree
// state, from libgit2's status: the way for an index the fast pass does not
// read (conflicts, sparse checkouts, ...) or a configuration it does not
// follow (core.filemode, core.symlinks or core.ignorecase off their
// defaults).
DirtySet libgit2_dirty_set(git_repository* repo, const std::string& root) {
  git_status_options options;
  git_status_options_init(&options, GIT_STATUS_OPTIONS_VERSION);
  options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
  // UPDATE_INDEX writes the refreshed stat data back into the index, as
  // `git status` does: files whose stat data changed but content did not
  // (touched, or racily clean) are hashed once instead of on every call.
  // Measured on 50,000 files with 2,000 of them touched: ~530 ms on every
  // call without it; with it ~540 ms once, then ~200 ms, as with a clean
  // index. Writing needs index.lock; while another git command holds it,
  // the status runs again without writing.
  options.flags = kStatusFlags | GIT_STATUS_OPT_UPDATE_INDEX;
  git_status_list* raw = nullptr;
  if (git_status_list_new(&raw, repo, &options) < 0) {
    git_error_clear();
    options.flags = kStatusFlags;
    lg2::check(git_status_list_new(&raw, repo, &options), "status");
  }
  lg2::StatusList list(raw);

  DirtySet dirty;
  std::size_t count = git_status_list_entrycount(list.get());
  for (std::size_t i = 0; i < count; ++i) {
    const git_status_entry* entry = git_status_byindex(list.get(), i);
    if (entry == nullptr || entry->status == GIT_STATUS_CURRENT) continue;
    if ((entry->status & GIT_STATUS_IGNORED) != 0) continue;
    const git_diff_delta* delta =
        entry->index_to_workdir != nullptr ? entry->index_to_workdir : entry->head_to_index;
    if (delta == nullptr) continue;
    const char* raw_path =
        delta->new_file.path != nullptr ? delta->new_file.path : delta->old_file.path;
    if (raw_path == nullptr) continue;
    std::string path = raw_path;
    if (path.empty() || path.back() == '/') continue;  // an untracked nested repository
    dirty[path] = entry_state(repo, root, *entry, path);
  }
  return dirty;
}

struct Head {
  std::string commit;  // "" when unborn
  lg2::Tree tree;      // null when unborn
};

Head read_head(git_repository* repo) {
  int unborn = git_repository_head_unborn(repo);
  lg2::check(unborn, "read HEAD");
  if (unborn == 1) return {};
  git_oid oid;
  lg2::check(git_reference_name_to_id(&oid, repo, "HEAD"), "resolve HEAD");
  git_commit* commit = nullptr;
  lg2::check(git_commit_lookup(&commit, repo, &oid), "read the HEAD commit");
  lg2::Commit owned(commit);
  git_tree* tree = nullptr;
  lg2::check(git_commit_tree(&tree, commit), "read the HEAD tree");
  return {lg2::oid_hex(oid), lg2::Tree(tree)};
}

struct TreeSides {
  FileState start, now;
};

// Paths whose blob or mode differs between the two trees (either may be
// null: an unborn branch), with both sides.
std::map<std::string, TreeSides> tree_changes(git_repository* repo, git_tree* start,
                                              git_tree* now) {
  std::map<std::string, TreeSides> changes;
  if (start == nullptr && now == nullptr) return changes;
  if (start != nullptr && now != nullptr &&
      git_oid_equal(git_tree_id(start), git_tree_id(now)) != 0) {
    return changes;
  }
  git_diff_options options;
  git_diff_options_init(&options, GIT_DIFF_OPTIONS_VERSION);
  git_diff* raw = nullptr;
  lg2::check(git_diff_tree_to_tree(&raw, repo, start, now, &options),
             "diff the start and HEAD trees");
  lg2::Diff diff(raw);
  std::size_t count = git_diff_num_deltas(diff.get());
  for (std::size_t i = 0; i < count; ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff.get(), i);
    const git_diff_file& old_file = delta->old_file;
    const git_diff_file& new_file = delta->new_file;
    std::string path = new_file.path != nullptr ? new_file.path : old_file.path;
    // A type change may come as a deletion and an addition of one path.
    auto& sides = changes[path];
    if (delta->status != GIT_DELTA_ADDED && is_file_mode(old_file.mode)) {
      sides.start = {old_file.mode, lg2::oid_hex(old_file.id)};
    }
    if (delta->status != GIT_DELTA_DELETED && is_file_mode(new_file.mode)) {
      sides.now = {new_file.mode, lg2::oid_hex(new_file.id)};
    }
  }
  return changes;
}

struct ParsedSnapshot {
  std::string commit;
  std::string tree;  // "" when unborn
  DirtySet dirty;
};

ParsedSnapshot parse(const std::string& data) {
  text::Reader reader(data);
  ParsedSnapshot parsed;
  if (!reader.next_line() || reader.field() != kHeader || reader.field() != kFormatVersion)
    reader.fail();
  auto commit = reader.field();
  auto tree = reader.last_field();
  if (commit != kNone) parsed.commit = commit;
  if (tree != kNone) parsed.tree = tree;
  while (reader.next_line()) {
    FileState state;
    state.mode = reader.octal_field();
    auto content = reader.field();
    if (state.present()) state.content = content;
    parsed.dirty[reader.path_rest()] = std::move(state);
  }
  return parsed;
}

lg2::Repository open_work_tree(const std::string& root) {
  struct stat st;
  if (::stat(root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throw MissionError(ErrorCode::not_found, "the task's repository " + root + " is gone",
                       "restore the directory or start the task again");
  }
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, root.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) < 0) {
    lg2::fail("open the task's repository " + root,
              "the directory is no longer a git work tree; start the task again");
  }
  lg2::Repository repo(raw);
  if (git_repository_workdir(repo.get()) == nullptr) {
    throw MissionError(ErrorCode::git_error, "git: " + root + " is no longer a work tree",
                       "start the task again");
  }
  return repo;
}

lg2::Tree lookup_start_tree(git_repository* repo, const ParsedSnapshot& start) {
  if (start.tree.empty()) return nullptr;
  git_oid oid;
  if (git_oid_fromstrn(&oid, start.tree.data(), start.tree.size()) < 0) text::Reader("").fail();
  git_tree* tree = nullptr;
  if (git_tree_lookup(&tree, repo, &oid) < 0) {
    lg2::fail(
        "the task's start commit " + start.commit + " (tree " + start.tree +
            ") is no longer in the repository",
        "it was garbage-collected after a reset or rebase; the change set cannot be computed, "
        "start the task again to take a new snapshot");
  }
  return lg2::Tree(tree);
}

// What each git tree's latest snapshot learned (git_tree_memo.hpp).
MemoStore<GitTreeMemo>& memo_store() {
  static MemoStore<GitTreeMemo> store(
      limits::kMaxRememberedTrees,
      limits::kMaxRememberedTrees * 3 * limits::kMaxRememberedFilesPerTree);
  return store;
}

struct Settings {
  std::string unsupported;  // why the fast pass cannot follow this configuration
  bool watch = false;       // mission.watchTrees
  std::string excludes_file;
};

Settings read_settings(git_repository* repo) {
  git_config* raw = nullptr;
  lg2::check(git_repository_config_snapshot(&raw, repo), "read the repository's configuration");
  lg2::Config config(raw);
  auto flag = [&](const char* name, bool fallback) {
    int value = 0;
    if (git_config_get_bool(&value, config.get(), name) < 0) {
      git_error_clear();
      return fallback;
    }
    return value != 0;
  };
  Settings settings;
  if (!flag("core.filemode", true)) settings.unsupported = "core.filemode is false";
  if (!flag("core.symlinks", true)) settings.unsupported = "core.symlinks is false";
  if (flag("core.ignorecase", false)) settings.unsupported = "core.ignorecase is true";
  settings.watch = flag("mission.watchTrees", false);
  git_buf path = GIT_BUF_INIT;
  if (git_config_get_path(&path, config.get(), "core.excludesFile") == 0) {
    settings.excludes_file = path.ptr;
  } else {
    git_error_clear();
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    const char* home = std::getenv("HOME");
    if (xdg != nullptr && *xdg != '\0')
      settings.excludes_file = std::string(xdg) + "/git/ignore";
    else if (home != nullptr)
      settings.excludes_file = std::string(home) + "/.config/git/ignore";
  }
  git_buf_dispose(&path);
  return settings;
}

// The stat data of the ignore files outside the work tree: a watched tree
// whose rules change there is looked at whole again.
std::string ignore_sources(git_repository* repo, const Settings& settings) {
  std::string stamp;
  for (const std::string& path :
       {std::string(git_repository_path(repo)) + "info/exclude", settings.excludes_file}) {
    struct stat st;
    stamp += path;
    if (!path.empty() && ::stat(path.c_str(), &st) == 0) {
      stamp += ":" + std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" +
               std::to_string(stat_ns(st.st_mtim)) + ":" + std::to_string(stat_ns(st.st_ctim));
    }
    stamp += ";";
  }
  return stamp;
}

// Every path where the work tree differs from HEAD: the index's staged
// paths, its tracked files that changed, and the untracked files.
DirtySet combine(const StagedMap& staged, const WorkTreeState& work_tree) {
  DirtySet dirty;
  for (const auto& [path, sides] : staged) {
    FileState now = sides.index;
    if (auto tracked = work_tree.tracked.find(path); tracked != work_tree.tracked.end()) {
      now = tracked->second.work_tree;
    } else if (auto untracked = work_tree.untracked.find(path);
               untracked != work_tree.untracked.end()) {
      now = untracked->second;  // removed from the index, still on disk and not ignored
    }
    if (now != sides.head) dirty[path] = std::move(now);
  }
  // Not staged: HEAD holds what the index holds.
  for (const auto& [path, change] : work_tree.tracked) {
    if (staged.count(path) == 0 && change.work_tree != change.index) dirty[path] = change.work_tree;
  }
  for (const auto& [path, state] : work_tree.untracked) {
    if (staged.count(path) == 0) dirty[path] = state;  // in neither the index nor HEAD
  }
  return dirty;
}

// The .gitattributes files the index tracks.
std::vector<std::string> attribute_files(const IndexFile& index) {
  constexpr std::string_view kName = ".gitattributes";
  std::vector<std::string> paths;
  for (const auto& entry : index.entries()) {
    std::string_view path = entry.path;
    if (path.size() >= kName.size() && path.substr(path.size() - kName.size()) == kName &&
        (path.size() == kName.size() || path[path.size() - kName.size() - 1] == '/')) {
      paths.emplace_back(path);
    }
  }
  return paths;
}

// libgit2 looks a file's attributes (its filters) up in the work tree, then
// in the index, and reads the whole index, checksum included, the first
// time it does: ~35 ms on 50,000 files, for each snapshot that hashes a
// file. When every .gitattributes the index tracks is also in the work
// tree, the index adds nothing to the lookup: an empty index in memory
// spares the read.
void spare_index_read(git_repository* repo, const std::string& root,
                      const std::vector<std::string>& attributes) {
  struct stat st;
  for (const auto& path : attributes) {
    if (::lstat((root + "/" + path).c_str(), &st) != 0) return;
  }
  git_index* empty = nullptr;
  if (git_index_new(&empty) < 0) {
    git_error_clear();
    return;
  }
  git_repository_set_index(repo, empty);
  git_index_free(empty);
}

// Watching, for one snapshot: the watcher's inotify instance, or one
// created for a tree that starts being watched.
struct Watching {
  bool active = false;
  bool holds_token = false;
  std::unique_ptr<WatchAdder> adder;
};

Watching start_watching(WatchTicket* ticket, const std::string& root, const Settings& settings,
                        int root_fd) {
  Watching watching;
  if (ticket == nullptr) return watching;
  WatchRequest& request = ticket->request;
  WatchReport& report = ticket->report;
  if (request.root == root && request.inotify_fd >= 0) {
    report.used = true;
    if (!request.holds_token) return watching;  // another snapshot of the tree renews its state
    watching.active = true;
    watching.holds_token = true;
    watching.adder = std::make_unique<WatchAdder>(request.inotify_fd, root, request.watch_budget);
    return watching;
  }
  if (!request.may_start || (!request.watch_new_trees && !settings.watch)) return watching;
  report.used = true;
  if (!request.refused.empty()) {
    report.unwatched_reason = request.refused;
    return watching;
  }
  if (!trusted_file_system(root_fd)) {
    report.unwatched_reason =
        "its file system is not a local one that reports every change through inotify";
    return watching;
  }
  if (!settings.unsupported.empty()) {
    report.unwatched_reason =
        "its snapshots go through libgit2's status (" + settings.unsupported + ")";
    return watching;
  }
  int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) {
    report.unwatched_reason = std::string("inotify_init1 failed: ") + std::strerror(errno) +
                              " (see /proc/sys/fs/inotify/max_user_instances)";
    return watching;
  }
  report.new_inotify_fd = fd;
  watching.active = true;
  watching.holds_token = true;
  watching.adder = std::make_unique<WatchAdder>(fd, root, request.watch_budget);
  return watching;
}

// The tree's dirty set now, the fastest exact way: a watched tree's
// previous result corrected where the watcher saw changes; else a stat pass
// over the whole tree using what the previous snapshot learned; else
// libgit2's status.
DirtySet current_dirty_set(git_repository* repo, const std::string& root, const Head& head,
                           GitWork& work) {
  SnapshotControl& control = work.control;
  control.set_tree(root);
  WatchTicket* ticket = work.watch;
  if (ticket != nullptr) ticket->report.root = root;
  SnapshotStats ignored_stats;
  SnapshotStats& stats = ticket != nullptr ? ticket->report.stats : ignored_stats;
  stats = {};
  Settings settings = read_settings(repo);
  std::int64_t started_ns = control.started_ns();

  int root_fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0) {
    throw MissionError(ErrorCode::not_found, "the repository's work tree " + root + " is gone",
                       "restore the directory or start the task again");
  }
  Watching watching = start_watching(ticket, root, settings, root_fd);
  ::close(root_fd);
  // A watched tree's state is renewed only by the snapshot holding its
  // token; one running beside it neither uses nor replaces it.
  bool owns_memo = ticket == nullptr || !ticket->report.used || watching.holds_token;
  std::unique_ptr<GitTreeMemo> previous = owns_memo ? memo_store().take(root) : nullptr;

  const WatchRequest* request = ticket != nullptr ? &ticket->request : nullptr;
  std::string sources = ignore_sources(repo, settings);
  const std::string index_path = std::string(git_repository_path(repo)) + "index";
  if (watching.active && watching.holds_token && request->root == root && !request->full &&
      previous && previous->watched && previous->epoch == request->base_epoch &&
      settings.unsupported.empty()) {
    // The index is not read: its stamp tells whether it is still the one
    // the remembered state was built on.
    struct stat index_stat {};
    if (::stat(index_path.c_str(), &index_stat) != 0) index_stat = {};
    spare_index_read(repo, root, previous->attribute_files);
    WatchedPass pass{repo,
                     root,
                     head.tree.get(),
                     head.commit,
                     index_stamp(index_stat),
                     sources,
                     request->changed,
                     control,
                     *watching.adder,
                     stats};
    std::int64_t kept_taken = previous->taken_ns;
    previous->taken_ns = started_ns;
    std::string full_because;
    if (update_watched_state(pass, *previous, full_because)) {
      stats.watched_pass = true;
      ticket->report.watches = watching.adder->take_added();
      if (watching.adder->failed()) ticket->report.unwatched_reason = watching.adder->failure();
      previous->epoch = request->new_epoch;
      DirtySet dirty = previous->dirty;
      std::size_t cost = previous->cost();
      memo_store().put(root, std::move(previous), cost);
      return dirty;
    }
    previous->taken_ns = kept_taken;
    stats.full_because = full_because;
  } else if (watching.holds_token && request->root == root) {
    stats.full_because =
        request->full ? "the watcher asked for a full pass" : "no state to build on";
  }

  std::string why;
  std::unique_ptr<IndexFile> index;
  if (settings.unsupported.empty()) {
    index = IndexFile::open(index_path, why);
    if (index != nullptr && !index->special_entries().empty()) {
      why = "the index holds " + index->special_entries();
      index.reset();
    }
  } else {
    why = settings.unsupported;
  }
  if (index == nullptr) {
    if (watching.active && ticket != nullptr) {
      ticket->report.unwatched_reason = "its snapshots go through libgit2's status (" + why + ")";
    }
    git_repository_set_index(repo, nullptr);  // libgit2 reads the real one again
    return libgit2_dirty_set(repo, root);
  }

  auto learned = std::make_unique<GitTreeMemo>();
  learned->taken_ns = started_ns;
  learned->attribute_files = attribute_files(*index);
  spare_index_read(repo, root, learned->attribute_files);
  StagedMap staged = staged_changes(repo, head.tree.get(), *index);
  WorkTreePass pass{repo, root, *index, control, previous.get(), *learned, watching.adder.get(),
                    stats};
  WorkTreeState work_tree = scan_work_tree(pass);
  DirtySet dirty = combine(staged, work_tree);

  if (watching.active && ticket != nullptr) {
    WatchReport& report = ticket->report;
    report.watches = watching.adder->take_added();
    std::erase_if(report.watches, [&](const auto& watch) {
      return std::find(work_tree.missing_dirs.begin(), work_tree.missing_dirs.end(),
                       watch.second) != work_tree.missing_dirs.end();
    });
    report.complete = !watching.adder->failed();
    if (watching.adder->failed()) report.unwatched_reason = watching.adder->failure();
    learned->watched = report.complete;
    learned->epoch = request->new_epoch;
    learned->index = index_stamp(index->file_stat());
    learned->head_commit = head.commit;
    learned->ignore_sources = sources;
    learned->staged = std::move(staged);
    learned->dirty = dirty;
  }
  if (owns_memo) {
    // A watched tree's state is renewed only with its watcher's token: a
    // snapshot without one puts the state back as it found it (what it
    // holds is checked by stat data, so it stays true).
    bool keep_previous = previous && previous->watched && !watching.holds_token;
    std::unique_ptr<GitTreeMemo> kept = keep_previous ? std::move(previous) : std::move(learned);
    std::size_t cost = kept->cost();
    memo_store().put(root, std::move(kept), cost);
  }
  return dirty;
}

}  // namespace

std::optional<Snapshot> take_git_snapshot(const std::string& cwd, GitWork& work) {
  lg2::ensure_initialized();
  git_repository* raw = nullptr;
  // Discovery from cwd upwards; the environment (GIT_DIR, ...) of the daemon
  // is not consulted.
  int rc = git_repository_open_ext(&raw, cwd.c_str(), 0, nullptr);
  if (rc == GIT_ENOTFOUND) {
    git_error_clear();
    return std::nullopt;
  }
  if (rc == GIT_EOWNER) {
    lg2::fail("open the repository containing " + cwd,
              "the repository belongs to another user; add it to git's safe.directory or run "
              "the task as its owner");
  }
  lg2::check(rc, "open the repository containing " + cwd);
  lg2::Repository repo(raw);
  if (git_repository_workdir(repo.get()) == nullptr) return std::nullopt;  // bare
  return take_git_snapshot(repo.get(), work);
}

Snapshot take_git_snapshot(git_repository* repo, GitWork& work) {
  Snapshot snapshot;
  snapshot.type = "git";
  snapshot.root = work_tree_root(repo);
  Head head = read_head(repo);
  DirtySet dirty = current_dirty_set(repo, snapshot.root, head, work);
  snapshot.id = head.commit;

  std::string& data = snapshot.data;
  data.reserve(64 + dirty.size() * 80);
  data.append(kHeader).append(" ").append(kFormatVersion).append(" ");
  data.append(head.commit.empty() ? std::string(kNone) : head.commit).append(" ");
  data.append(head.tree ? lg2::oid_hex(*git_tree_id(head.tree.get())) : std::string(kNone));
  data += '\n';
  for (const auto& [path, state] : dirty) {
    text::append_octal(data, state.mode);
    data += ' ';
    data.append(state.present() ? state.content : std::string(kNone));
    data += ' ';
    text::append_path(data, path);
    data += '\n';
  }
  return snapshot;
}

ChangeSet compute_git_change_set(const Snapshot& start, GitWork& work) {
  lg2::ensure_initialized();
  ParsedSnapshot parsed = parse(start.data);
  lg2::Repository repo = open_work_tree(start.root);
  lg2::Tree start_tree = lookup_start_tree(repo.get(), parsed);
  Head head = read_head(repo.get());
  DirtySet dirty_now = current_dirty_set(repo.get(), start.root, head, work);
  auto trees = tree_changes(repo.get(), start_tree.get(), head.tree.get());

  std::set<std::string> candidates;
  for (const auto& [path, sides] : trees) candidates.insert(path);
  for (const auto& [path, state] : parsed.dirty) candidates.insert(path);
  for (const auto& [path, state] : dirty_now) candidates.insert(path);

  std::vector<PathStates> states;
  states.reserve(candidates.size());
  for (const auto& path : candidates) {
    PathStates entry{path, {}, {}};
    auto dirty_start = parsed.dirty.find(path);
    auto dirty_current = dirty_now.find(path);
    auto tree_change = trees.find(path);
    // Outside the tree diff the start tree and HEAD agree on the path.
    bool need_tree = tree_change == trees.end() &&
                     (dirty_start == parsed.dirty.end() || dirty_current == dirty_now.end());
    FileState unchanged = need_tree ? tree_state(head.tree.get(), path) : FileState{};
    if (dirty_start != parsed.dirty.end()) {
      entry.start = dirty_start->second;
    } else {
      entry.start = tree_change != trees.end() ? tree_change->second.start : unchanged;
    }
    if (dirty_current != dirty_now.end()) {
      entry.now = dirty_current->second;
    } else {
      entry.now = tree_change != trees.end() ? tree_change->second.now : unchanged;
    }
    states.push_back(std::move(entry));
  }
  return build_change_set(states, kEmptyBlob);
}

}  // namespace mission::daemon::git
