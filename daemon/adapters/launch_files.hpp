#pragma once
// The temporary files of one launch (an MCP config holding the session
// token, marker instructions): mode 0600 in a private 0700 directory, and
// removed with that directory by remove() or the destructor. Nothing else a
// launch writes holds a secret.

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace mission::daemon::adapters {

class LaunchFiles {
 public:
  LaunchFiles() = default;
  // Files go in `dir`, created (mode 0700, with a private parent) on the
  // first write. Nothing touches the disk before that.
  explicit LaunchFiles(std::filesystem::path dir) : dir_(std::move(dir)) {}
  ~LaunchFiles() { remove(); }
  LaunchFiles(LaunchFiles&& other) noexcept;
  LaunchFiles& operator=(LaunchFiles&& other) noexcept;
  LaunchFiles(const LaunchFiles&) = delete;
  LaunchFiles& operator=(const LaunchFiles&) = delete;

  // Writes `content` to a new file `name` (mode 0600) and returns its path.
  // Throws MissionError(internal) naming the path and the cause.
  std::filesystem::path write(std::string_view name, std::string_view content);

  // The cleanup: removes every file written and the directory. Idempotent,
  // never throws.
  void remove() noexcept;

  const std::filesystem::path& dir() const { return dir_; }
  const std::vector<std::filesystem::path>& paths() const { return paths_; }

 private:
  void create_dir();

  std::filesystem::path dir_;
  std::vector<std::filesystem::path> paths_;
  bool created_ = false;
};

}  // namespace mission::daemon::adapters
