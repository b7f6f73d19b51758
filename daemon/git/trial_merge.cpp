// libgit2 side of trial_merge.hpp, in the git module.

#include "daemon/git/trial_merge.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "daemon/git/libgit2_handles.hpp"

namespace mission::daemon::git {
namespace {

using Blob = std::unique_ptr<git_blob, lg2::Deleter<git_blob, git_blob_free>>;

git_oid oid_of(const std::string& hex) {
  git_oid oid;
  lg2::check(git_oid_fromstr(&oid, hex.c_str()), "bad commit id " + hex);
  return oid;
}

// One side of a path: its bytes (a file's content, a link's target), or
// nothing when the path is absent (or a folder) there.
struct Content {
  bool present = false;
  bool link = false;
  std::string bytes;
  bool operator==(const Content& other) const {
    return present == other.present && (!present || (link == other.link && bytes == other.bytes));
  }
};

Content from_disk(const std::string& work_tree, const std::string& path) {
  const std::string full = work_tree + "/" + path;
  Content out;
  struct stat info {};
  if (::lstat(full.c_str(), &info) != 0) return out;
  if (S_ISLNK(info.st_mode)) {
    std::string target(static_cast<std::size_t>(info.st_size) + 1, '\0');
    const ssize_t n = ::readlink(full.c_str(), target.data(), target.size());
    if (n < 0) return out;
    target.resize(static_cast<std::size_t>(n));
    out = {true, true, std::move(target)};
  } else if (S_ISREG(info.st_mode)) {
    std::ifstream in(full, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    out = {true, false, bytes.str()};
  }
  return out;
}

Content from_tree(git_repository* repo, git_tree* tree, const std::string& path) {
  Content out;
  git_tree_entry* raw = nullptr;
  if (git_tree_entry_bypath(&raw, tree, path.c_str()) < 0) return out;
  lg2::TreeEntry entry(raw);
  if (git_tree_entry_type(raw) != GIT_OBJECT_BLOB) return out;
  git_blob* blob = nullptr;
  lg2::check(git_blob_lookup(&blob, repo, git_tree_entry_id(raw)), "cannot read " + path);
  Blob owned(blob);
  out.present = true;
  out.link = git_tree_entry_filemode(raw) == GIT_FILEMODE_LINK;
  out.bytes.assign(static_cast<const char*>(git_blob_rawcontent(blob)),
                   static_cast<std::size_t>(git_blob_rawsize(blob)));
  return out;
}

git_merge_file_input input_of(const Content& content, const std::string& path) {
  git_merge_file_input input = GIT_MERGE_FILE_INPUT_INIT;
  input.ptr = content.bytes.data();
  input.size = content.bytes.size();
  input.path = path.c_str();
  input.mode = content.link ? GIT_FILEMODE_LINK : GIT_FILEMODE_BLOB;
  return input;
}

// What `git merge-tree` decides for one path both sides changed: clean
// when they agree or one of them kept the ancestor, else a three-way
// merge of the contents (a deletion against an edit, a link, or hunks
// that overlap do not merge).
bool conflicts(const Content& ancestor, const Content& ours, const Content& theirs,
               const std::string& path) {
  if (ours == theirs || ours == ancestor || theirs == ancestor) return false;
  if (!ours.present || !theirs.present || ours.link || theirs.link) return true;
  git_merge_file_input our_input = input_of(ours, path);
  git_merge_file_input their_input = input_of(theirs, path);
  git_merge_file_input ancestor_input = input_of(ancestor, path);
  git_merge_file_result result{};
  git_merge_file_options options = GIT_MERGE_FILE_OPTIONS_INIT;
  lg2::check(git_merge_file(&result, ancestor.present ? &ancestor_input : nullptr, &our_input,
                            &their_input, &options),
             "cannot merge " + path + " on trial");
  const bool clean = result.automergeable != 0;
  git_merge_file_result_free(&result);
  return !clean;
}

// The paths `side` changes since its base, in the whole work tree:
// commits on its branch, staged and unstaged edits, untracked files not
// ignored.
std::vector<std::string> all_changed(const LiveSide& side, git_repository* repo, git_tree* base) {
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  options.flags = GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS;
  git_diff* raw = nullptr;
  lg2::check(git_diff_tree_to_workdir_with_index(&raw, repo, base, &options),
             "cannot diff " + side.work_tree + " against its base");
  lg2::Diff diff(raw);
  return lg2::diff_paths(diff.get());
}

// With candidates, each is compared with the base on its own, so the cost
// follows the change, not the tree; a folder among them (made, moved or
// removed whole) makes it look at the whole work tree after all.
std::vector<std::string> changed_of(const LiveSide& side, git_tree* main_base) {
  if (side.candidates && side.candidates->empty()) return {};
  lg2::Repository repo = lg2::open_repository(side.work_tree);
  // The worktree shares the main repository's objects: its own lookup.
  git_tree* raw_tree = nullptr;
  lg2::check(git_tree_lookup(&raw_tree, repo.get(), git_tree_id(main_base)),
             "cannot read the base of " + side.work_tree);
  lg2::Tree base(raw_tree);
  if (!side.candidates) return all_changed(side, repo.get(), base.get());
  std::vector<std::string> out;
  for (const auto& path : *side.candidates) {
    struct stat info {};
    const bool on_disk = ::lstat((side.work_tree + "/" + path).c_str(), &info) == 0;
    git_tree_entry* raw_entry = nullptr;
    const bool in_base = git_tree_entry_bypath(&raw_entry, base.get(), path.c_str()) == 0;
    lg2::TreeEntry entry(raw_entry);
    if ((on_disk && S_ISDIR(info.st_mode)) ||
        (in_base && git_tree_entry_type(raw_entry) == GIT_OBJECT_TREE))
      return all_changed(side, repo.get(), base.get());
    if (!in_base) {
      int ignored = 0;
      if (!on_disk ||
          (git_ignore_path_is_ignored(&ignored, repo.get(), path.c_str()) == 0 && ignored != 0))
        continue;
      out.push_back(path);
      continue;
    }
    if (!(from_disk(side.work_tree, path) == from_tree(repo.get(), base.get(), path)))
      out.push_back(path);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// What the integration tip changed since `base` (a tree-to-tree diff reads
// only the folders that differ).
std::vector<std::string> tip_changes(git_repository* repo, git_tree* base, git_tree* tip) {
  git_diff* raw = nullptr;
  lg2::check(git_diff_tree_to_tree(&raw, repo, base, tip, nullptr),
             "cannot diff the integration tip against a task's base");
  lg2::Diff diff(raw);
  return lg2::diff_paths(diff.get());
}

std::vector<std::string> both(const std::vector<std::string>& left,
                              const std::vector<std::string>& right) {
  std::vector<std::string> out;
  std::set_intersection(left.begin(), left.end(), right.begin(), right.end(),
                        std::back_inserter(out));
  return out;
}

}  // namespace

LiveCheckResult git_check_live(const LiveCheckInput& input) {
  lg2::Repository repo = lg2::open_repository(input.repository);
  if (git_repository_is_worktree(repo.get()))
    repo = lg2::open_repository(git_repository_commondir(repo.get()));
  LiveCheckResult out;
  const std::size_t n = input.sides.size();
  out.changed.resize(n);
  out.errors.resize(n);

  const std::optional<git_oid> tip = lg2::local_branch_tip(repo.get(), input.integration_branch);
  if (tip) out.tip = lg2::oid_hex(*tip);
  std::optional<lg2::Tree> tip_tree;
  if (tip) tip_tree = lg2::commit_tree(repo.get(), *tip);

  std::vector<std::optional<lg2::Tree>> bases(n);
  for (std::size_t i = 0; i < n; ++i) {
    try {
      bases[i] = lg2::commit_tree(repo.get(), oid_of(input.sides[i].base_commit));
      out.changed[i] = changed_of(input.sides[i], bases[i]->get());
    } catch (const std::exception& e) {
      // A worktree removed meanwhile (its task ended) is left out.
      out.errors[i] = e.what();
    }
  }

  // Two sides: merged over the merge base of their bases.
  std::map<std::pair<std::string, std::string>, std::optional<lg2::Tree>> ancestors;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = a + 1; b < n; ++b) {
      if (!out.errors[a].empty() || !out.errors[b].empty()) continue;
      const std::vector<std::string> paths = both(out.changed[a], out.changed[b]);
      if (paths.empty()) continue;
      const std::string& left = input.sides[a].base_commit;
      const std::string& right = input.sides[b].base_commit;
      auto& ancestor = ancestors[{left, right}];
      if (!ancestor) {
        git_oid base_id;
        const git_oid left_id = oid_of(left);
        const git_oid right_id = oid_of(right);
        lg2::check(git_merge_base(&base_id, repo.get(), &left_id, &right_id),
                   "the bases " + left + " and " + right + " share no history");
        ancestor = lg2::commit_tree(repo.get(), base_id);
      }
      for (const auto& path : paths) {
        if (conflicts(from_tree(repo.get(), ancestor->get(), path),
                      from_disk(input.sides[a].work_tree, path),
                      from_disk(input.sides[b].work_tree, path), path)) {
          out.conflicts.push_back({a, b, path});
        }
      }
    }
  }

  // A side and the integration tip, when the tip moved since its base.
  if (tip_tree) {
    std::map<std::string, std::vector<std::string>> moved;  // by base
    for (std::size_t a = 0; a < n; ++a) {
      if (!out.errors[a].empty() || out.changed[a].empty()) continue;
      const std::string& base = input.sides[a].base_commit;
      if (base == out.tip) continue;
      auto found = moved.find(base);
      if (found == moved.end())
        found =
            moved.emplace(base, tip_changes(repo.get(), bases[a]->get(), tip_tree->get())).first;
      for (const auto& path : both(out.changed[a], found->second)) {
        if (conflicts(from_tree(repo.get(), bases[a]->get(), path),
                      from_disk(input.sides[a].work_tree, path),
                      from_tree(repo.get(), tip_tree->get(), path), path)) {
          out.conflicts.push_back({a, std::nullopt, path});
        }
      }
    }
  }
  std::sort(out.conflicts.begin(), out.conflicts.end(), [](const auto& x, const auto& y) {
    return std::tie(x.a, x.b, x.path) < std::tie(y.a, y.b, y.path);
  });
  return out;
}

}  // namespace mission::daemon::git
