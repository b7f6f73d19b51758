// mission_mcp_bench: a raw MCP client for benchmarks (no SDK). It starts
// stdio MCP servers itself (posix_spawn, pipes, poll) and times them with
// steady_clock, so the bridge and a reference server are measured by the same
// code. Subcommands:
//
//   cold-start   --runs N [--warmup K] -- CMD ARGS...
//       N times: spawn CMD, write initialize + notifications/initialized +
//       tools/list in one write, time from just before the spawn until the
//       tools/list response line is read. Then close stdin and reap (untimed).
//   call-latency --calls N [--warmup K] -- CMD ARGS...
//   call-latency --calls N [--warmup K] --socket PATH --execution ID
//       One session, N sequential tools/call of `progress`, each with a unique
//       eventId; round trip per call. With --socket, the client talks to the
//       daemon's control socket itself (hello, mcp.attach with the token from
//       $MISSION_MCP_TOKEN), which is the floor under the bridge.
//   concurrent   --sessions N [--watch-pid PID] -- CMD ARGS...
//       N sessions at once, each initialize + tools/list + one tools/call
//       `progress`; every session stays open until all have answered, then
//       all stdins close and every child must exit 0.
//
// Results go to stdout as `key: value` lines (easy to pick with awk); progress
// and errors go to stderr. Every wait has a timeout. Exit status: 0 when every
// call succeeded, 1 when some failed, 2 on usage errors.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
using json = nlohmann::json;

constexpr const char* kProtocolVersion = "2025-11-25";

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

int ms_left(Clock::time_point deadline) {
  auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(std::min<long long>(left + 1, 60'000));
}

// Linear interpolation between closest ranks (numpy's default).
double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  double rank = p / 100.0 * static_cast<double>(values.size() - 1);
  auto low = static_cast<std::size_t>(std::floor(rank));
  auto high = static_cast<std::size_t>(std::ceil(rank));
  return values[low] + (values[high] - values[low]) * (rank - static_cast<double>(low));
}

std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("killed by signal ") + ::strsignal(WTERMSIG(status));
  return "status " + std::to_string(status);
}

void set_nonblocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// --- children's stderr ------------------------------------------------------
//
// Every child writes its stderr into one anonymous temporary file, so a
// failure can show what the server said without a third pipe per session.
class StderrSink {
 public:
  StderrSink() {
    file_ = std::tmpfile();
    if (file_ == nullptr) throw Failure(std::string("tmpfile: ") + std::strerror(errno));
    fd_ = ::fileno(file_);
    ::fcntl(fd_, F_SETFD, FD_CLOEXEC);
  }
  ~StderrSink() { std::fclose(file_); }
  StderrSink(const StderrSink&) = delete;
  StderrSink& operator=(const StderrSink&) = delete;
  int fd() const { return fd_; }

  // The last `max_bytes` the children wrote, for error reports.
  std::string tail(std::size_t max_bytes = 2000) const {
    off_t size = ::lseek(fd_, 0, SEEK_END);
    if (size <= 0) return {};
    off_t start = size > static_cast<off_t>(max_bytes) ? size - static_cast<off_t>(max_bytes) : 0;
    std::string text(static_cast<std::size_t>(size - start), '\0');
    ssize_t n = ::pread(fd_, text.data(), text.size(), start);
    text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return text;
  }

 private:
  std::FILE* file_ = nullptr;
  int fd_ = -1;
};

void print_stderr_tail(const StderrSink& sink) {
  std::string tail = sink.tail();
  if (tail.empty()) return;
  std::fprintf(stderr, "--- last stderr output of the server processes ---\n%s%s---\n",
               tail.c_str(), tail.back() == '\n' ? "" : "\n");
}

struct Response {
  json message;
  std::size_t bytes = 0;  // the line, without its newline
  Clock::time_point at;   // when the line was complete
};

// --- one MCP connection: a child's stdin/stdout, or a socket ----------------

