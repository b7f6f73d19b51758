// Checksum snapshots of directories outside git: the same change-set rules
// as in git (added, modified, deleted, renamed; touches and reverted edits
// do not count), the skipped directories, the file limit, and the content
// hash they rest on.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "daemon/git/change_set.hpp"
#include "daemon/git/checksum_snapshot.hpp"
#include "daemon/git/checksum_walk.hpp"
#include "daemon/git/content_hash.hpp"
#include "shared/error_code.hpp"
#include "support/change_set_checks.hpp"
#include "support/temp_dir.hpp"

using namespace mission::daemon::git;
using mission::ErrorCode;
using mission::MissionError;
using mission::test::check_changes;
using mission::test::error_code_of;
using mission::test::ExpectedChanges;
using mission::test::Paths;
namespace fs = std::filesystem;

namespace {

class Tree {
 public:
  Tree() {
    write("README.md", "readme\n");
    write("src/app.c", "int main(void) { return 0; }\n");
    write("src/util.c", "int util(void) { return 1; }\n");
    write("docs/guide.md", "guide\n");
  }
  std::string root() const { return dir_.path().string(); }
  fs::path path(const std::string& relative) const { return dir_.path() / relative; }

  void write(const std::string& relative, const std::string& content) const {
    fs::create_directories(path(relative).parent_path());
    std::ofstream out(path(relative), std::ios::binary | std::ios::trunc);
    out << content;
    REQUIRE(out.good());
  }

  // Moves a file's mtime an hour back, out of the racy window, so that only
  // its stat data decides whether it is read again.
  void age(const std::string& relative) const {
    struct timespec times[2];
    REQUIRE(::clock_gettime(CLOCK_REALTIME, &times[0]) == 0);
    times[0].tv_sec -= 3600;
    times[1] = times[0];
    REQUIRE(::utimensat(AT_FDCWD, path(relative).c_str(), times, AT_SYMLINK_NOFOLLOW) == 0);
  }

  struct timespec mtime(const std::string& relative) const {
    struct stat st;
    REQUIRE(::lstat(path(relative).c_str(), &st) == 0);
    return st.st_mtim;
  }

  void set_mtime(const std::string& relative, struct timespec mtime) const {
    struct timespec times[2] = {mtime, mtime};
    REQUIRE(::utimensat(AT_FDCWD, path(relative).c_str(), times, AT_SYMLINK_NOFOLLOW) == 0);
  }

 private:
  mission::test::TempDir dir_;
};

}  // namespace

TEST_CASE("content hash: XXH64 reference values, in one piece and streamed") {
  CHECK(content_hash("") == 0xef46db3751d8e999ull);
  CHECK(content_hash("a") == 0xd24ec4f1a98c6e5bull);
  CHECK(content_hash("abc") == 0x44bc2cf5ad770999ull);
  CHECK(content_hash("0123456789abcdef0123456789abcdef") == 0x642a94958e71e6c5ull);
  CHECK(content_hash("The quick brown fox jumps over the lazy dog") == 0x0b242d361fda71bcull);
  std::string long_input;
  for (int round = 0; round < 4; ++round) {
    for (int byte = 0; byte < 256; ++byte) long_input += static_cast<char>(byte);
  }
  long_input += "xyz";
  CHECK(content_hash(long_input) == 0xe146cb31b65bc21aull);
  for (std::size_t chunk : {1u, 3u, 31u, 32u, 33u, 100u}) {
    ContentHash streamed;
    for (std::size_t at = 0; at < long_input.size(); at += chunk) {
      streamed.update(long_input.data() + at, std::min(chunk, long_input.size() - at));
    }
    CHECK(streamed.digest() == 0xe146cb31b65bc21aull);
  }
}

TEST_CASE("checksum change set: a directory outside git gets a checksum snapshot") {
  Tree tree;
  Snapshot start = take_snapshot(tree.root() + "/");
  CHECK(start.type == "checksum");
  CHECK(start.root == tree.root());
  CHECK(start.id.size() == 16);
  CHECK(start.data.find("src/util.c") == std::string::npos);  // written as "util.c" after src/app.c
  CHECK(start.data.find(" util.c\n") != std::string::npos);
  check_changes(compute_change_set(start), {});
}

