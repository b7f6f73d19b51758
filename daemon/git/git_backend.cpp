#include "daemon/git/git_backend.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <mutex>

#include "shared/error_code.hpp"

namespace mission::daemon::git {
namespace {

std::filesystem::path module_path() {
  std::error_code error;
  std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) {
    throw MissionError(ErrorCode::internal,
                       "cannot find the running executable: " + error.message(),
                       "run missiond from its installed path");
  }
  return executable.parent_path().parent_path() / "lib" / "mission" / kGitBackendFile;
}

const GitBackend* load() {
  const std::filesystem::path path = module_path();
  // RTLD_LOCAL: libgit2's symbols stay the module's own. Never unloaded:
  // a thread-pool thread may be inside it at any time.
  void* module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  const char* reason = module == nullptr ? ::dlerror() : nullptr;
  if (module != nullptr) {
    using Entry = const GitBackend* (*)();
    auto entry = reinterpret_cast<Entry>(::dlsym(module, kGitBackendSymbol));
    if (entry != nullptr) return entry();
    reason = ::dlerror();
  }
  throw MissionError(ErrorCode::internal,
                     "cannot load the git backend " + path.string() + ": " +
                         (reason != nullptr ? reason : "unknown reason"),
                     "install mission whole: missiond needs " + std::string(kGitBackendFile) +
                         " in ../lib/mission beside its directory");
}

}  // namespace

const GitBackend& git_backend() {
  // Retried after a failure: a module installed meanwhile is found.
  static std::mutex mutex;
  static const GitBackend* backend = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (backend == nullptr) backend = load();
  return *backend;
}

}  // namespace mission::daemon::git
