#include "daemon/git/git_staged.hpp"

#include <cstring>
#include <functional>
#include <string_view>

#include "daemon/git/libgit2_handles.hpp"

namespace mission::daemon::git {
namespace {

bool is_file_mode(std::uint32_t mode) {
  return mode == kModeFile || mode == kModeExecutable || mode == kModeSymlink;
}

FileState entry_state(const git_tree_entry* entry) {
  auto mode = static_cast<std::uint32_t>(git_tree_entry_filemode(entry));
  if (!is_file_mode(mode)) return {};
  return {mode, lg2::oid_hex(*git_tree_entry_id(entry))};
}

bool is_tree(const git_tree_entry* entry) {
  return git_tree_entry_type(entry) == GIT_OBJECT_TREE;
}

// git's base_name_compare: names in tree order, a directory sorting as if
// its name ended with '/'.
int compare_names(std::string_view a, bool a_dir, std::string_view b, bool b_dir) {
  std::size_t common = std::min(a.size(), b.size());
  int cmp = std::memcmp(a.data(), b.data(), common);
  if (cmp != 0) return cmp;
  unsigned char ca = a.size() > common ? static_cast<unsigned char>(a[common]) : (a_dir ? '/' : 0);
  unsigned char cb = b.size() > common ? static_cast<unsigned char>(b[common]) : (b_dir ? '/' : 0);
  return ca < cb ? -1 : (ca > cb ? 1 : 0);
}

lg2::Tree subtree(git_repository* repo, const git_tree_entry* entry) {
  git_tree* tree = nullptr;
  lg2::check(git_tree_lookup(&tree, repo, git_tree_entry_id(entry)), "read a tree of HEAD");
  return lg2::Tree(tree);
}

void visit_tree(git_repository* repo, git_tree* tree, std::string& prefix,
                const std::function<void(const std::string&, const FileState&)>& visit) {
  std::size_t count = git_tree_entrycount(tree);
  for (std::size_t i = 0; i < count; ++i) {
    const git_tree_entry* entry = git_tree_entry_byindex(tree, i);
    std::size_t mark = prefix.size();
    prefix += git_tree_entry_name(entry);
    if (is_tree(entry)) {
      lg2::Tree child = subtree(repo, entry);
      prefix += '/';
      visit_tree(repo, child.get(), prefix, visit);
    } else {
      FileState state = entry_state(entry);
      if (state.present()) visit(prefix, state);
    }
    prefix.resize(mark);
  }
}

class StagedWalk {
 public:
  StagedWalk(git_repository* repo, const std::vector<IndexEntry>& entries, StagedMap& out)
      : repo_(repo), entries_(entries), out_(out) {}

  // Compares `tree` (may be null) with index entries [lo, hi), all under
  // `prefix` ("" or "dir/").
  void compare(std::string& prefix, git_tree* tree, const CacheTreeNode* cache, std::size_t lo,
               std::size_t hi) {
    if (tree != nullptr && cache != nullptr && cache->valid &&
        std::memcmp(cache->oid, git_tree_id(tree)->id, kOidBytes) == 0) {
      return;  // the index holds HEAD's tree here
    }
    std::size_t count = tree != nullptr ? git_tree_entrycount(tree) : 0;
    std::size_t t = 0;
    std::size_t i = lo;
    while (t < count || i < hi) {
      std::string_view index_name;
      bool index_dir = false;
      std::size_t next = i;
      if (i < hi) {
        std::string_view rest = entries_[i].path.substr(prefix.size());
        auto slash = rest.find('/');
        index_dir = slash != std::string_view::npos;
        index_name = index_dir ? rest.substr(0, slash) : rest;
        next = i + 1;
        while (index_dir && next < hi &&
               under(entries_[next].path.substr(prefix.size()), index_name))
          ++next;
      }
      const git_tree_entry* entry = t < count ? git_tree_entry_byindex(tree, t) : nullptr;
      int cmp = entry == nullptr ? 1
                : i >= hi        ? -1
                          : compare_names(git_tree_entry_name(entry), is_tree(entry), index_name,
                                          index_dir);
      std::size_t mark = prefix.size();
      if (cmp < 0) {  // only in HEAD: removed from the index
        prefix += git_tree_entry_name(entry);
        if (is_tree(entry)) {
          lg2::Tree child = subtree(repo_, entry);
          prefix += '/';
          visit_tree(repo_, child.get(), prefix,
                     [&](const std::string& path, const FileState& state) {
                       out_[path] = {state, {}};
                     });
        } else if (FileState state = entry_state(entry); state.present()) {
          out_[prefix] = {std::move(state), {}};
        }
        ++t;
      } else if (cmp > 0) {  // only in the index: added to it
        for (std::size_t k = i; k < next; ++k) {
          if (FileState state = index_entry_state(entries_[k]); state.present()) {
            out_[std::string(entries_[k].path)] = {{}, std::move(state)};
          }
        }
        i = next;
      } else if (index_dir) {
        lg2::Tree child = subtree(repo_, entry);
        const CacheTreeNode* child_cache = nullptr;
        if (cache != nullptr) {
          auto found = cache->children.find(index_name);
          if (found != cache->children.end()) child_cache = &found->second;
        }
        prefix.append(index_name).append("/");
        compare(prefix, child.get(), child_cache, i, next);
        ++t;
        i = next;
      } else {
        FileState head = entry_state(entry);
        FileState index = index_entry_state(entries_[i]);
        if (head != index)
          out_[std::string(entries_[i].path)] = {std::move(head), std::move(index)};
        ++t;
        i = next;
      }
      prefix.resize(mark);
    }
  }

 private:
  static bool under(std::string_view rest, std::string_view dir) {
    return rest.size() > dir.size() && rest[dir.size()] == '/' && rest.substr(0, dir.size()) == dir;
  }

  git_repository* repo_;
  const std::vector<IndexEntry>& entries_;
  StagedMap& out_;
};

}  // namespace

StagedMap staged_changes(git_repository* repo, git_tree* head, const IndexFile& index) {
  StagedMap staged;
  StagedWalk walk(repo, index.entries(), staged);
  std::string prefix;
  walk.compare(prefix, head, index.cache_tree(), 0, index.entries().size());
  return staged;
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
  return entry_state(entry.get());
}

void for_each_tree_file(git_repository* repo, git_tree* tree, const std::string& prefix,
                        const std::function<void(const std::string&, const FileState&)>& visit) {
  if (tree == nullptr) return;
  if (prefix.empty()) {
    std::string path;
    visit_tree(repo, tree, path, visit);
    return;
  }
  git_tree_entry* raw = nullptr;
  int rc = git_tree_entry_bypath(&raw, tree, prefix.c_str());
  if (rc == GIT_ENOTFOUND) {
    git_error_clear();
    return;
  }
  lg2::check(rc, "look up " + prefix);
  lg2::TreeEntry entry(raw);
  if (!is_tree(entry.get())) {
    if (FileState state = entry_state(entry.get()); state.present()) visit(prefix, state);
    return;
  }
  lg2::Tree child = subtree(repo, entry.get());
  std::string path = prefix + "/";
  visit_tree(repo, child.get(), path, visit);
}

}  // namespace mission::daemon::git
