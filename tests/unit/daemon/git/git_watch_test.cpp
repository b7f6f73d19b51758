// Watched trees in real repositories: the watcher service on a real libuv
// loop and inotify, the snapshot work run inline. After each kind of change
// a watched snapshot must hold exactly what a snapshot of the whole tree
// holds, and look only at what changed where it can.

#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>

#include "daemon/git/change_set.hpp"
#include "daemon/git/tree_watch_service.hpp"
#include "daemon/git/watch_ticket.hpp"
#include "support/change_set_checks.hpp"
#include "support/git_repo.hpp"
#include "support/test_loop.hpp"

using namespace mission::daemon::git;
using mission::test::check_changes;
using mission::test::Repo;
using Loop = mission::test::TestLoop;
namespace fs = std::filesystem;

namespace {

// One tree under a service, with snapshots as the daemon takes them: a
// ticket on the loop, the work, the report read back.
class WatchedRepo {
 public:
  explicit WatchedRepo(TreeWatchSettings settings = {true, 100000})
      : service_(std::make_unique<TreeWatchService>(
            loop_.get(), settings, [this](const std::string&) { return in_use; })) {}
  ~WatchedRepo() {
    service_.reset();
    uv_run(loop_.get(), UV_RUN_NOWAIT);
  }

  Snapshot snapshot(SnapshotStats* stats = nullptr) {
    auto ticket = service_->ticket_for(repo.root().string());
    Snapshot snapshot = take_snapshot(repo.root().string(), ticket.get());
    service_->collect_finished();
    if (stats != nullptr) *stats = ticket->report.stats;
    return snapshot;
  }

  ChangeSet changes_since(const Snapshot& start, SnapshotStats* stats = nullptr) {
    auto ticket = service_->ticket_for(start.root);
    ChangeSet changes = compute_change_set(start, ticket.get());
    service_->collect_finished();
    if (stats != nullptr) *stats = ticket->report.stats;
    return changes;
  }

  // A watched snapshot equals one of the whole tree without the watcher.
  void check_same_as_full(bool expect_watched_pass) {
    SnapshotStats stats;
    Snapshot watched = snapshot(&stats);
    Snapshot full = take_snapshot(repo.root().string());
    CHECK(watched.data == full.data);
    INFO("full pass because: " << stats.full_because);
    CHECK(stats.watched_pass == expect_watched_pass);
  }

  TreeWatchService& service() { return *service_; }
  uv_loop_t* loop() { return loop_.get(); }

  Repo repo;
  bool in_use = true;

 private:
  Loop loop_;
  std::unique_ptr<TreeWatchService> service_;
};

std::size_t directories_of(const fs::path& root) {
  std::size_t count = 1;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    if (it->is_directory() && !it->is_symlink()) {
      if (it->path().filename() == ".git") {
        it.disable_recursion_pending();
        continue;
      }
      ++count;
    }
  }
  return count;
}

}  // namespace

TEST_CASE(
    "watched tree: the first snapshot watches every directory, later ones look only at changes") {
  WatchedRepo tree;
  Snapshot start = tree.snapshot();
  REQUIRE(tree.service().watched_count() == 1);
  auto status = tree.service().status();
  REQUIRE(status.at("trees").size() == 1);
  CHECK(status.at("trees")[0].at("watched") == true);
  CHECK(status.at("trees")[0].at("watches") == directories_of(tree.repo.root()));
  CHECK(status.at("watches") == directories_of(tree.repo.root()));

  tree.repo.write("src/app.c", "int main(void) { return 2; }\n");
  SnapshotStats stats;
  check_changes(tree.changes_since(start, &stats), {{}, {"src/app.c"}, {}});
  CHECK(stats.watched_pass);
  CHECK(stats.paths_checked == 1);
  CHECK(stats.directories_listed == 0);

  // Nothing changed since: nothing looked at.
  check_changes(tree.changes_since(start, &stats), {{}, {"src/app.c"}, {}});
  CHECK(stats.watched_pass);
  CHECK(stats.paths_checked == 0);
}

