#pragma once
// Runs git for the commands that keep mission's records in a repository
// (`mission export`, `mission check --from-notes`). The CLI links no
// libgit2: git itself reads and writes notes, as a person would.

#include <string>
#include <vector>

namespace mission::cli {

struct GitResult {
  int exit_code = 0;  // git's exit status; 128 + signal if killed
  std::string out;    // all of stdout, at most limits::kMaxGitOutputBytes
  std::string err;    // the end of stderr, for error messages
};

// `git -C dir ARGS...`, `input` on its stdin. Throws MissionError when git
// cannot be started or says more than limits::kMaxGitOutputBytes.
GitResult run_git(const std::string& dir, const std::vector<std::string>& args,
                  const std::string& input = {});

// Like run_git, but a non-zero exit throws MissionError quoting git's
// message, with `hint`.
std::string git_output(const std::string& dir, const std::vector<std::string>& args,
                       const std::string& hint, const std::string& input = {});

// `git -C dir ARGS...` on mission's own stdin, stdout and stderr, so git
// pages and colours as it does for a person; its exit status. Throws
// MissionError when git cannot be started.
int run_git_attached(const std::string& dir, const std::vector<std::string>& args);

}  // namespace mission::cli
