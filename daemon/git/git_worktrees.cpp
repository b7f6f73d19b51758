// libgit2 implementations of worktrees.hpp, in the git module.

#include "daemon/git/git_worktrees.hpp"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <set>
#include <string_view>

#include "daemon/git/libgit2_handles.hpp"
#include "shared/error_code.hpp"

namespace mission::daemon::git {
namespace {

using Reference = std::unique_ptr<git_reference, lg2::Deleter<git_reference, git_reference_free>>;
using Object = std::unique_ptr<git_object, lg2::Deleter<git_object, git_object_free>>;
using Worktree = std::unique_ptr<git_worktree, lg2::Deleter<git_worktree, git_worktree_free>>;

// The repository of the main work tree, whichever work tree `path` is in.
lg2::Repository open_main(const std::string& path) {
  lg2::Repository repo = lg2::open_repository(path);
  if (!git_repository_is_worktree(repo.get())) return repo;
  const std::string common = git_repository_commondir(repo.get());
  return lg2::open_repository(common);
}

// Whether a revision names a commit by searching commit messages (":/text",
// "rev^{/text}"). libgit2 1.5 keeps the match data of each search that
// finds nothing (git_regexp_search returns before freeing it), about 20 KiB
// a call: an agent repeating such a base would grow the daemon without
// bound. Bases are branches, tags and commit ids; these are refused.
bool searches_messages(std::string_view spec) {
  return spec.rfind(":/", 0) == 0 || spec.find("^{/") != std::string_view::npos;
}

lg2::Commit commit_of(git_repository* repo, const std::string& spec, const std::string& what) {
  if (searches_messages(spec)) {
    throw MissionError(ErrorCode::invalid_argument,
                       what + " '" + spec + "' searches commit messages",
                       "name a branch, a tag or a commit id");
  }
  git_object* object = nullptr;
  lg2::check(git_revparse_single(&object, repo, spec.c_str()),
             "cannot resolve " + what + " '" + spec + "'");
  Object owned(object);
  git_object* peeled = nullptr;
  lg2::check(git_object_peel(&peeled, object, GIT_OBJECT_COMMIT),
             what + " '" + spec + "' is not a commit");
  return lg2::Commit(reinterpret_cast<git_commit*>(peeled));
}

std::optional<git_oid> branch_tip(git_repository* repo, const std::string& branch) {
  git_reference* raw = nullptr;
  if (git_branch_lookup(&raw, repo, branch.c_str(), GIT_BRANCH_LOCAL) < 0) {
    // A base may also be a tag or a commit, never a search of messages.
    if (searches_messages(branch)) return std::nullopt;
    git_object* object = nullptr;
    if (git_revparse_single(&object, repo, branch.c_str()) < 0) return std::nullopt;
    Object owned(object);
    git_object* peeled = nullptr;
    if (git_object_peel(&peeled, object, GIT_OBJECT_COMMIT) < 0) return std::nullopt;
    git_oid oid = *git_object_id(peeled);
    git_object_free(peeled);
    return oid;
  }
  Reference ref(raw);
  git_reference* resolved = nullptr;
  if (git_reference_resolve(&resolved, ref.get()) < 0) return std::nullopt;
  git_oid oid = *git_reference_target(resolved);
  git_reference_free(resolved);
  return oid;
}

// The paths a merged index leaves in conflict, sorted; empty when clean.
std::vector<std::string> conflict_paths(git_index* index) {
  if (!git_index_has_conflicts(index)) return {};
  git_index_conflict_iterator* iterator = nullptr;
  lg2::check(git_index_conflict_iterator_new(&iterator, index),
             "cannot read the merge's conflicts");
  std::set<std::string> paths;
  const git_index_entry* ancestor_entry = nullptr;
  const git_index_entry* our_entry = nullptr;
  const git_index_entry* their_entry = nullptr;
  while (git_index_conflict_next(&ancestor_entry, &our_entry, &their_entry, iterator) == 0) {
    for (const git_index_entry* entry : {ancestor_entry, our_entry, their_entry}) {
      if (entry) {
        paths.insert(entry->path);
        break;
      }
    }
  }
  git_index_conflict_iterator_free(iterator);
  return {paths.begin(), paths.end()};
}

// Adding and pruning worktrees read every other worktree's HEAD (libgit2
// refuses a branch "already checked out" elsewhere), and a worktree being
// added has no HEAD yet: two at once on the pool's threads made one fail.
// One at a time, in this process.
std::mutex& worktree_mutex() {
  static std::mutex mutex;
  return mutex;
}

using Signature = std::unique_ptr<git_signature, lg2::Deleter<git_signature, git_signature_free>>;

// The repository's configured identity, else mission's own: a run must
// commit on a machine where nobody set user.name (a CI runner as root).
Signature signature_for(git_repository* repo) {
  git_signature* raw = nullptr;
  if (git_signature_default(&raw, repo) == 0) return Signature(raw);
  lg2::check(git_signature_now(&raw, "mission", "mission@localhost"),
             "cannot make a commit signature");
  return Signature(raw);
}

// Moves refs/heads/`branch` from `expected` to `target`, failing (naming
// the branch) if it moved meanwhile.
// The names of the repository's remotes, read from its config.
// git_remote_list would give them, but libgit2 1.5 matches each config
// entry against a regex there and keeps some 20 KiB of match data for
// every entry that does not match: each worktree made leaked it.
std::set<std::string> remote_names(git_repository* repo) {
  std::set<std::string> names;
  git_config* config = nullptr;
  if (git_repository_config_snapshot(&config, repo) != 0) return names;
  git_config_iterator* entries = nullptr;
  if (git_config_iterator_new(&entries, config) == 0) {
    git_config_entry* entry = nullptr;
    while (git_config_next(&entry, entries) == 0) {
      // remote.<name>.url or remote.<name>.pushurl; a name may hold dots.
      std::string_view key = entry->name;
      if (!key.starts_with("remote.")) continue;
      key.remove_prefix(7);
      for (std::string_view suffix : {".url", ".pushurl"}) {
        if (key.size() > suffix.size() && key.ends_with(suffix)) {
          names.emplace(key.substr(0, key.size() - suffix.size()));
        }
      }
    }
    git_config_iterator_free(entries);
  }
  git_config_free(config);
  return names;
}

// A branch named after a remote ("origin/main") or a tag would be taken
// for it, or hide it, wherever git resolves a name: refused.
void require_unshadowed(git_repository* repo, const std::string& branch) {
  auto refuse = [&](const std::string& what) {
    throw MissionError(
        ErrorCode::invalid_argument, "branch '" + branch + "' would be read as " + what,
        "name a branch of your own, or leave branch out for mission's own", {{"field", "branch"}});
  };
  for (const std::string& remote : remote_names(repo)) {
    if (branch == remote || branch.starts_with(remote + "/"))
      refuse("a ref of the remote '" + remote + "'");
  }
  git_reference* tag = nullptr;
  if (git_reference_lookup(&tag, repo, ("refs/tags/" + branch).c_str()) == 0) {
    git_reference_free(tag);
    refuse("the tag of the same name");
  }
}

}  // namespace

WorktreeCreated add_git_worktree(const WorktreeSpec& spec) {
  std::lock_guard<std::mutex> one_at_a_time(worktree_mutex());
  lg2::Repository repo = open_main(spec.repository);
  const char* workdir = git_repository_workdir(repo.get());
  if (workdir == nullptr) lg2::fail("the repository at " + spec.repository + " is bare");
  WorktreeCreated created;
  created.repository = std::filesystem::path(workdir).lexically_normal().string();
  if (!created.repository.empty() && created.repository.back() == '/')
    created.repository.pop_back();
  std::string base = spec.base;
  if (base.empty()) {
    git_reference* head = nullptr;
    lg2::check(git_repository_head(&head, repo.get()), "the repository has no HEAD commit");
    Reference owned(head);
    base = git_reference_is_branch(head) ? git_reference_shorthand(head)
                                         : lg2::oid_hex(*git_reference_target(head));
  }
  require_unshadowed(repo.get(), spec.branch);
  lg2::Commit base_commit = commit_of(repo.get(), base, "base");
  created.base_ref = base;
  created.base_commit = lg2::oid_hex(*git_commit_id(base_commit.get()));
  git_reference* branch = nullptr;
  lg2::check(git_branch_create(&branch, repo.get(), spec.branch.c_str(), base_commit.get(), 0),
             "cannot create branch '" + spec.branch + "'");
  Reference branch_ref(branch);
  git_worktree_add_options options = GIT_WORKTREE_ADD_OPTIONS_INIT;
  options.ref = branch;
  git_worktree* worktree = nullptr;
  if (git_worktree_add(&worktree, repo.get(), spec.name.c_str(), spec.path.c_str(), &options) < 0) {
    const git_error* last = git_error_last();
    std::string why = last && last->message ? last->message : "unknown";
    git_branch_delete(branch);  // leave nothing half made
    throw MissionError(ErrorCode::git_error,
                       "git: cannot add worktree at " + spec.path + ": " + why,
                       "choose a path that does not exist, in a writable directory");
  }
  Worktree owned(worktree);
  created.path = spec.path;
  created.branch = spec.branch;
  return created;
}

void remove_git_worktree(const std::string& repository, const std::string& name,
                         const std::string& branch, bool delete_branch) {
  std::lock_guard<std::mutex> one_at_a_time(worktree_mutex());
  lg2::Repository repo = open_main(repository);
  git_worktree* raw = nullptr;
  if (git_worktree_lookup(&raw, repo.get(), name.c_str()) == 0) {
    Worktree worktree(raw);
    git_worktree_prune_options options = GIT_WORKTREE_PRUNE_OPTIONS_INIT;
    options.flags =
        GIT_WORKTREE_PRUNE_VALID | GIT_WORKTREE_PRUNE_LOCKED | GIT_WORKTREE_PRUNE_WORKING_TREE;
    lg2::check(git_worktree_prune(worktree.get(), &options), "cannot remove worktree " + name);
  }
  if (!delete_branch) return;
  git_reference* ref = nullptr;
  if (git_branch_lookup(&ref, repo.get(), branch.c_str(), GIT_BRANCH_LOCAL) == 0) {
    Reference owned(ref);
    lg2::check(git_branch_delete(ref), "cannot delete branch " + branch);
  }
}

std::optional<std::string> git_main_work_tree(const std::string& path) {
  lg2::ensure_initialized();
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, path.c_str(), 0, nullptr) < 0) return std::nullopt;
  lg2::Repository repo(raw);
  if (git_repository_is_worktree(repo.get()))
    repo = lg2::open_repository(git_repository_commondir(repo.get()));
  const char* workdir = git_repository_workdir(repo.get());
  if (workdir == nullptr) return std::nullopt;
  std::string out = std::filesystem::path(workdir).lexically_normal().string();
  if (!out.empty() && out.back() == '/') out.pop_back();
  return out;
}

