#include "daemon/sandbox/private_temp.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "shared/error_code.hpp"

namespace mission::daemon::sandbox {

std::filesystem::path make_private_temp(const std::filesystem::path& root,
                                        const std::string& name) {
  const std::filesystem::path dir = root / name;
  remove_private_temp(dir);
  for (const auto& path : {root, dir}) {
    if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
      throw MissionError(ErrorCode::internal,
                         "cannot create the agent's private temporary folder " + path.string() +
                             ": " + std::strerror(errno),
                         "check that " + root.parent_path().string() + " is writable and has room");
    }
  }
  return dir;
}

void remove_private_temp(const std::filesystem::path& dir) noexcept {
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

}  // namespace mission::daemon::sandbox
