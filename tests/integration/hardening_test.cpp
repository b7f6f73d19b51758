// missiond against hostile and broken clients, over the real socket and the
// real bridge: deep JSON, bad envelopes, clients that never read, batch
// amplification, connection floods, slow hello. Each test checks that the
// daemon stays alive and keeps answering others.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "integration/harness.hpp"
#include "integration/tracking_agent.hpp"
#include "shared/limits.hpp"
#include "support/eventually.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

std::string error_code_of(const json& reply) {
  return reply.at("error").at("data").at("code");
}

std::string nested_array(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

std::string nested_object(std::size_t depth) {
  std::string text;
  for (std::size_t i = 0; i < depth; ++i) text += "{\"a\":";
  text += "1";
  text += std::string(depth, '}');
  return text;
}

// The daemon's resident memory in KiB, from /proc.
long rss_kib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

// A socket that never reads unless told to; writes what it can without
// blocking.
class RawSocket {
 public:
  explicit RawSocket(const fs::path& path) {
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
      ::close(fd_);
      fd_ = -1;
      return;
    }
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) | O_NONBLOCK);
  }
  ~RawSocket() {
    if (fd_ >= 0) ::close(fd_);
  }
  RawSocket(const RawSocket&) = delete;
  RawSocket& operator=(const RawSocket&) = delete;

  bool connected() const { return fd_ >= 0; }

  // Sends as much of `bytes` as the socket takes within `patience`; the
  // count sent.
  std::size_t send_some(std::string_view bytes, std::chrono::milliseconds patience) {
    std::size_t sent = 0;
    auto deadline = std::chrono::steady_clock::now() + patience;
    while (sent < bytes.size() && std::chrono::steady_clock::now() < deadline) {
      ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n > 0) {
        sent += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && errno != EAGAIN && errno != EINTR) break;
      pollfd p{fd_, POLLOUT, 0};
      ::poll(&p, 1, 20);
    }
    return sent;
  }

  // Reads everything until `lines` lines have come or `patience` passes.
  std::size_t read_lines(std::size_t lines, std::chrono::milliseconds patience,
                         std::string* first = nullptr) {
    std::size_t seen = 0;
    char buffer[65536];
    auto deadline = std::chrono::steady_clock::now() + patience;
    while (seen < lines && std::chrono::steady_clock::now() < deadline) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) break;
      for (ssize_t i = 0; i < n; ++i) {
        if (first != nullptr && seen == 0) first->push_back(buffer[i]);
        if (buffer[i] == '\n') ++seen;
      }
    }
    return seen;
  }

  // True when the daemon closed the connection within `patience` (what it
  // sent before is read and dropped).
  bool closed_by_peer(std::chrono::milliseconds patience) {
    char buffer[65536];
    auto deadline = std::chrono::steady_clock::now() + patience;
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n == 0) return true;
      if (n < 0 && errno != EAGAIN && errno != EINTR) return true;
    }
    return false;
  }

 private:
  int fd_ = -1;
};

std::string request_line(int id, const std::string& method, const json& params = json::object()) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump() + "\n";
}

// `mission status` answers, while whatever the test set up goes on.
void status_answers(const Instance& instance) {
  ProcessResult status = run_mission(instance, {"--json", "status"});
  INFO(status.err);
  REQUIRE(status.exit_code == 0);
  CHECK(json::parse(status.out)["daemon"]["running"] == true);
}

}  // namespace

TEST_CASE("a 48000-deep id before hello is refused and the daemon goes on") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  RawClient client(instance.socket());
  client.send("{\"jsonrpc\":\"2.0\",\"method\":\"hello\",\"id\":" + nested_array(48000) + "}\n");
  json reply = *client.read();
  CHECK(error_code_of(reply) == "invalid_request");
  CHECK(reply["error"]["data"]["details"]["limit"] == mission::limits::kMaxJsonDepth);
  CHECK(reply["error"]["data"]["hint"].get<std::string>().find("flatten") != std::string::npos);
  // The same connection goes on, and so does everyone else's.
  client.hello();
  CHECK(client.call("daemon.status").contains("result"));
  client.send(
      request_line(7, "daemon.status",
                   {{"deep", json::parse(nested_array(mission::limits::kMaxJsonDepth - 3))}}));
  CHECK(error_code_of(*client.read()) == "invalid_argument");  // parsed, then refused by its schema
  status_answers(instance);
  CHECK(process_alive(daemon.pid()));
}