bool git_branch_merged(const std::string& repository, const std::string& branch,
                       const std::string& base_ref, const std::string& base_commit) {
  lg2::Repository repo = open_main(repository);
  auto tip = branch_tip(repo.get(), branch);
  auto base = branch_tip(repo.get(), base_ref);
  if (!tip || !base) return false;
  if (lg2::oid_hex(*tip) == base_commit) return false;  // nothing was done on it yet
  if (git_oid_equal(&*tip, &*base)) return true;
  return git_graph_descendant_of(repo.get(), &*base, &*tip) == 1;
}

std::vector<std::string> git_changed_paths(const std::string& work_tree,
                                           const std::string& base_commit) {
  lg2::Repository repo = lg2::open_repository(work_tree);
  git_oid oid;
  lg2::check(git_oid_fromstr(&oid, base_commit.c_str()), "bad base commit " + base_commit);
  lg2::Tree base = lg2::commit_tree(repo.get(), oid);
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  options.flags = GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS;
  git_diff* raw = nullptr;
  lg2::check(git_diff_tree_to_workdir_with_index(&raw, repo.get(), base.get(), &options),
             "cannot diff " + work_tree + " against its base");
  lg2::Diff diff(raw);
  return lg2::diff_paths(diff.get());
}

namespace {

std::string_view delta_status(git_delta_t status) {
  switch (status) {
    case GIT_DELTA_ADDED:
    case GIT_DELTA_UNTRACKED:
    case GIT_DELTA_COPIED:
      return "added";
    case GIT_DELTA_DELETED:
      return "deleted";
    case GIT_DELTA_RENAMED:
      return "renamed";
    case GIT_DELTA_TYPECHANGE:
      return "type_changed";
    default:
      return "modified";
  }
}

// Appends `text` to `patch` within `budget` bytes, cut after its last whole
// line that fits; false when something was cut.
bool append_within(std::string& patch, std::string_view text, std::size_t budget) {
  if (patch.size() + text.size() <= budget) {
    patch.append(text);
    return true;
  }
  std::string_view fits = text.substr(0, budget - patch.size());
  if (auto newline = fits.rfind('\n'); newline != std::string_view::npos) {
    patch.append(fits.substr(0, newline + 1));
  }
  return false;
}

}  // namespace

