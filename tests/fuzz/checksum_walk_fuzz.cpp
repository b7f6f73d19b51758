// The checksum walker on a tree built from the input: directories (some
// with the names the walk skips), regular and executable files of any
// content, symlinks to anything (loops, absolute, dangling), FIFOs and
// hard links, nested deep. The walk lists exactly the regular files and
// symlinks outside skipped directories, once each and sorted, never a
// FIFO; each hash is the content's (a symlink's: its target's text); a
// second walk agrees; the file cap holds.
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "daemon/git/checksum_walk.hpp"
#include "daemon/git/content_hash.hpp"
#include "daemon/git/file_state.hpp"
#include "shared/error_code.hpp"

namespace fs = std::filesystem;
namespace git = mission::daemon::git;

namespace {

constexpr std::size_t kMaxDepth = 24;
constexpr std::size_t kMaxContentBytes = 4096;

struct Reader {
  const std::uint8_t* at;
  const std::uint8_t* end;
  bool done() const { return at == end; }
  std::uint8_t byte() { return at == end ? 0 : *at++; }
  std::string bytes(std::size_t count) {
    std::string out;
    while (count-- > 0 && at != end) out.push_back(static_cast<char>(*at++));
    return out;
  }
};

std::string make_name(Reader& in) {
  static const char* const kSpecial[] = {".git", "node_modules", ".cache",  "a",           "A",
                                         "-",    "..x",          " sp ace", "line\nbreak", "%0A"};
  std::uint8_t pick = in.byte();
  if (pick < 40) return kSpecial[pick % (sizeof kSpecial / sizeof kSpecial[0])];
  std::size_t length = 1 + in.byte() % 12;
  std::string name;
  for (std::size_t i = 0; i < length; ++i) {
    char c = static_cast<char>(in.byte());
    if (c == '/' || c == '\0') c = '_';
    name.push_back(c);
  }
  if (name == "." || name == "..") name = "_";
  return name;
}

bool skipped_below(const std::string& path) {
  std::size_t start = 0;
  for (std::size_t slash; (slash = path.find('/', start)) != std::string::npos; start = slash + 1) {
    if (git::checksum::is_skipped_directory(std::string_view(path).substr(start, slash - start)))
      return true;
  }
  return false;
}

struct Expected {
  std::uint32_t mode;
  std::string content;  // a symlink's target
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string pattern = (fs::temp_directory_path() / "mission-fuzz-walk-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) __builtin_trap();
  const fs::path root = pattern;
  Reader in{data, data + size};
  const std::size_t max_files = 1 + in.byte() % 64;
  std::vector<std::string> dirs{""};  // relative paths, "" the root
  std::string cwd;
  std::map<std::string, Expected> expected;
  auto join = [](const std::string& dir, const std::string& name) {
    return dir.empty() ? name : dir + "/" + name;
  };
  while (!in.done()) {
    std::uint8_t op = in.byte() % 8;
    std::string name = make_name(in);
    std::string path = join(cwd, name);
    fs::path full = root / path;
    if (fs::symlink_status(full).type() != fs::file_type::not_found) continue;
    switch (op) {
      case 0:  // a directory, and go into it
        if (std::count(path.begin(), path.end(), '/') >= static_cast<long>(kMaxDepth)) break;
        if (::mkdir(full.c_str(), 0755) == 0) {
          dirs.push_back(path);
          cwd = path;
        }
        break;
      case 1:  // back up to any directory made so far
        cwd = dirs[in.byte() % dirs.size()];
        break;
      case 2:
      case 3: {  // a file
        std::string content = in.bytes(in.byte() * 16 % kMaxContentBytes);
        bool executable = op == 3;
        int fd =
            ::open(full.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, executable ? 0755 : 0644);
        if (fd < 0) break;
        if (::write(fd, content.data(), content.size()) != static_cast<ssize_t>(content.size()))
          __builtin_trap();
        ::close(fd);
        expected[path] = {executable ? git::kModeExecutable : git::kModeFile, content};
        break;
      }
      case 4: {  // a symlink to anything: a sibling, a loop, out of the tree, nowhere
        std::uint8_t kind = in.byte() % 4;
        std::string target = kind == 0   ? "."
                             : kind == 1 ? "/proc/self"
                             : kind == 2 ? make_name(in)
                                         : "../" + make_name(in);
        if (::symlink(target.c_str(), full.c_str()) == 0)
          expected[path] = {git::kModeSymlink, target};
        break;
      }
      case 5:  // a FIFO: never opened, never listed
        ::mkfifo(full.c_str(), 0644);
        break;
      case 6: {  // a hard link to a file made before
        if (expected.empty()) break;
        auto it = expected.begin();
        std::advance(it, in.byte() % expected.size());
        if (it->second.mode == git::kModeSymlink) break;
        if (::link((root / it->first).c_str(), full.c_str()) == 0) expected[path] = it->second;
        break;
      }
      default: {  // an empty file
        int fd = ::open(full.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) {
          ::close(fd);
          expected[path] = {git::kModeFile, ""};
        }
        break;
      }
    }
  }
  for (auto it = expected.begin(); it != expected.end();) {
    it = skipped_below(it->first) ? expected.erase(it) : std::next(it);
  }

  int root_fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0) __builtin_trap();
  std::atomic<std::uint64_t> never_cancelled{0};
  auto walk = [&] {
    git::SnapshotControl control(never_cancelled, root.string());
    auto files = git::checksum::walk_tree(root_fd, root.string(), max_files, control);
    git::checksum::hash_files(root_fd, files, control);
    return files;
  };
  try {
    auto files = walk();
    if (expected.size() > max_files) __builtin_trap();
    if (files.size() != expected.size()) __builtin_trap();
    std::size_t i = 0;
    for (const auto& [path, want] : expected) {
      const auto& got = files[i++];
      if (got.path != path || got.mode != want.mode || !got.hashed) __builtin_trap();
      if (got.hash != git::content_hash(want.content)) __builtin_trap();
      if (want.mode != git::kModeSymlink && got.size != want.content.size()) __builtin_trap();
    }
    auto again = walk();
    if (again.size() != files.size()) __builtin_trap();
    for (std::size_t j = 0; j < files.size(); ++j) {
      if (again[j].path != files[j].path || again[j].hash != files[j].hash) __builtin_trap();
    }
  } catch (const mission::MissionError& error) {
    // Only the cap may stop the walk here.
    if (error.code() != mission::ErrorCode::payload_too_large || expected.size() <= max_files)
      __builtin_trap();
  }
  ::close(root_fd);
  std::error_code ignored;
  fs::remove_all(root, ignored);
  return 0;
}
