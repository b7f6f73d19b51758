#include "daemon/sandbox/network_filter.hpp"

#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "shared/error_code.hpp"

namespace mission::daemon::sandbox {
namespace {

// The socket families that reach beyond the host's own processes. Netlink
// (the kernel's routing tables, read by `ip`) and Unix sockets stay open.
constexpr int kNetworkFamilies[] = {AF_INET, AF_INET6, AF_PACKET};

[[noreturn]] void cannot_build(const char* what, int rc) {
  throw MissionError(
      ErrorCode::internal,
      std::string("cannot build the agent's network filter (") + what + "): " + std::strerror(-rc),
      "run it without --network none, and report this with 'mission sandbox "
      "check'");
}

}  // namespace

std::optional<Network> network_from_name(std::string_view name) {
  if (name == "on") return Network::on;
  if (name == "none") return Network::none;
  return std::nullopt;
}

std::string_view name_of(Network network) {
  return network == Network::none ? "none" : "on";
}

std::string network_note(Network network) {
  return network == Network::none ? "; no network (--network none)" : "";
}

std::string network_filter_support() {
  const scmp_version* version = seccomp_version();
  return "seccomp (libseccomp " + std::to_string(version->major) + "." +
         std::to_string(version->minor) + "." + std::to_string(version->micro) + ")";
}

NetworkFilter::NetworkFilter() {
  scmp_filter_ctx context = seccomp_init(SCMP_ACT_ALLOW);
  if (context == nullptr) cannot_build("seccomp_init", -ENOMEM);
  context_ = context;
  for (int family : kNetworkFamilies) {
    const int rc = seccomp_rule_add(context, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1,
                                    SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(family)));
    if (rc != 0) {
      seccomp_release(context);
      context_ = nullptr;
      cannot_build("socket", rc);
    }
  }
  const int rc = seccomp_rule_add(context, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(io_uring_setup), 0);
  if (rc != 0) {
    seccomp_release(context);
    context_ = nullptr;
    cannot_build("io_uring_setup", rc);
  }
}

NetworkFilter::~NetworkFilter() {
  if (context_ != nullptr) seccomp_release(static_cast<scmp_filter_ctx>(context_));
}

int NetworkFilter::apply_to_this_thread() const {
  // The filter needs no_new_privs (seccomp_load would set it too; said here
  // so that the order with Landlock's own does not matter).
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -errno;
  // Without SCMP_FLTATR_CTL_TSYNC the filter binds this thread alone, never
  // the daemon's others.
  const int rc = seccomp_load(static_cast<scmp_filter_ctx>(context_));
  return rc < 0 ? rc : 0;
}

}  // namespace mission::daemon::sandbox