namespace {

// `diff` file by file, renames found, with the unified diff of `paths`
// (all when empty) cut at `patch_bytes`; `what` names it in errors.
WorkTreeDiff collect_diff(git_diff* diff, const std::vector<std::string>& paths,
                          std::size_t patch_bytes, const std::string& what) {
  git_diff_find_options similar = GIT_DIFF_FIND_OPTIONS_INIT;
  similar.flags = GIT_DIFF_FIND_RENAMES | GIT_DIFF_FIND_FOR_UNTRACKED;
  lg2::check(git_diff_find_similar(diff, &similar), "cannot find renames in " + what);
  WorkTreeDiff out;
  const std::set<std::string> wanted(paths.begin(), paths.end());
  const std::size_t count = git_diff_num_deltas(diff);
  for (std::size_t i = 0; i < count; ++i) {
    git_patch* raw_patch = nullptr;
    lg2::check(git_patch_from_diff(&raw_patch, diff, i), "cannot read the diff of " + what);
    lg2::Patch patch(raw_patch);
    const git_diff_delta* delta = git_patch_get_delta(patch.get());
    WorkTreeFile file;
    file.path = delta->new_file.path ? delta->new_file.path : delta->old_file.path;
    file.status = delta_status(delta->status);
    if (delta->status == GIT_DELTA_RENAMED && delta->old_file.path)
      file.old_path = delta->old_file.path;
    file.binary = (delta->flags & GIT_DIFF_FLAG_BINARY) != 0;
    std::size_t context = 0;
    lg2::check(git_patch_line_stats(&context, &file.additions, &file.deletions, patch.get()),
               "cannot count the lines of " + file.path);
    const bool in_patch = wanted.empty() || wanted.count(file.path) ||
                          (file.old_path && wanted.count(*file.old_path));
    if (patch_bytes > 0 && in_patch && !out.patch_truncated) {
      git_buf text = GIT_BUF_INIT;
      lg2::check(git_patch_to_buf(&text, patch.get()), "cannot print the diff of " + file.path);
      const bool whole =
          append_within(out.patch, std::string_view(text.ptr, text.size), patch_bytes);
      git_buf_dispose(&text);
      if (!whole) out.patch_truncated = true;
    }
    out.files.push_back(std::move(file));
  }
  std::sort(out.files.begin(), out.files.end(),
            [](const WorkTreeFile& a, const WorkTreeFile& b) { return a.path < b.path; });
  return out;
}

}  // namespace

