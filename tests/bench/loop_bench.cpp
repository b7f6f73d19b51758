// mission_loop_bench: how long `mission status` waits while other clients
// make the daemon work on large data (docs/adr/0033). One raw client per
// load on the daemon's socket (no SDK, no bridge), and `mission status`
// run as a person runs it, a process at a time:
//
//   idle     --socket PATH --mission BIN [--runs N]
//       `mission --no-autostart status --json`, N times, nothing else going on.
//   tasks    --socket PATH --mission BIN [--runs N] [--tasks T]
//       One session sets a plan of T tasks (workflow_set_plan, one call),
//       then adds tasks to it with create_task back to back, while status
//       runs N times.
//   messages --socket PATH --mission BIN [--runs N] [--messages M]
//       A person sends M messages to one agent (message.send, pipelined);
//       that agent then makes tool calls back to back (agent_list, each
//       result carrying the unread notice), while status runs N times.
//
// Reports status p50, p99 and max wall time, the same for daemon.status on
// a connection kept open (the loop's wait alone, without a process start),
// and the loading client's calls and their p50 and p99. Results go to stdout as `key: value` lines;
// progress and errors to stderr.

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  double rank = p / 100.0 * static_cast<double>(values.size() - 1);
  auto low = static_cast<std::size_t>(rank);
  std::size_t high = std::min(low + 1, values.size() - 1);
  return values[low] + (values[high] - values[low]) * (rank - static_cast<double>(low));
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// One line-oriented connection to the daemon's socket.
class Line {
 public:
  explicit Line(const std::string& path) {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
    if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
      throw std::runtime_error("cannot connect to " + path + ": " + std::strerror(errno));
    }
  }
  ~Line() { ::close(fd_); }
  Line(const Line&) = delete;
  Line& operator=(const Line&) = delete;

  void send(const json& message) {
    std::string text = message.dump() + "\n";
    for (std::size_t sent = 0; sent < text.size();) {
      ssize_t n = ::write(fd_, text.data() + sent, text.size() - sent);
      if (n <= 0) throw std::runtime_error("write failed");
      sent += static_cast<std::size_t>(n);
    }
  }
  // The next line, within 120 s (a plan of thousands of tasks takes a while).
  json next() {
    const auto deadline = Clock::now() + std::chrono::seconds(120);
    for (;;) {
      auto end = buffer_.find('\n');
      if (end != std::string::npos) {
        json message = json::parse(buffer_.substr(0, end));
        buffer_.erase(0, end + 1);
        return message;
      }
      int left = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
      pollfd p{fd_, POLLIN, 0};
      if (left <= 0 || ::poll(&p, 1, left) <= 0)
        throw std::runtime_error("the daemon did not answer");
      char chunk[65536];
      ssize_t n = ::read(fd_, chunk, sizeof chunk);
      if (n <= 0) throw std::runtime_error("the daemon closed the connection");
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }
  json call(const std::string& method, json params) {
    const long id = next_id_++;
    send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
    for (;;) {
      json reply = next();
      if (reply.value("id", -1L) != id) continue;
      if (!reply.contains("result"))
        throw std::runtime_error(method + " failed: " + reply.dump().substr(0, 500));
      return reply["result"];
    }
  }
  // A tool's structured result; throws when it is an error.
  json tool(const std::string& name, json arguments) {
    json result = call("tools/call", {{"name", name}, {"arguments", std::move(arguments)}});
    if (result.value("isError", false))
      throw std::runtime_error(name + " failed: " + result.dump().substr(0, 500));
    return result["structuredContent"];
  }
  long take_id() { return next_id_++; }

 private:
  int fd_ = -1;
  long next_id_ = 1;
  std::string buffer_;
};

void hello(Line& line) {
  line.call("hello",
            {{"protocol", 1}, {"client", {{"name", "mission-loop-bench"}, {"version", "1"}}}});
}

// An MCP session of a new attached execution; returns its id.
std::string attach(Line& line, const std::vector<std::string>& toolsets) {
  hello(line);
  json attached = line.call("mcp.attach", {{"cwd", "/"}, {"toolsets", toolsets}});
  line.call("initialize", {{"protocolVersion", "2025-06-18"},
                           {"capabilities", json::object()},
                           {"clientInfo", {{"name", "loop-bench"}, {"version", "1"}}}});
  line.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  return attached.at("agentExecutionId");
}

// `mission --no-autostart status --json`, its output thrown away; the wall
// time in ms.
double run_status(const std::string& mission) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  std::vector<std::string> args = {mission, "--no-autostart", "status", "--json"};
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  const auto start = Clock::now();
  pid_t pid = -1;
  if (posix_spawn(&pid, mission.c_str(), &actions, nullptr, argv.data(), environ) != 0) {
    throw std::runtime_error("cannot run " + mission);
  }
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  ::waitpid(pid, &status, 0);
  const double ms = ms_since(start);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("mission status failed");
  return ms;
}

void report(const char* name, const std::vector<double>& ms) {
  std::printf("%s_runs: %zu\n", name, ms.size());
  std::printf("%s_p50_ms: %.2f\n", name, percentile(ms, 50));
  std::printf("%s_p99_ms: %.2f\n", name, percentile(ms, 99));
  std::printf("%s_max_ms: %.2f\n", name,
              ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end()));
}

