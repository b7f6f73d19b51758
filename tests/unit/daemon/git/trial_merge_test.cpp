// Trial merges of live work (daemon/git/trial_merge.hpp) in real git
// repositories with real worktrees: what conflicts (the same lines, an
// edit against a deletion, the integration tip's change) and what does not
// (different hunks of a file, the same edit twice, ignored files, a
// revert), with and without the watcher's candidate paths.

#include "daemon/git/trial_merge.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "support/git_repo.hpp"

using namespace mission::daemon::git;
using mission::test::Repo;
namespace fs = std::filesystem;

namespace {

std::string ten_lines() {
  std::string text;
  for (int i = 1; i <= 10; ++i) text += "line " + std::to_string(i) + "\n";
  return text;
}

// A repository with shared.txt, an ignored build/ and two worktrees of
// their own branches, a and b, at its first commit.
struct Live {
  Live() {
    repo.write("shared.txt", ten_lines());
    repo.write(".gitignore", "build/\n");
    repo.git("add -A");
    repo.git("commit -q -m shared");
    base = repo.git_output("rev-parse HEAD").substr(0, 40);
    repo.git("branch integration");
    for (const char* name : {"a", "b"}) {
      repo.git(std::string("worktree add -q -b ") + name + " '" + tree(name).string() + "'");
    }
  }
  fs::path tree(const std::string& name) const {
    return repo.root().parent_path() / ("wt-" + name);
  }
  void write(const std::string& name, const std::string& path, const std::string& text) const {
    fs::create_directories((tree(name) / path).parent_path());
    std::ofstream(tree(name) / path, std::ios::binary | std::ios::trunc) << text;
  }
  std::string with_line(int line, const std::string& text) const {
    std::string out;
    for (int i = 1; i <= 10; ++i) out += (i == line ? text : "line " + std::to_string(i)) + "\n";
    return out;
  }
  LiveCheckResult check(std::optional<std::vector<std::string>> candidates = std::nullopt) const {
    LiveCheckInput input;
    input.repository = repo.root().string();
    input.integration_branch = "integration";
    for (const char* name : {"a", "b"})
      input.sides.push_back({tree(name).string(), base, candidates});
    return check_live(input);
  }
  Repo repo;
  std::string base;
};

std::vector<std::string> paths_of(const LiveCheckResult& result) {
  std::vector<std::string> out;
  for (const auto& conflict : result.conflicts) out.push_back(conflict.path);
  return out;
}

}  // namespace

TEST_CASE("live trial merge: the same line changed two ways conflicts, between the two sides") {
  Live live;
  live.write("a", "shared.txt", live.with_line(1, "from a"));
  live.write("b", "shared.txt", live.with_line(1, "from b"));
  const LiveCheckResult result = live.check();
  REQUIRE(result.conflicts.size() == 1);
  CHECK(result.conflicts[0].a == 0);
  CHECK(result.conflicts[0].b == std::optional<std::size_t>(1));
  CHECK(result.conflicts[0].path == "shared.txt");
  CHECK(result.changed[0] == std::vector<std::string>{"shared.txt"});
  // The watcher's candidates find the same.
  CHECK(paths_of(live.check(std::vector<std::string>{"shared.txt", "gone.txt"})) ==
        std::vector<std::string>{"shared.txt"});
  // Candidates that do not name it look at nothing else.
  CHECK(live.check(std::vector<std::string>{}).conflicts.empty());
}

TEST_CASE("live trial merge: different hunks of a file, the same edit twice and a revert merge") {
  Live live;
  live.write("a", "shared.txt", live.with_line(1, "from a"));
  live.write("b", "shared.txt", live.with_line(10, "from b"));
  CHECK(live.check().conflicts.empty());
  live.write("b", "shared.txt", live.with_line(1, "from a"));
  CHECK(live.check().conflicts.empty());
  live.write("b", "shared.txt", live.with_line(1, "from b"));
  REQUIRE(live.check().conflicts.size() == 1);
  live.write("b", "shared.txt", ten_lines());
  CHECK(live.check(std::vector<std::string>{"shared.txt"}).conflicts.empty());
}

TEST_CASE("live trial merge: an edit against a deletion and two different new files conflict") {
  Live live;
  live.write("a", "shared.txt", live.with_line(5, "from a"));
  fs::remove(live.tree("b") / "shared.txt");
  live.write("a", "new.txt", "a\n");
  live.write("b", "new.txt", "b\n");
  CHECK(paths_of(live.check()) == std::vector<std::string>{"new.txt", "shared.txt"});
  CHECK(paths_of(live.check(std::vector<std::string>{"new.txt", "shared.txt"})) ==
        std::vector<std::string>{"new.txt", "shared.txt"});
}

TEST_CASE("live trial merge: ignored files are no one's change, a new folder is looked at whole") {
  Live live;
  live.write("a", "build/out.o", "a\n");
  live.write("b", "build/out.o", "b\n");
  CHECK(live.check().conflicts.empty());
  CHECK(live.check(std::vector<std::string>{"build/out.o"}).conflicts.empty());
  live.write("a", "src/new/x.txt", "a\n");
  live.write("b", "src/new/x.txt", "b\n");
  CHECK(paths_of(live.check(std::vector<std::string>{"src"})) ==
        std::vector<std::string>{"src/new/x.txt"});
}

TEST_CASE("live trial merge: a side conflicts with the integration tip's change since its base") {
  Live live;
  live.repo.git("checkout -q integration");
  live.repo.write("shared.txt", live.with_line(1, "landed"));
  live.repo.git("commit -q -am landed");
  live.write("a", "shared.txt", live.with_line(1, "from a"));
  live.write("b", "shared.txt", live.with_line(10, "from b"));
  const LiveCheckResult result = live.check();
  INFO(result.conflicts.size());
  REQUIRE(result.conflicts.size() == 1);
  CHECK(result.conflicts[0].a == 0);
  CHECK_FALSE(result.conflicts[0].b.has_value());
  CHECK(result.tip == live.repo.git_output("rev-parse integration").substr(0, 40));
}
