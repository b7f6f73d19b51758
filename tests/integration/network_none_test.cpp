// --network none: an agent that cannot open a network socket, confined or
// not, while it still reaches the daemon over its Unix socket (its work
// merges). The refusal is the kernel's: bash's /dev/tcp meets EACCES at
// socket(), against a listener the test holds open on loopback.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>

#include "integration/harness.hpp"
#include "integration/run_helpers.hpp"

using namespace mission::test;
using nlohmann::json;

namespace {

// A TCP listener on 127.0.0.1 that accepts into its backlog, so a connect
// from the agent succeeds unless the agent is kept off the network.
class LoopbackListener {
 public:
  LoopbackListener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    REQUIRE(fd_ >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(fd_, 16) == 0);
    socklen_t length = sizeof address;
    REQUIRE(::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    port_ = ntohs(address.sin_port);
  }
  ~LoopbackListener() { ::close(fd_); }
  LoopbackListener(const LoopbackListener&) = delete;
  LoopbackListener& operator=(const LoopbackListener&) = delete;
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

// A shell line that prints "connected" or "refused: WHY" for a TCP
// connection to the listener.
std::string probe(const LoopbackListener& listener) {
  return "if exec 3<>/dev/tcp/127.0.0.1/" + std::to_string(listener.port()) +
         "; then echo connected; else echo refused; fi";
}

}  // namespace

TEST_CASE("mission run --network none keeps the agent off the network, confined or not") {
  Instance instance;
  DaemonProcess daemon(instance);
  REQUIRE(daemon.ready());
  LoopbackListener listener;
  const std::string sandbox = GENERATE("on", "off");
  INFO("--sandbox " << sandbox);
  ProcessResult online = run_mission(
      instance, {"run", "--sandbox", sandbox, "--", "/bin/bash", "-c", probe(listener)});
  INFO(online.out << online.err);
  CHECK(online.out.find("connected") != std::string::npos);
  // The daemon's Unix socket stays open to it: mission itself still works.
  ProcessResult offline = run_mission(
      instance, {"run", "--sandbox", sandbox, "--network", "none", "--", "/bin/bash", "-c",
                 probe(listener) + " 2>&1; '" MISSION_PATH
                                   "' daemon status >/dev/null && echo reached the daemon"});
  INFO(offline.out << offline.err);
  CHECK(offline.out.find("refused") != std::string::npos);
  CHECK(offline.out.find("reached the daemon") != std::string::npos);
  CHECK(offline.out.find("Permission denied") != std::string::npos);
  CHECK(offline.out.find("connected") == std::string::npos);
  // How it ran is on the record.
  json listed = json::parse(run_mission(instance, {"exec", "list", "--json"}).out);
  int offline_records = 0;
  for (const json& execution : listed["executions"]) {
    if (execution.value("sandbox", "").find("no network (--network none)") != std::string::npos)
      ++offline_records;
  }
  CHECK(offline_records == 1);
}

TEST_CASE("a run's agents under --network none are refused the network and still merge") {
  RunSetup setup;
  auto& [instance, daemon, repo, planner] = setup;
  LoopbackListener listener;
  const std::string workflow = make_workflow(planner, {{"offline", {}}});
  ProcessResult result =
      run_long(instance, {"workflows", "run", workflow, "--max-attempts", "1", "--network", "none",
                          "--", "/bin/bash", "-c",
                          "{ " + probe(listener) + "; } > \"$MISSION_TASK_NAME.txt\" 2>/dev/null"});
  INFO(result.out << result.err);
  REQUIRE(result.exit_code == 0);
  const json run = run_status(instance, workflow);
  CHECK(run["status"] == "completed");
  CHECK(run.value("sandbox", "").find("no network (--network none)") != std::string::npos);
  const std::string branch = run.value("integrationBranch", "");
  CHECK(show(instance, repo, branch + ":offline.txt") == "refused\n");
}
