// The one table of control-API methods. A method exists when it is listed
// here with its params schema; the dispatcher validates before any handler.

#include "daemon/rpc/daemon_methods.hpp"
#include "daemon/rpc/dispatcher.hpp"

namespace mission::daemon {

std::span<const MethodEntry> control_methods() {
  static const MethodEntry kMethods[] = {
      {"hello", "control/hello.params", true, typed<HelloRequest, handle_hello>},
      {"daemon.status", "control/empty.params", false,
       typed<EmptyRequest, handle_daemon_status>},
      {"daemon.stop", "control/empty.params", false, typed<EmptyRequest, handle_daemon_stop>},
  };
  return kMethods;
}

}  // namespace mission::daemon