TEST_CASE("checksum change set: added, modified and deleted files") {
  Tree tree;
  Snapshot start = take_checksum_snapshot(tree.root());
  tree.write("src/new/feature.c", "int feature;\n");
  tree.write("src/app.c", "int main(void) { return 1234; }\n");
  fs::remove(tree.path("docs/guide.md"));
  check_changes(compute_checksum_change_set(start),
                {{"src/new/feature.c"}, {"src/app.c"}, {"docs/guide.md"}});
}

TEST_CASE("checksum change set: a same-size edit with its mtime restored is modified") {
  Tree tree;
  tree.age("src/app.c");
  auto mtime = tree.mtime("src/app.c");
  Snapshot start = take_checksum_snapshot(tree.root());
  tree.write("src/app.c", "int main(void) { return 9; }\n");  // same size
  tree.set_mtime("src/app.c", mtime);
  check_changes(compute_checksum_change_set(start), {{}, {"src/app.c"}, {}});
}

TEST_CASE("checksum change set: a touch or a reverted edit does not count") {
  Tree tree;
  tree.age("src/app.c");
  tree.age("README.md");
  Snapshot start = take_checksum_snapshot(tree.root());
  tree.set_mtime("src/app.c", {1, 0});  // touched: stat data differs, content does not
  tree.write("README.md", "changed for a while\n");
  tree.write("README.md", "readme\n");
  check_changes(compute_checksum_change_set(start), {});
}

TEST_CASE("checksum change set: renames pair equal contents, empty files excepted") {
  Tree tree;
  tree.write("empty.txt", "");
  Snapshot start = take_checksum_snapshot(tree.root());
  fs::rename(tree.path("src/util.c"), tree.path("src/helpers.c"));
  fs::rename(tree.path("empty.txt"), tree.path("blank.txt"));
  check_changes(compute_checksum_change_set(start), {{"blank.txt", "src/helpers.c"},
                                                     {},
                                                     {"empty.txt", "src/util.c"},
                                                     {{"src/util.c", "src/helpers.c"}}});
}

TEST_CASE("checksum change set: chmod +x and symlinks count") {
  Tree tree;
  fs::create_symlink("src/app.c", tree.path("link"));
  Snapshot start = take_checksum_snapshot(tree.root());
  fs::permissions(tree.path("src/util.c"), fs::perms::owner_exec, fs::perm_options::add);
  fs::remove(tree.path("link"));
  fs::create_symlink("src/util.c", tree.path("link"));
  fs::create_symlink("/nonexistent/target", tree.path("dangling"));
  check_changes(compute_checksum_change_set(start), {{"dangling"}, {"link", "src/util.c"}, {}});
}

TEST_CASE("checksum change set: skipped directories never count") {
  Tree tree;
  tree.write("node_modules/pkg/index.js", "module.exports = 1;\n");
  tree.write(".git/HEAD", "ref: refs/heads/main\n");
  Snapshot start = take_checksum_snapshot(tree.root());
  CHECK(start.data.find("index.js") == std::string::npos);
  CHECK(start.data.find("HEAD") == std::string::npos);
  tree.write("node_modules/pkg/index.js", "module.exports = 2;\n");
  tree.write("web/node_modules/other/x.js", "x\n");
  tree.write("lib/__pycache__/mod.pyc", "bytecode\n");
  tree.write(".venv/bin/python", "python\n");
  tree.write(".git/index", "index\n");
  tree.write("web/app.js", "app\n");
  check_changes(compute_checksum_change_set(start), {{"web/app.js"}, {}, {}});
  CHECK(checksum::is_skipped_directory("node_modules"));
  CHECK_FALSE(checksum::is_skipped_directory("src"));
}

