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
//   claims --socket PATH --mission BIN [--agents N] [--tasks T] [--rounds R]
//          [--gap-us G]
//       N agents, each its own `mission mcp connect` bridge process, race
//       for the T tasks of a fresh workflow R times: every agent writes its
//       task_claim before any reply is read (the herd). Then R rounds more
//       where they race for the tasks as agents finishing work do: agent i
//       claims G µs after agent i-1, so the first for a task wins and the
//       later ones are refused. Reports each claim's latency through the
//       bridge (write to reply) in both, the daemon's time per claim in the
//       herd (a round's span over its claims), and an unraced claim's;
//       and the herd's floor, the same N agents sending a call that does
//       next to nothing (message_count_unread) at one instant.
//   worktrees --socket PATH --mission BIN --repo DIR [--rounds R]
//       workspace_create through a bridge against `git worktree add -b` on
//       the same repository, alternating, R of each.
//
// Results go to stdout as `key: value` lines; progress and errors to stderr.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
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
      int left = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
      pollfd p{fd_, POLLIN, 0};
      if (left <= 0 || ::poll(&p, 1, left) <= 0 || !fill())
        throw std::runtime_error("no answer to request " + std::to_string(id));
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
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"method", "tools/call"},
          {"params", {{"name", name}, {"arguments", std::move(arguments)}}}};
}

