// The stat pass of git snapshots in real repositories: racy git (a file
// changed within the second its index entry was written, a file whose size
// and mtime are unchanged but whose content is not), side by side with what
// `git status` says of the same tree; what the next snapshot reuses from the
// previous one; the index forms the pass reads itself and those it leaves
// to libgit2; special files.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "daemon/git/change_set.hpp"
#include "daemon/git/snapshot_control.hpp"
#include "daemon/git/watch_ticket.hpp"
#include "shared/error_code.hpp"
#include "support/change_set_checks.hpp"
#include "support/git_repo.hpp"

using namespace mission::daemon::git;
using mission::ErrorCode;
using mission::test::check_changes;
using mission::test::error_code_of;
using mission::test::Repo;
namespace fs = std::filesystem;

namespace {

struct timespec mtime_of(const fs::path& path) {
  struct stat st;
  REQUIRE(::lstat(path.c_str(), &st) == 0);
  return st.st_mtim;
}

void set_mtime(const fs::path& path, struct timespec mtime) {
  struct timespec times[2] = {mtime, mtime};
  REQUIRE(::utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW) == 0);
}

// Puts a path's mtime an hour back: out of every racy window.
void age(const fs::path& path) {
  struct timespec now;
  REQUIRE(::clock_gettime(CLOCK_REALTIME, &now) == 0);
  now.tv_sec -= 3600;
  set_mtime(path, now);
}

std::uint32_t be32(const std::string& data, std::size_t at) {
  auto byte = [&](std::size_t i) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(data[at + i]));
  };
  return byte(0) << 24 | byte(1) << 16 | byte(2) << 8 | byte(3);
}

void put_be32(std::string& data, std::size_t at, std::uint64_t value) {
  for (int i = 0; i < 4; ++i)
    data[at + static_cast<std::size_t>(i)] = static_cast<char>((value >> (24 - 8 * i)) & 0xff);
}

// Rewrites the stat data git cached for `path` in a version 2 index to the
// file's stat data now, keeping the blob id it recorded, with a valid
// checksum; then sets the index file's own mtime to `index_mtime`. This is
// the state racy git is about: a change that left the stat data as git
// cached it.
void forge_cached_stat(const Repo& repo, const std::string& path, struct timespec index_mtime) {
  fs::path index_path = repo.root() / ".git/index";
  std::string data;
  {
    std::ifstream in(index_path, std::ios::binary);
    data.assign(std::istreambuf_iterator<char>(in), {});
  }
  REQUIRE(data.compare(0, 4, "DIRC") == 0);
  REQUIRE(be32(data, 4) == 2);
  struct stat st;
  REQUIRE(::lstat((repo.root() / path).c_str(), &st) == 0);
  std::size_t at = 12;
  bool found = false;
  for (std::uint32_t i = 0, count = be32(data, 8); i < count; ++i) {
    std::size_t length = (static_cast<unsigned char>(data[at + 60]) << 8 |
                          static_cast<unsigned char>(data[at + 61])) &
                         0xfff;
    if (data.compare(at + 62, length, path) == 0 && length == path.size()) {
      const std::uint64_t fields[] = {static_cast<std::uint64_t>(st.st_ctim.tv_sec),
                                      static_cast<std::uint64_t>(st.st_ctim.tv_nsec),
                                      static_cast<std::uint64_t>(st.st_mtim.tv_sec),
                                      static_cast<std::uint64_t>(st.st_mtim.tv_nsec),
                                      st.st_dev,
                                      st.st_ino,
                                      st.st_mode,
                                      st.st_uid,
                                      st.st_gid,
                                      static_cast<std::uint64_t>(st.st_size)};
      for (std::size_t f = 0; f < 10; ++f) put_be32(data, at + 4 * f, fields[f]);
      found = true;
    }
    at += (62 + length + 8) & ~std::size_t{7};
  }
  REQUIRE(found);
  // The trailing SHA-1 of everything before it, as git checks it.
  fs::path body = repo.root() / ".git/index.body";
  {
    std::ofstream out(body, std::ios::binary);
    out.write(data.data(), static_cast<std::streamsize>(data.size() - 20));
  }
  FILE* pipe = ::popen(("sha1sum '" + body.string() + "'").c_str(), "r");
  REQUIRE(pipe != nullptr);
  char hex[41] = {};
  REQUIRE(std::fread(hex, 1, 40, pipe) == 40);
  ::pclose(pipe);
  fs::remove(body);
  for (std::size_t i = 0; i < 20; ++i) {
    data[data.size() - 20 + i] =
        static_cast<char>(std::stoi(std::string(hex + 2 * i, 2), nullptr, 16));
  }
  {
    std::ofstream out(index_path, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
  }
  set_mtime(index_path, index_mtime);
}

// A snapshot with a ticket, to read what it looked at.
Snapshot snapshot_with_stats(const Repo& repo, SnapshotStats& stats) {
  WatchTicket ticket;
  Snapshot snapshot = take_snapshot(repo.root().string(), &ticket);
  stats = ticket.report.stats;
  return snapshot;
}

// The same as if taken an hour from now: nothing the test wrote is racy
// any more, so everything hashed or listed is remembered.
Snapshot snapshot_an_hour_later(const Repo& repo, SnapshotStats& stats) {
  static std::atomic<std::uint64_t> never_cancelled{0};
  struct timespec now;
  REQUIRE(::clock_gettime(CLOCK_REALTIME, &now) == 0);
  SnapshotControl control(never_cancelled, repo.root().string(), {},
                          (static_cast<std::int64_t>(now.tv_sec) + 3600) * 1000000000);
  WatchTicket ticket;
  Snapshot snapshot = take_snapshot(repo.root().string(), &ticket, control);
  stats = ticket.report.stats;
  return snapshot;
}

}  // namespace

