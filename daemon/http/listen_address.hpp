#pragma once
// The address of missiond --http: "ADDR:PORT", ADDR an IPv4 address or an
// IPv6 one in brackets, in numbers (no name to resolve at start-up).

#include <netinet/in.h>
#include <sys/socket.h>

#include <optional>
#include <string>
#include <string_view>

namespace mission::daemon::http {

// The socket address of `text`, or nullopt when it is not ADDR:PORT.
std::optional<sockaddr_storage> parse_listen_address(std::string_view text);

// "127.0.0.1:8080", "[::1]:8080".
std::string format_address(const sockaddr_storage& address);

bool is_loopback(const sockaddr_storage& address);
// 0.0.0.0 or [::]: every address of the host.
bool is_wildcard(const sockaddr_storage& address);
int port_of(const sockaddr_storage& address);

}  // namespace mission::daemon::http