TEST_CASE("a 60000-deep log_milestone metadata through the bridge leaves the session answering") {
  Instance instance;
  DaemonProcess daemon(instance);
  fs::path cwd = instance.root.path() / "work";
  fs::create_directories(cwd);
  Agent agent(instance, cwd);
  std::string mission_id =
      agent.ok("start_mission", {{"name", "m"}, {"objective", "o"}})["mission_id"];
  std::string task_id =
      agent.ok("start_task", {{"mission_id", mission_id}, {"name", "t"}, {"goal", "g"}})["task_id"];

  // Through the bridge as a raw line: the bridge passes bytes through.
  std::string line =
      "{\"jsonrpc\":\"2.0\",\"id\":900,\"method\":\"tools/call\",\"params\":{\"name\":"
      "\"log_milestone\",\"arguments\":{\"task_id\":\"" +
      task_id + "\",\"message\":\"m\",\"metadata\":" + nested_object(60000) + "}}}\n";
  StdioProcess& bridge = agent.bridge();
  bridge.send_raw(line);
  json reply = *bridge.read();
  CHECK(error_code_of(reply) == "invalid_request");
  // A 48,000-deep id through the bridge too.
  bridge.send_raw("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":" + nested_array(48000) + "}\n");
  CHECK(error_code_of(*bridge.read()) == "invalid_request");

  // Nesting within the limit of a tool's arguments (the arguments object
  // being the first level) is stored and read back.
  json metadata = json::parse(nested_object(mission::limits::kMaxToolArgumentDepth - 1));
  agent.ok("log_milestone",
           {{"task_id", task_id}, {"message", "deep but fine"}, {"metadata", metadata}});
  json context = agent.ok("get_context",
                          {{"mission_id", mission_id}, {"include", json::array({"milestones"})}});
  CHECK(context.dump().find("deep but fine") != std::string::npos);
  status_answers(instance);
  CHECK(process_alive(daemon.pid()));
}

TEST_CASE("bad envelopes get clear errors on both protocols, never a dropped session") {
  Instance instance;
  DaemonProcess daemon(instance);
  RawClient client(instance.socket());
  client.hello();
  for (const std::string& bad :
       {std::string("{}"), std::string(R"({"jsonrpc":2,"id":1,"method":"daemon.status"})"),
        std::string(R"({"jsonrpc":["2.0"],"id":1,"method":"daemon.status"})")}) {
    client.send(bad + "\n");
    json reply = *client.read();
    INFO(bad);
    CHECK(error_code_of(reply) == "invalid_request");
  }
  for (const std::string& id :
       {std::string("9007199254740992"), std::string("18446744073709551616"),
        std::string("-9007199254740992"), std::string("1.5e300"), std::string("{\"a\":1}"),
        std::string("true")}) {
    client.send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"daemon.status\"}\n");
    json reply = *client.read();
    INFO(id);
    CHECK(error_code_of(reply) == "invalid_request");
    CHECK(reply["id"].is_null());
    CHECK(reply["error"]["data"]["hint"].get<std::string>().find("ids") != std::string::npos);
  }
  client.send("{\"jsonrpc\":\"2.0\",\"id\":9007199254740991,\"method\":\"daemon.status\"}\n");
  json largest = *client.read();
  CHECK(largest["id"] == 9007199254740991LL);
  CHECK(largest.contains("result"));

  fs::path cwd = instance.root.path() / "work";
  fs::create_directories(cwd);
  Agent agent(instance, cwd);
  StdioProcess& bridge = agent.bridge();
  for (const std::string& bad :
       {std::string("{}"), std::string(R"({"jsonrpc":2,"id":1,"method":"ping"})"),
        std::string(R"({"jsonrpc":{"v":"2.0"},"id":1,"method":"ping"})"),
        std::string(R"({"jsonrpc":"2.0","id":9007199254740993,"method":"ping"})")}) {
    bridge.send_raw(bad + "\n");
    std::optional<json> reply = bridge.read();
    INFO(bad);
    REQUIRE(reply.has_value());
    CHECK(error_code_of(*reply) == "invalid_request");
  }
  CHECK(agent.ok("start_mission", {{"name", "m"}, {"objective", "o"}}).contains("mission_id"));
  // An execution whose cwd has a NUL, or names no directory, is refused, not
  // created for another directory.
  client.send(request_line(51, "execution.create",
                           {{"delivery", "mcp-tool"}, {"cwd", (cwd / "missing").string()}}));
  CHECK(error_code_of(*client.read()) == "invalid_argument");
  // And an execution whose cwd has a NUL is refused, not created elsewhere.
  client.send(
      request_line(50, "execution.create",
                   {{"delivery", "mcp-tool"}, {"cwd", cwd.string() + std::string(1, '\0')}}));
  json refused = *client.read();
  CHECK(error_code_of(refused) == "invalid_argument");
  CHECK(refused["error"]["message"].get<std::string>().find("NUL") != std::string::npos);
}

