#pragma once
// A git repository in a temp dir for change-set tests, driven by the git CLI
// with no user or system config, and libgit2 kept away from the user's
// config too.

#include <git2.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "daemon/git/change_set.hpp"
#include "support/temp_dir.hpp"

namespace mission::test {

namespace fs = std::filesystem;
using daemon::git::Snapshot;
using daemon::git::take_snapshot;

class Repo {
 public:
  explicit Repo(bool with_first_commit = true) {
    fs::create_directories(root_);
    git_libgit2_init();
    for (auto level : {GIT_CONFIG_LEVEL_SYSTEM, GIT_CONFIG_LEVEL_XDG, GIT_CONFIG_LEVEL_GLOBAL}) {
      git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, home_.c_str());
    }
    git("init -q -b main");
    git("config user.name Tester");
    git("config user.email tester@example.com");
    git("config commit.gpgsign false");
    if (with_first_commit) {
      write("README.md", "readme\n");
      write("src/app.c", "int main(void) { return 0; }\n");
      write("src/util.c", "int util(void) { return 1; }\n");
      write("docs/guide.md", "guide\n");
      git("add -A");
      git("commit -q -m first");
    }
  }
  ~Repo() { git_libgit2_shutdown(); }

  const fs::path& root() const { return root_; }
  const std::string& home() const { return home_; }

  void git(const std::string& args) const {
    std::string command = git_command(args) + " >/dev/null 2>&1";
    INFO(command);
    REQUIRE(std::system(command.c_str()) == 0);
  }

  // What the git command prints on stdout.
  std::string git_output(const std::string& args) const {
    std::string command = git_command(args) + " 2>/dev/null";
    FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string out;
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
    REQUIRE(::pclose(pipe) == 0);
    return out;
  }

  void write(const std::string& path, const std::string& content) const {
    fs::path full = root_ / path;
    fs::create_directories(full.parent_path());
    std::ofstream out(full, std::ios::binary | std::ios::trunc);
    out << content;
    REQUIRE(out.good());
  }

  void remove(const std::string& path) const { REQUIRE(fs::remove(root_ / path)); }

  Snapshot snapshot(const std::string& subdir = "") const {
    return take_snapshot((subdir.empty() ? root_ : root_ / subdir).string());
  }

 private:
  std::string git_command(const std::string& args) const {
    return "cd '" + root_.string() + "' && env HOME='" + home_ +
           "' GIT_CONFIG_NOSYSTEM=1 GIT_EDITOR=true GIT_SEQUENCE_EDITOR=true GIT_TERMINAL_PROMPT=0 "
           "timeout 60 git " +
           args;
  }

  mission::test::TempDir dir_;
  std::string home_ = dir_.path().string();
  fs::path root_ = dir_.path() / "repo";
};

}  // namespace mission::test
