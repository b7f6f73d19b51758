#include "shared/runtime_paths.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <map>

#include "shared/error_code.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using mission::resolve_runtime_paths;

namespace {

mission::EnvLookup fake_env(std::map<std::string, std::string> values) {
  return [values](const char* name) -> std::optional<std::string> {
    auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
}

}  // namespace

TEST_CASE("runtime and state dirs follow the documented precedence") {
  auto explicit_dirs = resolve_runtime_paths(fake_env({{"MISSION_RUNTIME_DIR", "/r"},
                                                       {"MISSION_STATE_DIR", "/s"},
                                                       {"XDG_RUNTIME_DIR", "/x"},
                                                       {"XDG_STATE_HOME", "/xs"},
                                                       {"HOME", "/h"}}),
                                             1000);
  CHECK(explicit_dirs.runtime_dir == "/r");
  CHECK(explicit_dirs.state_dir == "/s");
  CHECK(explicit_dirs.socket == "/r/daemon.sock");
  CHECK(explicit_dirs.database() == "/s/mission.db");

  auto xdg = resolve_runtime_paths(
      fake_env({{"XDG_RUNTIME_DIR", "/x"}, {"XDG_STATE_HOME", "/xs"}, {"HOME", "/h"}}), 1000);
  CHECK(xdg.runtime_dir == "/x/mission");
  CHECK(xdg.state_dir == "/xs/mission");

  auto fallback = resolve_runtime_paths(fake_env({{"HOME", "/h"}}), 1000);
  CHECK(fallback.runtime_dir == "/tmp/mission-1000");
  CHECK(fallback.state_dir == "/h/.local/state/mission");

  auto tmpdir = resolve_runtime_paths(fake_env({{"TMPDIR", "/t"}, {"HOME", "/h"}}), 7);
  CHECK(tmpdir.runtime_dir == "/t/mission-7");

  auto overridden = resolve_runtime_paths(fake_env({{"HOME", "/h"}}), 7, std::string("/a/b.sock"));
  CHECK(overridden.socket == "/a/b.sock");
  CHECK(overridden.runtime_dir == "/tmp/mission-7");

  auto from_env =
      resolve_runtime_paths(fake_env({{"HOME", "/h"}, {"MISSION_SOCKET", "/e.sock"}}), 7);
  CHECK(from_env.socket == "/e.sock");
  auto flag_wins = resolve_runtime_paths(fake_env({{"HOME", "/h"}, {"MISSION_SOCKET", "/e.sock"}}),
                                         7, std::string("/flag.sock"));
  CHECK(flag_wins.socket == "/flag.sock");
}

TEST_CASE("relative dirs are made absolute") {
  auto paths = resolve_runtime_paths(
      fake_env({{"MISSION_RUNTIME_DIR", "rel/run"}, {"MISSION_STATE_DIR", "./st"}}), 1);
  CHECK(paths.runtime_dir == fs::current_path() / "rel/run");
  CHECK(paths.state_dir == fs::current_path() / "st");
}

TEST_CASE("ensure_private_dir creates 0700 and refuses unsafe dirs") {
  mission::test::TempDir scratch;
  const unsigned uid = ::getuid();
  fs::path fresh = scratch.path() / "a" / "run";
  mission::ensure_private_dir(fresh, uid);
  struct stat st {};
  REQUIRE(::stat(fresh.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  CHECK(!mission::private_dir_problem(fresh, uid));

  fs::path open_dir = scratch.path() / "open";
  fs::create_directory(open_dir);
  ::chmod(open_dir.c_str(), 0750);
  CHECK(mission::private_dir_problem(open_dir, uid)->find("0750") != std::string::npos);
  try {
    mission::ensure_private_dir(open_dir, uid);
    FAIL("an open dir was accepted");
  } catch (const mission::MissionError& e) {
    CHECK(e.code() == mission::ErrorCode::unsafe_runtime_dir);
    CHECK(std::string(e.what()).find(open_dir.string()) != std::string::npos);
    CHECK(e.hint().find("chmod 700") != std::string::npos);
  }

  fs::path link = scratch.path() / "link";
  fs::create_directory_symlink(fresh, link);
  CHECK(mission::private_dir_problem(link, uid)->find("symbolic link") != std::string::npos);

  fs::path file = scratch.path() / "file";
  {
    std::FILE* f = std::fopen(file.c_str(), "w");
    std::fclose(f);
  }
  CHECK(mission::private_dir_problem(file, uid)->find("not a directory") != std::string::npos);

  CHECK(mission::private_dir_problem(fresh, uid + 1)->find("owned by uid") != std::string::npos);
}

TEST_CASE("a fallback runtime dir someone else made first is passed over for the state dir") {
  mission::test::TempDir tmp;
  // Seen as uid 4242, a directory this process made belongs to another user.
  const unsigned uid = 4242;
  auto env = fake_env({{"TMPDIR", tmp.path().string()}, {"HOME", (tmp.path() / "home").string()}});
  auto untouched = resolve_runtime_paths(env, uid);
  CHECK(untouched.runtime_dir == tmp.path() / "mission-4242");
  CHECK(untouched.runtime_dir_note.empty());

  fs::create_directory(tmp.path() / "mission-4242");
  auto moved = resolve_runtime_paths(env, uid);
  CHECK(moved.runtime_dir == moved.state_dir / "run");
  CHECK(moved.socket == moved.state_dir / "run" / "daemon.sock");
  CHECK(moved.runtime_dir_note.find("not safe") != std::string::npos);
  CHECK(moved.runtime_dir_note.find("owned by uid") != std::string::npos);
  CHECK(moved.runtime_dir_note.find("XDG_RUNTIME_DIR") != std::string::npos);

  // Ours and private: used as before.
  auto own = resolve_runtime_paths(env, ::getuid());
  fs::create_directory(own.runtime_dir);
  fs::permissions(own.runtime_dir, fs::perms::owner_all);
  CHECK(resolve_runtime_paths(env, ::getuid()).runtime_dir ==
        tmp.path() / ("mission-" + std::to_string(::getuid())));
}

TEST_CASE("the state dir becomes 0700 and the database files 0600") {
  mission::test::TempDir tmp;
  fs::path state = tmp.path() / "state";
  fs::create_directory(state);
  fs::permissions(state, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                             fs::perms::others_read | fs::perms::others_exec);
  CHECK(mission::ensure_state_dir(state, ::getuid()).find("0755") != std::string::npos);
  struct stat st {};
  REQUIRE(::stat(state.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  CHECK(mission::ensure_state_dir(state, ::getuid()).empty());

  fs::path db = state / "mission.db";
  CHECK(mission::ensure_private_file(db, ::getuid(), true).empty());
  REQUIRE(::stat(db.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  fs::path wal = state / "mission.db-wal";
  CHECK(mission::ensure_private_file(wal, ::getuid(), false).empty());
  CHECK(!fs::exists(wal));  // not created
  { std::ofstream(wal) << "x"; }
  fs::permissions(wal, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                           fs::perms::others_read);
  CHECK(mission::ensure_private_file(wal, ::getuid(), false).find("0644") != std::string::npos);
  REQUIRE(::stat(wal.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);

  // Another user's state dir is refused, not taken over.
  CHECK_THROWS_AS(mission::ensure_state_dir(state, ::getuid() + 1), mission::MissionError);
}
