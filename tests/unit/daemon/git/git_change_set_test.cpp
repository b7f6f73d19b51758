// Change sets in real git repositories, built with the git CLI in temp
// dirs: what counts between take_snapshot and compute_change_set (commits,
// amends, resets, edits, untracked files, renames) and what does not (files
// dirty before the start, reverted edits, ignored files).

#include <fcntl.h>
#include <git2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "daemon/git/change_set.hpp"
#include "shared/error_code.hpp"
#include "support/change_set_checks.hpp"
#include "support/git_repo.hpp"
#include "support/temp_dir.hpp"

using namespace mission::daemon::git;
using mission::ErrorCode;
using mission::MissionError;
using mission::test::check_changes;
using mission::test::error_code_of;
using mission::test::ExpectedChanges;
using mission::test::Paths;
using mission::test::Repo;
namespace fs = std::filesystem;

TEST_CASE("git change set: a snapshot records HEAD, the work tree root and type git") {
  Repo repo;
  Snapshot start = repo.snapshot();
  CHECK(start.type == "git");
  CHECK(start.id.size() == 40);
  CHECK(fs::equivalent(start.root, repo.root()));
  CHECK(start.root.back() != '/');
  check_changes(compute_change_set(start), {});
}

TEST_CASE("git change set: an uncommitted edit is modified") {
  Repo repo;
  Snapshot start = repo.snapshot();
  repo.write("src/app.c", "int main(void) { return 2; }\n");
  check_changes(compute_change_set(start), {{}, {"src/app.c"}, {}});
}

TEST_CASE("git change set: a staged edit is modified") {
  Repo repo;
  Snapshot start = repo.snapshot();
  repo.write("src/app.c", "int main(void) { return 3; }\n");
  repo.git("add src/app.c");
  check_changes(compute_change_set(start), {{}, {"src/app.c"}, {}});
}

TEST_CASE("git change set: new untracked files count, also inside a new directory") {
  Repo repo;
  Snapshot start = repo.snapshot();
  repo.write("notes.txt", "notes\n");
  repo.write("src/new/deep/module.c", "int module;\n");
  check_changes(compute_change_set(start), {{"notes.txt", "src/new/deep/module.c"}, {}, {}});
}

TEST_CASE("git change set: an uncommitted deletion is deleted") {
  Repo repo;
  Snapshot start = repo.snapshot();
  repo.remove("docs/guide.md");
  check_changes(compute_change_set(start), {{}, {}, {"docs/guide.md"}});
}

TEST_CASE("git change set: a committed deletion is deleted") {
  Repo repo;
  Snapshot start = repo.snapshot();
  repo.git("rm -q docs/guide.md");
  repo.git("commit -q -m drop");
  check_changes(compute_change_set(start), {{}, {}, {"docs/guide.md"}});
}

TEST_CASE("git change set: a commit during the task counts by what it changes") {
  Repo repo;
  Snapshot start = repo.snapshot();
  repo.write("src/app.c", "int main(void) { return 4; }\n");
  repo.write("src/feature.c", "int feature;\n");
  repo.git("add -A");
  repo.git("commit -q -m feature");
  check_changes(compute_change_set(start), {{"src/feature.c"}, {"src/app.c"}, {}});
}

TEST_CASE("git change set: two commits and an uncommitted edit count together") {
  Repo repo;
  Snapshot start = repo.snapshot();
  repo.write("src/app.c", "int main(void) { return 5; }\n");
  repo.git("commit -q -am one");
  repo.write("src/two.c", "int two;\n");
  repo.git("add -A");
  repo.git("commit -q -m two");
  repo.write("docs/guide.md", "guide, edited\n");
  check_changes(compute_change_set(start), {{"src/two.c"}, {"docs/guide.md", "src/app.c"}, {}});
}

TEST_CASE("git change set: amending the start commit counts by the amended content") {
  Repo repo;
  Snapshot start = repo.snapshot();
  repo.write("src/util.c", "int util(void) { return 7; }\n");
  repo.write("extra.txt", "extra\n");
  repo.git("add -A");
  repo.git("commit -q --amend --no-edit");
  check_changes(compute_change_set(start), {{"extra.txt"}, {"src/util.c"}, {}});

  // A message-only amend changes no file.
  Snapshot again = repo.snapshot();
  repo.git("commit -q --amend -m reworded");
  check_changes(compute_change_set(again), {});
}