class Connection {
 public:
  Connection() = default;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  Connection(Connection&& other) noexcept { *this = std::move(other); }
  Connection& operator=(Connection&& other) noexcept {
    std::swap(pid_, other.pid_);
    std::swap(write_fd_, other.write_fd_);
    std::swap(read_fd_, other.read_fd_);
    std::swap(is_socket_, other.is_socket_);
    std::swap(output_, other.output_);
    std::swap(input_, other.input_);
    std::swap(eof_, other.eof_);
    std::swap(exit_status_, other.exit_status_);
    std::swap(stash_, other.stash_);
    return *this;
  }
  ~Connection() {
    if (write_fd_ >= 0 && write_fd_ != read_fd_) ::close(write_fd_);
    if (read_fd_ >= 0) ::close(read_fd_);
    if (pid_ > 0) {  // an error path left it running: do not leave a zombie
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }

  static Connection spawn(const std::vector<std::string>& command, int stderr_fd) {
    int to_child[2], from_child[2];
    if (::pipe2(to_child, O_CLOEXEC) != 0)
      throw Failure(std::string("pipe: ") + std::strerror(errno));
    if (::pipe2(from_child, O_CLOEXEC) != 0) {
      int error = errno;
      ::close(to_child[0]);
      ::close(to_child[1]);
      throw Failure(std::string("pipe: ") + std::strerror(error));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], STDOUT_FILENO);
    if (stderr_fd >= 0) posix_spawn_file_actions_adddup2(&actions, stderr_fd, STDERR_FILENO);
    std::vector<char*> argv;
    for (const auto& arg : command) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    pid_t pid = -1;
    int error = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(to_child[0]);
    ::close(from_child[1]);
    if (error != 0) {
      ::close(to_child[1]);
      ::close(from_child[0]);
      throw Failure("cannot run " + command[0] + ": " + std::strerror(error));
    }
    Connection connection;
    connection.pid_ = pid;
    connection.write_fd_ = to_child[1];
    connection.read_fd_ = from_child[0];
    set_nonblocking(connection.write_fd_);
    set_nonblocking(connection.read_fd_);
    return connection;
  }

