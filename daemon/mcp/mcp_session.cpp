#include "daemon/mcp/mcp_session.hpp"

#include <array>
#include <cstdio>

#include "daemon/coordination/coordination.hpp"
#include "daemon/execution/execution_events.hpp"
#include "daemon/execution/execution_registry.hpp"
#include "daemon/loop/work_queue.hpp"
#include "daemon/mcp/protocol_versions.hpp"
#include "daemon/mcp/tool_call.hpp"
#include "daemon/store/database.hpp"
#include "daemon/store/mcp_session_repository.hpp"
#include "shared/bounded_json.hpp"
#include "shared/clock.hpp"
#include "shared/error_code.hpp"
#include "shared/error_of.hpp"
#include "shared/fault_points.hpp"
#include "shared/jsonrpc.hpp"
#include "shared/limits.hpp"
#include "shared/out_of_memory.hpp"
#include "shared/version.hpp"

namespace mission::daemon::mcp {
namespace {

// What a tool call of the session may touch.
ToolContext tool_context(const SessionServices& services, const std::string& execution_id,
                         std::int64_t session_id, events::EventBatch& batch) {
  return ToolContext{services.db,
                     execution_id,
                     session_id,
                     services.idempotency,
                     batch,
                     services.trees,
                     services.plans,
                     services.attempts,
                     services.launcher,
                     services.live_conflicts};
}

// Kept short: every byte here is context the agent pays for.
constexpr std::string_view kInstructions =
    "mission tracks this agent execution. Report with the signal tools: progress after each "
    "meaningful step, needs_input or blocked when you cannot go on, completed_claim or "
    "failed_claim at the end. Reuse an eventId only to retry the same signal. For planned work, "
    "start_task before and complete_task after each unit: mission records exactly which files it "
    "changed.";

constexpr std::array<std::string_view, 8> kLogLevels{"debug", "info",     "notice", "warning",
                                                     "error", "critical", "alert",  "emergency"};

using Handler = nlohmann::json (*)(McpSession&, const McpSession::Request&);

struct Method {
  std::string_view name;
  Handler handler;
  bool needs_initialize;  // legacy sessions must initialize first
};

nlohmann::json empty_list(std::string_view key) {
  return {{key, nlohmann::json::array()}};
}

const Method kMethods[] = {
    {"initialize", [](McpSession& s, const McpSession::Request& r) { return s.initialize(r); },
     false},
    {"ping", [](McpSession&, const McpSession::Request&) { return nlohmann::json::object(); },
     false},
    {"server/discover", [](McpSession& s, const McpSession::Request& r) { return s.discover(r); },
     false},
    {"tools/list", [](McpSession& s, const McpSession::Request& r) { return s.list_tools(r); },
     true},
    {"tools/call", [](McpSession& s, const McpSession::Request& r) { return s.call_tool(r); },
     true},
    {"logging/setLevel",
     [](McpSession& s, const McpSession::Request& r) { return s.set_log_level(r); }, true},
    {"prompts/list", [](McpSession&, const McpSession::Request&) { return empty_list("prompts"); },
     true},
    {"resources/list",
     [](McpSession&, const McpSession::Request&) { return empty_list("resources"); }, true},
    {"resources/templates/list",
     [](McpSession&, const McpSession::Request&) { return empty_list("resourceTemplates"); }, true},
};

const Method* find_method(std::string_view name) {
  for (const Method& method : kMethods) {
    if (method.name == name) return &method;
  }
  return nullptr;
}

nlohmann::json method_names() {
  nlohmann::json names = nlohmann::json::array();
  for (const Method& method : kMethods) names.push_back(method.name);
  return names;
}

nlohmann::json versions_json(std::span<const std::string_view> versions) {
  nlohmann::json out = nlohmann::json::array();
  for (auto version : versions) out.push_back(version);
  return out;
}

nlohmann::json capabilities() {
  return {{"tools", {{"listChanged", false}}}, {"logging", nlohmann::json::object()}};
}

nlohmann::json server_info() {
  return {{"name", "mission"}, {"version", kVersion}};
}

// A JSON-RPC error with a plain numeric code, for the few MCP errors whose
// code is fixed by the MCP specification rather than by our enum.
nlohmann::json raw_error(const nlohmann::json& id, int code, std::string_view message,
                         nlohmann::json data) {
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"error", {{"code", code}, {"message", message}, {"data", std::move(data)}}}};
}

