#pragma once
// Which Host and Origin headers name this listener. A browser sends the
// name it resolved as Host: a page of another site whose name resolves to
// 127.0.0.1 (DNS rebinding) names that site, not us, and is refused; a
// page's Origin is refused unless it is this listener too. A listener on
// every address (0.0.0.0) is reached by names only the person knows: they
// are given with missiond --http-host.

#include <sys/socket.h>

#include <string>
#include <string_view>
#include <vector>

namespace mission::daemon::http {

// The longest name a Host header may carry that --http-host accepts: a
// DNS name's limit.
inline constexpr std::size_t kMaxHostNameBytes = 253;

// Whether `name` can be a Host header's name: a DNS name (letters, digits,
// '-' and '.'), an IPv4 address, or an IPv6 one in brackets; no port.
bool valid_host_name(std::string_view name);

class HostCheck {
 public:
  // For a listener bound to `bound` (its real port, not 0): the bound
  // address, and for loopback also localhost, 127.0.0.1 and [::1], and
  // each of `names` (valid_host_name), each with the port.
  explicit HostCheck(const sockaddr_storage& bound, const std::vector<std::string>& names = {});

  bool host_allowed(std::string_view host) const;
  // An Origin header's value: http:// or https:// and an allowed host.
  bool origin_allowed(std::string_view origin) const;
  // What to send as Host, for the refusal's hint: the first name given,
  // else the bound address.
  const std::string& canonical() const { return hosts_.front(); }

 private:
  std::vector<std::string> hosts_;
};

}  // namespace mission::daemon::http