  static Connection connect_socket(const std::string& path) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (path.size() >= sizeof address.sun_path) throw Failure("socket path is too long: " + path);
    std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw Failure(std::string("socket: ") + std::strerror(errno));
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
      int error = errno;
      ::close(fd);
      throw Failure("cannot connect to " + path + ": " + std::strerror(error));
    }
    Connection connection;
    connection.write_fd_ = connection.read_fd_ = fd;
    connection.is_socket_ = true;
    set_nonblocking(fd);
    return connection;
  }

  pid_t pid() const { return pid_; }
  int read_fd() const { return read_fd_; }
  int write_fd() const { return write_fd_; }
  bool eof() const { return eof_; }
  bool wants_write() const { return write_fd_ >= 0 && !output_.empty(); }
  std::vector<Response>& stash() { return stash_; }
  std::optional<int> exit_status() const { return exit_status_; }

  void queue(const json& message) {
    output_ += message.dump();
    output_ += '\n';
  }

  // Writes what the pipe takes now. Throws when the peer is gone.
  void flush() {
    while (!output_.empty() && write_fd_ >= 0) {
      ssize_t n = is_socket_ ? ::send(write_fd_, output_.data(), output_.size(), MSG_NOSIGNAL)
                             : ::write(write_fd_, output_.data(), output_.size());
      if (n > 0) {
        output_.erase(0, static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      throw Failure(std::string("write to the server failed: ") + std::strerror(errno));
    }
  }

  // Closes the server's input (stdin EOF, or a socket half-close).
  void close_input() {
    if (write_fd_ < 0) return;
    if (is_socket_) {
      ::shutdown(write_fd_, SHUT_WR);
      write_fd_ = -2;
    } else {
      ::close(write_fd_);
      write_fd_ = -1;
    }
  }

  // Reads what is available; false once the server closed its output.
  bool read_available() {
    char chunk[65536];
    for (;;) {
      ssize_t n = ::read(read_fd_, chunk, sizeof chunk);
      if (n > 0) {
        input_.append(chunk, static_cast<std::size_t>(n));
        if (static_cast<std::size_t>(n) < sizeof chunk) return true;
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
      eof_ = true;
      return false;
    }
  }

  // The next complete line read so far, without its newline.
  std::optional<std::string> next_line() {
    auto end = input_.find('\n');
    if (end == std::string::npos) return std::nullopt;
    std::string line = input_.substr(0, end);
    input_.erase(0, end + 1);
    return line;
  }

  // Non-blocking reap; true once the child's status is known (or no child).
  bool try_reap() {
    if (pid_ <= 0) return true;
    int status = 0;
    pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      exit_status_ = status;
      pid_ = -1;
      return true;
    }
    return false;
  }
  void record_exit(int status) {
    exit_status_ = status;
    pid_ = -1;
  }

  void kill_child(int signal) {
    if (pid_ > 0) ::kill(pid_, signal);
  }

  // Closes the input and waits for the child to exit, discarding its output:
  // `grace` for a clean exit, then SIGTERM, then SIGKILL. Returns whether it
  // exited by itself.
  bool finish(std::chrono::milliseconds grace) {
    close_input();
    if (is_socket_) return true;
    bool by_itself = true;
    auto deadline = Clock::now() + grace;
    int stage = 0;
    while (!try_reap()) {
      if (Clock::now() >= deadline) {
        by_itself = false;
        kill_child(stage == 0 ? SIGTERM : SIGKILL);
        deadline = Clock::now() + std::chrono::milliseconds(stage == 0 ? 1000 : 5000);
        if (++stage > 2) throw Failure("child " + std::to_string(pid_) + " does not die");
      }
      if (!eof_) {
        pollfd fd{read_fd_, POLLIN, 0};
        if (::poll(&fd, 1, 1) > 0) {
          read_available();
          input_.clear();
        }
      } else {
        ::usleep(200);
      }
    }
    return by_itself;
  }

 private:
  pid_t pid_ = -1;
  int write_fd_ = -1;
  int read_fd_ = -1;
  bool is_socket_ = false;
  std::string output_;
  std::string input_;
  bool eof_ = false;
  std::optional<int> exit_status_;
  std::vector<Response> stash_;
};

// --- messages -----------------------------------------------------------------

json request(long id, std::string_view method, json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

json initialize_request(long id) {
  return request(id, "initialize",
                 {{"protocolVersion", kProtocolVersion},
                  {"capabilities", json::object()},
                  {"clientInfo", {{"name", "mission-mcp-bench"}, {"version", "1.0.0"}}}});
}

json initialized_notification() {
  return {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}};
}

json progress_call(long id, const std::string& event_id, const std::string& summary) {
  return request(
      id, "tools/call",
      {{"name", "progress"}, {"arguments", {{"summary", summary}, {"eventId", event_id}}}});
}

// Parses a line from the server. A response is returned; a notification is
// skipped; a request from the server is answered "method not found" (we
// declare no client capabilities). Throws on lines that are not JSON objects.
std::optional<Response> classify_line(Connection& connection, const std::string& line,
                                      Clock::time_point at) {
  json message;
  try {
    message = json::parse(line);
  } catch (const json::exception& error) {
    throw Failure("the server wrote a line that is not JSON (" + std::string(error.what()) +
                  "): " + line.substr(0, 300));
  }
  if (!message.is_object()) throw Failure("the server wrote a non-object: " + line.substr(0, 300));
  if (message.contains("method")) {
    if (message.contains("id")) {
      connection.queue(
          {{"jsonrpc", "2.0"},
           {"id", message["id"]},
           {"error", {{"code", -32601}, {"message", "not supported by the bench client"}}}});
    }
    return std::nullopt;
  }
  if (!message.contains("id")) return std::nullopt;
  return Response{std::move(message), line.size(), at};
}

bool has_id(const Response& response, long id) {
  return response.message["id"] == json(id);
}

// Waits for the response to `id` on a single connection. Responses to other
// ids are kept for a later wait.
Response wait_response(Connection& connection, long id, Clock::time_point deadline,
                       std::string_view what) {
  auto& stash = connection.stash();
  for (auto it = stash.begin(); it != stash.end(); ++it) {
    if (has_id(*it, id)) {
      Response response = std::move(*it);
      stash.erase(it);
      return response;
    }
  }
  for (;;) {
    while (auto line = connection.next_line()) {
      auto response = classify_line(connection, *line, Clock::now());
      if (!response) continue;
      if (has_id(*response, id)) return std::move(*response);
      if (stash.size() < 64) stash.push_back(std::move(*response));
    }
    if (connection.eof()) {
      // Give the child a moment to exit, so the error can name its status.
      for (int i = 0; i < 200 && !connection.try_reap(); ++i) ::usleep(1000);
      std::string why =
          connection.exit_status() ? " (" + describe_status(*connection.exit_status()) + ")" : "";
      throw Failure("the server closed its output before answering " + std::string(what) + why);
    }
    connection.flush();
    int timeout = ms_left(deadline);
    if (timeout == 0) throw Failure("no answer to " + std::string(what) + " in time");
    pollfd fds[2];
    nfds_t count = 0;
    fds[count++] = {connection.read_fd(), POLLIN, 0};
    if (connection.wants_write() && connection.write_fd() != connection.read_fd()) {
      fds[count++] = {connection.write_fd(), POLLOUT, 0};
    } else if (connection.wants_write()) {
      fds[0].events |= POLLOUT;
    }
    int ready = ::poll(fds, count, timeout);
    if (ready < 0 && errno != EINTR) throw Failure(std::string("poll: ") + std::strerror(errno));
    if (ready > 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) connection.read_available();
  }
}

// The result of a response, or a Failure naming the JSON-RPC error.
json result_of(const Response& response, std::string_view what) {
  if (response.message.contains("error")) {
    throw Failure(std::string(what) + " failed: " + response.message["error"].dump());
  }
  if (!response.message.contains("result") || !response.message["result"].is_object()) {
    throw Failure(std::string(what) + " has no result: " + response.message.dump().substr(0, 300));
  }
  return response.message["result"];
}

// Why a progress call did not come back "accepted"; empty when it did.
std::string call_problem(const Response& response) {
  if (response.message.contains("error"))
    return "JSON-RPC error " + response.message["error"].dump();
  const json& result = response.message.value("result", json());
  if (!result.is_object()) return "no result";
  if (result.value("isError", false))
    return "tool error " + result.value("structuredContent", json()).dump();
  const json& structured = result.value("structuredContent", json());
  std::string status = structured.is_object() ? structured.value("status", "") : "";
  if (status != "accepted") return "status '" + status + "': " + structured.dump();
  return {};
}

// --- options --------------------------------------------------------------------

struct Options {
  std::string mode;
  long runs = 100;
  long warmup = -1;  // default depends on the mode
  long calls = 10000;
  long sessions = 1000;
  long timeout_ms = -1;  // per wait (cold-start, call-latency) or overall (concurrent)
  long exit_grace_ms = 2000;
  long watch_pid = 0;
  std::string socket;
  std::string execution;
  std::string event_prefix;
  std::vector<std::string> command;
};

const char* kUsage =
    "usage: mission_mcp_bench cold-start   [--runs N] [--warmup K] [--timeout-ms T] -- CMD "
    "ARGS...\n"
    "       mission_mcp_bench call-latency [--calls N] [--warmup K] [--timeout-ms T] -- CMD "
    "ARGS...\n"
    "       mission_mcp_bench call-latency [--calls N] [--warmup K] --socket PATH --execution ID\n"
    "       mission_mcp_bench concurrent   [--sessions N] [--watch-pid PID] [--timeout-ms T] -- "
    "CMD ARGS...\n"
    "common: [--event-prefix P] [--exit-grace-ms G (wait for exit after stdin EOF, default 2000)]\n"
    "  cold-start:   spawn + initialize + tools/list, N times (default 100, warmup 2)\n"
    "  call-latency: one session, N sequential tools/call progress (default 10000, warmup 100);\n"
    "                --socket: talk to missiond's control socket directly (token from\n"
    "                $MISSION_MCP_TOKEN)\n"
    "  concurrent:   N sessions at once (default 1000), each initialize + tools/list + one\n"
    "                tools/call progress; --watch-pid reads that process's RSS while all are open\n"
    "  --timeout-ms: per answer (default 10000), or for the whole concurrent run (default "
    "120000)\n";

long parse_count(const std::string& flag, const std::string& text, long minimum) {
  char* end = nullptr;
  errno = 0;
  long value = std::strtol(text.c_str(), &end, 10);
  if (errno != 0 || end == text.c_str() || *end != '\0' || value < minimum) {
    throw UsageError(flag + " wants an integer >= " + std::to_string(minimum) + ", not '" + text +
                     "'");
  }
  return value;
}

Options parse_options(int argc, char** argv) {
  if (argc < 2) throw UsageError("missing subcommand");
  Options options;
  options.mode = argv[1];
  if (options.mode == "-h" || options.mode == "--help") {
    std::fputs(kUsage, stdout);
    std::exit(0);
  }
  if (options.mode != "cold-start" && options.mode != "call-latency" &&
      options.mode != "concurrent") {
    throw UsageError("unknown subcommand '" + options.mode + "'");
  }
  int i = 2;
  auto value = [&](const std::string& flag) -> std::string {
    if (i + 1 >= argc) throw UsageError(flag + " needs a value");
    return argv[++i];
  };
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") {
      for (++i; i < argc; ++i) options.command.emplace_back(argv[i]);
      break;
    }
    if (arg == "--runs")
      options.runs = parse_count(arg, value(arg), 1);
    else if (arg == "--warmup")
      options.warmup = parse_count(arg, value(arg), 0);
    else if (arg == "--calls")
      options.calls = parse_count(arg, value(arg), 1);
    else if (arg == "--sessions")
      options.sessions = parse_count(arg, value(arg), 1);
    else if (arg == "--timeout-ms")
      options.timeout_ms = parse_count(arg, value(arg), 1);
    else if (arg == "--exit-grace-ms")
      options.exit_grace_ms = parse_count(arg, value(arg), 0);
    else if (arg == "--watch-pid")
      options.watch_pid = parse_count(arg, value(arg), 1);
    else if (arg == "--socket")
      options.socket = value(arg);
    else if (arg == "--execution")
      options.execution = value(arg);
    else if (arg == "--event-prefix")
      options.event_prefix = value(arg);
    else if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else {
      throw UsageError("unknown option '" + arg + "'");
    }
  }
  bool direct = !options.socket.empty();
  if (direct && options.mode != "call-latency")
    throw UsageError("--socket is for call-latency only");
  if (direct && options.execution.empty()) throw UsageError("--socket needs --execution ID");
  if (direct && !options.command.empty())
    throw UsageError("give either --socket or -- CMD, not both");
  if (!direct && options.command.empty()) throw UsageError("missing -- CMD ARGS...");
  if (options.warmup < 0) options.warmup = options.mode == "call-latency" ? 100 : 2;
  if (options.timeout_ms < 0) options.timeout_ms = options.mode == "concurrent" ? 120000 : 10000;
  if (options.event_prefix.empty()) {
    // Unique per run, so reusing an execution never yields "duplicate".
    auto now = std::chrono::system_clock::now().time_since_epoch();
    options.event_prefix =
        "bench-" + std::to_string(::getpid()) + "-" +
        std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
  }
  return options;
}

