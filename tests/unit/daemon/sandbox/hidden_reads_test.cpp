#include "daemon/sandbox/hidden_reads.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "daemon/sandbox/secret_paths.hpp"
#include "support/temp_dir.hpp"

using mission::daemon::sandbox::hide_reads;
using mission::daemon::sandbox::kMaxReadRules;
using mission::daemon::sandbox::Profile;
using mission::daemon::sandbox::secret_paths;
namespace fs = std::filesystem;

namespace {

void touch(const fs::path& file) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << "x\n";
}

bool has(const std::vector<fs::path>& paths, const fs::path& path) {
  return std::find(paths.begin(), paths.end(), path) != paths.end();
}

// Whether the profile reads `path`, as a folder or a file.
bool reads(const Profile& profile, const fs::path& path) {
  return has(profile.readable_trees, path) || has(profile.readable_files, path);
}

// A HOME with a key, a note and a dotfile folder, beside a worktree.
struct Tree {
  mission::test::TempDir dir;
  fs::path root = fs::canonical(dir.path());
  fs::path home = root / "home";
  fs::path work = root / "work";
  Tree() {
    touch(home / ".ssh/id_ed25519");
    touch(home / "notes.txt");
    touch(home / ".config/tool/settings");
    fs::create_directories(work);
  }
};

}  // namespace

TEST_CASE("hiding a path opens every entry on its way but it and its ancestors") {
  Tree tree;
  fs::create_directory_symlink(tree.home / ".ssh", tree.home / "keys");
  Profile profile;
  profile.writable_trees = {tree.work};
  hide_reads({tree.home / ".ssh", tree.home / ".aws"}, {}, profile);

  CHECK(profile.hidden == std::vector<fs::path>{tree.home / ".ssh"});
  CHECK(profile.secrets_not_hidden.empty());
  CHECK(has(profile.readable_files, tree.home / "notes.txt"));
  CHECK(has(profile.readable_trees, tree.home / ".config"));
  CHECK(has(profile.readable_trees, tree.work));
  CHECK(has(profile.readable_trees, "/usr"));
  // Neither the hidden path, nor a folder on its way (a rule there would
  // open it), nor a link (it would name the hidden path).
  for (const fs::path& closed : {tree.home / ".ssh", tree.home, tree.root, fs::path("/"),
                                 tree.home / "keys", tree.root.parent_path()}) {
    INFO(closed);
    CHECK_FALSE(reads(profile, closed));
  }
}

TEST_CASE("a hidden path inside a writable folder stays readable and the profile says so") {
  Tree tree;
  Profile profile;
  profile.writable_trees = {tree.home};
  hide_reads({tree.home / ".ssh"}, {}, profile);
  CHECK(profile.hidden.empty());
  CHECK_FALSE(reads(profile, tree.home / "notes.txt"));
  CHECK(profile.secrets_not_hidden ==
        "inside a folder the agent writes: " + (tree.home / ".ssh").string());
}

TEST_CASE("nothing is hidden past kMaxReadRules entries on the way") {
  Tree tree;
  for (std::size_t i = 0; i <= kMaxReadRules; ++i) touch(tree.home / ("file-" + std::to_string(i)));
  Profile profile;
  hide_reads({tree.home / ".ssh"}, {}, profile);
  CHECK(profile.hidden.empty());
  CHECK_FALSE(reads(profile, tree.home / "notes.txt"));
  CHECK(profile.secrets_not_hidden.find("more than " + std::to_string(kMaxReadRules)) !=
        std::string::npos);
}

TEST_CASE("a readable path beneath a hidden one gets a rule of its own, absent paths none") {
  Tree tree;
  const fs::path own = tree.home / ".ssh/own";
  fs::create_directories(own);
  Profile profile;
  hide_reads({tree.home / ".ssh", tree.root / "missing"}, {own, tree.root / "gone"}, profile);
  CHECK(profile.hidden == std::vector<fs::path>{tree.home / ".ssh"});
  CHECK(has(profile.readable_trees, own));
  CHECK_FALSE(reads(profile, tree.root / "gone"));
}

TEST_CASE("an agent CLI's login is hidden from every adapter but its own") {
  const fs::path home = "/home/person";
  const auto for_codex = secret_paths(home, "codex");
  const auto for_claude = secret_paths(home, "claude-code");
  CHECK(has(for_codex, home / ".ssh"));
  CHECK(has(for_codex, home / ".claude/.credentials.json"));
  CHECK_FALSE(has(for_codex, home / ".codex/auth.json"));
  CHECK(has(for_claude, home / ".codex/auth.json"));
  CHECK_FALSE(has(for_claude, home / ".claude/.credentials.json"));
  CHECK(secret_paths("relative", "codex").empty());
}
