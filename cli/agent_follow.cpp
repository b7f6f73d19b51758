#include "cli/agent_follow.hpp"

#include <signal.h>

#include <cstdio>

#include "cli/exit_codes.hpp"
#include "cli/log_follower.hpp"

namespace mission::cli {
namespace {

volatile sig_atomic_t g_interrupts = 0;

void on_interrupt(int) {
  g_interrupts = g_interrupts + 1;
}

}  // namespace

int agent_exit_status(const nlohmann::json& ended) {
  if (ended.value("state", "") == "cancelled") return 130;
  if (ended.contains("exitCode")) return ended.at("exitCode").get<int>();
  if (ended.contains("exitSignal")) return 128 + ended.at("exitSignal").get<int>();
  return kExitFailure;
}

nlohmann::json follow_agent_to_end(DaemonClient& client, const std::string& id) {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  // Whoever started us may have blocked them; Ctrl-C must still arrive.
  sigset_t stops;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  sigprocmask(SIG_UNBLOCK, &stops, nullptr);
  int handled = g_interrupts;
  auto forward_interrupts = [&] {
    if (g_interrupts == handled) return;
    handled = g_interrupts;
    const bool force = handled > 1;
    std::fprintf(stderr, "mission: %s %s%s\n", force ? "killing" : "stopping", id.c_str(),
                 force ? "" : " (Ctrl-C again to kill it now)");
    client.call("execution.stop", {{"id", id}, {"force", force}});
  };
  return follow_log(client, id, 0, false, forward_interrupts);
}

}  // namespace mission::cli
