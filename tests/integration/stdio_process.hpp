#pragma once
// A child process driven through its stdin and stdout line by line, the way
// an MCP client drives a stdio server such as `mission mcp connect`.

#include <sys/types.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mission::test {

class StdioProcess {
 public:
  StdioProcess(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
               const std::string& cwd = {});
  ~StdioProcess();  // SIGKILLs the child if it still runs
  StdioProcess(const StdioProcess&) = delete;
  StdioProcess& operator=(const StdioProcess&) = delete;

  // Writes raw bytes (the test supplies any newline).
  void send_raw(std::string_view bytes);
  // Writes one message as a line.
  void send(const nlohmann::json& message) { send_raw(message.dump() + "\n"); }
  // The next stdout line as JSON; nullopt at EOF. Fails the test on timeout.
  std::optional<nlohmann::json> read(std::chrono::milliseconds timeout = std::chrono::seconds(15));
  // The next stdout line as text; fails the test at EOF or on timeout.
  std::string read_raw_line(std::chrono::milliseconds timeout = std::chrono::seconds(15));
  // Sends a request with `id` and returns the next line (the reply).
  nlohmann::json request(int id, const std::string& method,
                         const nlohmann::json& params = nlohmann::json::object());
  // Whether nothing arrives on stdout within `quiet`.
  bool silent_for(std::chrono::milliseconds quiet);
  void close_stdin();
  // Exit code (128 + signal); nullopt if still running at the timeout.
  std::optional<int> wait_exit(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // Everything read from stdout that was not returned by read() yet.
  const std::string& unread_stdout() const { return buffer_; }
  std::string stderr_text();
  pid_t pid() const { return pid_; }

 private:
  void drain_stderr();
  // The next stdout line; nullopt at EOF. Fails the test on timeout.
  std::optional<std::string> next_line(std::chrono::milliseconds timeout);

  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  int stderr_fd_ = -1;
  std::string buffer_;
  std::string stderr_;
  std::optional<int> exit_code_;
};

}  // namespace mission::test