TEST_CASE("a client that pipelines without reading is held back and others go on") {
  Instance instance;
  DaemonProcess daemon(instance);
  fs::path cwd = instance.root.path() / "work";
  fs::create_directories(cwd);
  {
    RawClient maker(instance.socket());
    maker.hello();
    for (int i = 0; i < 300; ++i) {
      REQUIRE(maker.call("execution.create", {{"delivery", "mcp-tool"}, {"cwd", cwd.string()}})
                  .contains("result"));
    }
  }
  RawSocket hog(instance.socket());
  REQUIRE(hog.connected());
  // Small requests with large replies (a page of 300 executions each),
  // all sent at once and none of the replies read.
  std::string burst = request_line(0, "hello", {{"protocol", 1}, {"client", {{"name", "hog"}}}});
  constexpr std::size_t kRequests = 600;
  for (std::size_t i = 1; i <= kRequests; ++i)
    burst += request_line(static_cast<int>(i), "execution.list", {{"limit", 500}});
  REQUIRE(hog.send_some(burst, 5s) == burst.size());
  // The daemon answers only while the hog's queue has room: what it holds
  // for it stays near kMaxQueuedWriteBytes, not 600 replies, however far
  // it has got. Others are answered meanwhile.
  for (int round = 0; round < 5; ++round) {
    status_answers(instance);
    CHECK(rss_kib(daemon.pid()) < 100 * 1024);
  }
  // Once the hog reads, every request is answered, in order.
  std::string first;
  CHECK(hog.read_lines(kRequests + 1, 60s, &first) == kRequests + 1);
  CHECK(json::parse(first).contains("result"));
  CHECK(process_alive(daemon.pid()));
}

TEST_CASE(
    "an MCP batch is bounded: too many messages are refused, its reply stays under the limit") {
  Instance instance;
  DaemonProcess daemon(instance);
  fs::path cwd = instance.root.path() / "work";
  fs::create_directories(cwd);
  Agent agent(instance, cwd);
  StdioProcess& bridge = agent.bridge();
  auto batch_of = [](std::size_t count) {
    json batch = json::array();
    for (std::size_t i = 0; i < count; ++i) {
      batch.push_back({{"jsonrpc", "2.0"}, {"id", 1000 + i}, {"method", "tools/list"}});
    }
    return batch.dump() + "\n";
  };
  bridge.send_raw(batch_of(mission::limits::kMaxBatchMessages + 1));
  json refused = *bridge.read();
  CHECK(error_code_of(refused) == "invalid_request");
  CHECK(refused["error"]["data"]["details"]["limit"] == mission::limits::kMaxBatchMessages);

  bridge.send_raw(batch_of(mission::limits::kMaxBatchMessages));
  std::string line = bridge.read_raw_line(10s);
  CHECK(line.size() <= mission::limits::kMaxReplyBytes);
  json replies = json::parse(line);
  REQUIRE(replies.is_array());
  CHECK(replies.size() == mission::limits::kMaxBatchMessages);
  CHECK(replies.front().contains("result"));
  CHECK(error_code_of(replies.back()) == "payload_too_large");
  CHECK(replies.back()["id"] == 1000 + mission::limits::kMaxBatchMessages - 1);
  CHECK(agent.list_tools().size() > 0);
}