// `mission status` `runs` times, each followed by daemon.status on a
// connection kept open (the time the daemon's loop takes to answer, without
// starting a process). Reports both under `name`.
void status_runs(const char* name, const std::string& socket, const std::string& mission,
                 long runs) {
  Line line(socket);
  hello(line);
  std::vector<double> process_ms, call_ms;
  for (int i = 0; i < 5; ++i) run_status(mission);  // warm-up
  for (long i = 0; i < runs; ++i) {
    process_ms.push_back(run_status(mission));
    const auto start = Clock::now();
    line.call("daemon.status", json::object());
    call_ms.push_back(ms_since(start));
  }
  report((std::string(name) + "_status").c_str(), process_ms);
  report((std::string(name) + "_status_call").c_str(), call_ms);
}

// Runs `call` back to back on its own thread while status runs `runs`
// times; reports both.
template <class Call>
void under_load(const char* name, const std::string& socket, const std::string& mission, long runs,
                Call call) {
  std::atomic<bool> stop{false};
  std::atomic<long> calls{0};
  std::atomic<bool> failed{false};
  std::vector<double> load_ms;  // the loader's until it is joined
  std::string failure;
  std::thread loader([&] {
    try {
      while (!stop) {
        const auto start = Clock::now();
        call();
        load_ms.push_back(ms_since(start));
        ++calls;
      }
    } catch (const std::exception& e) {
      failure = e.what();
      failed = true;
    }
  });
  // Let the load start before the first status.
  while (calls < 3 && !failed) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  try {
    if (!failed) status_runs(name, socket, mission, runs);
  } catch (...) {
    stop = true;
    loader.join();
    throw;
  }
  stop = true;
  loader.join();
  if (failed) throw std::runtime_error(failure);
  report((std::string(name) + "_load_call").c_str(), load_ms);
}

void run_tasks(const std::string& socket, const std::string& mission, long runs, long tasks) {
  Line planner(socket);
  attach(planner, {"planning", "control"});
  const std::string workflow = planner.tool(
      "workflow_create",
      {{"name", "loop bench"}, {"source_type", "prompt"}, {"source_content", "many tasks"}})["id"];
  json list = json::array();
  for (long i = 0; i < tasks; ++i) {
    json task = {{"name", "t" + std::to_string(i)},
                 {"description", "step " + std::to_string(i)},
                 {"sequence", i / 100}};
    if (i % 100 != 0) task["depends_on"] = {"t" + std::to_string(i - 1)};
    list.push_back(std::move(task));
  }
  const auto start = Clock::now();
  planner.tool(
      "workflow_set_plan",
      {{"id", workflow}, {"plan", {{"summary", "s"}, {"approach", "a"}, {"tasks", list}}}});
  std::printf("tasks_planned: %ld\ntasks_set_plan_ms: %.1f\n", tasks, ms_since(start));
  long added = 0;
  under_load("tasks", socket, mission, runs, [&] {
    planner.tool("create_task", {{"workflow_id", workflow},
                                 {"name", "added" + std::to_string(added++)},
                                 {"description", "one more"}});
  });
}

void run_messages(const std::string& socket, const std::string& mission, long runs, long messages) {
  Line victim(socket);
  const std::string id = attach(victim, {"coordination"});
  Line person(socket);
  hello(person);
  const auto start = Clock::now();
  constexpr long kBatch = 500;
  for (long first = 0; first < messages; first += kBatch) {
    const long count = std::min(kBatch, messages - first);
    for (long i = 0; i < count; ++i) {
      person.send({{"jsonrpc", "2.0"},
                   {"id", person.take_id()},
                   {"method", "message.send"},
                   {"params", {{"id", id}, {"text", "message " + std::to_string(first + i)}}}});
    }
    for (long i = 0; i < count; ++i) {
      json reply = person.next();
      if (!reply.contains("result"))
        throw std::runtime_error("message.send failed: " + reply.dump());
    }
  }
  std::printf("messages_unread: %ld\nmessages_send_s: %.1f\n", messages, ms_since(start) / 1000);
  const json count = victim.tool("message_count_unread", json::object());
  if (count.at("count").get<long>() != messages)
    throw std::runtime_error("the agent does not have every message unread");
  under_load("messages", socket, mission, runs, [&] { victim.tool("agent_list", {{"limit", 1}}); });
}

long option(int argc, char** argv, const char* name, long fallback) {
  for (int i = 2; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return std::stol(argv[i + 1]);
  }
  return fallback;
}

std::string text_option(int argc, char** argv, const char* name) {
  for (int i = 2; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
  }
  throw std::runtime_error(std::string(name) + " is required");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 2)
      throw std::runtime_error(
          "usage: mission_loop_bench idle|tasks|messages --socket PATH --mission BIN ...");
    const std::string mode = argv[1];
    const std::string socket = text_option(argc, argv, "--socket");
    const std::string mission = text_option(argc, argv, "--mission");
    const long runs = option(argc, argv, "--runs", 300);
    if (mode == "idle") {
      status_runs("idle", socket, mission, runs);
    } else if (mode == "tasks") {
      run_tasks(socket, mission, runs, option(argc, argv, "--tasks", 9000));
    } else if (mode == "messages") {
      run_messages(socket, mission, runs, option(argc, argv, "--messages", 100000));
    } else {
      throw std::runtime_error("unknown mode " + mode);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mission_loop_bench: %s\n", e.what());
    return 1;
  }
}
