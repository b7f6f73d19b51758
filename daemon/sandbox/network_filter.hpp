#pragma once
// --network none: an agent that cannot open a network socket. A seccomp
// filter (libseccomp) refuses socket() for the internet and packet
// families with EACCES, and io_uring_setup (whose rings can open sockets
// without socket()) with EPERM; Unix sockets stay, so the agent still
// reaches the daemon. No namespace and no root: it works wherever seccomp
// does, confined or not. Applied like the Landlock rules, on the thread
// that spawns one child (docs/adr/0040-an-agent-off-the-network.md).

#include <optional>
#include <string>
#include <string_view>

namespace mission::daemon::sandbox {

// Whether a launch may reach the network: on (the default), or none.
enum class Network { on, none };

// "on" or "none"; nullopt for anything else.
std::optional<Network> network_from_name(std::string_view name);
std::string_view name_of(Network network);
// What a launch's or run's sandbox state adds for it: "" or
// "; no network (--network none)".
std::string network_note(Network network);

// What --network none stands on here, for mission sandbox check:
// "seccomp (libseccomp 2.5.4)".
std::string network_filter_support();

class NetworkFilter {
 public:
  // The filter, built once per launch in the daemon (libseccomp allocates
  // while it builds). Throws MissionError internal when libseccomp cannot.
  NetworkFilter();
  ~NetworkFilter();
  NetworkFilter(const NetworkFilter&) = delete;
  NetworkFilter& operator=(const NetworkFilter&) = delete;

  // no_new_privs, then the filter, on the calling thread only: 0 or a
  // negative errno. For the spawning thread.
  int apply_to_this_thread() const;

 private:
  void* context_ = nullptr;  // scmp_filter_ctx
};

}  // namespace mission::daemon::sandbox