std::string text_field(const nlohmann::json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object.at(key).is_string()) return {};
  return object.at(key).get<std::string>();
}

// The line for `response`, or a payload_too_large error in its place when
// it would pass the reply budget (the peer's frame limit is near it).
std::string bounded_line(const nlohmann::json& response) {
  std::string line = jsonrpc::to_line(response);
  if (line.size() <= limits::kMaxReplyBytes) return line;
  const nlohmann::json id =
      response.is_object() && response.contains("id") ? response.at("id") : nlohmann::json();
  return jsonrpc::to_line(jsonrpc::error(
      id, MissionError(ErrorCode::payload_too_large,
                       "the reply would be " + std::to_string(line.size()) + " bytes, over the " +
                           std::to_string(limits::kMaxReplyBytes) + "-byte reply limit",
                       "ask for less: a smaller limit, or page with the cursor",
                       {{"limit", limits::kMaxReplyBytes}})));
}

}  // namespace

void McpSession::write_reply(const nlohmann::json& response) {
  std::string line = bounded_line(response);
  (void)faults::hit(faults::FaultPoint::reply_unsent);
  const bool single = response.is_object() && response.contains("id");
  channel_->send(single ? response.at("id") : nlohmann::json(), std::move(line));
}

McpSession::McpSession(SessionServices& services, std::unique_ptr<ReplyChannel> channel,
                       AttachedExecution attached)
    : services_(services), channel_(std::move(channel)), attached_(std::move(attached)) {
  can_read_messages_ = attached_.view.find("message_list") != nullptr;
}

McpSession::~McpSession() {
  if (wait_) services_.events.remove_listener(*this);
}

std::string_view McpSession::listens_to() const {
  return wait_ ? wait_->work.event_type : std::string_view();
}

void McpSession::on_event(const nlohmann::json& event) {
  if (!wait_ || event.value("recipientId", "") != attached_.execution_id) return;
  finish_wait(false);
}

void McpSession::start_wait(WaitingWork work) {
  const auto timeout = static_cast<int>(work.timeout_ms);
  wait_.emplace(PendingWait{std::move(work), current_id_, current_modern_});
  reply_deferred_ = true;
  services_.events.add_listener(*this);
  if (!wait_timer_) {
    wait_timer_ = std::make_unique<loop::Timer>(services_.loop, [this] { finish_wait(true); });
  }
  wait_timer_->start(timeout);
}

void McpSession::finish_wait(bool timed_out) {
  if (!wait_) return;
  nlohmann::json result;
  try {
    events::EventBatch batch(services_.events);
    store::Transaction transaction(services_.db);
    ToolContext context =
        tool_context(services_, attached_.execution_id, attached_.session_id, batch);
    std::optional<nlohmann::json> ready = wait_->work.ready(context);
    if (!ready && !timed_out) return;  // not for this wait after all: wait on
    result = tool_result(ready ? *ready : wait_->work.timed_out(context), false);
    add_unread_notice(result);
    transaction.commit();
    batch.publish_to(services_.events);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: answering message_wait failed: %s\n", e.what());
    result = tool_result(
        MissionError(ErrorCode::internal, e.what(), "call message_wait again").to_payload(), true);
  }
  PendingWait pending = std::move(*wait_);
  wait_.reset();
  services_.events.remove_listener(*this);
  if (wait_timer_) wait_timer_->stop();
  if (pending.modern) result["resultType"] = "complete";
  write_reply(jsonrpc::result(pending.id, std::move(result)));
  if (client_done_ && deferred_in_flight_ == 0) channel_->finish();
}