std::string command_text(const std::vector<std::string>& command) {
  std::string text;
  for (const auto& arg : command) text += (text.empty() ? "" : " ") + arg;
  return text;
}

// --- cold-start -------------------------------------------------------------------

int run_cold_start(const Options& options) {
  StderrSink sink;
  std::vector<double> times_ms;
  std::size_t list_bytes = 0, tools = 0;
  std::string negotiated, server_name;
  bool paged = false;
  long unclean_exits = 0, killed = 0;
  const long total = options.warmup + options.runs;
  std::fprintf(stderr, "cold-start: %ld runs (+%ld warmup) of: %s\n", options.runs, options.warmup,
               command_text(options.command).c_str());
  for (long run = 0; run < total; ++run) {
    try {
      auto start = Clock::now();
      Connection child = Connection::spawn(options.command, sink.fd());
      // One write: the three messages are queued, then flushed together.
      child.queue(initialize_request(1));
      child.queue(initialized_notification());
      child.queue(request(2, "tools/list", json::object()));
      child.flush();
      auto deadline = start + std::chrono::milliseconds(options.timeout_ms);
      Response list = wait_response(child, 2, deadline, "tools/list");
      double elapsed = ms_between(start, list.at);
      // The initialize answer came first and is in the stash (untimed check).
      json init = result_of(wait_response(child, 1, deadline, "initialize"), "initialize");
      negotiated = init.value("protocolVersion", "?");
      server_name = init.value("serverInfo", json::object()).value("name", "?") + " " +
                    init.value("serverInfo", json::object()).value("version", "?");
      json result = result_of(list, "tools/list");
      if (!result.contains("tools") || !result["tools"].is_array()) {
        throw Failure("tools/list result has no tools array");
      }
      if (run >= options.warmup) times_ms.push_back(elapsed);
      list_bytes = list.bytes;
      tools = result["tools"].size();
      paged = result.contains("nextCursor") && !result["nextCursor"].is_null();
      if (!child.finish(std::chrono::milliseconds(options.exit_grace_ms))) {
        ++killed;
      } else if (child.exit_status() && *child.exit_status() != 0) {
        ++unclean_exits;
      }
    } catch (const Failure& error) {
      std::fprintf(stderr, "cold-start: run %ld failed: %s\n", run + 1, error.what());
      print_stderr_tail(sink);
      return 1;
    }
  }
  std::printf("server: %s (protocol %s)\n", server_name.c_str(), negotiated.c_str());
  std::printf("runs: %zu\n", times_ms.size());
  std::printf("median_ms: %s\n", fixed(percentile(times_ms, 50), 3).c_str());
  std::printf("p90_ms: %s\n", fixed(percentile(times_ms, 90), 3).c_str());
  std::printf("min_ms: %s\n",
              fixed(*std::min_element(times_ms.begin(), times_ms.end()), 3).c_str());
  std::printf("max_ms: %s\n",
              fixed(*std::max_element(times_ms.begin(), times_ms.end()), 3).c_str());
  std::printf("tools_list_bytes: %zu\n", list_bytes);
  std::printf("tools: %zu\n", tools);
  if (tools > 0) std::printf("bytes_per_tool: %zu\n", list_bytes / tools);
  if (paged) std::printf("note: tools/list has a nextCursor; figures are for the first page\n");
  std::printf("exited_nonzero: %ld\n", unclean_exits);
  std::printf("needed_signal_to_exit: %ld\n", killed);
  // Killed after the grace period is tolerated (some servers ignore stdin
  // EOF); a non-zero exit after a clean EOF is not.
  if (unclean_exits > 0) print_stderr_tail(sink);
  return unclean_exits == 0 ? 0 : 1;
}