TEST_CASE(
    "git stat pass: a change that keeps the cached stat data is read when racily clean, as git "
    "does") {
  Repo repo;
  Snapshot start = repo.snapshot();
  repo.write("src/app.c", "int main(void) { return 9; }\n");  // same size
  // The index says src/app.c has the stat data it has now, and was written
  // in the same second as the file: git cannot trust the stat data.
  forge_cached_stat(repo, "src/app.c", mtime_of(repo.root() / "src/app.c"));
  CHECK(repo.git_output("status --porcelain") == " M src/app.c\n");
  check_changes(compute_change_set(start), {{}, {"src/app.c"}, {}});
}

TEST_CASE(
    "git stat pass: stat data equal to the cache of an older index is trusted, by git and here") {
  Repo repo;
  Snapshot start = repo.snapshot();
  repo.write("src/app.c", "int main(void) { return 9; }\n");
  struct timespec later = mtime_of(repo.root() / "src/app.c");
  later.tv_sec += 10;
  // Only a forged index can hold stat data a change left as it was (the
  // ctime cannot be set back): neither git nor mission then reads the file.
  forge_cached_stat(repo, "src/app.c", later);
  CHECK(repo.git_output("status --porcelain").empty());
  check_changes(compute_change_set(start), {});
}

TEST_CASE("git stat pass: a same-size edit with its mtime put back is modified, by its ctime") {
  Repo repo;
  age(repo.root() / "src/util.c");
  repo.git("add src/util.c");  // the index caches the aged mtime
  struct timespec mtime = mtime_of(repo.root() / "src/util.c");
  Snapshot start = repo.snapshot();
  repo.write("src/util.c", "int util(void) { return 7; }\n");  // same size
  set_mtime(repo.root() / "src/util.c", mtime);
  // The ctime moved, by nanoseconds at least. (git built without USE_NSEC,
  // Debian's among them, compares whole seconds: within the second of the
  // `git add` it misses this edit; mission compares nanoseconds.)
  check_changes(compute_change_set(start), {{}, {"src/util.c"}, {}});
}

TEST_CASE("git stat pass: a file changed in the second its index entry was written is modified") {
  Repo repo;
  repo.write("new.txt", "aaaa\n");
  repo.git("add new.txt");
  Snapshot start = repo.snapshot();
  repo.write("new.txt", "bbbb\n");
  check_changes(compute_change_set(start), {{}, {"new.txt"}, {}});
  // And a touch that changes nothing is no change.
  repo.write("new.txt", "aaaa\n");
  check_changes(compute_change_set(start), {});
}

TEST_CASE("git stat pass: the next snapshot reuses listings and ids, and still sees every change") {
  Repo repo;
  repo.write("scratch/notes.txt", "notes\n");
  repo.write("scratch/deep/more.txt", "more\n");
  repo.write("src/app.c", "int main(void) { return 1; }\n");  // modified
  // Everything an hour old, and the index refreshed after: nothing racy.
  for (const char* path :
       {"README.md", "docs/guide.md", "src/util.c", "src/app.c", "scratch/notes.txt",
        "scratch/deep/more.txt", "scratch/deep", "scratch", "src", "docs", "."}) {
    age(repo.root() / path);
  }
  repo.git("status");

  SnapshotStats first;
  Snapshot start = snapshot_an_hour_later(repo, first);
  CHECK(first.directories_listed >= 5);
  CHECK(first.files_hashed == 3);  // src/app.c and the two untracked files

  SnapshotStats second;
  Snapshot again = snapshot_an_hour_later(repo, second);
  CHECK(again.data == start.data);
  CHECK(second.directories_listed == 0);
  CHECK(second.directories_reused == first.directories_listed);
  CHECK(second.files_hashed == 0);
  CHECK(second.files_reused == 3);

  // An untracked file edited in place (its directory unchanged), one added
  // to an unchanged directory's subdirectory, a tracked file edited.
  repo.write("scratch/notes.txt", "notes, edited\n");
  repo.write("scratch/deep/added.txt", "added\n");
  repo.write("docs/guide.md", "guide, edited\n");
  SnapshotStats third;
  Snapshot now = snapshot_an_hour_later(repo, third);
  CHECK(third.directories_listed == 1);  // scratch/deep
  check_changes(compute_change_set(start),
                {{"scratch/deep/added.txt"}, {"docs/guide.md", "scratch/notes.txt"}, {}});
  (void)now;
}

