#include "daemon/http/host_check.hpp"

#include <algorithm>
#include <cctype>

#include "daemon/http/listen_address.hpp"

namespace mission::daemon::http {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

bool valid_host_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxHostNameBytes) return false;
  if (name.front() == '[') {
    if (name.size() < 3 || name.back() != ']') return false;
    return std::all_of(name.begin() + 1, name.end() - 1, [](char c) {
      return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.';
    });
  }
  if (name.front() == '-' || name.front() == '.') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.';
  });
}

HostCheck::HostCheck(const sockaddr_storage& bound, const std::vector<std::string>& names) {
  const std::string port = std::to_string(port_of(bound));
  for (const std::string& name : names) hosts_.push_back(lower(name) + ":" + port);
  hosts_.push_back(format_address(bound));
  if (is_loopback(bound)) {
    for (const char* name : {"localhost", "127.0.0.1", "[::1]"})
      hosts_.push_back(name + (":" + port));
  }
  // A client leaves the default port out of Host.
  if (port == "80") {
    const std::size_t count = hosts_.size();
    for (std::size_t i = 0; i < count; ++i)
      hosts_.push_back(hosts_[i].substr(0, hosts_[i].size() - 3));
  }
}

bool HostCheck::host_allowed(std::string_view host) const {
  const std::string wanted = lower(host);
  return std::find(hosts_.begin(), hosts_.end(), wanted) != hosts_.end();
}

bool HostCheck::origin_allowed(std::string_view origin) const {
  for (std::string_view scheme : {"http://", "https://"}) {
    if (origin.starts_with(scheme)) return host_allowed(origin.substr(scheme.size()));
  }
  return false;
}

}  // namespace mission::daemon::http
