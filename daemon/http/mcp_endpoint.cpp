#include "daemon/http/mcp_endpoint.hpp"

#include <algorithm>
#include <cstdio>

#include "daemon/execution/execution_events.hpp"
#include "daemon/execution/execution_registry.hpp"
#include "daemon/execution/protocol_descriptor.hpp"
#include "daemon/mcp/protocol_versions.hpp"
#include "daemon/mcp/tool_catalog.hpp"
#include "daemon/store/mcp_session_repository.hpp"
#include "shared/bounded_json.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/jsonrpc.hpp"
#include "shared/limits.hpp"
#include "shared/session_token.hpp"

namespace mission::daemon::http {
namespace {

constexpr std::string_view kTokenHint =
    "send the execution's token (MISSION_MCP_TOKEN, printed when it was created) as "
    "'Authorization: Bearer TOKEN'";

void refuse(const std::shared_ptr<HttpExchange>& exchange, int status, const nlohmann::json& id,
            const MissionError& error, Headers headers = {}) {
  headers.emplace_back("Content-Type", "application/json");
  exchange->respond(status, headers, jsonrpc::to_line(jsonrpc::error(id, error)));
}

// The bearer token of the request, or empty.
std::string bearer_token(const HttpRequest& request) {
  const std::string* value = request.header("authorization");
  if (value == nullptr) return {};
  constexpr std::string_view kScheme = "bearer ";
  if (value->size() <= kScheme.size()) return {};
  for (std::size_t i = 0; i < kScheme.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>((*value)[i])) != kScheme[i]) return {};
  }
  std::string token = value->substr(kScheme.size());
  while (!token.empty() && token.back() == ' ') token.pop_back();
  return token;
}

// The HTTP status of a refused attach.
int status_of(const MissionError& error) {
  switch (error.code()) {
    case ErrorCode::not_found:
      return 404;
    case ErrorCode::unauthorized:
    case ErrorCode::execution_final:
      return 403;
    default:
      return 500;
  }
}

bool is_initialize(const nlohmann::json& message) {
  return message.is_object() && message.contains("method") && message.at("method") == "initialize";
}

bool carries_modern_meta(const nlohmann::json& message) {
  if (!message.is_object() || !message.contains("params")) return false;
  const nlohmann::json& params = message.at("params");
  return params.is_object() && params.contains("_meta") && params.at("_meta").is_object() &&
         params.at("_meta").contains(mcp::kMetaProtocolVersion);
}

}  // namespace

McpEndpoint::McpEndpoint(mcp::SessionServices& services)
    : services_(services), sweep_timer_(services.loop, [this] {
        sweep_scheduled_ = false;
        sweep();
      }) {}

McpEndpoint::~McpEndpoint() {
  end_all();
}

void McpEndpoint::end_all() {
  sweep_timer_.stop();
  // Ending a session may answer exchanges whose connections then go on.
  auto sessions = std::move(sessions_);
  auto stateless = std::move(stateless_);
  sessions.clear();
  stateless.clear();
}

void McpEndpoint::schedule_sweep() {
  if (sweep_scheduled_ || session_count() == 0) return;
  sweep_scheduled_ = true;
  sweep_timer_.start(std::min(limits::kHttpMcpSessionIdleMs, 60 * 1000));
}

void McpEndpoint::sweep() {
  const std::int64_t now = unix_ms_now();
  for (auto* table : {&sessions_, &stateless_}) {
    for (auto it = table->begin(); it != table->end();) {
      HttpMcpSession& session = *it->second;
      if (!session.busy() && now - session.last_used_ms() >= limits::kHttpMcpSessionIdleMs) {
        std::unique_ptr<HttpMcpSession> idle = std::move(it->second);
        it = table->erase(it);
        idle->end("no request for " + std::to_string(limits::kHttpMcpSessionIdleMs / 1000) + " s");
      } else {
        ++it;
      }
    }
  }
  schedule_sweep();
}