TEST_CASE(
    "git stat pass: a directory changed within the racy window of a listing is listed again") {
  Repo repo;
  repo.write("scratch/a.txt", "a\n");
  Snapshot start = repo.snapshot();  // scratch/ is fresh: its listing is not remembered
  repo.write("scratch/b.txt", "b\n");
  set_mtime(repo.root() / "scratch", mtime_of(repo.root() / "scratch"));
  check_changes(compute_change_set(start), {{"scratch/b.txt"}, {}, {}});
}

TEST_CASE("git stat pass: index forms it does not read go through libgit2 with the same result") {
  Repo repo;
  SECTION("version 4, prefix-compressed") {
    repo.git("update-index --index-version 4");
    SnapshotStats stats;
    Snapshot start = snapshot_with_stats(repo, stats);
    CHECK(stats.directories_listed > 0);  // read by the stat pass itself
    repo.write("src/app.c", "int main(void) { return 4; }\n");
    repo.write("docs/new.md", "new\n");
    repo.git("add docs/new.md");
    check_changes(compute_change_set(start), {{"docs/new.md"}, {"src/app.c"}, {}});
  }
  SECTION("intent to add") {
    repo.write("planned.txt", "planned\n");
    repo.git("add -N planned.txt");
    SnapshotStats stats;
    Snapshot start = snapshot_with_stats(repo, stats);
    CHECK(stats.directories_listed == 0);  // left to libgit2
    repo.write("src/app.c", "int main(void) { return 5; }\n");
    check_changes(compute_change_set(start), {{}, {"src/app.c"}, {}});
  }
  SECTION("assume-unchanged") {
    repo.git("update-index --assume-unchanged README.md");
    SnapshotStats stats;
    Snapshot start = snapshot_with_stats(repo, stats);
    CHECK(stats.directories_listed == 0);
    repo.write("src/util.c", "int util(void) { return 6; }\n");
    check_changes(compute_change_set(start), {{}, {"src/util.c"}, {}});
  }
  SECTION("core.filemode false") {
    repo.git("config core.filemode false");
    SnapshotStats stats;
    Snapshot start = snapshot_with_stats(repo, stats);
    CHECK(stats.directories_listed == 0);
    fs::permissions(repo.root() / "src/app.c", fs::perms::owner_exec, fs::perm_options::add);
    repo.write("docs/guide.md", "guide, again\n");
    check_changes(compute_change_set(start), {{}, {"docs/guide.md"}, {}});
  }
}

TEST_CASE("git stat pass: line-ending filters apply to the files it hashes") {
  Repo repo;
  repo.write(".gitattributes", "*.txt text eol=crlf\n");
  repo.write("notes.txt", "one\r\ntwo\r\n");
  repo.git("add -A");
  repo.git("commit -q -m crlf");
  Snapshot start = repo.snapshot();
  repo.write("notes.txt", "one\r\ntwo\r\n");  // rewritten, same content: stored as LF, unchanged
  check_changes(compute_change_set(start), {});
  repo.write("notes.txt", "one\r\nthree\r\n");
  check_changes(compute_change_set(start), {{}, {"notes.txt"}, {}});
}

TEST_CASE("git stat pass: FIFOs and sockets are never read nor counted") {
  Repo repo;
  REQUIRE(::mkfifo((repo.root() / "pipe").c_str(), 0600) == 0);
  REQUIRE(::mkfifo((repo.root() / "src/pipe").c_str(), 0600) == 0);
  Snapshot start = repo.snapshot();
  repo.write("src/app.c", "int main(void) { return 8; }\n");
  // A tracked file replaced by a FIFO is gone, as in git.
  repo.remove("docs/guide.md");
  REQUIRE(::mkfifo((repo.root() / "docs/guide.md").c_str(), 0600) == 0);
  check_changes(compute_change_set(start), {{}, {"src/app.c"}, {"docs/guide.md"}});
}

TEST_CASE(
    "git stat pass: a tracked directory replaced by a symlink to a directory is not followed") {
  Repo repo;
  repo.write("elsewhere/app.c", "int main(void) { return 0; }\n");
  repo.write("elsewhere/util.c", "int util(void) { return 1; }\n");
  repo.git("add elsewhere");
  repo.git("commit -q -m elsewhere");
  Snapshot start = repo.snapshot();
  fs::remove_all(repo.root() / "src");
  fs::create_directory_symlink("elsewhere", repo.root() / "src");
  check_changes(compute_change_set(start), {{"src"}, {}, {"src/app.c", "src/util.c"}});
}

TEST_CASE("snapshots: a directory of a pseudo file system is refused at once") {
  CHECK(error_code_of([] { take_snapshot("/proc/self"); }) == ErrorCode::invalid_argument);
  CHECK(error_code_of([] { take_snapshot("/proc"); }) == ErrorCode::invalid_argument);
  if (fs::is_directory("/sys/kernel")) {
    CHECK(error_code_of([] { take_snapshot("/sys/kernel"); }) == ErrorCode::invalid_argument);
  }
}