WorkTreeDiff git_work_tree_diff(const std::string& work_tree, const std::string& base_commit,
                                const std::vector<std::string>& paths, std::size_t patch_bytes) {
  lg2::Repository repo = lg2::open_repository(work_tree);
  git_oid oid;
  lg2::check(git_oid_fromstr(&oid, base_commit.c_str()), "bad base commit " + base_commit);
  lg2::Tree base = lg2::commit_tree(repo.get(), oid);
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  options.flags = GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS |
                  GIT_DIFF_SHOW_UNTRACKED_CONTENT;
  git_diff* raw = nullptr;
  lg2::check(git_diff_tree_to_workdir_with_index(&raw, repo.get(), base.get(), &options),
             "cannot diff " + work_tree + " against its base");
  lg2::Diff diff(raw);
  return collect_diff(diff.get(), paths, patch_bytes, work_tree);
}

WorkTreeDiff git_task_diff(const std::string& repository, const std::string& base_commit,
                           const std::string& tip, std::size_t patch_bytes) {
  lg2::Repository repo = open_main(repository);
  git_object* raw_tip = nullptr;
  lg2::check(git_revparse_single(&raw_tip, repo.get(), tip.c_str()),
             "cannot find " + tip + " in " + repository);
  git_commit* raw_commit = nullptr;
  const int peeled =
      git_object_peel(reinterpret_cast<git_object**>(&raw_commit), raw_tip, GIT_OBJECT_COMMIT);
  git_object_free(raw_tip);
  lg2::check(peeled, tip + " is not a commit");
  lg2::Commit commit(raw_commit);
  // A merge commit brought in what its second parent holds beyond its
  // first; any other tip (a fast-forward, a branch not merged) is the
  // task's own commits since it started.
  git_oid from;
  if (git_commit_parentcount(commit.get()) >= 2) {
    git_oid_cpy(&from, git_commit_parent_id(commit.get(), 0));
  } else {
    lg2::check(git_oid_fromstr(&from, base_commit.c_str()), "bad base commit " + base_commit);
  }
  lg2::Tree old_tree = lg2::commit_tree(repo.get(), from);
  lg2::Tree new_tree = lg2::commit_tree(repo.get(), *git_commit_id(commit.get()));
  git_diff_options options = GIT_DIFF_OPTIONS_INIT;
  git_diff* raw = nullptr;
  lg2::check(git_diff_tree_to_tree(&raw, repo.get(), old_tree.get(), new_tree.get(), &options),
             "cannot diff " + tip + " in " + repository);
  lg2::Diff diff(raw);
  return collect_diff(diff.get(), {}, patch_bytes, repository);
}

