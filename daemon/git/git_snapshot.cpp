#include "daemon/git/git_snapshot.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <set>
#include <string_view>
#include <vector>

#include "daemon/git/file_state.hpp"
#include "daemon/git/libgit2_handles.hpp"
#include "daemon/git/snapshot_text.hpp"
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

using DirtySet = std::map<std::string, FileState>;

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
    throw MissionError(ErrorCode::git_error, "git: cannot read " + path + ": " + std::strerror(errno),
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

// Every path where the work tree differs from HEAD, with its work tree state.
DirtySet dirty_set(git_repository* repo, const std::string& root) {
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
    const char* raw_path = delta->new_file.path != nullptr ? delta->new_file.path : delta->old_file.path;
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

FileState tree_state(git_tree* tree, const std::string& path) {
  if (tree == nullptr) return {};
  git_tree_entry* raw = nullptr;
  int rc = git_tree_entry_bypath(&raw, tree, path.c_str());
  if (rc == GIT_ENOTFOUND) {
    git_error_clear();
    return {};
  }
  lg2::check(rc, "look up " + path);
  lg2::TreeEntry entry(raw);
  auto mode = static_cast<std::uint32_t>(git_tree_entry_filemode(entry.get()));
  if (!is_file_mode(mode)) return {};  // a directory or a submodule
  return {mode, lg2::oid_hex(*git_tree_entry_id(entry.get()))};
}

struct TreeSides {
  FileState start, now;
};

// Paths whose blob or mode differs between the two trees (either may be
// null: an unborn branch), with both sides.
std::map<std::string, TreeSides> tree_changes(git_repository* repo, git_tree* start, git_tree* now) {
  std::map<std::string, TreeSides> changes;
  if (start == nullptr && now == nullptr) return changes;
  if (start != nullptr && now != nullptr && git_oid_equal(git_tree_id(start), git_tree_id(now)) != 0) {
    return changes;
  }
  git_diff_options options;
  git_diff_options_init(&options, GIT_DIFF_OPTIONS_VERSION);
  git_diff* raw = nullptr;
  lg2::check(git_diff_tree_to_tree(&raw, repo, start, now, &options), "diff the start and HEAD trees");
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
  if (!reader.next_line() || reader.field() != kHeader || reader.field() != kFormatVersion) reader.fail();
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
    lg2::fail("the task's start commit " + start.commit + " (tree " + start.tree +
                  ") is no longer in the repository",
              "it was garbage-collected after a reset or rebase; the change set cannot be computed, "
              "start the task again to take a new snapshot");
  }
  return lg2::Tree(tree);
}

}  // namespace

std::optional<Snapshot> take_git_snapshot(const std::string& cwd) {
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
  return take_git_snapshot(repo.get());
}

Snapshot take_git_snapshot(git_repository* repo) {
  Snapshot snapshot;
  snapshot.type = "git";
  snapshot.root = work_tree_root(repo);
  Head head = read_head(repo);
  DirtySet dirty = dirty_set(repo, snapshot.root);
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

ChangeSet compute_git_change_set(const Snapshot& start) {
  lg2::ensure_initialized();
  ParsedSnapshot parsed = parse(start.data);
  lg2::Repository repo = open_work_tree(start.root);
  lg2::Tree start_tree = lookup_start_tree(repo.get(), parsed);
  Head head = read_head(repo.get());
  DirtySet dirty_now = dirty_set(repo.get(), start.root);
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