TEST_CASE(
    "a connection flood is capped: idle connections make room and the rest are refused with a "
    "reason") {
  Instance instance;
  DaemonProcess daemon(instance, {"--max-connections", "20"});
  std::vector<std::unique_ptr<RawSocket>> idle;
  const std::string unfinished(200 * 1024, 'x');  // no newline: an unfinished line
  for (int i = 0; i < 60; ++i) {
    auto socket = std::make_unique<RawSocket>(instance.socket());
    REQUIRE(socket->connected());
    socket->send_some(unfinished, 200ms);
    idle.push_back(std::move(socket));
  }
  // The oldest idle ones were closed to make room for the newer ones.
  CHECK(idle.front()->closed_by_peer(5s));
  // Clients that say hello are served.
  status_answers(instance);
  std::vector<std::unique_ptr<RawClient>> greeted;
  std::optional<json> reason;
  // Once every slot holds a greeted client, the next one is refused, saying why.
  for (int i = 0; i < 30 && !reason; ++i) {
    auto client = std::make_unique<RawClient>(instance.socket());
    // Over the cap the daemon may refuse and close before the hello is
    // written: the send then fails, and the reason is still there to read.
    (void)client->try_send(
        request_line(1, "hello", {{"protocol", 1}, {"client", {{"name", "greeted"}}}}));
    std::optional<json> answer = client->read();
    REQUIRE(answer.has_value());
    json reply = *answer;
    if (reply.contains("result")) {
      greeted.push_back(std::move(client));
    } else {
      reason = reply;
      CHECK(client->closed_by_peer());
    }
  }
  CHECK(greeted.size() >= 19);
  REQUIRE(reason.has_value());
  CHECK(error_code_of(*reason) == "daemon_unavailable");
  CHECK((*reason)["error"]["data"]["hint"].get<std::string>().find("--max-connections") !=
        std::string::npos);
  greeted.pop_back();
  // The slot frees once the daemon has seen the close.
  CHECK(eventually(
      [&] {
        RawClient probe(instance.socket());
        probe.send(request_line(1, "hello", {{"protocol", 1}, {"client", {{"name", "probe"}}}}));
        std::optional<json> reply = probe.read();
        return reply && reply->contains("result");
      },
      10s, 20ms));
  CHECK(process_alive(daemon.pid()));
}

TEST_CASE("agents' sessions filling the connection limit leave room for people's commands") {
  Instance instance;
  // 40 connections: 16 kept for people's commands, 24 for agents' sessions.
  DaemonProcess daemon(instance, {"--max-connections", "40"});
  REQUIRE(daemon.ready());
  std::vector<std::unique_ptr<RawClient>> sessions;
  std::optional<json> refused;
  for (int i = 0; i < 30 && !refused; ++i) {
    auto client = std::make_unique<RawClient>(instance.socket());
    REQUIRE(client->connected());
    client->hello();
    json attached = client->call("mcp.attach", {{"cwd", instance.root.path().string()}});
    if (attached.contains("result")) {
      sessions.push_back(std::move(client));
    } else {
      refused = attached;
    }
  }
  CHECK(sessions.size() == 24);
  REQUIRE(refused.has_value());
  CHECK(error_code_of(*refused) == "daemon_unavailable");
  CHECK((*refused)["error"]["message"].get<std::string>().find("24 agent sessions") !=
        std::string::npos);
  CHECK((*refused)["error"]["data"]["hint"].get<std::string>().find("--max-connections") !=
        std::string::npos);
  // The person still gets answers, several commands at once too.
  std::vector<std::unique_ptr<RawClient>> people;
  for (int i = 0; i < 8; ++i) {
    people.push_back(std::make_unique<RawClient>(instance.socket()));
    CHECK(people.back()->hello().is_object());
  }
  status_answers(instance);
  // A session that ends gives its room to the next agent.
  sessions.pop_back();
  CHECK(eventually([&] {
    RawClient next(instance.socket());
    next.hello();
    return next.call("mcp.attach", {{"cwd", instance.root.path().string()}}).contains("result");
  }));
}

TEST_CASE("a connection that never completes hello is closed after the hello timeout") {
  Instance instance;
  DaemonProcess daemon(instance, {"--hello-timeout", "300"});
  RawClient slow(instance.socket());
  slow.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"meth");  // and nothing more
  std::optional<json> reason = slow.read(5s);
  REQUIRE(reason.has_value());
  CHECK(error_code_of(*reason) == "handshake_required");
  CHECK(slow.closed_by_peer());
  // A greeted client is not timed out: one that connected with it and
  // never said hello has been, by the time it is asked again.
  RawClient quick(instance.socket());
  RawClient silent(instance.socket());
  quick.hello();
  CHECK(silent.closed_by_peer());
  CHECK(quick.call("daemon.status").contains("result"));
}

