#pragma once
// Which Host and Origin headers name this listener. A browser sends the
// name it resolved as Host: a page of another site whose name resolves to
// 127.0.0.1 (DNS rebinding) names that site, not us, and is refused; a
// page's Origin is refused unless it is this listener too.

#include <sys/socket.h>

#include <string>
#include <string_view>
#include <vector>

namespace mission::daemon::http {

class HostCheck {
 public:
  // For a listener bound to `bound` (its real port, not 0): the bound
  // address, and for loopback also localhost, 127.0.0.1 and [::1], each
  // with the port.
  explicit HostCheck(const sockaddr_storage& bound);

  bool host_allowed(std::string_view host) const;
  // An Origin header's value: http:// or https:// and an allowed host.
  bool origin_allowed(std::string_view origin) const;
  // What to send as Host, for the refusal's hint.
  const std::string& canonical() const { return hosts_.front(); }

 private:
  std::vector<std::string> hosts_;
};

}  // namespace mission::daemon::http
