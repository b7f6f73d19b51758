#include "daemon/git/git_watched_pass.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <set>

#include "daemon/git/git_staged.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::git {
namespace {

bool is_under(std::string_view path, std::string_view dir) {
  return path.size() > dir.size() && path[dir.size()] == '/' && path.substr(0, dir.size()) == dir;
}

std::string_view last_name(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// A changed path inside a .git directory stands for the directory that
// holds it: a repository created or removed there (the root's own .git is
// covered by the index and HEAD checks). "" when nothing is left.
std::string outside_git_dirs(const std::string& path) {
  std::size_t start = 0;
  for (;;) {
    std::size_t slash = path.find('/', start);
    std::string_view name =
        std::string_view(path).substr(start, slash == std::string::npos ? slash : slash - start);
    if (name == ".git") return start == 0 ? std::string() : path.substr(0, start - 1);
    if (slash == std::string::npos) return path;
    start = slash + 1;
  }
}

// The changed paths, sorted, without those under another changed path.
std::vector<std::string> outermost(const std::vector<std::string>& changed) {
  std::set<std::string> paths;
  for (const auto& path : changed) {
    std::string kept = outside_git_dirs(path);
    if (!kept.empty()) paths.insert(std::move(kept));  // else inside the root's .git
  }
  std::vector<std::string> result;
  for (const auto& path : paths) {
    bool covered = false;
    for (auto slash = path.find('/'); slash != std::string::npos && !covered;
         slash = path.find('/', slash + 1)) {
      covered = paths.count(path.substr(0, slash)) != 0;
    }
    if (!covered) result.push_back(path);
  }
  return result;
}

// Adds the keys of `map` that are `path` or below it. Below is not right
// after `path` in the map's order ("a-b" and "a.c" sort between "a" and
// "a/"), so the two are looked up apart.
template <typename Map>
void keys_under(const Map& map, const std::string& path, std::set<std::string>& out) {
  if (map.count(path) != 0) out.insert(path);
  const std::string below = path + "/";
  for (auto it = map.lower_bound(below);
       it != map.end() && it->first.compare(0, below.size(), below) == 0; ++it) {
    out.insert(it->first);
  }
}

class WatchedUpdate {
 public:
  WatchedUpdate(WatchedPass& pass, GitTreeMemo& memo) : pass_(pass), memo_(memo) {}

  // Adds to `candidates` every path at or below `path` that may have a
  // state now or had one before. False past the limit.
  bool collect(const std::string& path, std::set<std::string>& candidates) {
    keys_under(memo_.dirty, path, candidates);
    keys_under(memo_.staged, path, candidates);
    for_each_tree_file(pass_.repo, pass_.head_tree, path,
                       [&](const std::string& file, const FileState&) { candidates.insert(file); });
    struct stat st;
    if (::lstat(full(path).c_str(), &st) == 0) {
      if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) {
        candidates.insert(path);
      } else if (S_ISDIR(st.st_mode)) {
        walk(path, candidates);
      }
    }
    return candidates.size() <= limits::kMaxWatchedChangedPaths;
  }

  void update(const std::string& path) {
    pass_.control.check();
    ++pass_.stats.paths_checked;
    FileState index;
    FileState head;
    auto staged = memo_.staged.find(path);
    if (staged != memo_.staged.end()) {
      index = staged->second.index;
      head = staged->second.head;
    } else {
      index = tree_state(pass_.head_tree, path);
      head = index;
    }
    FileState now;
    struct stat st;
    if (::lstat(full(path).c_str(), &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) &&
        (index.present() || (!in_nested_repository(path) && !is_ignored(pass_.repo, path)))) {
      now = work_tree_file_state(pass_.repo, pass_.root, path, st, pass_.control, &memo_, memo_,
                                 pass_.stats);
    }
    if (now != head) {
      memo_.dirty[path] = std::move(now);
    } else {
      memo_.dirty.erase(path);
    }
  }

 private:
  std::string full(const std::string& path) const { return pass_.root + "/" + path; }

  bool in_nested_repository(const std::string& path) const {
    struct stat st;
    for (auto slash = path.find('/'); slash != std::string::npos;
         slash = path.find('/', slash + 1)) {
      if (::lstat((full(path.substr(0, slash)) + "/.git").c_str(), &st) == 0) return true;
    }
    return false;
  }

  bool tracked_below(const std::string& dir) const {
    auto staged = memo_.staged.lower_bound(dir + "/");
    if (staged != memo_.staged.end() && is_under(staged->first, dir)) return true;
    bool found = false;
    git_tree_entry* entry = nullptr;
    if (pass_.head_tree != nullptr &&
        git_tree_entry_bypath(&entry, pass_.head_tree, dir.c_str()) == 0) {
      found = git_tree_entry_type(entry) == GIT_OBJECT_TREE;
      git_tree_entry_free(entry);
    } else {
      git_error_clear();
    }
    return found;
  }

  // Every file below the directory `dir` on disk, watching each directory
  // before reading it; nested repositories and ignored directories without
  // tracked files are left out.
  void walk(const std::string& dir, std::set<std::string>& candidates) {
    std::vector<std::string> pending{dir};
    while (!pending.empty() && candidates.size() <= limits::kMaxWatchedChangedPaths) {
      pass_.control.check();
      std::string current = std::move(pending.back());
      pending.pop_back();
      struct stat st;
      if (::lstat((full(current) + "/.git").c_str(), &st) == 0) continue;
      pass_.watches.add(current);
      int fd = ::open(full(current).c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd < 0) continue;
      DIR* stream = ::fdopendir(fd);
      if (stream == nullptr) {
        ::close(fd);
        continue;
      }
      while (const dirent* item = ::readdir(stream)) {
        std::string_view name = item->d_name;
        if (name == "." || name == ".." || name == ".git") continue;
        std::string path = current + "/" + std::string(name);
        unsigned char type = item->d_type;
        if (type == DT_UNKNOWN) {
          if (::fstatat(::dirfd(stream), item->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
          type = S_ISDIR(st.st_mode)   ? DT_DIR
                 : S_ISREG(st.st_mode) ? DT_REG
                 : S_ISLNK(st.st_mode) ? DT_LNK
                                       : DT_UNKNOWN;
        }
        if (type == DT_DIR) {
          if (!is_ignored(pass_.repo, path) || tracked_below(path))
            pending.push_back(std::move(path));
        } else if (type == DT_REG || type == DT_LNK) {
          candidates.insert(std::move(path));
        }
      }
      ::closedir(stream);
    }
  }

  WatchedPass& pass_;
  GitTreeMemo& memo_;
};

}  // namespace

bool update_watched_state(WatchedPass& pass, GitTreeMemo& memo, std::string& why) {
  if (!(pass.index == memo.index)) {
    why = "the index changed";
    return false;
  }
  if (pass.head_commit != memo.head_commit) {
    why = "HEAD moved";
    return false;
  }
  if (pass.ignore_sources != memo.ignore_sources) {
    why = "a global ignore file changed";
    return false;
  }
  if (pass.changed.size() > limits::kMaxWatchedChangedPaths) {
    why = "too many paths changed";
    return false;
  }
  std::vector<std::string> changed = outermost(pass.changed);
  for (const auto& path : changed) {
    if (path.empty()) {
      why = "the root directory itself changed";
      return false;
    }
    if (last_name(path) == ".gitignore") {
      why = "an ignore file changed";
      return false;
    }
  }
  WatchedUpdate update(pass, memo);
  std::set<std::string> candidates;
  for (const auto& path : changed) {
    pass.control.check();
    if (!update.collect(path, candidates)) {
      why = "too many paths changed";
      return false;
    }
  }
  for (const auto& path : candidates) {
    // A .gitignore found below a new directory changes what is ignored
    // there: the rules are read from disk as each path is checked, so the
    // paths below it get them; paths elsewhere are not below it.
    update.update(path);
  }
  return true;
}

}  // namespace mission::daemon::git