std::unique_ptr<HttpMcpSession> McpEndpoint::open_session(const std::string& execution_id,
                                                          const std::string& token,
                                                          std::string key) {
  if (session_count() >= limits::kMaxHttpMcpSessions) {
    throw MissionError(ErrorCode::daemon_unavailable,
                       "the daemon already holds " + std::to_string(limits::kMaxHttpMcpSessions) +
                           " MCP sessions over HTTP, its limit",
                       "end sessions that are done (DELETE with their Mcp-Session-Id), then "
                       "initialize again");
  }
  store::Database& db = services_.db;
  events::EventBatch batch(services_.events);
  store::Transaction transaction(db);
  store::ExecutionRow row =
      execution::AgentExecutionRegistry(db).authorize_mcp(execution_id, token);
  nlohmann::json descriptor = parse_stored_json(row.descriptor, "execution descriptor");
  std::vector<Toolset> toolsets = execution::descriptor_toolsets(descriptor);
  std::int64_t session_id = store::McpSessionRepository(db).insert(row.id, unix_ms_now());
  execution::add_execution_event(batch, db, execution::kExecutionUpdated, row.id);
  transaction.commit();
  batch.publish_to(services_.events);
  auto session = std::make_unique<HttpMcpSession>(
      services_,
      mcp::AttachedExecution{row.id, row.kind,
                             mcp::ToolCatalog::builtin().view(toolsets, descriptor), session_id},
      std::move(key), token_digest(token));
  return session;
}

void McpEndpoint::handle(const std::shared_ptr<HttpExchange>& exchange,
                         const std::string& execution_id) {
  const HttpRequest& request = exchange->request();
  const std::string token = bearer_token(request);
  if (token.empty()) {
    refuse(exchange, 401, nullptr,
           MissionError(ErrorCode::unauthorized,
                        "no bearer token: MCP over HTTP needs the execution's token",
                        std::string(kTokenHint)),
           {{"WWW-Authenticate", "Bearer realm=\"mission\""}});
    return;
  }
  if (const std::string* version = request.header("mcp-protocol-version");
      version != nullptr && mcp::negotiate_legacy(*version) != *version &&
      !mcp::is_supported_modern(*version)) {
    refuse(exchange, 400, nullptr,
           MissionError(ErrorCode::invalid_request,
                        "unsupported MCP-Protocol-Version '" + *version + "'",
                        "send a version initialize answered, or 2026-07-28"));
    return;
  }
  if (request.method == "POST") {
    post(exchange, execution_id, token);
    return;
  }
  if (request.method == "GET") {
    const std::string* accept = request.header("accept");
    if (accept == nullptr || accept->find("text/event-stream") == std::string::npos) {
      refuse(exchange, 406, nullptr,
             MissionError(ErrorCode::invalid_request, "GET opens an event stream",
                          "send 'Accept: text/event-stream'"));
      return;
    }
    if (request.header("mcp-session-id") == nullptr) {
      refuse(exchange, 405, nullptr,
             MissionError(ErrorCode::invalid_request, "a server stream belongs to a session",
                          "initialize first and send its Mcp-Session-Id"),
             {{"Allow", "POST"}});
      return;
    }
    if (HttpMcpSession* session = named_session(exchange, execution_id, token)) {
      session->open_stream(exchange);
    }
    return;
  }
  if (request.method == "DELETE") {
    if (HttpMcpSession* session = named_session(exchange, execution_id, token)) {
      auto it = sessions_.find(session->key());
      std::unique_ptr<HttpMcpSession> ended = std::move(it->second);
      sessions_.erase(it);
      ended->end("the client ended it");
      exchange->respond(204, {}, {});
    }
    return;
  }
  refuse(exchange, 405, nullptr,
         MissionError(ErrorCode::invalid_request, request.method + " is not served at /mcp",
                      "POST JSON-RPC messages; GET the server stream; DELETE to end a session"),
         {{"Allow", "GET, POST, DELETE"}});
}

