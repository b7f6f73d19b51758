#include "daemon/sandbox/refused_writes.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "shared/sandbox_limits.hpp"

using mission::daemon::sandbox::Profile;
using mission::daemon::sandbox::refused_writes_in_line;
using mission::daemon::sandbox::RefusedWrite;
using mission::daemon::sandbox::RefusedWriteReader;
namespace fs = std::filesystem;

namespace {

// A folder of the test's own: the daemon's user may write it, so the
// reader's check that the file's own permissions did not refuse passes.
struct Folders {
  fs::path root =
      fs::temp_directory_path() / ("refused-writes-" + std::to_string(::getpid()) + "-" +
                                   std::to_string(reinterpret_cast<std::uintptr_t>(this)));
  fs::path worktree = root / "worktree";
  fs::path outside = root / "outside";
  Folders() {
    fs::create_directories(worktree);
    fs::create_directories(outside);
  }
  ~Folders() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  Profile profile() const {
    Profile profile;
    profile.writable_trees = {worktree};
    profile.writable_files = {"/dev/null"};
    return profile;
  }
};

}  // namespace

TEST_CASE("refused writes are read from the messages of shells, coreutils and JSON streams") {
  auto one = [](std::string_view line) {
    auto found = refused_writes_in_line(line);
    REQUIRE(found.size() == 1);
    return found.front();
  };
  CHECK(one("/bin/sh: 1: cannot create /home/me/x.txt: Permission denied").path ==
        "/home/me/x.txt");
  CHECK(one("/bin/sh: 1: cannot create /home/me/x.txt: Permission denied").operation == "create");
  CHECK(one("bash: /home/me/x.txt: Permission denied").operation == "write");
  CHECK(one("/home/me/x.txt: Permission denied").path == "/home/me/x.txt");
  CHECK(one("mkdir: cannot create directory '/home/me/d': Permission denied").operation == "mkdir");
  CHECK(one("rm: cannot remove '/repo/a/./b': Permission denied").path == "/repo/a/b");
  CHECK(one("mkdir: cannot create directory \u2018/home/me/d\u2019: Permission denied").path ==
        "/home/me/d");
  CHECK(one("Error: EACCES: permission denied, open '/home/me/.config/x.json'").path ==
        "/home/me/.config/x.json");
  CHECK(one(R"({"type":"tool_result","content":"sh: 1: cannot create /repo/f.txt: Permission )"
            R"(denied\nexit 2"})")
            .path == "/repo/f.txt");
  CHECK(one("touch: cannot touch '/repo/new': Permission denied.").path == "/repo/new");

  CHECK(refused_writes_in_line("wrote /home/me/x.txt").empty());
  CHECK(refused_writes_in_line("ls: cannot open directory '/root': Permission denied").empty());
  CHECK(refused_writes_in_line("touch: cannot touch 'relative': Permission denied").empty());
  CHECK(
      refused_writes_in_line("/usr/bin/touch: cannot touch 'relative': Permission denied").empty());
}

TEST_CASE("a refused write is one outside the profile that the person could make") {
  Folders folders;
  RefusedWriteReader reader(folders.profile());
  const std::string inside = (folders.worktree / "f").string();
  const std::string outside = (folders.outside / "f").string();
  // Split across reads, and on both streams.
  auto found = reader.feed('e', "sh: 1: cannot create " + inside + ": Permission denied\nsh: 1: ");
  CHECK(found.empty());
  found = reader.feed('e', "cannot create " + outside + ": Permission denied\n");
  REQUIRE(found.size() == 1);
  CHECK(found[0].path == outside);
  // Each path once.
  CHECK(reader.feed('o', "bash: " + outside + ": Permission denied\n").empty());
  // Through a symbolic link into the profile.
  fs::create_directory_symlink(folders.worktree, folders.root / "link");
  CHECK(
      reader.feed('o', "bash: " + (folders.root / "link" / "g").string() + ": Permission denied\n")
          .empty());
  // A line without its newline when the output ends.
  const std::string last = (folders.outside / "last").string();
  CHECK(reader.feed('o', "bash: " + last + ": Permission denied").empty());
  found = reader.finish();
  REQUIRE(found.size() == 1);
  CHECK(found[0].path == last);
}

TEST_CASE("a path the person could not write either is not the profile's refusal") {
  Folders folders;
  const fs::path locked = folders.outside / "locked";
  RefusedWriteReader reader(folders.profile(),
                            [&](const fs::path& path) { return path != locked; });
  CHECK(reader.feed('e', "bash: " + locked.string() + ": Permission denied\n").empty());
  CHECK(reader.feed('e', "bash: " + (folders.outside / "open").string() + ": Permission denied\n")
            .size() == 1);
}

TEST_CASE("the refused writes read are bounded per line and per execution") {
  Folders folders;
  RefusedWriteReader reader(folders.profile());
  // A line longer than the limit is read in its first bytes only.
  const std::string early = (folders.outside / "early").string();
  const std::string late = (folders.outside / "late").string();
  std::string line = "bash: " + early + ": Permission denied ";
  line += std::string(mission::limits::kMaxRefusedWriteLineBytes, 'x');
  line += " bash: " + late + ": Permission denied\n";
  auto found = reader.feed('o', line);
  REQUIRE(found.size() == 1);
  CHECK(found[0].path == early);

  std::size_t total = 1;
  for (std::size_t i = 0; i < 2 * mission::limits::kMaxRefusedWritesPerExecution; ++i) {
    total += reader
                 .feed('e', "bash: " + (folders.outside / std::to_string(i)).string() +
                                ": Permission denied\n")
                 .size();
  }
  CHECK(total == mission::limits::kMaxRefusedWritesPerExecution);
}

TEST_CASE("a Permission denied beneath a hidden path is a refused read, not a refused write") {
  Folders folders;
  Profile profile = folders.profile();
  profile.hidden = {folders.outside};
  RefusedWriteReader reader(profile);
  const std::string hidden = (folders.outside / "id_ed25519").string();
  CHECK(reader.feed('e', "cat: " + hidden + ": Permission denied\n").empty());
  const std::string beside = (folders.root / "f").string();
  const auto found = reader.feed('e', "sh: 1: cannot create " + beside + ": Permission denied\n");
  REQUIRE(found.size() == 1);
  CHECK(found[0].path == beside);
}
