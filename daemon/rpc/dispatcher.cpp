#include "daemon/rpc/dispatcher.hpp"

#include <cstdio>
#include <cstdlib>

#include "daemon/rpc/control_session.hpp"
#include "daemon/rpc/deferred_reply.hpp"
#include "shared/fault_points.hpp"
#include "shared/jsonrpc.hpp"
#include "shared/out_of_memory.hpp"
#include "shared/schema_registry.hpp"

namespace mission::daemon {
namespace {

const MethodEntry* find_method(std::string_view name) {
  for (const MethodEntry& entry : control_methods()) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

// Validates the envelope and returns the method entry, or throws.
const MethodEntry& admit(const ControlSession* session, const nlohmann::json& message) {
  if (!message.is_object() || !message.contains("jsonrpc") || message.at("jsonrpc") != "2.0" ||
      !message.contains("method") || !message.at("method").is_string()) {
    throw MissionError(ErrorCode::invalid_request,
                       "not a JSON-RPC 2.0 request: expected {\"jsonrpc\":\"2.0\",\"method\":...}",
                       "send one JSON object per line with jsonrpc, id, method and params");
  }
  if (message.contains("params") && !message.at("params").is_object()) {
    throw MissionError(ErrorCode::invalid_argument, "params must be an object",
                       "pass named parameters as a JSON object");
  }
  const auto& name = message.at("method").get_ref<const std::string&>();
  const MethodEntry* entry = find_method(name);
  if (entry == nullptr) {
    nlohmann::json available = nlohmann::json::array();
    for (const MethodEntry& known : control_methods()) available.push_back(known.name);
    throw MissionError(ErrorCode::method_not_found, "unknown method '" + name + "'",
                       "use one of the methods listed in details.available",
                       {{"method", name}, {"available", available}});
  }
  if (session != nullptr && !entry->before_hello && !session->greeted()) {
    throw MissionError(ErrorCode::handshake_required,
                       "'" + name + "' was sent before the handshake",
                       "send hello {\"protocol\":1,\"client\":{\"name\":...}} first");
  }
  return *entry;
}

// Whether replies are checked against their methods' result schemas: on
// for the test suite, off in use, where a reply of a thousand tasks would
// pay for a validation no caller needs.
bool checking_results() {
  static const bool checking = std::getenv("MISSIOND_CHECK_RESULTS") != nullptr;
  return checking;
}

// A result that breaks its schema is the daemon's bug: answered internal,
// naming the method and what differs, so the test that caused it fails there.
void check_result(const MethodEntry& entry, const nlohmann::json& result) {
  auto violations = SchemaRegistry::embedded().validate(entry.result_schema, result);
  if (violations.empty()) return;
  throw MissionError(ErrorCode::internal,
                     "the result of '" + std::string(entry.name) + "' does not match schemas/" +
                         std::string(entry.result_schema) + ".json: " + describe(violations),
                     "this is a bug in missiond: report it with the call that caused it");
}

nlohmann::json run(const MethodEntry& entry, MethodContext& context, const nlohmann::json& params) {
  if (entry.access != Access::write) return entry.handler(context, params);
  store::Transaction transaction(context.services.db);
  nlohmann::json result = entry.handler(context, params);
  transaction.commit();
  return result;
}

// `later` answers a deferred method for a caller without a control
// connection; null refuses such methods.
using LaterReply = std::function<void(std::string line)>;

std::string dispatch_from(ControlServices& services, ControlSession* session,
                          const nlohmann::json& message, const LaterReply& later) {
  nlohmann::json id =
      message.is_object() && message.contains("id") ? message.at("id") : nlohmann::json();
  // Only a well-formed request without an id is a notification; `{}` and
  // other malformed messages are answered (with id null).
  const bool notification = message.is_object() && !message.contains("id") &&
                            message.contains("method") && message.at("method").is_string();
  MethodContext context(services, session);
  nlohmann::json response;
  try {
    if (!jsonrpc::valid_id(id)) {
      id = nullptr;  // it cannot be echoed exactly
      throw jsonrpc::invalid_id_error();
    }
    const MethodEntry& entry = admit(session, message);
    faults::at(faults::FaultPoint::request);
    static const nlohmann::json kNoParams = nlohmann::json::object();
    const nlohmann::json& params = message.contains("params") ? message.at("params") : kNoParams;
    auto violations = SchemaRegistry::embedded().validate(entry.params_schema, params);
    if (!violations.empty()) {
      throw MissionError(
          ErrorCode::invalid_argument,
          "invalid params for '" + std::string(entry.name) + "': " + describe(violations),
          "see schemas/" + std::string(entry.params_schema) + ".json");
    }
    nlohmann::json result = run(entry, context, params);
    if (checking_results()) {
      if (!context.deferred) {
        check_result(entry, result);
      } else {
        context.deferred->finish = [finish = std::move(context.deferred->finish), &entry](
                                       store::Database& db, events::EventBatch& events) {
          nlohmann::json later = finish(db, events);
          check_result(entry, later);
          return later;
        };
      }
    }
    // Committed (or read-only): what it did may now be heard of.
    context.events.publish_to(services.events);
    if (context.deferred) {
      if (session == nullptr && later) {
        answer_later(services, notification ? nlohmann::json() : id, std::move(*context.deferred),
                     notification ? LaterReply([](std::string) {}) : later);
        return {};
      }
      // Without a way to answer later, MethodContext::session refuses.
      context.session().reply_later(notification ? nlohmann::json() : id,
                                    std::move(*context.deferred), !notification);
      return {};
    }
    if (notification) return {};
    response = jsonrpc::result(id, std::move(result));
  } catch (const MissionError& e) {
    context.events.discard();
    if (notification) return {};
    response = jsonrpc::error(id, e);
  } catch (const nlohmann::json::exception& e) {
    // A typed request failed to decode although its schema passed: a bug in
    // the schema or the struct, not the caller's fault.
    context.events.discard();
    std::fprintf(stderr, "missiond: decoding request failed: %s\n", e.what());
    if (notification) return {};
    response = jsonrpc::error(id, MissionError(ErrorCode::internal, e.what()));
  } catch (const std::bad_alloc&) {
    context.events.discard();
    std::fprintf(stderr, "missiond: request failed: out of memory\n");
    if (notification) return {};
    std::string method =
        message.is_object() && message.contains("method") && message.at("method").is_string()
            ? message.at("method").get<std::string>()
            : "request";
    response = jsonrpc::error(id, out_of_memory_error(method));
  } catch (const std::exception& e) {
    context.events.discard();
    std::fprintf(stderr, "missiond: request failed: %s\n", e.what());
    if (notification) return {};
    response = jsonrpc::error(id, MissionError(ErrorCode::internal, e.what()));
  }
  return bounded_reply_line(id, response, "ask for less: a smaller limit, or page with the cursor");
}

}  // namespace

ControlSession& MethodContext::session() const {
  if (session_ == nullptr) {
    throw MissionError(ErrorCode::invalid_request,
                       "this method needs a control connection of its own",
                       "call it with the mission command on the daemon's host");
  }
  return *session_;
}

std::string dispatch(ControlServices& services, ControlSession& session,
                     const nlohmann::json& message) {
  return dispatch_from(services, &session, message, nullptr);
}

std::string dispatch_without_session(ControlServices& services, const nlohmann::json& message) {
  return dispatch_from(services, nullptr, message, nullptr);
}

void dispatch_without_session(ControlServices& services, const nlohmann::json& message,
                              std::function<void(std::string line)> reply) {
  std::string line = dispatch_from(services, nullptr, message, reply);
  if (!line.empty()) reply(std::move(line));
}

}  // namespace mission::daemon