TEST_CASE("git change set: a reset or rebase onto another branch counts by the tree difference") {
  Repo repo;
  repo.git("checkout -q -b other");
  repo.write("other.txt", "from other\n");
  repo.write("README.md", "readme from other\n");
  repo.git("add -A");
  repo.git("commit -q -m other");
  repo.git("checkout -q main");
  repo.write("mine.txt", "mine\n");
  repo.git("add -A");
  repo.git("commit -q -m mine");

  SECTION("reset --hard") {
    Snapshot start = repo.snapshot();
    repo.git("reset -q --hard other");
    check_changes(compute_change_set(start), {{"other.txt"}, {"README.md"}, {"mine.txt"}});
  }
  SECTION("rebase") {
    Snapshot start = repo.snapshot();
    repo.git("rebase -q other");
    check_changes(compute_change_set(start), {{"other.txt"}, {"README.md"}, {}});
  }
}

TEST_CASE("git change set: git mv committed is a rename and a delete plus an add") {
  Repo repo;
  Snapshot start = repo.snapshot();
  repo.git("mv src/util.c src/helpers.c");
  repo.git("commit -q -m rename");
  check_changes(compute_change_set(start),
                {{"src/helpers.c"}, {}, {"src/util.c"}, {{"src/util.c", "src/helpers.c"}}});
}

TEST_CASE("git change set: git mv or a plain mv uncommitted is a rename") {
  Repo repo;
  Snapshot start = repo.snapshot();
  repo.git("mv src/util.c src/helpers.c");
  fs::rename(repo.root() / "docs/guide.md", repo.root() / "docs/manual.md");
  check_changes(compute_change_set(start),
                {{"docs/manual.md", "src/helpers.c"},
                 {},
                 {"docs/guide.md", "src/util.c"},
                 {{"docs/guide.md", "docs/manual.md"}, {"src/util.c", "src/helpers.c"}}});
}

TEST_CASE("git change set: a rename with an edit is a delete plus an add") {
  Repo repo;
  Snapshot start = repo.snapshot();
  repo.git("mv src/util.c src/helpers.c");
  repo.write("src/helpers.c", "int util(void) { return 9; }\n");
  check_changes(compute_change_set(start), {{"src/helpers.c"}, {}, {"src/util.c"}});
}

TEST_CASE("git change set: empty files are never paired as renames") {
  Repo repo;
  repo.write("empty-a.txt", "");
  repo.git("add -A");
  repo.git("commit -q -m empty");
  Snapshot start = repo.snapshot();
  repo.remove("empty-a.txt");
  repo.write("empty-b.txt", "");
  check_changes(compute_change_set(start), {{"empty-b.txt"}, {}, {"empty-a.txt"}});
}

TEST_CASE("git change set: a file dirty before the start and untouched does not count") {
  Repo repo;
  repo.write("src/app.c", "int main(void) { return 10; }\n");  // dirty, unstaged
  repo.write("src/util.c", "int util(void) { return 10; }\n");
  repo.git("add src/util.c");    // dirty, staged
  repo.remove("docs/guide.md");  // deleted before the start
  Snapshot start = repo.snapshot();
  repo.write("README.md", "readme, edited in the task\n");
  check_changes(compute_change_set(start), {{}, {"README.md"}, {}});

  // Committing the earlier edits changes no file either.
  repo.git("commit -q -am earlier");
  check_changes(compute_change_set(start), {{}, {"README.md"}, {}});
}

TEST_CASE("git change set: a file dirty before the start and edited again is modified") {
  Repo repo;
  repo.write("src/app.c", "int main(void) { return 11; }\n");
  Snapshot start = repo.snapshot();
  repo.write("src/app.c", "int main(void) { return 12; }\n");
  check_changes(compute_change_set(start), {{}, {"src/app.c"}, {}});
}

TEST_CASE("git change set: a file dirty before the start and reset to HEAD is modified") {
  Repo repo;
  repo.write("src/app.c", "int main(void) { return 13; }\n");
  Snapshot start = repo.snapshot();
  repo.git("checkout -q -- src/app.c");
  check_changes(compute_change_set(start), {{}, {"src/app.c"}, {}});
}