void McpSession::add_unread_notice(nlohmann::json& call_result) {
  if (!call_result.is_object() || !call_result.contains("structuredContent")) return;
  const nlohmann::json& structured = call_result.at("structuredContent");
  // A result that counts the unread messages already says so.
  if (structured.is_object() && structured.contains("unread_count")) return;
  auto notice =
      coordination::unread_notice(services_.db, attached_.execution_id, can_read_messages_);
  if (notice) call_result["content"].push_back({{"type", "text"}, {"text", *notice}});
}

namespace {

// The refusal of a message over kMaxFrameBytes, to the request's id when
// its first or last bytes give it: a client waiting on that id gets its
// answer instead of waiting for ever.
nlohmann::json oversized_error(const Frame& frame) {
  const jsonrpc::RecoveredRequest request = jsonrpc::recover_request(frame.head, frame.tail);
  const std::string what = request.tool.empty()
                               ? (request.method.empty() ? "message" : request.method)
                               : request.tool + " call";
  std::string hint = "send smaller arguments; large content belongs in files";
  if (request.tool == "workflow_set_plan" || request.tool == "workflow_create") {
    hint =
        "split the plan: set it with each task's name, sequence and depends_on and a short "
        "description, "
        "then give each task its details with task_set_plan (one call per task)";
  } else if (request.tool == "template_create") {
    hint =
        "keep the template's task descriptions short; details go in each task's task_set_plan once "
        "applied";
  }
  nlohmann::json details = {{"limit", limits::kMaxFrameBytes}};
  if (!request.tool.empty()) details["tool"] = request.tool;
  return jsonrpc::error(request.id, MissionError(ErrorCode::payload_too_large,
                                                 "the " + what + " exceeds the " +
                                                     std::to_string(limits::kMaxFrameBytes) +
                                                     "-byte (1 MiB) limit of one MCP message",
                                                 hint, std::move(details)));
}

}  // namespace

void McpSession::handle_frame(const Frame& frame) {
  nlohmann::json response;
  if (frame.kind == Frame::Kind::oversized) {
    response = oversized_error(frame);
  } else if (json_too_deep(frame.text)) {
    // Refused before the recursive parser sees it: its nesting could
    // exhaust the stack.
    response = jsonrpc::error(nullptr, json_too_deep_error());
  } else {
    nlohmann::json message = nlohmann::json::parse(frame.text, nullptr, false);
    if (message.is_discarded()) {
      response = jsonrpc::error(nullptr, MissionError(ErrorCode::parse_error, "invalid JSON",
                                                      "send one JSON-RPC message per line"));
    } else if (message.is_array() && message.size() > limits::kMaxBatchMessages) {
      response = jsonrpc::error(
          nullptr,
          MissionError(ErrorCode::invalid_request,
                       "a batch of " + std::to_string(message.size()) + " messages; at most " +
                           std::to_string(limits::kMaxBatchMessages) + " are accepted",
                       "send smaller batches, or one message per line",
                       {{"limit", limits::kMaxBatchMessages}}));
    } else if (message.is_array() && !message.empty()) {
      response = handle_batch(message);
      if (response.empty()) return;
    } else {
      response = handle_message(message);
    }
  }
  if (!response.is_null()) write_reply(response);
}

nlohmann::json McpSession::handle_batch(const nlohmann::json& batch) {
  // JSON-RPC batches (allowed by 2025-03-26): answer every request in one array.
  // Every reply goes in one array, so nothing in a batch may reply later.
  // The array is one line, so its size is bounded: a request met once the
  // replies so far fill the budget is not run, and is told so. The budget
  // leaves room for those short answers.
  constexpr std::size_t kShortReplyBytes = 512;
  const std::size_t budget = limits::kMaxReplyBytes - limits::kMaxBatchMessages * kShortReplyBytes;
  nlohmann::json response = nlohmann::json::array();
  std::size_t total = 0;
  in_batch_ = true;
  for (const auto& item : batch) {
    if (total >= budget) {
      const bool request = item.is_object() && item.contains("id") && item.contains("method");
      if (!request) continue;
      const nlohmann::json& id = item.at("id");
      response.push_back(jsonrpc::error(
          jsonrpc::valid_id(id) ? id : nlohmann::json(),
          MissionError(ErrorCode::payload_too_large,
                       "not run: the batch's replies reached the " +
                           std::to_string(limits::kMaxReplyBytes) + "-byte reply limit",
                       "send this request again, on its own or in a smaller batch")));
      continue;
    }
    nlohmann::json reply = handle_message(item);
    if (reply.is_null()) continue;
    total += jsonrpc::to_line(reply).size();
    response.push_back(std::move(reply));
  }
  in_batch_ = false;
  return response;
}