// --- call-latency -------------------------------------------------------------------

int run_call_latency(const Options& options) {
  StderrSink sink;
  const bool direct = !options.socket.empty();
  std::fprintf(
      stderr, "call-latency: %ld calls (+%ld warmup) through %s\n", options.calls, options.warmup,
      direct ? ("the socket " + options.socket).c_str() : command_text(options.command).c_str());
  auto wait = [&] { return Clock::now() + std::chrono::milliseconds(options.timeout_ms); };
  std::optional<Connection> holder;
  try {
    if (direct) {
      holder.emplace(Connection::connect_socket(options.socket));
      json attach = {{"agentExecutionId", options.execution}};
      if (const char* token = std::getenv("MISSION_MCP_TOKEN")) attach["token"] = token;
      char cwd[4096];
      attach["cwd"] = ::getcwd(cwd, sizeof cwd) != nullptr ? cwd : "/";
      holder->queue(request(
          1, "hello",
          {{"protocol", 1}, {"client", {{"name", "mission-mcp-bench"}, {"version", "1.0.0"}}}}));
      holder->queue(request(2, "mcp.attach", attach));
      result_of(wait_response(*holder, 1, wait(), "hello"), "hello");
      result_of(wait_response(*holder, 2, wait(), "mcp.attach"), "mcp.attach");
    } else {
      holder.emplace(Connection::spawn(options.command, sink.fd()));
    }
    Connection& session = *holder;
    session.queue(initialize_request(1));
    session.queue(initialized_notification());
    json init = result_of(wait_response(session, 1, wait(), "initialize"), "initialize");
    std::fprintf(stderr, "call-latency: server %s, protocol %s\n",
                 init.value("serverInfo", json::object()).value("name", "?").c_str(),
                 init.value("protocolVersion", "?").c_str());

    std::vector<double> times_us;
    times_us.reserve(static_cast<std::size_t>(options.calls));
    long failures = 0;
    std::map<std::string, long> problems;
    const long total = options.warmup + options.calls;
    auto started = Clock::now();
    Clock::time_point measured_start = started;
    for (long i = 0; i < total; ++i) {
      if (i == options.warmup) measured_start = Clock::now();
      std::string event_id = options.event_prefix + "-c" + std::to_string(i);
      long id = 10 + i;
      session.queue(progress_call(id, event_id, "bench call " + std::to_string(i)));
      auto start = Clock::now();
      session.flush();
      Response answer =
          wait_response(session, id, start + std::chrono::milliseconds(options.timeout_ms),
                        "tools/call " + std::to_string(i));
      double elapsed_us = std::chrono::duration<double, std::micro>(answer.at - start).count();
      std::string problem = call_problem(answer);
      if (!problem.empty()) {
        ++failures;
        std::string key = problem.substr(0, 300);
        if (problems.size() < 5 || problems.count(key) != 0) problems[key]++;
      }
      if (i >= options.warmup) times_us.push_back(elapsed_us);
    }
    double wall_s = std::chrono::duration<double>(Clock::now() - measured_start).count();
    bool clean = session.finish(std::chrono::milliseconds(options.exit_grace_ms));
    std::string exit_text =
        direct ? "socket"
               : (clean && session.exit_status() ? describe_status(*session.exit_status())
                                                 : "needed a signal");

    std::printf("calls: %zu\n", times_us.size());
    std::printf("p50_us: %s\n", fixed(percentile(times_us, 50), 1).c_str());
    std::printf("p90_us: %s\n", fixed(percentile(times_us, 90), 1).c_str());
    std::printf("p99_us: %s\n", fixed(percentile(times_us, 99), 1).c_str());
    std::printf("min_us: %s\n",
                fixed(*std::min_element(times_us.begin(), times_us.end()), 1).c_str());
    std::printf("max_us: %s\n",
                fixed(*std::max_element(times_us.begin(), times_us.end()), 1).c_str());
    std::printf("calls_per_s: %s\n",
                fixed(static_cast<double>(times_us.size()) / wall_s, 0).c_str());
    std::printf("failures: %ld\n", failures);
    std::printf("server_exit: %s\n", exit_text.c_str());
    for (const auto& [problem, count] : problems) {
      std::fprintf(stderr, "call-latency: %ld x %s\n", count, problem.c_str());
    }
    bool exit_ok = direct || exit_text == "exit 0";
    if (failures > 0 || !exit_ok) print_stderr_tail(sink);
    return failures == 0 && exit_ok ? 0 : 1;
  } catch (const Failure& error) {
    std::fprintf(stderr, "call-latency: %s\n", error.what());
    print_stderr_tail(sink);
    return 1;
  }
}

