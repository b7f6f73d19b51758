// mission_coordination_bench: the coordination targets of ADR 17, measured
// by one raw client on the daemon's socket (no SDK, no bridge):
//
//   wait    --socket PATH [--rounds N]
//       One agent session blocks in message_wait; a second connection sends
//       it a message (message.send, as `mission send` does). Times from just
//       before that request is written until the wait's answer is read, so
//       the figure includes the commit; also from the send's own reply (the
//       commit is done by then) to the wait's answer.
//   heartbeats --socket PATH [--agents N] [--blocks B] [--block-ms MS]
//       One session sends `progress` signals back to back while N agent
//       sessions (registered, coordination toolset) sit idle or heartbeat
//       once a second each, in alternating blocks of one run, and compares
//       the signal call's p50 and p99 in the two conditions.
//
// Results go to stdout as `key: value` lines; progress and errors to stderr.

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

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

  int fd() const { return fd_; }
  void send(const json& message) {
    std::string text = message.dump() + "\n";
    for (std::size_t sent = 0; sent < text.size();) {
      ssize_t n = ::write(fd_, text.data() + sent, text.size() - sent);
      if (n <= 0) throw std::runtime_error("write failed");
      sent += static_cast<std::size_t>(n);
    }
  }
  // A complete line already read, if any.
  bool take(json& out) {
    auto end = buffer_.find('\n');
    if (end == std::string::npos) return false;
    out = json::parse(buffer_.substr(0, end));
    buffer_.erase(0, end + 1);
    return true;
  }
  // Reads what is there (after poll said so); false at EOF.
  bool fill() {
    char chunk[65536];
    ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }
  // The next message with `id` (others are dropped), within 10 s.
  json wait_for(long id) {
    const auto deadline = Clock::now() + std::chrono::seconds(10);
    json message;
    for (;;) {
      while (take(message)) {
        if (message.contains("id") && message["id"] == id) return message;
      }
      int left = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
      pollfd p{fd_, POLLIN, 0};
      if (left <= 0 || ::poll(&p, 1, left) <= 0 || !fill()) throw std::runtime_error("no answer to request " + std::to_string(id));
    }
  }
  json call(long id, const std::string& method, json params) {
    send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
    json reply = wait_for(id);
    if (!reply.contains("result")) throw std::runtime_error(method + " failed: " + reply.dump());
    return reply["result"];
  }

 private:
  int fd_ = -1;
  std::string buffer_;
};

json tool(long id, const std::string& name, json arguments) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"},
          {"params", {{"name", name}, {"arguments", std::move(arguments)}}}};
}

std::string hello_and_attach(Line& line, const std::vector<std::string>& toolsets) {
  line.call(1, "hello", {{"protocol", 1}, {"client", {{"name", "mission-coordination-bench"}, {"version", "1"}}}});
  char cwd[4096];
  json attached = line.call(2, "mcp.attach", {{"cwd", ::getcwd(cwd, sizeof cwd) ? cwd : "/"}, {"toolsets", toolsets}});
  line.call(3, "initialize", {{"protocolVersion", "2025-06-18"}, {"capabilities", json::object()},
                              {"clientInfo", {{"name", "bench"}, {"version", "1"}}}});
  line.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  return attached.at("agentExecutionId");
}

long option(int argc, char** argv, const char* name, long fallback) {
  for (int i = 2; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return std::stol(argv[i + 1]);
  }
  return fallback;
}

std::string socket_of(int argc, char** argv) {
  for (int i = 2; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--socket") == 0) return argv[i + 1];
  }
  throw std::runtime_error("--socket PATH is required");
}

int run_wait(const std::string& socket, long rounds) {
  Line agent(socket);
  const std::string id = hello_and_attach(agent, {"signals", "coordination"});
  Line person(socket);
  person.call(1, "hello", {{"protocol", 1}, {"client", {{"name", "mission-coordination-bench"}, {"version", "1"}}}});
  std::vector<double> after_send_us, after_commit_us;
  std::string cursor = "0";
  long next = 10;
  for (long round = 0; round < rounds + 10; ++round) {
    const long wait_id = next++;
    agent.send(tool(wait_id, "message_wait", {{"timeout_ms", 10000}, {"after_cursor", cursor}}));
    // Let the daemon park the wait before the message exists.
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const long send_id = next++;
    const auto sent = Clock::now();
    person.send({{"jsonrpc", "2.0"}, {"id", send_id}, {"method", "message.send"},
                 {"params", {{"id", id}, {"text", "round " + std::to_string(round)}}}});
    Clock::time_point committed{}, answered{};
    json message;
    while (committed == Clock::time_point{} || answered == Clock::time_point{}) {
      pollfd fds[2] = {{agent.fd(), POLLIN, 0}, {person.fd(), POLLIN, 0}};
      if (::poll(fds, 2, 10000) <= 0) throw std::runtime_error("no answer in round " + std::to_string(round));
      const auto now = Clock::now();
      if ((fds[0].revents & POLLIN) && agent.fill()) {
        while (agent.take(message)) {
          if (message.value("id", -1L) != wait_id) continue;
          answered = now;
          const json& result = message.at("result").at("structuredContent");
          if (result.at("timed_out").get<bool>()) throw std::runtime_error("message_wait timed out");
          cursor = result.at("after_cursor").get<std::string>();
        }
      }
      if ((fds[1].revents & POLLIN) && person.fill()) {
        while (person.take(message)) {
          if (message.value("id", -1L) == send_id) committed = now;
        }
      }
    }
    if (round < 10) continue;  // warm-up
    after_send_us.push_back(std::chrono::duration<double, std::micro>(answered - sent).count());
    after_commit_us.push_back(std::chrono::duration<double, std::micro>(answered - committed).count());
  }
  std::printf("wait_rounds: %zu\n", after_send_us.size());
  std::printf("wait_after_send_p50_us: %.1f\n", percentile(after_send_us, 50));
  std::printf("wait_after_send_p99_us: %.1f\n", percentile(after_send_us, 99));
  std::printf("wait_after_send_max_us: %.1f\n", *std::max_element(after_send_us.begin(), after_send_us.end()));
  std::printf("wait_after_send_reply_p50_us: %.1f\n", percentile(after_commit_us, 50));
  std::printf("wait_after_send_reply_p99_us: %.1f\n", percentile(after_commit_us, 99));
  return 0;
}