TEST_CASE("git change set: an untracked file from before the start and untouched does not count") {
  Repo repo;
  repo.write("scratch/todo.txt", "todo\n");
  Snapshot start = repo.snapshot();
  check_changes(compute_change_set(start), {});
  repo.write("scratch/todo.txt", "todo, done\n");
  check_changes(compute_change_set(start), {{}, {"scratch/todo.txt"}, {}});
  repo.remove("scratch/todo.txt");
  check_changes(compute_change_set(start), {{}, {}, {"scratch/todo.txt"}});
}

TEST_CASE("git change set: an edit reverted to its start content does not count") {
  Repo repo;
  Snapshot start = repo.snapshot();
  repo.write("src/app.c", "int main(void) { return 14; }\n");
  repo.git("commit -q -am change");
  repo.write("src/app.c", "int main(void) { return 0; }\n");
  check_changes(compute_change_set(start), {});
  repo.git("commit -q -am revert");
  check_changes(compute_change_set(start), {});
}

TEST_CASE("git change set: ignored files never count") {
  Repo repo;
  repo.write(".gitignore", "*.log\nbuild/\n");
  repo.git("add .gitignore");
  repo.git("commit -q -m ignore");
  repo.write("old.log", "before\n");
  Snapshot start = repo.snapshot();
  repo.write("run.log", "log\n");
  repo.write("old.log", "after\n");
  repo.write("build/out/app.o", "object\n");
  check_changes(compute_change_set(start), {});

  // A tracked file that matches an ignore pattern is still tracked.
  repo.write("kept.log", "kept\n");
  repo.git("add -f kept.log");
  repo.git("commit -q -m kept");
  Snapshot tracked = repo.snapshot();
  repo.write("kept.log", "kept, edited\n");
  check_changes(compute_change_set(tracked), {{}, {"kept.log"}, {}});

  // Untracked again while its file stays: it left the repository's view.
  Snapshot before_untrack = repo.snapshot();
  repo.git("rm -q --cached kept.log");
  check_changes(compute_change_set(before_untrack), {{}, {}, {"kept.log"}});
  repo.git("commit -q -m untrack");
  check_changes(compute_change_set(before_untrack), {{}, {}, {"kept.log"}});
}

TEST_CASE("git change set: chmod +x is a modification") {
  Repo repo;
  Snapshot start = repo.snapshot();
  fs::permissions(repo.root() / "src/app.c", fs::perms::owner_exec, fs::perm_options::add);
  check_changes(compute_change_set(start), {{}, {"src/app.c"}, {}});
  repo.git("commit -q -am exec");
  check_changes(compute_change_set(start), {{}, {"src/app.c"}, {}});
}

TEST_CASE("git change set: symlinks count by their target") {
  Repo repo;
  Snapshot start = repo.snapshot();
  fs::create_symlink("src/app.c", repo.root() / "link");
  check_changes(compute_change_set(start), {{"link"}, {}, {}});
  repo.git("add link");
  repo.git("commit -q -m link");
  Snapshot linked = repo.snapshot();
  fs::remove(repo.root() / "link");
  fs::create_symlink("src/util.c", repo.root() / "link");
  check_changes(compute_change_set(linked), {{}, {"link"}, {}});
}

TEST_CASE("git change set: an unborn repository starts from an empty tree") {
  Repo repo(false);
  repo.write("early.txt", "there before the start\n");
  Snapshot start = repo.snapshot();
  CHECK(start.type == "git");
  CHECK(start.id.empty());
  repo.write("first.txt", "first\n");
  check_changes(compute_change_set(start), {{"first.txt"}, {}, {}});
  repo.git("add -A");
  repo.git("commit -q -m first");
  check_changes(compute_change_set(start), {{"first.txt"}, {}, {}});
  repo.write("early.txt", "edited\n");
  check_changes(compute_change_set(start), {{"first.txt"}, {"early.txt"}, {}});
}

TEST_CASE("git change set: a snapshot from a subdirectory gives paths from the root") {
  Repo repo;
  Snapshot start = repo.snapshot("src");
  CHECK(fs::equivalent(start.root, repo.root()));
  repo.write("src/app.c", "int main(void) { return 15; }\n");
  repo.write("docs/new.md", "new\n");
  check_changes(compute_change_set(start), {{"docs/new.md"}, {"src/app.c"}, {}});
}

TEST_CASE("git change set: a file added, committed and deleted within the task does not count") {
  Repo repo;
  Snapshot start = repo.snapshot();
  repo.write("temp.txt", "temporary\n");
  repo.git("add temp.txt");
  repo.git("commit -q -m temp");
  repo.remove("temp.txt");
  check_changes(compute_change_set(start), {});
  repo.git("commit -q -am gone");
  check_changes(compute_change_set(start), {});
}