HttpMcpSession* McpEndpoint::named_session(const std::shared_ptr<HttpExchange>& exchange,
                                           const std::string& execution_id,
                                           const std::string& token) {
  const std::string* key = exchange->request().header("mcp-session-id");
  if (key == nullptr) {
    refuse(exchange, 400, nullptr,
           MissionError(ErrorCode::handshake_required, "no Mcp-Session-Id",
                        "send initialize first and then its Mcp-Session-Id with every request"));
    return nullptr;
  }
  auto it = sessions_.find(*key);
  // Another execution's session is not found either: its id says nothing.
  if (it == sessions_.end() || it->second->attached().execution_id != execution_id) {
    refuse(exchange, 404, nullptr,
           MissionError(ErrorCode::not_found, "no MCP session '" + *key + "' for " + execution_id,
                        "it ended (DELETE, idle or a daemon restart): initialize a new session"));
    return nullptr;
  }
  if (!it->second->token_matches(token)) {
    refuse(
        exchange, 403, nullptr,
        MissionError(ErrorCode::unauthorized, "wrong MCP session token for '" + execution_id + "'",
                     std::string(kTokenHint)));
    return nullptr;
  }
  return it->second.get();
}

void McpEndpoint::post(const std::shared_ptr<HttpExchange>& exchange,
                       const std::string& execution_id, const std::string& token) {
  const HttpRequest& request = exchange->request();
  const std::string* type = request.header("content-type");
  if (type == nullptr || type->find("application/json") == std::string::npos) {
    refuse(exchange, 415, nullptr,
           MissionError(ErrorCode::invalid_request, "POST a JSON-RPC message as application/json",
                        "send 'Content-Type: application/json'"));
    return;
  }
  if (json_too_deep(request.body)) {
    refuse(exchange, 400, nullptr, json_too_deep_error());
    return;
  }
  const nlohmann::json message = nlohmann::json::parse(request.body, nullptr, false);
  if (message.is_discarded()) {
    refuse(exchange, 400, nullptr,
           MissionError(ErrorCode::parse_error, "invalid JSON", "POST one JSON-RPC message"));
    return;
  }
  const bool batch = message.is_array();
  const nlohmann::json* request_id = nullptr;
  bool handshake = false;
  bool modern = false;
  auto note = [&](const nlohmann::json& item) {
    handshake = handshake || is_initialize(item);
    modern = modern || carries_modern_meta(item);
  };
  if (batch) {
    for (const nlohmann::json& item : message) note(item);
  } else {
    note(message);
    if (jsonrpc::is_request(message)) request_id = &message.at("id");
  }

  HttpMcpSession* session = nullptr;
  try {
    if (handshake) {
      // initialize opens a session; any Mcp-Session-Id it carries is ignored.
      std::string key = generate_session_token();
      auto opened = open_session(execution_id, token, key);
      session = opened.get();
      sessions_.emplace(std::move(key), std::move(opened));
    } else if (request.header("mcp-session-id") != nullptr) {
      session = named_session(exchange, execution_id, token);
      if (session == nullptr) return;
    } else if (modern) {
      // 2026-07-28: no session; the execution's requests share one.
      auto it = stateless_.find(execution_id);
      if (it != stateless_.end() && !it->second->token_matches(token)) {
        throw MissionError(ErrorCode::unauthorized,
                           "wrong MCP session token for '" + execution_id + "'",
                           std::string(kTokenHint));
      }
      if (it == stateless_.end()) {
        it = stateless_.emplace(execution_id, open_session(execution_id, token, {})).first;
      }
      session = it->second.get();
    } else {
      refuse(
          exchange, 400, request_id != nullptr ? *request_id : nlohmann::json(),
          MissionError(ErrorCode::handshake_required, "no Mcp-Session-Id and no 2026-07-28 _meta",
                       "send initialize first and then its Mcp-Session-Id, or put the 2026-07-28 "
                       "_meta on every request"));
      return;
    }
  } catch (const MissionError& error) {
    const int status = error.code() == ErrorCode::daemon_unavailable ? 503 : status_of(error);
    const nlohmann::json id = request_id != nullptr ? *request_id : nlohmann::json();
    if (error.code() == ErrorCode::unauthorized) {
      // The registry's hint speaks of the bridge's environment; over HTTP
      // the token goes in a header.
      refuse(exchange, status, id,
             MissionError(ErrorCode::unauthorized, error.what(), std::string(kTokenHint)));
    } else {
      refuse(exchange, status, id, error);
    }
    return;
  }
  session->post(exchange, request.body, request_id, batch);
  schedule_sweep();
}

}  // namespace mission::daemon::http