bool git_work_tree_dirty(const std::string& work_tree) {
  lg2::ensure_initialized();
  std::error_code ignored;
  if (!std::filesystem::exists(work_tree, ignored)) return false;
  lg2::Repository repo = lg2::open_repository(work_tree);
  git_status_options options = GIT_STATUS_OPTIONS_INIT;
  options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
  options.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED;
  git_status_list* raw = nullptr;
  lg2::check(git_status_list_new(&raw, repo.get(), &options),
             "cannot read the status of " + work_tree);
  lg2::StatusList list(raw);
  return git_status_list_entrycount(list.get()) > 0;
}

TrialMerge git_trial_merge(const std::string& repository, const std::string& ours,
                           const std::string& theirs) {
  lg2::Repository repo = open_main(repository);
  auto our_tip = branch_tip(repo.get(), ours);
  auto their_tip = branch_tip(repo.get(), theirs);
  if (!our_tip || !their_tip) lg2::fail("cannot find branch " + (our_tip ? theirs : ours));
  git_oid base_id;
  lg2::check(git_merge_base(&base_id, repo.get(), &*our_tip, &*their_tip),
             "branches " + ours + " and " + theirs + " share no history");
  lg2::Tree ancestor = lg2::commit_tree(repo.get(), base_id);
  lg2::Tree our_tree = lg2::commit_tree(repo.get(), *our_tip);
  lg2::Tree their_tree = lg2::commit_tree(repo.get(), *their_tip);
  git_merge_options options = GIT_MERGE_OPTIONS_INIT;
  git_index* raw = nullptr;
  lg2::check(
      git_merge_trees(&raw, repo.get(), ancestor.get(), our_tree.get(), their_tree.get(), &options),
      "cannot merge " + ours + " and " + theirs + " on trial");
  lg2::Index index(raw);
  TrialMerge out;
  out.conflicts = conflict_paths(index.get());
  out.clean = out.conflicts.empty();
  return out;
}