nlohmann::json McpSession::handle_message(const nlohmann::json& message) {
  if (!message.is_object() || !message.contains("jsonrpc") || message.at("jsonrpc") != "2.0") {
    return jsonrpc::error(nullptr,
                          MissionError(ErrorCode::invalid_request, "not a JSON-RPC 2.0 message",
                                       "send {\"jsonrpc\":\"2.0\",...} objects"));
  }
  if (!message.contains("method")) return nullptr;  // a response; we never ask, so drop it
  const bool notification = !message.contains("id");
  const nlohmann::json id = notification ? nlohmann::json() : message.at("id");
  if (!jsonrpc::valid_id(id)) return jsonrpc::error(nullptr, jsonrpc::invalid_id_error());
  if (!message.at("method").is_string()) {
    if (notification) return nullptr;
    return jsonrpc::error(id, MissionError(ErrorCode::invalid_request, "method must be a string",
                                           "send a method name such as tools/list"));
  }
  const std::string& name = message.at("method").get_ref<const std::string&>();
  static const nlohmann::json kNoParams = nlohmann::json::object();
  const nlohmann::json& params = message.contains("params") ? message.at("params") : kNoParams;

  if (notification) {
    // notifications/initialized completes the legacy handshake. A cancelled
    // request is still answered: most are answered before the next message
    // is read, and a deferred tool call has already started its work, whose
    // effect the client must learn of. Other notifications are ignored as
    // JSON-RPC requires.
    if (name == "notifications/initialized") mark_initialized();
    return nullptr;
  }

  Request request{&params, false};
  try {
    if (!params.is_object()) {
      throw MissionError(ErrorCode::invalid_argument, "params must be an object",
                         "send named parameters as a JSON object");
    }
    if (params.contains("_meta") && params.at("_meta").is_object() &&
        params.at("_meta").contains(kMetaProtocolVersion)) {
      const nlohmann::json& meta = params.at("_meta");
      std::string version = text_field(meta, kMetaProtocolVersion.data());
      if (!is_supported_modern(version)) {
        return raw_error(id, kUnsupportedProtocolVersion, "Unsupported protocol version",
                         {{"supported", versions_json(all_versions_newest_first())},
                          {"requested", meta.at(kMetaProtocolVersion)}});
      }
      if (!meta.contains(kMetaClientCapabilities) ||
          !meta.at(kMetaClientCapabilities).is_object()) {
        throw MissionError(ErrorCode::invalid_argument,
                           std::string("_meta lacks ") + kMetaClientCapabilities.data(),
                           "send the client capabilities object with every 2026-07-28 request");
      }
      request.modern = true;
      note_modern_client(meta, version);
    }
    faults::at(faults::FaultPoint::request);
    const Method* method = find_method(name);
    if (method == nullptr) {
      throw MissionError(ErrorCode::method_not_found,
                         "method '" + name + "' is not served by mission's MCP server",
                         "use one of the methods in details.available",
                         {{"method", name}, {"available", method_names()}});
    }
    if (method->needs_initialize && !request.modern && !initialize_answered_) {
      throw MissionError(ErrorCode::handshake_required, "'" + name + "' was sent before initialize",
                         "send initialize first, or put the 2026-07-28 _meta on every request");
    }
    current_id_ = id;
    current_modern_ = request.modern;
    nlohmann::json result = method->handler(*this, request);
    if (reply_deferred_) {
      reply_deferred_ = false;
      return nullptr;  // reply_later answers it
    }
    if (request.modern) {
      result["resultType"] = "complete";
      // 2026-07-28 list results are cacheable and must say for how long; a
      // catalog is fixed per execution, but clients should not share it.
      if (name.ends_with("/list") && !result.contains("ttlMs")) {
        result["ttlMs"] = 0;
        result["cacheScope"] = "private";
      }
    }
    return jsonrpc::result(id, std::move(result));
  } catch (const MissionError& e) {
    return jsonrpc::error(id, e);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "missiond: MCP %s failed: out of memory\n", name.c_str());
    return jsonrpc::error(id, out_of_memory_error(name));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: MCP %s failed: %s\n", name.c_str(), e.what());
    return jsonrpc::error(id, MissionError(ErrorCode::internal, e.what()));
  }
}

