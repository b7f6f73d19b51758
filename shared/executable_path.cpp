#include "shared/executable_path.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace mission {

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::optional<std::string> find_executable(const std::string& name, const char* search_path) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) {
    std::string path = std::filesystem::absolute(name).lexically_normal().string();
    return is_executable_file(path) ? std::optional<std::string>(path) : std::nullopt;
  }
  const char* search = search_path != nullptr ? search_path : std::getenv("PATH");
  // execvp's own default when PATH is unset.
  std::string dirs = search != nullptr ? search : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  for (;;) {
    std::size_t end = dirs.find(':', start);
    std::string dir =
        dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
    if (is_executable_file(candidate))
      return std::filesystem::absolute(candidate).lexically_normal().string();
    if (end == std::string::npos) return std::nullopt;
    start = end + 1;
  }
}

}  // namespace mission