TEST_CASE("watched tree: every kind of change gives what a snapshot of the whole tree gives") {
  WatchedRepo tree;
  Repo& repo = tree.repo;
  Snapshot start = tree.snapshot();

  repo.write("src/app.c", "int main(void) { return 3; }\n");
  tree.check_same_as_full(true);
  repo.write("docs/new.md", "new\n");
  tree.check_same_as_full(true);
  repo.write("lib/deep/er/one.c", "int one;\n");  // new directories, watched from now on
  repo.write("lib/deep/two.c", "int two;\n");
  tree.check_same_as_full(true);
  repo.write("lib/deep/er/one.c", "int one = 1;\n");  // inside a directory watched since
  repo.write("lib/deep/er/three.c", "int three;\n");
  tree.check_same_as_full(true);
  repo.remove("docs/guide.md");
  tree.check_same_as_full(true);
  fs::rename(repo.root() / "src/util.c", repo.root() / "src/helpers.c");
  tree.check_same_as_full(true);
  fs::permissions(repo.root() / "README.md", fs::perms::owner_exec, fs::perm_options::add);
  tree.check_same_as_full(true);
  fs::create_symlink("README.md", repo.root() / "link");
  tree.check_same_as_full(true);
  repo.write("tmp.txt", "short-lived\n");
  repo.remove("tmp.txt");
  tree.check_same_as_full(true);
  repo.write("src/app.c", "int main(void) { return 0; }\n");  // back to the start content
  tree.check_same_as_full(true);
  fs::remove_all(repo.root() / "lib/deep/er");
  tree.check_same_as_full(true);
  REQUIRE(::mkfifo((repo.root() / "docs/pipe").c_str(), 0600) == 0);
  tree.check_same_as_full(true);
  repo.git("init -q vendor/nested");  // a nested repository, left out
  repo.write("vendor/nested/code.c", "int nested;\n");
  repo.write("vendor/notes.txt", "notes\n");
  tree.check_same_as_full(true);
  repo.write("later/code.c", "int later;\n");  // untracked, watched, then a repository
  tree.check_same_as_full(true);
  repo.git("init -q later");
  tree.check_same_as_full(true);
  repo.write("a-b.txt", "sorts between a and a/\n");  // neighbours in path order
  repo.write("a/inner.txt", "inner\n");
  tree.check_same_as_full(true);
  fs::remove_all(repo.root() / "a");
  tree.check_same_as_full(true);

  // What the watcher cannot vouch for makes a full pass, as exact.
  repo.git("add docs/new.md");  // the index changed
  tree.check_same_as_full(false);
  repo.git("commit -q -m more");  // HEAD moved
  tree.check_same_as_full(false);
  repo.write(".gitignore", "*.log\nbuild/\n");  // the ignore rules changed
  repo.write("build/out.o", "object\n");
  repo.write("run.log", "log\n");
  tree.check_same_as_full(false);
  repo.write("build/more.o", "object\n");  // below an ignored directory: nothing to see
  repo.write("other.log", "log\n");
  tree.check_same_as_full(true);
  fs::rename(repo.root() / "lib", repo.root() / "library");  // a watched directory moved
  tree.check_same_as_full(false);
  repo.write("library/deep/two.c", "int two = 2;\n");  // watched again where it is now
  tree.check_same_as_full(true);

  check_changes(tree.changes_since(start),
                {{".gitignore", "a-b.txt", "docs/new.md", "library/deep/two.c", "link",
                  "src/helpers.c", "vendor/notes.txt"},
                 {"README.md"},
                 {"docs/guide.md", "src/util.c"},
                 {{"src/util.c", "src/helpers.c"}}});
}

TEST_CASE("watched tree: lost events make the next snapshot a full one") {
  // More events than the kernel queues (fs.inotify.max_queued_events):
  // creating a file in a watched directory reports two.
  std::size_t queued = 16384;
  std::ifstream("/proc/sys/fs/inotify/max_queued_events") >> queued;
  if (queued > 50000) {
    WARN("fs.inotify.max_queued_events is " << queued << ": too many files to write for this test");
    return;
  }
  const int files = static_cast<int>(queued / 2 + 500);
  WatchedRepo tree;
  Snapshot start = tree.snapshot();
  for (int i = 0; i < files; ++i) tree.repo.write("src/many" + std::to_string(i) + ".txt", "x");
  tree.repo.write("src/app.c", "int main(void) { return 4; }\n");
  tree.check_same_as_full(false);
  ChangeSet changes = tree.changes_since(start);
  CHECK(changes.added.size() == static_cast<std::size_t>(files));
  CHECK(changes.modified == std::vector<std::string>{"src/app.c"});
}

