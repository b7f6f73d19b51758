#pragma once
// A real missiond inside the fuzzing process, for the targets that fuzz what
// the daemon does with a connection: the daemon runs on a thread of its own
// over a fresh runtime dir, state dir and SQLite file in a temp dir (removed
// at exit), and each input talks to it through the real Unix socket.

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace mission::fuzz {

// The hello every fuzzed connection begins with.
inline constexpr std::string_view kHello =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"hello\",\"params\":{\"protocol\":1,\"client\":{\"name\":\"fuzz\"}}}\n";

// Starts the daemon on first use.
class DaemonFixture {
 public:
  static DaemonFixture& get();

  // A small directory the fuzzed requests use as their cwd: no request
  // reaches the rest of the file system through a cwd or a path.
  const std::filesystem::path& work_dir() const { return work_dir_; }

  // Connects, writes `bytes`, closes the sending side and reads every reply
  // line until the daemon closes. Traps (a hang) if that takes longer than
  // kExchangeTimeoutMs.
  std::vector<std::string> exchange(std::string_view bytes);

  // Traps unless a fresh connection still gets hello and daemon.status
  // answered.
  void check_alive();

 private:
  DaemonFixture();
  std::filesystem::path root_;
  std::filesystem::path socket_;
  std::filesystem::path work_dir_;
};

// The fuzzed frames with what must not run from a fuzzer taken out: each
// line that parses as a request (or an MCP batch) is dropped when
// `dropped(method, tool)` says so, and any "cwd" or "path" string in its
// params or tool arguments (and any key ending in "path") is replaced by
// `work_dir`. Other lines pass
// through as they are.
std::string tame_frames(std::string_view input, const std::filesystem::path& work_dir,
                        bool (*dropped)(std::string_view method, std::string_view tool));

// Traps unless every line is one JSON-RPC 2.0 response or notification.
void check_replies(const std::vector<std::string>& lines);

}  // namespace mission::fuzz