TEST_CASE("out of file descriptors the daemon logs it, refuses, and recovers when they come back") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  // Lower missiond's own limit, as a system short of descriptors would.
  rlimit low{48, 48};
  REQUIRE(::prlimit(daemon.pid(), RLIMIT_NOFILE, &low, nullptr) == 0);
  std::vector<std::unique_ptr<RawClient>> clients;
  bool starved = false;
  for (int i = 0; i < 80 && !starved; ++i) {
    auto client = std::make_unique<RawClient>(instance.socket());
    // A full listen backlog (a slow, sanitized daemon) refuses a connect
    // for a moment: that is not the starvation under test, so try again.
    for (int retry = 0; retry < 50 && !client->connected(); ++retry) {
      std::this_thread::sleep_for(20ms);
      client = std::make_unique<RawClient>(instance.socket());
    }
    if (!client->connected()) break;
    // A starved daemon accepts with its spare descriptor and closes at once,
    // so the hello may meet a closed socket: that is the refusal too.
    const bool sent =
        client->try_send(request_line(1, "hello", {{"protocol", 1}, {"client", {{"name", "fd"}}}}));
    std::optional<json> reply = sent ? client->read() : std::nullopt;
    if (!reply || !reply->contains("result")) starved = true;
    clients.push_back(std::move(client));
  }
  CHECK(starved);
  CHECK(process_alive(daemon.pid()));
  clients.clear();
  // Descriptors are back: a new client is served.
  CHECK(eventually(
      [&] {
        RawClient client(instance.socket());
        const bool sent = client.connected() &&
                          client.try_send(request_line(
                              1, "hello", {{"protocol", 1}, {"client", {{"name", "after"}}}}));
        std::optional<json> reply = sent ? client.read() : std::nullopt;
        return reply && reply->contains("result");
      },
      10s, 20ms));
  daemon.signal(SIGTERM);
  REQUIRE(daemon.wait_exit() == 0);
  INFO(daemon.stderr_text());
  CHECK(daemon.stderr_text().find("too many open files") != std::string::npos);
}

namespace {

// A small tmpfs mounted for the test's life (needs root; without it the
// test says so and checks nothing).
class TinyDisk {
 public:
  TinyDisk(const fs::path& where, const char* size) : where_(where) {
    fs::create_directories(where);
    mounted_ =
        ::mount("tmpfs", where.c_str(), "tmpfs", 0, (std::string("size=") + size).c_str()) == 0;
  }
  ~TinyDisk() {
    if (mounted_) ::umount2(where_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  // Fills the file system up with `filler`; its size.
  std::size_t fill(const fs::path& filler) {
    std::ofstream out(filler, std::ios::binary);
    std::string block(4096, 'f');
    std::size_t written = 0;
    while (out.write(block.data(), static_cast<std::streamsize>(block.size()))) {
      out.flush();
      if (!out) break;
      written += block.size();
    }
    return written;
  }

 private:
  fs::path where_;
  bool mounted_ = false;
};

std::string reply_hint(const json& reply) {
  if (reply.contains("error")) return reply["error"]["data"].value("hint", "");
  if (reply.contains("result") && reply["result"].value("isError", false)) {
    return reply["result"]["structuredContent"].value("hint", "");
  }
  return "";
}

}  // namespace

TEST_CASE("a full disk is reported as a full disk, nothing acknowledged is lost, and it recovers") {
  Instance instance;
  TinyDisk disk(instance.state_dir(), "4m");
  if (!disk.mounted()) {
    WARN("cannot mount a tmpfs (not root): the disk-full test checks nothing here");
    return;
  }
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  fs::path cwd = instance.root.path() / "work";
  fs::create_directories(cwd);
  Agent agent(instance, cwd);
  agent.ok("progress", {{"summary", "before"}, {"eventId", "before"}});

  const fs::path filler = instance.state_dir() / "filler";
  disk.fill(filler);
  std::string hint;
  int n = 0;
  for (; n < 300 && hint.empty(); ++n) {
    json reply = agent.bridge().request(
        1000 + n, "tools/call",
        {{"name", "progress"},
         {"arguments",
          {{"summary", std::string(2000, 's')}, {"eventId", "full-" + std::to_string(n)}}}});
    hint = reply_hint(reply);
  }
  INFO(hint);
  CHECK(hint.find("full") != std::string::npos);
  CHECK(hint.find("no transaction") == std::string::npos);
  CHECK(process_alive(daemon.pid()));

  fs::remove(filler);
  agent.ok("progress", {{"summary", "after"}, {"eventId", "after"}});
  json signals = mission_json(instance, {"exec", "signals", agent.execution_id()});
  std::string text = signals.dump();
  CHECK(text.find("\"before\"") != std::string::npos);
  CHECK(text.find("\"after\"") != std::string::npos);
}