std::string hello_and_attach(Line& line, const std::vector<std::string>& toolsets) {
  line.call(
      1, "hello",
      {{"protocol", 1}, {"client", {{"name", "mission-coordination-bench"}, {"version", "1"}}}});
  char cwd[4096];
  json attached = line.call(
      2, "mcp.attach", {{"cwd", ::getcwd(cwd, sizeof cwd) ? cwd : "/"}, {"toolsets", toolsets}});
  line.call(3, "initialize",
            {{"protocolVersion", "2025-06-18"},
             {"capabilities", json::object()},
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
  person.call(
      1, "hello",
      {{"protocol", 1}, {"client", {{"name", "mission-coordination-bench"}, {"version", "1"}}}});
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
    person.send({{"jsonrpc", "2.0"},
                 {"id", send_id},
                 {"method", "message.send"},
                 {"params", {{"id", id}, {"text", "round " + std::to_string(round)}}}});
    Clock::time_point committed{}, answered{};
    json message;
    while (committed == Clock::time_point{} || answered == Clock::time_point{}) {
      pollfd fds[2] = {{agent.fd(), POLLIN, 0}, {person.fd(), POLLIN, 0}};
      if (::poll(fds, 2, 10000) <= 0)
        throw std::runtime_error("no answer in round " + std::to_string(round));
      const auto now = Clock::now();
      if ((fds[0].revents & POLLIN) && agent.fill()) {
        while (agent.take(message)) {
          if (message.value("id", -1L) != wait_id) continue;
          answered = now;
          const json& result = message.at("result").at("structuredContent");
          if (result.at("timed_out").get<bool>())
            throw std::runtime_error("message_wait timed out");
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
    after_commit_us.push_back(
        std::chrono::duration<double, std::micro>(answered - committed).count());
  }
  std::printf("wait_rounds: %zu\n", after_send_us.size());
  std::printf("wait_after_send_p50_us: %.1f\n", percentile(after_send_us, 50));
  std::printf("wait_after_send_p99_us: %.1f\n", percentile(after_send_us, 99));
  std::printf("wait_after_send_max_us: %.1f\n",
              *std::max_element(after_send_us.begin(), after_send_us.end()));
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
    crowd.back()->call(
        4, "tools/call",
        {{"name", "agent_register"},
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
    for (long i = 0; i < agents; ++i)
      due[static_cast<std::size_t>(i)] =
          start + std::chrono::milliseconds(1000 * i / std::max(agents, 1L));
    while (Clock::now() - start < std::chrono::milliseconds(block_ms)) {
      if (loaded) {
        const auto now = Clock::now();
        for (long i = 0; i < agents; ++i) {
          auto& when = due[static_cast<std::size_t>(i)];
          if (when > now) continue;
          crowd[static_cast<std::size_t>(i)]->send(
              tool(next++, "agent_heartbeat", {{"status", "busy"}}));
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
      signals.send(
          tool(id, "progress", {{"summary", "bench"}, {"eventId", "hb-" + std::to_string(id)}}));
      json reply = signals.wait_for(id);
      const double us = std::chrono::duration<double, std::micro>(Clock::now() - sent).count();
      if (reply.at("result").value("isError", false))
        throw std::runtime_error("progress failed: " + reply.dump());
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

// One `mission mcp connect` bridge: its stdin and stdout, line by line.
class Bridge {
 public:
  Bridge(const std::string& mission, const std::string& cwd, const std::string& toolsets) {
    int in[2];
    int out[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
      throw std::runtime_error("pipe failed");
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      if (::chdir(cwd.c_str()) != 0) ::_exit(127);
      ::execl(mission.c_str(), mission.c_str(), "mcp", "connect", "--toolsets", toolsets.c_str(),
              nullptr);
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    in_ = in[1];
    out_ = out[0];
    call("initialize", {{"protocolVersion", "2025-06-18"},
                        {"capabilities", json::object()},
                        {"clientInfo", {{"name", "bench"}, {"version", "1"}}}});
    send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
  }
  ~Bridge() {
    ::close(in_);
    ::close(out_);
    ::kill(pid_, SIGTERM);
    ::waitpid(pid_, nullptr, 0);
  }
  Bridge(const Bridge&) = delete;
  Bridge& operator=(const Bridge&) = delete;

  int out_fd() const { return out_; }
  void send(const json& message) {
    std::string text = message.dump() + "\n";
    if (::write(in_, text.data(), text.size()) != static_cast<ssize_t>(text.size()))
      throw std::runtime_error("write failed");
  }
  bool take(json& message) {
    auto end = buffer_.find('\n');
    if (end == std::string::npos) return false;
    message = json::parse(buffer_.substr(0, end));
    buffer_.erase(0, end + 1);
    return true;
  }
  bool fill() {
    char chunk[65536];
    ssize_t n = ::read(out_, chunk, sizeof chunk);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }
  json read_one() {
    json message;
    while (!take(message)) {
      pollfd p{out_, POLLIN, 0};
      if (::poll(&p, 1, 10000) <= 0 || !fill())
        throw std::runtime_error("the bridge gave no answer");
    }
    return message;
  }
  json call(const std::string& method, json params) {
    send({{"jsonrpc", "2.0"}, {"id", next_++}, {"method", method}, {"params", std::move(params)}});
    return read_one();
  }
  // A tool's structured result; throws when it is an error.
  json tool_ok(const std::string& name, json arguments) {
    json reply = call("tools/call", {{"name", name}, {"arguments", std::move(arguments)}});
    const json& result = reply.at("result");
    if (result.at("isError").get<bool>())
      throw std::runtime_error(name + " failed: " + result.dump());
    return result.at("structuredContent");
  }
  long next_id() { return next_++; }

 private:
  pid_t pid_ = -1;
  int in_ = -1;
  int out_ = -1;
  long next_ = 1;
  std::string buffer_;
};

std::string text_option(int argc, char** argv, const char* name) {
  for (int i = 2; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
  }
  throw std::runtime_error(std::string(name) + " is required");
}

std::vector<std::string> new_workflow(Bridge& planner, long tasks) {
  json workflow = planner.tool_ok("workflow_create", {{"name", "race"},
                                                      {"source_type", "prompt"},
                                                      {"source_content", "race"},
                                                      {"max_parallel_tasks", tasks}});
  json list = json::array();
  for (long i = 0; i < tasks; ++i)
    list.push_back({{"name", "t" + std::to_string(i)}, {"description", "d"}, {"sequence", 1}});
  planner.tool_ok(
      "workflow_set_plan",
      {{"id", workflow["id"]}, {"plan", {{"summary", "s"}, {"approach", "a"}, {"tasks", list}}}});
  std::vector<std::string> ids;
  const json available =
      planner.tool_ok("task_get_available", {{"workflow_id", workflow["id"]}, {"limit", 100}});
  for (const auto& task : available["tasks"]) {
    ids.push_back(task["id"]);
  }
  if (static_cast<long>(ids.size()) != tasks)
    throw std::runtime_error("the workflow has not all its tasks available");
  return ids;
}

struct ClaimFigures {
  std::vector<double> latency_us;    // each claim, through its bridge
  std::vector<double> per_claim_us;  // a round's span over its claims
  long won = 0;
  long lost = 0;
};

// R rounds (after two of warm-up) of the crowd racing for the T tasks of a
// fresh workflow, agent i for task i mod T. Agent i writes its claim `gap`
// after agent i-1 (all at once when gap is 0), replies read as they come.
ClaimFigures claim_rounds(Bridge& planner, std::vector<std::unique_ptr<Bridge>>& crowd, long tasks,
                          long rounds, std::chrono::microseconds gap) {
  ClaimFigures figures;
  for (long round = 0; round < rounds + 2; ++round) {
    std::vector<std::string> ids = new_workflow(planner, tasks);
    std::vector<Clock::time_point> sent(crowd.size());
    std::vector<long> request(crowd.size());
    std::vector<bool> done(crowd.size(), false);
    const Clock::time_point first = Clock::now();
    std::size_t next = 0;
    std::size_t left = crowd.size();
    Clock::time_point last{};
    long round_won = 0;
    while (left > 0) {
      while (next < crowd.size() && Clock::now() >= first + gap * static_cast<long>(next)) {
        request[next] = crowd[next]->next_id();
        sent[next] = Clock::now();
        crowd[next]->send(
            {{"jsonrpc", "2.0"},
             {"id", request[next]},
             {"method", "tools/call"},
             {"params",
              {{"name", "task_claim"}, {"arguments", {{"task_id", ids[next % ids.size()]}}}}}});
        ++next;
      }
      std::vector<pollfd> fds;
      for (const auto& bridge : crowd) fds.push_back({bridge->out_fd(), POLLIN, 0});
      int wait_ms = 10000;
      if (next < crowd.size()) {
        const auto until = first + gap * static_cast<long>(next) - Clock::now();
        wait_ms = std::max(
            0,
            static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(until).count()));
      }
      const int ready = ::poll(fds.data(), fds.size(), wait_ms);
      if (ready < 0 || (ready == 0 && next == crowd.size()))
        throw std::runtime_error("claims went unanswered");
      const auto now = Clock::now();
      for (std::size_t i = 0; i < next; ++i) {
        if (!(fds[i].revents & POLLIN) || done[i]) continue;
        if (!crowd[i]->fill()) throw std::runtime_error("a bridge closed");
        json message;
        while (crowd[i]->take(message)) {
          if (message.value("id", -1L) != request[i]) continue;
          done[i] = true;
          --left;
          last = std::max(last, now);
          const bool error = message.at("result").at("isError").get<bool>();
          if (round >= 2) {
            figures.latency_us.push_back(
                std::chrono::duration<double, std::micro>(now - sent[i]).count());
            error ? ++figures.lost : ++figures.won;
          }
          if (!error) ++round_won;
        }
      }
    }
    if (round_won != tasks)
      throw std::runtime_error("a round had " + std::to_string(round_won) + " winners for " +
                               std::to_string(tasks) + " tasks");
    if (round >= 2) {
      figures.per_claim_us.push_back(
          std::chrono::duration<double, std::micro>(last - sent.front()).count() /
          static_cast<double>(crowd.size()));
    }
  }
  return figures;
}

// The herd's floor: R rounds of the crowd sending a read-only call that
// does nearly nothing in the daemon (message_count_unread) at one instant.
// What a claim's herd takes beyond this is the claim's; this much is two
// process hops for each of N agents queued on the machine's cores.
std::vector<double> floor_rounds(std::vector<std::unique_ptr<Bridge>>& crowd, long rounds) {
  std::vector<double> latency_us;
  for (long round = 0; round < rounds + 2; ++round) {
    std::vector<Clock::time_point> sent(crowd.size());
    std::vector<long> request(crowd.size());
    for (std::size_t i = 0; i < crowd.size(); ++i) {
      request[i] = crowd[i]->next_id();
      sent[i] = Clock::now();
      crowd[i]->send(
          {{"jsonrpc", "2.0"},
           {"id", request[i]},
           {"method", "tools/call"},
           {"params", {{"name", "message_count_unread"}, {"arguments", json::object()}}}});
    }
    std::vector<bool> done(crowd.size(), false);
    std::size_t left = crowd.size();
    while (left > 0) {
      std::vector<pollfd> fds;
      for (const auto& bridge : crowd) fds.push_back({bridge->out_fd(), POLLIN, 0});
      if (::poll(fds.data(), fds.size(), 10000) <= 0)
        throw std::runtime_error("calls went unanswered");
      const auto now = Clock::now();
      for (std::size_t i = 0; i < crowd.size(); ++i) {
        if (!(fds[i].revents & POLLIN) || done[i]) continue;
        if (!crowd[i]->fill()) throw std::runtime_error("a bridge closed");
        json message;
        while (crowd[i]->take(message)) {
          if (message.value("id", -1L) != request[i]) continue;
          if (message.at("result").at("isError").get<bool>())
            throw std::runtime_error("message_count_unread failed");
          done[i] = true;
          --left;
          if (round >= 2)
            latency_us.push_back(std::chrono::duration<double, std::micro>(now - sent[i]).count());
        }
      }
    }
  }
  return latency_us;
}

int run_claims(const std::string& mission, long agents, long tasks, long rounds, long gap_us) {
  char here[4096];
  const std::string cwd = ::getcwd(here, sizeof here) ? here : "/";
  Bridge planner(mission, cwd, "planning,coordination");
  std::vector<std::unique_ptr<Bridge>> crowd;
  for (long i = 0; i < agents; ++i)
    crowd.push_back(std::make_unique<Bridge>(mission, cwd, "coordination"));
  const ClaimFigures herd =
      claim_rounds(planner, crowd, tasks, rounds, std::chrono::microseconds(0));
  const std::vector<double> floor_us = floor_rounds(crowd, rounds);
  const ClaimFigures staggered =
      claim_rounds(planner, crowd, tasks, rounds, std::chrono::microseconds(gap_us));
  std::vector<double> alone_us;
  // Unraced: one agent claims the tasks of a fresh workflow one by one.
  for (long round = 0; round < rounds; ++round) {
    std::vector<std::string> ids = new_workflow(planner, tasks);
    for (const auto& id : ids) {
      const auto start = Clock::now();
      crowd[0]->tool_ok("task_claim", {{"task_id", id}});
      alone_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    }
  }
  std::printf("claims_agents: %ld\nclaims_tasks_per_round: %ld\nclaims_rounds: %ld\n", agents,
              tasks, rounds);
  std::printf("claims_won: %ld\nclaims_refused: %ld\n", herd.won + staggered.won,
              herd.lost + staggered.lost);
  std::printf("claim_raced_p50_us: %.1f\nclaim_raced_p99_us: %.1f\n",
              percentile(herd.latency_us, 50), percentile(herd.latency_us, 99));
  std::printf("claim_daemon_per_claim_p50_us: %.1f\n", percentile(herd.per_claim_us, 50));
  std::printf("herd_floor_p50_us: %.1f\nherd_floor_p99_us: %.1f\n", percentile(floor_us, 50),
              percentile(floor_us, 99));
  std::printf("claim_staggered_gap_us: %ld\n", gap_us);
  std::printf("claim_staggered_p50_us: %.1f\nclaim_staggered_p99_us: %.1f\n",
              percentile(staggered.latency_us, 50), percentile(staggered.latency_us, 99));
  std::printf("claim_alone_p50_us: %.1f\nclaim_alone_p99_us: %.1f\n", percentile(alone_us, 50),
              percentile(alone_us, 99));
  return 0;
}

double run_git_worktree_add(const std::string& repo, const std::string& branch,
                            const std::string& path) {
  const auto start = Clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execlp("git", "git", "-C", repo.c_str(), "worktree", "add", "-q", "-b", branch.c_str(),
             path.c_str(), nullptr);
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("git worktree add failed");
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

int run_worktrees(const std::string& mission, const std::string& repo, long rounds) {
  Bridge planner(mission, repo, "planning,workspaces");
  json workflow =
      planner.tool_ok("workflow_create",
                      {{"name", "worktrees"}, {"source_type", "prompt"}, {"source_content", "w"}});
  std::vector<double> mission_ms, git_ms;
  for (long round = 0; round < rounds + 1; ++round) {
    const std::string suffix = std::to_string(round);
    const auto start = Clock::now();
    planner.tool_ok("workspace_create", {{"workflow_id", workflow["id"]},
                                         {"branch", "bench/m" + suffix},
                                         {"path", repo + ".bench/m" + suffix}});
    const double ours = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    const double theirs =
        run_git_worktree_add(repo, "bench/g" + suffix, repo + ".bench/g" + suffix);
    if (round == 0) continue;  // warm-up: the git module loads on first use
    mission_ms.push_back(ours);
    git_ms.push_back(theirs);
  }
  const double ours = percentile(mission_ms, 50);
  const double theirs = percentile(git_ms, 50);
  std::printf("worktree_rounds: %ld\n", rounds);
  std::printf("workspace_create_p50_ms: %.2f\nworkspace_create_p99_ms: %.2f\n", ours,
              percentile(mission_ms, 99));
  std::printf("git_worktree_add_p50_ms: %.2f\ngit_worktree_add_p99_ms: %.2f\n", theirs,
              percentile(git_ms, 99));
  std::printf("workspace_create_over_git: %.2f\n", theirs > 0 ? ours / theirs : 0.0);
  return 0;
}

int main(int argc, char** argv) {
  try {
    if (argc < 2)
      throw std::runtime_error(
          "usage: mission_coordination_bench wait|heartbeats|claims|worktrees --socket PATH ...");
    const std::string mode = argv[1];
    const std::string socket = socket_of(argc, argv);
    if (mode == "wait") return run_wait(socket, option(argc, argv, "--rounds", 200));
    if (mode == "heartbeats") {
      return run_heartbeats(socket, option(argc, argv, "--agents", 100),
                            option(argc, argv, "--blocks", 10),
                            option(argc, argv, "--block-ms", 3000));
    }
    if (mode == "claims") {
      return run_claims(text_option(argc, argv, "--mission"), option(argc, argv, "--agents", 50),
                        option(argc, argv, "--tasks", 10), option(argc, argv, "--rounds", 40),
                        option(argc, argv, "--gap-us", 1000));
    }
    if (mode == "worktrees") {
      return run_worktrees(text_option(argc, argv, "--mission"), text_option(argc, argv, "--repo"),
                           option(argc, argv, "--rounds", 20));
    }
    throw std::runtime_error("unknown mode " + mode);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mission_coordination_bench: %s\n", e.what());
    return 1;
  }
}