void McpSession::note_modern_client(const nlohmann::json& meta, std::string_view version) {
  if (client_recorded_) return;
  client_recorded_ = true;
  nlohmann::json info =
      meta.contains(kMetaClientInfo) ? meta.at(kMetaClientInfo) : nlohmann::json();
  store::McpSessionRepository(services_.db)
      .set_client(attached_.session_id, text_field(info, "name"), text_field(info, "version"),
                  std::string(version));
}

nlohmann::json McpSession::initialize(const Request& request) {
  if (initialize_answered_) {
    throw MissionError(ErrorCode::invalid_request, "initialize was already answered",
                       "send initialize once per session");
  }
  const nlohmann::json& params = *request.params;
  std::string requested = text_field(params, "protocolVersion");
  if (requested.empty()) {
    throw MissionError(ErrorCode::invalid_argument, "initialize needs params.protocolVersion",
                       "send the protocol version the client speaks, e.g. 2025-11-25");
  }
  std::string_view version = negotiate_legacy(requested);
  nlohmann::json client =
      params.contains("clientInfo") ? params.at("clientInfo") : nlohmann::json();
  store::McpSessionRepository(services_.db)
      .set_client(attached_.session_id, text_field(client, "name"), text_field(client, "version"),
                  std::string(version));
  client_recorded_ = true;
  initialize_answered_ = true;
  return {{"protocolVersion", version},
          {"capabilities", capabilities()},
          {"serverInfo", server_info()},
          {"instructions", kInstructions}};
}

nlohmann::json McpSession::discover(const Request&) {
  return {{"supportedVersions", versions_json(all_versions_newest_first())},
          {"capabilities", capabilities()},
          {"instructions", kInstructions},
          {"ttlMs", 0},
          {"cacheScope", "private"},
          {"_meta", {{kMetaServerInfo, server_info()}}}};
}

nlohmann::json McpSession::list_tools(const Request& request) {
  const nlohmann::json& params = *request.params;
  const std::string* cursor = nullptr;
  if (params.contains("cursor")) {
    if (!params.at("cursor").is_string()) {
      throw MissionError(ErrorCode::invalid_argument, "cursor must be a string",
                         "pass the nextCursor of the previous page");
    }
    cursor = &params.at("cursor").get_ref<const std::string&>();
  }
  nlohmann::json page = attached_.view.page(cursor, limits::kToolsListPageSize);
  store::McpSessionRepository(services_.db).count_tool_list(attached_.session_id);
  return page;
}

nlohmann::json McpSession::call_tool(const Request& request) {
  // The call is counted in the tool's own transaction: one commit per call.
  events::EventBatch batch(services_.events);
  store::Transaction transaction(services_.db);
  store::McpSessionRepository(services_.db).count_call(attached_.session_id);
  ToolContext context =
      tool_context(services_, attached_.execution_id, attached_.session_id, batch);
  try {
    ToolOutcome outcome = mcp::call_tool(context, attached_.view, *request.params);
    if (outcome.waiting) {
      std::optional<nlohmann::json> ready = outcome.waiting->ready(context);
      if (!ready && !in_batch_ && !wait_) {
        transaction.commit();
        start_wait(std::move(*outcome.waiting));
        return nullptr;
      }
      // There already, or this call cannot wait: a batch answers at once,
      // and a session waits for one thing at a time.
      outcome =
          ToolOutcome(tool_result(ready ? *ready : outcome.waiting->timed_out(context), false));
    }
    if (outcome.deferred && in_batch_) {
      // Every reply of a batch goes in one array, so nothing in it can
      // reply later: the work runs here, blocking the loop.
      outcome = run_deferred_inline(context, *outcome.deferred);
    }
    if (!outcome.deferred) add_unread_notice(outcome.result);
    transaction.commit();
    if (outcome.deferred) {
      reply_later(std::move(*outcome.deferred));
      return nullptr;
    }
    batch.publish_to(services_.events);
    return outcome.result;
  } catch (const MissionError&) {
    transaction.commit();  // a refused call was still a call
    throw;
  }
}

