#pragma once
// A real missiond inside the fuzzing process, for the targets that fuzz what
// the daemon does with a connection: the daemon runs on a thread of its own
// over a fresh runtime dir, state dir and SQLite file in a temp dir (removed
// at exit), and each input talks to it through the real Unix socket.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mission::fuzz {

// The hello every fuzzed connection begins with.
inline constexpr std::string_view kHello =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"hello\",\"params\":{\"protocol\":1,\"client\":{"
    "\"name\":\"fuzz\"}}}\n";

// A connection kept open across inputs, for a target that holds one
// session instead of starting one per input. Traps (a hang) when the
// daemon takes longer than kExchangeTimeoutMs to take or give a line.
class Connection {
 public:
  explicit Connection(const std::filesystem::path& socket);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Writes all of `bytes`, reading what the daemon sends meanwhile; false
  // when the daemon closed the connection.
  bool write(std::string_view bytes);
  // The next line the daemon sent, without its newline; nullopt once the
  // daemon closed the connection.
  std::optional<std::string> read_line();

 private:
  // Waits for `events`; reads what came in. False when the daemon closed.
  bool pump(short events);
  int fd_;
  std::string received_;
  bool closed_ = false;
};

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

  // A connection to keep (Connection).
  std::unique_ptr<Connection> connect() const { return std::make_unique<Connection>(socket_); }

  // The fixture's temp dir, which everything of the daemon's is under.
  const std::filesystem::path& root() const { return root_; }

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