TEST_CASE("checksum change set: large files and many files are hashed exactly") {
  Tree tree;
  std::string big(300 * 1024, 'x');
  tree.write("big.bin", big);
  for (int i = 0; i < 600; ++i)
    tree.write("many/file" + std::to_string(i) + ".txt", std::to_string(i));
  Snapshot start = take_checksum_snapshot(tree.root());
  big[200 * 1024] = 'y';  // beyond the first read buffer, same size
  tree.write("big.bin", big);
  tree.write("many/file17.txt", "changed");
  tree.write("many/file599.txt", "599");  // rewritten, same content
  fs::remove(tree.path("many/file300.txt"));
  check_changes(compute_checksum_change_set(start),
                {{}, {"big.bin", "many/file17.txt"}, {"many/file300.txt"}});
}

TEST_CASE("checksum walk: a file over the read limit is compared by its stat data") {
  Tree tree;
  const std::string content(1000, 'a');
  tree.write("data.bin", content);
  auto hash_of_data = [&](std::uint64_t max_hashed_bytes) {
    int root_fd = ::open(tree.root().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    REQUIRE(root_fd >= 0);
    std::atomic<std::uint64_t> never_cancelled{0};
    SnapshotControl control(never_cancelled, tree.root());
    auto files = checksum::walk_tree(root_fd, tree.root(), 100, control);
    checksum::hash_files(root_fd, files, control, max_hashed_bytes);
    ::close(root_fd);
    for (const auto& file : files) {
      if (file.path == "data.bin") return file.hash;
    }
    FAIL("data.bin not walked");
    return std::uint64_t{0};
  };
  CHECK(hash_of_data(1000) == content_hash(content));  // at the limit: read
  const std::uint64_t by_stat = hash_of_data(999);
  CHECK(by_stat != content_hash(content));
  CHECK(hash_of_data(999) == by_stat);
  // The documented blind spot: a same-size write whose mtime is put back.
  const auto mtime = tree.mtime("data.bin");
  tree.write("data.bin", std::string(1000, 'b'));
  tree.set_mtime("data.bin", mtime);
  CHECK(hash_of_data(999) == by_stat);
  tree.age("data.bin");  // any other write moves the mtime
  CHECK(hash_of_data(999) != by_stat);
  tree.write("data.bin", content + "more");
  CHECK(hash_of_data(999) != by_stat);
}

TEST_CASE("checksum change set: odd file names survive the snapshot data") {
  Tree tree;
  tree.write("a b/100% sure.txt", "1\n");
  tree.write("a b/line\nbreak.txt", "2\n");
  tree.write("a b/100%0A.txt", "3\n");
  Snapshot start = take_checksum_snapshot(tree.root());
  tree.write("a b/100% sure.txt", "1, edited\n");
  fs::remove(tree.path("a b/line\nbreak.txt"));
  check_changes(compute_checksum_change_set(start),
                {{}, {"a b/100% sure.txt"}, {"a b/line\nbreak.txt"}});
}

TEST_CASE("checksum change set: more files than the limit is payload_too_large") {
  Tree tree;  // four files
  CHECK(error_code_of([&] { take_checksum_snapshot(tree.root(), 3); }) ==
        ErrorCode::payload_too_large);
  Snapshot start = take_checksum_snapshot(tree.root(), 4);
  tree.write("fifth.txt", "5\n");
  CHECK(error_code_of([&] { compute_checksum_change_set(start, 4); }) ==
        ErrorCode::payload_too_large);
  try {
    take_checksum_snapshot(tree.root(), 3);
  } catch (const MissionError& error) {
    CHECK(error.hint().find("git") != std::string::npos);
  }
}

TEST_CASE("checksum change set: missing directories and corrupt data") {
  Tree tree;
  CHECK(error_code_of([&] { take_snapshot(tree.root() + "/missing"); }) == ErrorCode::not_found);
  CHECK(error_code_of([&] { take_snapshot("relative/dir"); }) == ErrorCode::invalid_argument);
  Snapshot start = take_checksum_snapshot(tree.root());
  Snapshot gone = start;
  gone.root += "/missing";
  CHECK(error_code_of([&] { compute_change_set(gone); }) == ErrorCode::not_found);
  Snapshot corrupt = start;
  corrupt.data.pop_back();  // the last line loses its newline
  CHECK(error_code_of([&] { compute_change_set(corrupt); }) == ErrorCode::invalid_argument);
  corrupt.data = "mission-checksum-snapshot 1 10\nzz 100644 1 1 = 1 1 x\n";
  CHECK(error_code_of([&] { compute_change_set(corrupt); }) == ErrorCode::invalid_argument);
}

TEST_CASE(
    "checksum change set: the next snapshot of a tree reads only the files whose stat data moved") {
  Tree tree;
  std::atomic<std::uint64_t> never_cancelled{0};
  struct timespec now;
  REQUIRE(::clock_gettime(CLOCK_REALTIME, &now) == 0);
  // Taken as if an hour from now: nothing the test wrote is racy.
  const std::int64_t later = (static_cast<std::int64_t>(now.tv_sec) + 3600) * 1000000000;
  auto bytes_read = [&](const std::function<void(SnapshotControl&)>& snapshot) {
    SnapshotControl control(never_cancelled, tree.root(), {}, later);
    snapshot(control);
    return control.bytes_read();
  };
  const std::uint64_t all = 7 + 29 + 29 + 6;  // the four files of the tree
  Snapshot start;
  CHECK(bytes_read([&](SnapshotControl& c) { start = take_checksum_snapshot(tree.root(), c); }) ==
        all);
  CHECK(bytes_read([&](SnapshotControl& c) { take_checksum_snapshot(tree.root(), c); }) == 0);
  tree.write("src/app.c", "int main(void) { return 42; }\n");
  ChangeSet changes;
  CHECK(bytes_read([&](SnapshotControl& c) { changes = compute_checksum_change_set(start, c); }) ==
        30);
  check_changes(changes, {{}, {"src/app.c"}, {}});
  CHECK(bytes_read([&](SnapshotControl& c) { changes = compute_checksum_change_set(start, c); }) ==
        0);
  check_changes(changes, {{}, {"src/app.c"}, {}});
}

TEST_CASE("snapshot bounds: bytes read, time, and cancellation") {
  Tree tree;
  std::atomic<std::uint64_t> generation{0};
  SnapshotControl small(generation, tree.root(), {std::chrono::milliseconds(60000), 10});
  CHECK(error_code_of([&] { take_checksum_snapshot(tree.root(), small); }) ==
        ErrorCode::payload_too_large);
  SnapshotControl no_time(generation, tree.root(), {std::chrono::milliseconds(-1), 1 << 20});
  CHECK(error_code_of([&] { take_checksum_snapshot(tree.root(), no_time); }) ==
        ErrorCode::payload_too_large);
  // Cancelled while it runs: the generation moved after the control began.
  SnapshotControl running(generation, tree.root());
  generation.fetch_add(1);
  CHECK(error_code_of([&] { take_checksum_snapshot(tree.root(), running); }) ==
        ErrorCode::shutting_down);
  // A control made after the cancellation runs normally.
  SnapshotControl after(generation, tree.root());
  CHECK_NOTHROW(take_checksum_snapshot(tree.root(), after));
}

TEST_CASE("checksum change set: FIFOs are never opened, /proc is refused") {
  Tree tree;
  REQUIRE(::mkfifo(tree.path("pipe").c_str(), 0600) == 0);
  Snapshot start = take_checksum_snapshot(tree.root());
  CHECK(start.data.find("pipe") == std::string::npos);
  REQUIRE(::mkfifo(tree.path("src/other-pipe").c_str(), 0600) == 0);
  tree.write("notes.txt", "notes\n");
  check_changes(compute_checksum_change_set(start), {{"notes.txt"}, {}, {}});
  CHECK(error_code_of([] { take_checksum_snapshot("/proc/self"); }) == ErrorCode::invalid_argument);
}