int run_heartbeats(const std::string& socket, long agents, long blocks, long block_ms) {
  Line signals(socket);
  hello_and_attach(signals, {"signals"});
  std::vector<std::unique_ptr<Line>> crowd;
  for (long i = 0; i < agents; ++i) {
    crowd.push_back(std::make_unique<Line>(socket));
    hello_and_attach(*crowd.back(), {"coordination"});
    crowd.back()->call(4, "tools/call", {{"name", "agent_register"},
                                         {"arguments", {{"name", "agent-" + std::to_string(i)}, {"runtime", "custom"}}}});
  }
  std::fprintf(stderr, "heartbeats: %ld agents registered\n", agents);
  std::vector<double> idle_us, loaded_us;
  std::vector<Clock::time_point> due(static_cast<std::size_t>(agents));
  std::vector<pollfd> crowd_fds;
  for (const auto& line : crowd) crowd_fds.push_back({line->fd(), POLLIN, 0});
  long next = 10;
  long heartbeats = 0;
  json message;
  for (long block = 0; block < blocks; ++block) {
    const bool loaded = block % 2 == 1;
    const auto start = Clock::now();
    // Each agent beats once a second, spread over the second.
    for (long i = 0; i < agents; ++i) due[static_cast<std::size_t>(i)] = start + std::chrono::milliseconds(1000 * i / std::max(agents, 1L));
    while (Clock::now() - start < std::chrono::milliseconds(block_ms)) {
      if (loaded) {
        const auto now = Clock::now();
        for (long i = 0; i < agents; ++i) {
          auto& when = due[static_cast<std::size_t>(i)];
          if (when > now) continue;
          crowd[static_cast<std::size_t>(i)]->send(tool(next++, "agent_heartbeat", {{"status", "busy"}}));
          when += std::chrono::seconds(1);
          ++heartbeats;
        }
      }
      // Read the agents' answers between calls, untimed.
      if (::poll(crowd_fds.data(), crowd_fds.size(), 0) > 0) {
        for (std::size_t i = 0; i < crowd_fds.size(); ++i) {
          if (crowd_fds[i].revents & POLLIN) {
            crowd[i]->fill();
            while (crowd[i]->take(message)) {
            }
          }
        }
      }
      const long id = next++;
      const auto sent = Clock::now();
      signals.send(tool(id, "progress", {{"summary", "bench"}, {"eventId", "hb-" + std::to_string(id)}}));
      json reply = signals.wait_for(id);
      const double us = std::chrono::duration<double, std::micro>(Clock::now() - sent).count();
      if (reply.at("result").value("isError", false)) throw std::runtime_error("progress failed: " + reply.dump());
      (loaded ? loaded_us : idle_us).push_back(us);
    }
  }
  const double idle_p99 = percentile(idle_us, 99);
  const double loaded_p99 = percentile(loaded_us, 99);
  std::printf("agents: %ld\n", agents);
  std::printf("heartbeats_sent: %ld\n", heartbeats);
  std::printf("idle_calls: %zu\n", idle_us.size());
  std::printf("idle_p50_us: %.1f\n", percentile(idle_us, 50));
  std::printf("idle_p99_us: %.1f\n", idle_p99);
  std::printf("loaded_calls: %zu\n", loaded_us.size());
  std::printf("loaded_p50_us: %.1f\n", percentile(loaded_us, 50));
  std::printf("loaded_p99_us: %.1f\n", loaded_p99);
  std::printf("p99_change_percent: %.1f\n", (loaded_p99 - idle_p99) / idle_p99 * 100.0);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc < 2) throw std::runtime_error("usage: mission_coordination_bench wait|heartbeats --socket PATH ...");
    const std::string mode = argv[1];
    const std::string socket = socket_of(argc, argv);
    if (mode == "wait") return run_wait(socket, option(argc, argv, "--rounds", 200));
    if (mode == "heartbeats") {
      return run_heartbeats(socket, option(argc, argv, "--agents", 100), option(argc, argv, "--blocks", 10),
                            option(argc, argv, "--block-ms", 3000));
    }
    throw std::runtime_error("unknown mode " + mode);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mission_coordination_bench: %s\n", e.what());
    return 1;
  }
}