TEST_CASE("watched tree: a tree needing more watches than its share is not watched, and says why") {
  WatchedRepo tree(TreeWatchSettings{true, 4});  // a share of 2 watches
  Snapshot start = tree.snapshot();
  CHECK(tree.service().watched_count() == 0);
  auto trees = tree.service().status().at("trees");
  REQUIRE(trees.size() == 1);
  CHECK(trees[0].at("watched") == false);
  CHECK(trees[0].at("reason").get<std::string>().find("more than 2 inotify watches") !=
        std::string::npos);
  tree.repo.write("src/app.c", "int main(void) { return 5; }\n");
  check_changes(tree.changes_since(start), {{}, {"src/app.c"}, {}});
}

TEST_CASE("watched tree: a repository can ask to be watched, and watches end with its last task") {
  WatchedRepo tree(TreeWatchSettings{false, 100000, 0});
  tree.snapshot();
  CHECK(tree.service().watched_count() == 0);  // not asked
  tree.repo.git("config mission.watchTrees true");
  Snapshot start = tree.snapshot();
  CHECK(tree.service().watched_count() == 1);

  tree.in_use = true;
  tree.service().task_ended(start.root);
  uv_run(tree.loop(), UV_RUN_NOWAIT);
  CHECK(tree.service().watched_count() == 1);  // a task still needs it
  tree.in_use = false;
  tree.service().task_ended(start.root);
  uv_run(tree.loop(), UV_RUN_NOWAIT);
  CHECK(tree.service().watched_count() == 0);
}

TEST_CASE(
    "watched tree: an idle tree stays watched for the next task, whose snapshot looks only at "
    "what changed meanwhile, and a tree whose root is gone is not kept") {
  WatchedRepo tree;
  Snapshot first = tree.snapshot();
  tree.in_use = false;
  tree.service().task_ended(first.root);
  uv_run(tree.loop(), UV_RUN_NOWAIT);
  REQUIRE(tree.service().watched_count() == 1);  // lingering, no task needs it

  // Changed while no task ran: the next start sees it without a full pass.
  tree.repo.write("src/app.c", "int main(void) { return 6; }\n");
  tree.in_use = true;
  SnapshotStats stats;
  Snapshot start = tree.snapshot(&stats);
  INFO("full pass because: " << stats.full_because);
  CHECK(stats.watched_pass);
  CHECK(start.data.find("src/app.c") != std::string::npos);
  tree.repo.write("README.md", "changed by the second task\n");
  check_changes(tree.changes_since(start), {{}, {"README.md"}, {}});

  // Its root removed (a run's worktree): its watches end at the next check.
  tree.in_use = false;
  fs::remove_all(tree.repo.root());
  tree.service().task_ended(start.root);
  uv_run(tree.loop(), UV_RUN_NOWAIT);
  CHECK(tree.service().watched_count() == 0);
}

TEST_CASE(
    "watched tree: a second snapshot while one holds the token is a full one, and both are right") {
  WatchedRepo tree;
  Snapshot start = tree.snapshot();
  tree.repo.write("src/app.c", "int main(void) { return 6; }\n");
  auto first = tree.service().ticket_for(tree.repo.root().string());
  auto second = tree.service().ticket_for(tree.repo.root().string());
  CHECK(first->request.holds_token);
  CHECK_FALSE(second->request.holds_token);
  check_changes(compute_change_set(start, second.get()), {{}, {"src/app.c"}, {}});
  CHECK_FALSE(second->report.stats.watched_pass);
  check_changes(compute_change_set(start, first.get()), {{}, {"src/app.c"}, {}});
  CHECK(first->report.stats.watched_pass);
  tree.service().collect_finished();
  tree.repo.write("docs/guide.md", "guide, edited\n");
  SnapshotStats stats;
  check_changes(tree.changes_since(start, &stats), {{}, {"docs/guide.md", "src/app.c"}, {}});
  CHECK(stats.watched_pass);
}
