#include "daemon/http/http_server.hpp"

#include "daemon/http/listen_address.hpp"
#include "shared/error_code.hpp"
#include "shared/jsonrpc.hpp"
#include "shared/limits.hpp"

namespace mission::daemon::http {
namespace {

void refuse(const std::shared_ptr<HttpExchange>& exchange, int status, const MissionError& error) {
  exchange->respond(status, {{"Content-Type", "application/json"}},
                    jsonrpc::to_line(jsonrpc::error(nullptr, error)));
}

constexpr std::string_view kMcpPrefix = "/mcp/";

}  // namespace

HttpServer::HttpServer(mcp::SessionServices& services, ControlServices& control)
    : services_(services),
      listener_(
          services.loop,
          [this](loop::Connection& connection) {
            return std::make_unique<HttpConnection>(
                connection, services_.loop,
                [this](const std::shared_ptr<HttpExchange>& exchange) { route(exchange); });
          },
          loop::Listener::Transport::tcp),
      mcp_(services),
      board_(control) {
  listener_.limit_connections(limits::kMaxHttpConnections, [](const std::string& why,
                                                              const std::string& hint) {
    return format_response(503, {{"Content-Type", "application/json"}},
                           jsonrpc::to_line(jsonrpc::error(
                               nullptr, MissionError(ErrorCode::daemon_unavailable, why, hint))),
                           false);
  });
}

HttpServer::~HttpServer() {
  stop();
}

void HttpServer::listen(const sockaddr_storage& address,
                        const std::vector<std::string>& host_names) {
  if (int rc = listener_.listen_tcp(reinterpret_cast<const sockaddr*>(&address)); rc != 0) {
    stop();
    throw MissionError(
        ErrorCode::invalid_argument,
        "cannot listen for HTTP on " + format_address(address) + ": " + uv_strerror(rc),
        "choose another --http address or port (port 0 picks a free one)");
  }
  sockaddr_storage bound{};
  listener_.bound_address(bound);
  address_ = format_address(bound);
  hosts_.emplace(bound, host_names);
}

void HttpServer::stop() {
  if (stopped_) return;
  stopped_ = true;
  listener_.stop_accepting();
  mcp_.end_all();
  board_.stop();
  listener_.abort_connections();
}

void HttpServer::route(const std::shared_ptr<HttpExchange>& exchange) {
  const HttpRequest& request = exchange->request();
  const std::string* host = request.header("host");
  if (host == nullptr || !hosts_ || !hosts_->host_allowed(*host)) {
    refuse(exchange, 421,
           MissionError(ErrorCode::forbidden,
                        "Host '" + (host != nullptr ? *host : std::string()) +
                            "' does not name this listener",
                        "connect to http://" + (hosts_ ? hosts_->canonical() : address_) +
                            " (other names are refused against DNS rebinding)"));
    return;
  }
  // Browsers send Origin; a page of another site must not reach the daemon.
  if (const std::string* origin = request.header("origin");
      origin != nullptr && !hosts_->origin_allowed(*origin)) {
    refuse(exchange, 403,
           MissionError(ErrorCode::forbidden, "Origin '" + *origin + "' is not this listener",
                        "send requests from a client, not a web page of another site"));
    return;
  }
  if (request.path.starts_with(kMcpPrefix) && request.path.size() > kMcpPrefix.size() &&
      request.path.find('/', kMcpPrefix.size()) == std::string::npos) {
    mcp_.handle(exchange, request.path.substr(kMcpPrefix.size()));
    return;
  }
  if (request.path == "/mcp" || request.path == "/mcp/") {
    refuse(exchange, 404,
           MissionError(ErrorCode::not_found, "MCP is served per execution",
                        "use /mcp/EXECUTION_ID with the execution's token as a bearer token"));
    return;
  }
  board_.handle(exchange);
}

}  // namespace mission::daemon::http