// --- concurrent -------------------------------------------------------------------------

enum class Stage { listing, calling, holding, closing, done, failed };

struct Session {
  Connection connection;
  Stage stage = Stage::listing;
  std::string failure;
  Clock::time_point started;
  double ready_ms = 0;  // spawn to tools/call answered
};

std::string read_proc_status(long pid, const char* key) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(key, 0) == 0) {
      auto value = line.substr(std::strlen(key));
      value.erase(0, value.find_first_not_of(" \t"));
      return value;
    }
  }
  return "?";
}

std::string early_exit(const Session& session) {
  std::string why = session.stage == Stage::holding ? "closed its output while held open"
                                                    : "closed its output before answering";
  if (session.connection.exit_status())
    why += " (" + describe_status(*session.connection.exit_status()) + ")";
  return why;
}

int run_concurrent(const Options& options) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
  ::getrlimit(RLIMIT_NOFILE, &limit);
  const auto n = static_cast<std::size_t>(options.sessions);
  if (limit.rlim_cur != RLIM_INFINITY && static_cast<std::size_t>(limit.rlim_cur) < 2 * n + 32) {
    std::fprintf(stderr, "concurrent: %zu sessions need about %zu open files; the limit is %llu\n",
                 n, 2 * n + 32, static_cast<unsigned long long>(limit.rlim_cur));
    return 1;
  }
  std::fprintf(stderr, "concurrent: %zu sessions of: %s\n", n,
               command_text(options.command).c_str());

  StderrSink sink;
  std::vector<Session> sessions(n);
  std::unordered_map<pid_t, std::size_t> by_pid;
  std::size_t pending = n;  // sessions not yet done or failed
  std::size_t holding = 0;
  auto fail = [&](Session& session, std::string why) {
    if (session.stage == Stage::done || session.stage == Stage::failed) return;
    if (session.stage == Stage::holding) --holding;
    session.stage = Stage::failed;
    session.failure = std::move(why);
    session.connection.kill_child(SIGKILL);
    --pending;
  };

  auto start = Clock::now();
  const auto deadline = start + std::chrono::milliseconds(options.timeout_ms);
  for (std::size_t i = 0; i < n; ++i) {
    Session& session = sessions[i];
    session.started = Clock::now();
    if (session.started >= deadline) {
      session.stage = Stage::failed;
      session.failure = "timed out before it was started";
      --pending;
      continue;
    }
    try {
      session.connection = Connection::spawn(options.command, sink.fd());
      by_pid[session.connection.pid()] = i;
      session.connection.queue(initialize_request(1));
      session.connection.queue(initialized_notification());
      session.connection.queue(request(2, "tools/list", json::object()));
      session.connection.flush();
    } catch (const Failure& error) {
      session.stage = Stage::failed;
      session.failure = error.what();
      --pending;
    }
  }
  double spawn_ms = ms_between(start, Clock::now());

  std::string peak_rss = "?", peak_hwm = "?";
  std::size_t peak_open = 0;
  bool released = false;
  std::vector<pollfd> fds;
  std::vector<std::size_t> owners;

  // Handles the complete lines of one session; moves it along its stages.
  auto handle_lines = [&](Session& session, std::size_t index) {
    while (auto line = session.connection.next_line()) {
      std::optional<Response> response;
      try {
        response = classify_line(session.connection, *line, Clock::now());
      } catch (const Failure& error) {
        fail(session, error.what());
        return;
      }
      if (!response) continue;
      if (has_id(*response, 1)) {  // initialize: answered before tools/list
        if (!response->message.contains("result")) {
          fail(session, "initialize: " + response->message.dump().substr(0, 300));
          return;
        }
        continue;
      }
      if (!has_id(*response, session.stage == Stage::listing ? 2 : 3)) {
        fail(session, "unexpected response: " + response->message.dump().substr(0, 300));
        return;
      }
      if (session.stage == Stage::listing) {
        const json& result = response->message.value("result", json());
        if (!result.is_object() || !result.contains("tools") || result["tools"].empty()) {
          fail(session, "tools/list: " + response->message.dump().substr(0, 300));
          return;
        }
        session.connection.queue(progress_call(3,
                                               options.event_prefix + "-s" + std::to_string(index),
                                               "concurrent session " + std::to_string(index)));
        session.stage = Stage::calling;
      } else if (session.stage == Stage::calling) {
        std::string problem = call_problem(*response);
        if (!problem.empty()) {
          fail(session, "tools/call: " + problem.substr(0, 300));
          return;
        }
        session.ready_ms = ms_between(session.started, response->at);
        session.stage = Stage::holding;
        ++holding;
        return;
      }
    }
  };

  while (pending > 0) {
    // Every session answered (or failed): that is the peak; let them all go.
    if (!released && holding == pending) {
      released = true;
      peak_open = holding;
      if (options.watch_pid > 0) {
        peak_rss = read_proc_status(options.watch_pid, "VmRSS:");
        peak_hwm = read_proc_status(options.watch_pid, "VmHWM:");
      }
      for (auto& session : sessions) {
        if (session.stage == Stage::holding) {
          session.connection.close_input();
          session.stage = Stage::closing;
          --holding;
        }
      }
    }

    // Reap whatever exited.
    for (;;) {
      int status = 0;
      pid_t pid = ::waitpid(-1, &status, WNOHANG);
      if (pid <= 0) break;
      auto found = by_pid.find(pid);
      if (found == by_pid.end()) continue;
      Session& session = sessions[found->second];
      session.connection.record_exit(status);
      if (session.stage == Stage::closing) {
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
          session.stage = Stage::done;
          --pending;
        } else {
          fail(session, "after the session: " + describe_status(status));
        }
      } else if (session.stage != Stage::failed && session.stage != Stage::done) {
        // Its output may still hold the answers; judge once it is read.
        if (session.connection.eof()) fail(session, early_exit(session));
      }
    }
    if (pending == 0) break;

    int timeout = ms_left(deadline);
    if (timeout == 0) {
      for (auto& session : sessions) {
        const char* stage = session.connection.eof()
                                ? "waiting for the exit after its output closed"
                            : session.stage == Stage::listing ? "waiting for tools/list"
                            : session.stage == Stage::calling ? "waiting for tools/call"
                            : session.stage == Stage::holding ? "waiting for the others"
                                                              : "waiting for the exit";
        fail(session, std::string("timed out ") + stage);
      }
      break;
    }

    fds.clear();
    owners.clear();
    for (std::size_t i = 0; i < n; ++i) {
      Session& session = sessions[i];
      if (session.stage == Stage::failed || session.stage == Stage::done) continue;
      Connection& connection = session.connection;
      if (!connection.eof()) {
        fds.push_back({connection.read_fd(), POLLIN, 0});
        owners.push_back(i);
      }
      if (connection.wants_write()) {
        fds.push_back({connection.write_fd(), POLLOUT, 0});
        owners.push_back(i);
      }
    }
    // Nothing to poll: only exits are awaited.
    int ready = ::poll(fds.data(), fds.size(), fds.empty() ? 1 : std::min(timeout, 100));
    if (ready < 0 && errno != EINTR) {
      std::fprintf(stderr, "concurrent: poll: %s\n", std::strerror(errno));
      return 1;
    }
    if (ready <= 0) continue;
    for (std::size_t k = 0; k < fds.size(); ++k) {
      if (fds[k].revents == 0) continue;
      Session& session = sessions[owners[k]];
      if (session.stage == Stage::failed || session.stage == Stage::done) continue;
      Connection& connection = session.connection;
      try {
        if (fds[k].fd == connection.read_fd() && !connection.eof()) {
          connection.read_available();
          handle_lines(session, owners[k]);
          if (session.stage == Stage::failed) continue;
          // Closed output before the end: judged once its exit status is
          // known (here, or by the reaping above when it exits later).
          if (connection.eof() && session.stage != Stage::closing && connection.try_reap()) {
            fail(session, early_exit(session));
            continue;
          }
        }
        if (connection.wants_write()) connection.flush();
      } catch (const Failure& error) {
        fail(session, error.what());
      }
    }
  }
  double wall_ms = ms_between(start, Clock::now());

  // Kill and reap whatever is left (only after failures).
  for (auto& session : sessions) {
    if (session.connection.pid() > 0) {
      session.connection.kill_child(SIGKILL);
      int status = 0;
      ::waitpid(session.connection.pid(), &status, 0);
      session.connection.record_exit(status);
    }
  }

  std::size_t ok = 0;
  std::vector<double> ready;
  std::map<std::string, std::size_t> reasons;
  for (const auto& session : sessions) {
    if (session.stage == Stage::done) {
      ++ok;
      ready.push_back(session.ready_ms);
    } else {
      reasons[session.failure]++;
    }
  }
  std::printf("sessions: %zu\n", n);
  std::printf("ok: %zu\n", ok);
  std::printf("failed: %zu\n", n - ok);
  std::printf("open_at_peak: %zu\n", peak_open);
  std::printf("spawn_all_ms: %s\n", fixed(spawn_ms, 1).c_str());
  std::printf("wall_ms: %s\n", fixed(wall_ms, 1).c_str());
  if (!ready.empty()) {
    std::printf("session_ready_median_ms: %s\n", fixed(percentile(ready, 50), 1).c_str());
    std::printf("session_ready_p90_ms: %s\n", fixed(percentile(ready, 90), 1).c_str());
    std::printf("session_ready_max_ms: %s\n",
                fixed(*std::max_element(ready.begin(), ready.end()), 1).c_str());
  }
  if (options.watch_pid > 0) {
    std::printf("watched_rss_at_peak: %s\n", peak_rss.c_str());
    std::printf("watched_hwm_at_peak: %s\n", peak_hwm.c_str());
  }
  std::size_t shown = 0;
  for (const auto& [reason, count] : reasons) {
    if (shown++ == 10) break;
    std::fprintf(stderr, "concurrent: %zu session(s): %s\n", count, reason.c_str());
  }
  if (ok != n) print_stderr_tail(sink);
  return ok == n ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  ::signal(SIGPIPE, SIG_IGN);
  Options options;
  try {
    options = parse_options(argc, argv);
  } catch (const UsageError& error) {
    std::fprintf(stderr, "mission_mcp_bench: %s\n%s", error.what(), kUsage);
    return 2;
  }
  try {
    if (options.mode == "cold-start") return run_cold_start(options);
    if (options.mode == "call-latency") return run_call_latency(options);
    return run_concurrent(options);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "mission_mcp_bench %s: %s\n", options.mode.c_str(), error.what());
    return 1;
  }
}
