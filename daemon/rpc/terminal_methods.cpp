#include "daemon/rpc/terminal_methods.hpp"

#include "daemon/execution/execution_registry.hpp"
#include "daemon/execution/execution_view.hpp"
#include "daemon/rpc/control_session.hpp"
#include "shared/limits.hpp"
#include "shared/terminal_limits.hpp"

namespace mission::daemon {

void from_json(const nlohmann::json& j, TerminalAttachRequest& request) {
  request.id = j.at("id").get<std::string>();
  if (j.contains("size")) {
    request.rows = j.at("size").value("rows", static_cast<unsigned short>(0));
    request.columns = j.at("size").value("columns", static_cast<unsigned short>(0));
  }
  request.read_only = j.value("readOnly", false);
}

void from_json(const nlohmann::json& j, TerminalInputRequest& request) {
  request.id = j.at("id").get<std::string>();
  request.text = j.at("text").get<std::string>();
  request.enter = j.value("enter", true);
}

terminal::TerminalSession& require_terminal(ControlServices& services, const std::string& id,
                                            std::string* resolved) {
  store::ExecutionRow row = execution::AgentExecutionRegistry(services.db).require(id);
  terminal::TerminalSession* session = services.launcher.terminal(row.id);
  if (resolved != nullptr) *resolved = row.id;
  if (session != nullptr) return *session;
  if (is_final(row.state)) {
    throw MissionError(
        ErrorCode::execution_final,
        "agent execution '" + id + "' has ended (" + std::string(name_of(row.state)) + ")",
        "read what it wrote with: mission exec logs " + id, {{"agentExecutionId", id}});
  }
  throw MissionError(ErrorCode::invalid_argument,
                     "agent execution '" + id + "' does not run on a terminal of this daemon",
                     "launch it with mission run from a terminal (or --tty) to attach to it",
                     {{"agentExecutionId", id}});
}

nlohmann::json handle_terminal_attach(MethodContext& context,
                                      const TerminalAttachRequest& request) {
  if (context.session().is_mcp() || context.session().is_terminal()) {
    throw MissionError(ErrorCode::invalid_request, "this connection is attached already",
                       "open a new connection to attach again");
  }
  terminal::TerminalSession& session = require_terminal(context.services, request.id);
  if (session.viewers() >= limits::kMaxTerminalViewers) {
    throw MissionError(
        ErrorCode::invalid_argument,
        "this terminal has " + std::to_string(limits::kMaxTerminalViewers) + " viewers already",
        "detach another viewer first");
  }
  auto viewer = std::make_unique<ConnectionViewer>(context.session().connection());
  ConnectionViewer& attached = *viewer;
  context.session().become_terminal(
      std::move(viewer), [&attached](std::string_view bytes) { attached.on_bytes(bytes); });
  nlohmann::json reply = {
      {"agentExecutionId", request.id},
      {"size", {{"rows", session.screen().rows()}, {"columns", session.screen().columns()}}},
      {"typing", !request.read_only},
      {"viewers", session.viewers() + 1}};
  // The reply goes first: the repaint is the first frame after it.
  context.session().after_reply([&session, &attached, request] {
    session.attach(attached, !request.read_only, request.rows, request.columns);
  });
  if (!request.read_only && request.rows > 0 && request.columns > 0) {
    reply["size"] = {{"rows", request.rows}, {"columns", request.columns}};
  }
  return reply;
}

nlohmann::json handle_terminal_input(MethodContext& context, const TerminalInputRequest& request) {
  std::string id;
  terminal::TerminalSession& session = require_terminal(context.services, request.id, &id);
  // An agent that does not read is not typed at without end: refused here,
  // as a viewer's keys are dropped past the bound (TerminalSession::input).
  context.services.launcher.require_input_room(id, request.text.size() + (request.enter ? 1 : 0));
  session.type(request.text, request.enter);
  return {{"agentExecutionId", request.id},
          {"typed", request.text.size() + (request.enter ? 1 : 0)}};
}

void ConnectionViewer::send_output(std::string_view bytes) {
  // A repaint of a large screen of many colours can pass the frame limit
  // the client holds to: the stream is cut into frames that fit it.
  while (!bytes.empty()) {
    const std::string_view piece = bytes.substr(0, terminal_frames::kMaxFrameBytes);
    connection_.write(terminal_frames::encode(terminal_frames::kOutput, piece));
    bytes.remove_prefix(piece.size());
  }
}

void ConnectionViewer::send_notice(std::string_view text) {
  connection_.write(terminal_frames::encode(terminal_frames::kNotice, text));
}

void ConnectionViewer::send_end(const std::string& status) {
  connection_.write(terminal_frames::encode(terminal_frames::kEnded, status));
  connection_.close();
}

void ConnectionViewer::on_bytes(std::string_view bytes) {
  decoder_.feed(bytes);
  try {
    while (auto frame = decoder_.next()) {
      terminal::TerminalSession* attached = session();
      if (attached == nullptr) continue;
      if (frame->type == terminal_frames::kInput) {
        attached->input(*this, frame->payload);
      } else if (frame->type == terminal_frames::kResize) {
        unsigned short rows = 0;
        unsigned short columns = 0;
        if (terminal_frames::decode_resize(frame->payload, rows, columns)) {
          attached->resize(*this, rows, columns);
        } else {
          send_notice(
              "a resize frame carries 4 bytes (rows, then columns, 2 bytes each); this one had " +
              std::to_string(frame->payload.size()) + " and was refused");
        }
      }
    }
  } catch (const std::length_error&) {
    connection_.abort();
  }
}

}  // namespace mission::daemon