std::optional<std::string> git_commit_work_tree(const std::string& work_tree,
                                                const std::string& message) {
  if (!git_work_tree_dirty(work_tree)) return std::nullopt;
  lg2::Repository repo = lg2::open_repository(work_tree);
  git_index* raw = nullptr;
  lg2::check(git_repository_index(&raw, repo.get()), "cannot read the index of " + work_tree);
  lg2::Index index(raw);
  git_strarray everything = {nullptr, 0};
  lg2::check(git_index_add_all(index.get(), &everything, GIT_INDEX_ADD_DEFAULT, nullptr, nullptr),
             "cannot stage the edits in " + work_tree);
  lg2::check(git_index_update_all(index.get(), &everything, nullptr, nullptr),
             "cannot stage the deletions in " + work_tree);
  lg2::check(git_index_write(index.get()), "cannot write the index of " + work_tree);
  git_oid tree_id;
  lg2::check(git_index_write_tree(&tree_id, index.get()), "cannot write the tree of " + work_tree);
  git_reference* head = nullptr;
  lg2::check(git_repository_head(&head, repo.get()), work_tree + " has no HEAD commit");
  Reference head_ref(head);
  git_oid parent_id = *git_reference_target(head);
  lg2::Commit parent(nullptr);
  {
    git_commit* commit = nullptr;
    lg2::check(git_commit_lookup(&commit, repo.get(), &parent_id),
               "cannot read HEAD of " + work_tree);
    parent.reset(commit);
  }
  // Only ignored files changed: nothing to commit.
  if (git_oid_equal(&tree_id, git_commit_tree_id(parent.get()))) return std::nullopt;
  git_tree* tree_raw = nullptr;
  lg2::check(git_tree_lookup(&tree_raw, repo.get(), &tree_id),
             "cannot read the new tree of " + work_tree);
  lg2::Tree tree(tree_raw);
  Signature signature = signature_for(repo.get());
  const git_commit* parents[] = {parent.get()};
  git_oid commit_id;
  lg2::check(git_commit_create(&commit_id, repo.get(), "HEAD", signature.get(), signature.get(),
                               nullptr, message.c_str(), tree.get(), 1, parents),
             "cannot commit the edits in " + work_tree);
  return lg2::oid_hex(commit_id);
}

