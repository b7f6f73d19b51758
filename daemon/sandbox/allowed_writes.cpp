#include "daemon/sandbox/allowed_writes.hpp"

#include <algorithm>
#include <system_error>

#include "daemon/sandbox/path_beneath.hpp"
#include "shared/error_code.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::sandbox {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void refuse(const fs::path& path, const std::string& why, const std::string& hint) {
  throw MissionError(ErrorCode::invalid_argument, "--allow-write " + path.string() + ": " + why,
                     hint, {{"field", "allowWrite"}, {"path", path.string()}});
}

}  // namespace

void check_allowed_writes(const std::vector<fs::path>& paths, const fs::path& repository_git) {
  if (paths.size() > limits::kMaxAllowedWrites) {
    throw MissionError(ErrorCode::invalid_argument,
                       std::to_string(paths.size()) + " --allow-write paths are too many",
                       "give at most " + std::to_string(limits::kMaxAllowedWrites) +
                           ", or allow a folder that holds them",
                       {{"field", "allowWrite"}});
  }
  for (const fs::path& path : paths) {
    if (!path.is_absolute()) refuse(path, "is not absolute", "give the whole path, from /");
    std::error_code ec;
    const fs::path canonical = fs::canonical(path, ec);
    if (ec) refuse(path, "does not exist", "create it first, or give a path that exists");
    if (canonical != path) {
      refuse(path, "is not its canonical form " + canonical.string(),
             "give " + canonical.string() + " (the kernel's rule names the real folder)");
    }
    if (std::find(path.begin(), path.end(), fs::path(".git")) != path.end()) {
      refuse(path, "is inside a repository's .git",
             "an agent commits on its own branch without it; allow a folder outside .git");
    }
    if (!repository_git.empty() && beneath(repository_git, path)) {
      refuse(path, "holds the repository's .git (" + repository_git.string() + ")",
             "allow a folder that does not hold the main checkout");
    }
  }
}

std::string allowed_writes_note(const std::vector<fs::path>& paths) {
  std::string note;
  for (const fs::path& path : paths)
    note += (note.empty() ? ", also writes " : ", ") + path.string();
  return note;
}

}  // namespace mission::daemon::sandbox
