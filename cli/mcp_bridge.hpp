#pragma once
// The byte pump of `mission mcp connect`: once the daemon has accepted
// mcp.attach, stdin goes to the socket and the socket to stdout, unchanged.
// The bridge owns no MCP logic; the daemon serves the protocol.

#include <string>

namespace mission::cli {

enum class BridgeEnd {
  client_closed,  // stdin reached EOF (or stdout closed): the session is over
  daemon_closed,  // the socket closed first: the daemon went away
};

// Copies until one side ends. `pending_output` holds bytes the daemon sent
// after its attach reply, written to stdout first. Takes ownership of
// `socket_fd`'s blocking mode (it is made non-blocking).
BridgeEnd run_bridge(int socket_fd, std::string pending_output);

}  // namespace mission::cli