PlannedMerge git_plan_merge(const std::string& repository, const std::string& into,
                            const std::string& from, const std::string& message) {
  lg2::Repository repo = open_main(repository);
  auto into_tip = branch_tip(repo.get(), into);
  auto from_tip = branch_tip(repo.get(), from);
  if (!into_tip || !from_tip) lg2::fail("cannot find branch " + (into_tip ? from : into));
  PlannedMerge out;
  out.onto = lg2::oid_hex(*into_tip);
  auto finish = [&](const git_oid& commit) {
    out.commit = lg2::oid_hex(commit);
    out.tree = lg2::oid_hex(*git_tree_id(lg2::commit_tree(repo.get(), commit).get()));
    return out;
  };
  if (git_oid_equal(&*into_tip, &*from_tip) ||
      git_graph_descendant_of(repo.get(), &*into_tip, &*from_tip) == 1) {
    return finish(*into_tip);  // already in
  }
  if (git_graph_descendant_of(repo.get(), &*from_tip, &*into_tip) == 1) return finish(*from_tip);
  git_oid base_id;
  lg2::check(git_merge_base(&base_id, repo.get(), &*into_tip, &*from_tip),
             "branches " + into + " and " + from + " share no history");
  lg2::Tree ancestor = lg2::commit_tree(repo.get(), base_id);
  lg2::Tree our_tree = lg2::commit_tree(repo.get(), *into_tip);
  lg2::Tree their_tree = lg2::commit_tree(repo.get(), *from_tip);
  git_merge_options options = GIT_MERGE_OPTIONS_INIT;
  git_index* raw = nullptr;
  lg2::check(
      git_merge_trees(&raw, repo.get(), ancestor.get(), our_tree.get(), their_tree.get(), &options),
      "cannot merge " + from + " into " + into);
  lg2::Index index(raw);
  out.conflicts = conflict_paths(index.get());
  if (!out.conflicts.empty()) return out;
  git_oid tree_id;
  lg2::check(git_index_write_tree_to(&tree_id, index.get(), repo.get()),
             "cannot write the merged tree");
  git_tree* tree_raw = nullptr;
  lg2::check(git_tree_lookup(&tree_raw, repo.get(), &tree_id), "cannot read the merged tree");
  lg2::Tree tree(tree_raw);
  git_commit* ours_raw = nullptr;
  git_commit* theirs_raw = nullptr;
  lg2::check(git_commit_lookup(&ours_raw, repo.get(), &*into_tip),
             "cannot read the tip of " + into);
  lg2::Commit ours(ours_raw);
  lg2::check(git_commit_lookup(&theirs_raw, repo.get(), &*from_tip),
             "cannot read the tip of " + from);
  lg2::Commit theirs(theirs_raw);
  Signature signature = signature_for(repo.get());
  const git_commit* parents[] = {ours.get(), theirs.get()};
  git_oid commit_id;
  // Written, but referenced by no branch until advance_branch moves one.
  lg2::check(git_commit_create(&commit_id, repo.get(), nullptr, signature.get(), signature.get(),
                               nullptr, message.c_str(), tree.get(), 2, parents),
             "cannot write the merge commit of " + from);
  return finish(commit_id);
}

bool git_advance_branch(const std::string& repository, const std::string& branch,
                        const std::string& commit, const std::string& expected) {
  lg2::Repository repo = open_main(repository);
  if (commit == expected) return true;
  git_oid target;
  git_oid seen;
  lg2::check(git_oid_fromstr(&target, commit.c_str()), "not a commit id: " + commit);
  lg2::check(git_oid_fromstr(&seen, expected.c_str()), "not a commit id: " + expected);
  git_reference* moved = nullptr;
  const int rc = git_reference_create_matching(&moved, repo.get(), ("refs/heads/" + branch).c_str(),
                                               &target, 1, &seen, "mission: merge");
  if (rc == GIT_EMODIFIED) return false;
  lg2::check(rc, "cannot move branch " + branch);
  git_reference_free(moved);
  return true;
}

bool git_branch_contains(const std::string& repository, const std::string& branch,
                         const std::string& commit) {
  lg2::Repository repo = open_main(repository);
  auto tip = branch_tip(repo.get(), branch);
  git_oid id;
  if (!tip || git_oid_fromstr(&id, commit.c_str()) != 0) return false;
  return git_oid_equal(&*tip, &id) || git_graph_descendant_of(repo.get(), &*tip, &id) == 1;
}

BranchMerge git_merge_branch(const std::string& repository, const std::string& into,
                             const std::string& from, const std::string& message) {
  PlannedMerge planned = git_plan_merge(repository, into, from, message);
  BranchMerge out;
  out.conflicts = std::move(planned.conflicts);
  if (!out.conflicts.empty()) return out;
  if (!git_advance_branch(repository, into, planned.commit, planned.onto)) {
    lg2::fail("branch " + into + " moved while mission merged into it; run again");
  }
  out.merged = true;
  out.commit = planned.commit;
  return out;
}

