#pragma once
// Refused writes read from a confined agent's own output. The kernel on
// which mission runs does not report what Landlock refused (its audit
// records need ABI 7 and the audit subsystem), but the agent's tools do:
// a write the rules refused fails with EACCES, and a shell, coreutils or
// an agent CLI's tool result prints "Permission denied" naming the path.
// Such a line naming an absolute path outside the launch's profile, that
// the daemon (unconfined, the same user) could write, is a refused write:
// a path the file's own permissions refuse is not the profile's doing.

#include <array>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/sandbox/profile.hpp"

namespace mission::daemon::sandbox {

struct RefusedWrite {
  std::string path;       // absolute, as the agent's output named it (normalised)
  std::string operation;  // write, create, mkdir, remove, rename or link
};

// Whether the daemon, which runs unconfined as the same user, may write
// `path` (the path itself when it exists, else the folder it would be made
// in): when it may not, the file's own permissions refused the agent, not
// its profile. (Root may write nearly everything: then nearly every path
// outside the profile counts.)
bool writable_unconfined(const std::filesystem::path& path);

class RefusedWriteReader {
 public:
  // `writable` says whether a path outside the profile could be written
  // without it (writable_unconfined; tests give their own).
  explicit RefusedWriteReader(
      const Profile& profile,
      std::function<bool(const std::filesystem::path&)> writable = writable_unconfined);

  // Feeds bytes of the agent's stdout ('o') or stderr ('e') and returns the
  // refused writes on the lines they complete, each path once, at most
  // limits::kMaxRefusedWritesPerExecution in all.
  std::vector<RefusedWrite> feed(char stream, std::string_view bytes);
  // The output has ended: the lines left without their newline.
  std::vector<RefusedWrite> finish();

 private:
  struct Partial {
    std::string line;
    bool overflowed = false;  // past kMaxRefusedWriteLineBytes: the rest is skipped
  };
  void read_line(std::string_view line, std::vector<RefusedWrite>& found);
  bool inside_profile(const std::filesystem::path& path) const;
  bool hidden(const std::filesystem::path& path) const;  // beneath a hidden path

  std::vector<std::filesystem::path> trees_;
  std::vector<std::filesystem::path> files_;
  std::vector<std::filesystem::path> hidden_;
  std::array<Partial, 2> partial_;  // stdout, stderr
  std::set<std::string> seen_;
  std::function<bool(const std::filesystem::path&)> writable_;
};

// The refused writes `line` names, without the profile's check: for tests
// and the reader. Empty when the line reports no refused write.
std::vector<RefusedWrite> refused_writes_in_line(std::string_view line);

}  // namespace mission::daemon::sandbox