void McpSession::reply_later(DeferredWork deferred) {
  struct Job {
    DeferredWork deferred;
    std::optional<MissionError> error;
  };
  auto job = std::make_shared<Job>(Job{std::move(deferred), std::nullopt});
  reply_deferred_ = true;
  ++deferred_in_flight_;
  std::weak_ptr<int> alive = alive_;
  loop::queue_work(
      services_.loop, [job] { job->error = error_of(job->deferred.work); },
      [this, job, alive, id = current_id_, modern = current_modern_, services = &services_,
       execution_id = attached_.execution_id, session_id = attached_.session_id] {
        // The call is finished and recorded even if its session has gone:
        // a client that retries with the same request_id gets this result.
        events::EventBatch batch(services->events);
        ToolContext context = tool_context(*services, execution_id, session_id, batch);
        nlohmann::json result =
            finish_deferred(context, job->deferred, job->error ? &*job->error : nullptr);
        batch.publish_to(services->events);
        if (alive.expired()) return;  // `this` is gone with the session
        try {
          store::Transaction transaction(services->db);
          add_unread_notice(result);
          transaction.commit();
        } catch (const std::exception& e) {
          std::fprintf(stderr, "missiond: the unread notice failed: %s\n", e.what());
        }
        if (modern) result["resultType"] = "complete";
        write_reply(jsonrpc::result(id, std::move(result)));
        if (--deferred_in_flight_ == 0 && client_done_) channel_->finish();
      });
}

void McpSession::on_client_done() {
  client_done_ = true;
  // Nobody will call again, so a pending wait answers with what is there.
  if (wait_) finish_wait(true);
  if (deferred_in_flight_ == 0) channel_->finish();
}

nlohmann::json McpSession::set_log_level(const Request& request) {
  std::string level = text_field(*request.params, "level");
  if (std::find(kLogLevels.begin(), kLogLevels.end(), level) == kLogLevels.end()) {
    throw MissionError(ErrorCode::invalid_argument, "unknown log level '" + level + "'",
                       "use debug, info, notice, warning, error, critical, alert or emergency");
  }
  // Accepted and checked; mission sends no log notifications, so there is
  // nothing to filter by it.
  return nlohmann::json::object();
}

void McpSession::on_closed() {
  if (wait_) {
    wait_.reset();
    services_.events.remove_listener(*this);
  }
  try {
    events::EventBatch batch(services_.events);
    store::Transaction transaction(services_.db);
    store::McpSessionRepository sessions(services_.db);
    sessions.detach(attached_.session_id, unix_ms_now());
    bool still_there = true;
    if (attached_.kind == ExecutionKind::attached &&
        sessions.count_attached(attached_.execution_id) == 0) {
      const bool stopping = services_.daemon_stopping != nullptr && *services_.daemon_stopping;
      still_there = execution::AgentExecutionRegistry(services_.db)
                        .end_attached(attached_.execution_id, stopping);
    }
    if (still_there) {
      execution::add_execution_event(batch, services_.db, execution::kExecutionUpdated,
                                     attached_.execution_id);
    }
    transaction.commit();
    batch.publish_to(services_.events);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "missiond: recording the end of MCP session %lld failed: %s\n",
                 static_cast<long long>(attached_.session_id), e.what());
  }
}

}  // namespace mission::daemon::mcp