TEST_CASE("git change set: odd file names survive the snapshot data") {
  Repo repo;
  repo.write("with space %41.txt", "a\n");
  repo.write("line\nbreak.txt", "b\n");
  Snapshot start = repo.snapshot();
  repo.write("with space %41.txt", "a, edited\n");
  repo.write("tab\tand 100%.txt", "c\n");
  check_changes(compute_change_set(start), {{"tab\tand 100%.txt"}, {"with space %41.txt"}, {}});
  repo.remove("line\nbreak.txt");
  check_changes(compute_change_set(start),
                {{"tab\tand 100%.txt"}, {"with space %41.txt"}, {"line\nbreak.txt"}});
}

TEST_CASE("git change set: a nested repository is left out") {
  Repo repo;
  Snapshot start = repo.snapshot();
  repo.git("init -q vendor/lib");
  repo.write("vendor/lib/code.c", "int lib;\n");
  repo.write("vendor/notes.txt", "notes\n");
  check_changes(compute_change_set(start), {{"vendor/notes.txt"}, {}, {}});
}

TEST_CASE("git change set: an index locked by another git command does not stop a snapshot") {
  Repo repo;
  // A stat-only change makes status want to write the refreshed index.
  struct timespec times[2] = {{1000000000, 0}, {1000000000, 0}};
  REQUIRE(::utimensat(AT_FDCWD, (repo.root() / "src/util.c").c_str(), times, 0) == 0);
  repo.write("src/app.c", "int main(void) { return 16; }\n");
  { std::ofstream lock(repo.root() / ".git/index.lock"); }
  Snapshot start = repo.snapshot();
  repo.write("docs/guide.md", "guide, edited\n");
  check_changes(compute_change_set(start), {{}, {"docs/guide.md"}, {}});
  fs::remove(repo.root() / ".git/index.lock");
  check_changes(compute_change_set(start), {{}, {"docs/guide.md"}, {}});
}

TEST_CASE("git change set: a garbage-collected start commit is a git_error") {
  Repo repo;
  repo.write("short-lived.txt", "only in the start commit\n");
  repo.git("add -A");
  repo.git("commit -q -m short-lived");
  Snapshot start = repo.snapshot();
  repo.git("reset -q --hard HEAD~1");
  repo.git("reflog expire --expire=now --all");
  repo.git("gc -q --prune=now");
  try {
    compute_change_set(start);
    FAIL("no error");
  } catch (const MissionError& error) {
    CHECK(error.code() == ErrorCode::git_error);
    CHECK(std::string(error.what()).find(start.id) != std::string::npos);
    CHECK(error.hint().find("start the task again") != std::string::npos);
  }
}

TEST_CASE("git change set: a missing directory is not_found") {
  mission::test::TempDir dir;
  CHECK(error_code_of([&] { take_snapshot((dir.path() / "missing").string()); }) ==
        ErrorCode::not_found);
  Repo repo;
  Snapshot start = repo.snapshot();
  start.root += "-gone";
  CHECK(error_code_of([&] { compute_change_set(start); }) == ErrorCode::not_found);
}

TEST_CASE("git change set: corrupt snapshot data and unknown types are invalid_argument") {
  Repo repo;
  Snapshot start = repo.snapshot();
  Snapshot corrupt = start;
  corrupt.data = "mission-git-snapshot 1 nonsense";
  CHECK(error_code_of([&] { compute_change_set(corrupt); }) == ErrorCode::invalid_argument);
  Snapshot unknown = start;
  unknown.type = "svn";
  CHECK(error_code_of([&] { compute_change_set(unknown); }) == ErrorCode::invalid_argument);
}

TEST_CASE("git change set: to_json gives the four lists") {
  ChangeSet changes{{"b.txt"}, {"m.txt"}, {"a.txt"}, {{"a.txt", "b.txt"}}};
  auto json = to_json(changes);
  CHECK(json ==
        nlohmann::json::parse(R"({"added":["b.txt"],"modified":["m.txt"],"deleted":["a.txt"],
                                          "renamed":[{"from":"a.txt","to":"b.txt"}]})"));
  CHECK(to_json(ChangeSet{}) ==
        nlohmann::json::parse(R"({"added":[],"modified":[],"deleted":[],"renamed":[]})"));
}