MadeRefs git_made_refs(const std::string& repository, const std::string& name_prefix,
                       const std::string& branch_prefix) {
  std::lock_guard<std::mutex> one_at_a_time(worktree_mutex());
  lg2::Repository repo = open_main(repository);
  MadeRefs out;
  git_strarray names{};
  lg2::check(git_worktree_list(&names, repo.get()), "cannot list the worktrees of " + repository);
  for (std::size_t i = 0; i < names.count; ++i) {
    const std::string name = names.strings[i];
    if (!name.starts_with(name_prefix)) continue;
    git_worktree* raw = nullptr;
    if (git_worktree_lookup(&raw, repo.get(), name.c_str()) != 0) continue;
    Worktree worktree(raw);
    MadeRefs::Worktree item;
    item.name = name;
    item.path = git_worktree_path(worktree.get());
    item.dirty = git_work_tree_dirty(item.path);
    out.worktrees.push_back(std::move(item));
  }
  git_strarray_dispose(&names);

  // Every other branch's tip, to tell whether a made branch's commits are
  // held by one of them.
  std::vector<std::pair<std::string, git_oid>> tips;
  git_branch_iterator* iterator = nullptr;
  lg2::check(git_branch_iterator_new(&iterator, repo.get(), GIT_BRANCH_LOCAL),
             "cannot list the branches");
  git_reference* ref = nullptr;
  git_branch_t type{};
  while (git_branch_next(&ref, &type, iterator) == 0) {
    Reference owned(ref);
    const char* name = nullptr;
    if (git_branch_name(&name, ref) != 0 || git_reference_target(ref) == nullptr) continue;
    tips.emplace_back(name, *git_reference_target(ref));
  }
  git_branch_iterator_free(iterator);
  for (const auto& [name, tip] : tips) {
    if (!name.starts_with(branch_prefix)) continue;
    MadeRefs::Branch item;
    item.name = name;
    for (const auto& [other, other_tip] : tips) {
      if (other == name || other.starts_with(branch_prefix)) continue;
      if (git_oid_equal(&tip, &other_tip) == 1 ||
          git_graph_descendant_of(repo.get(), &other_tip, &tip) == 1) {
        item.held_elsewhere = true;
        break;
      }
    }
    out.branches.push_back(std::move(item));
  }
  return out;
}

std::string git_ensure_branch(const std::string& repository, const std::string& branch,
                              const std::string& start, bool adopt) {
  lg2::Repository repo = open_main(repository);
  auto base_of = [&] { return commit_of(repo.get(), start.empty() ? "HEAD" : start, "base"); };
  git_reference* existing = nullptr;
  if (git_branch_lookup(&existing, repo.get(), branch.c_str(), GIT_BRANCH_LOCAL) == 0) {
    Reference owned(existing);
    auto tip = branch_tip(repo.get(), branch);
    if (!tip) lg2::fail("branch " + branch + " points at no commit");
    // A branch still at the base holds nothing anyone added: it is what a
    // start killed before its run was recorded left behind.
    if (!adopt && git_oid_cmp(&*tip, git_commit_id(base_of().get())) != 0) {
      throw MissionError(ErrorCode::invalid_argument,
                         "branch " + branch +
                             " exists, but mission did not make it: a run builds only on a "
                             "branch an earlier run of the same workflow made",
                         "delete or rename it (git branch -m " + branch + " NEW), then run again",
                         {{"branch", branch}});
    }
    return lg2::oid_hex(*tip);
  }
  lg2::Commit base = base_of();
  git_reference* created = nullptr;
  lg2::check(git_branch_create(&created, repo.get(), branch.c_str(), base.get(), 0),
             "cannot create branch '" + branch + "'");
  git_reference_free(created);
  return lg2::oid_hex(*git_commit_id(base.get()));
}

}  // namespace mission::daemon::git
