#include "daemon/http/board_api.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "daemon/rpc/dispatcher.hpp"
#include "shared/error_code.hpp"
#include "shared/report_source.hpp"

namespace mission::daemon::http {
namespace {

// An error's HTTP status: what the page should make of it.
int status_for(std::string_view code) {
  if (code == "not_found") return 404;
  if (code == "invalid_argument" || code == "invalid_request" || code == "parse_error") return 400;
  if (code == "forbidden" || code == "unauthorized") return 403;
  if (code == "payload_too_large") return 413;
  if (code == "internal") return 500;
  if (code == "daemon_unavailable" || code == "shutting_down") return 503;
  return 409;  // the state does not allow it now (final, already, conflict)
}

void send_json(const std::shared_ptr<HttpExchange>& exchange, int status,
               const nlohmann::json& body) {
  exchange->respond(status, {{"Content-Type", "application/json"}, {"Cache-Control", "no-store"}},
                    body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void send_error(const std::shared_ptr<HttpExchange>& exchange, const MissionError& error) {
  send_json(exchange, status_for(error_code_name(error.code())), {{"error", error.to_payload()}});
}

// Calls control method `method`; the result, or the error payload.
struct Outcome {
  bool ok;
  nlohmann::json value;
};
Outcome call(ControlServices& services, std::string_view method, nlohmann::json params) {
  const nlohmann::json request = {{"jsonrpc", "2.0"},
                                  {"id", 1},
                                  {"method", std::string(method)},
                                  {"params", std::move(params)}};
  nlohmann::json reply = nlohmann::json::parse(dispatch_without_session(services, request));
  if (reply.contains("error")) return {false, reply["error"].value("data", nlohmann::json())};
  return {true, std::move(reply["result"])};
}

// Answers the exchange with control method `method`'s result or error,
// now or, for a method that defers (workflow.retry), once it is done.
void answer_call(ControlServices& services, const std::shared_ptr<HttpExchange>& exchange,
                 std::string_view method, nlohmann::json params) {
  const nlohmann::json request = {{"jsonrpc", "2.0"},
                                  {"id", 1},
                                  {"method", std::string(method)},
                                  {"params", std::move(params)}};
  dispatch_without_session(services, request, [exchange](std::string line) {
    nlohmann::json reply = nlohmann::json::parse(line);
    if (reply.contains("error")) {
      nlohmann::json error = reply["error"].value("data", nlohmann::json());
      send_json(exchange, status_for(error.value("code", "internal")), {{"error", error}});
    } else {
      send_json(exchange, 200, reply["result"]);
    }
  });
}

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> parts;
  while (!path.empty()) {
    if (path.front() == '/') {
      path.remove_prefix(1);
      continue;
    }
    const std::size_t slash = path.find('/');
    parts.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash);
  }
  return parts;
}

// The POST body as a JSON object ({} when empty), or nullopt after
// answering 400.
std::optional<nlohmann::json> body_object(const std::shared_ptr<HttpExchange>& exchange) {
  const std::string& body = exchange->request().body;
  if (body.empty()) return nlohmann::json::object();
  nlohmann::json parsed = nlohmann::json::parse(body, nullptr, false);
  if (!parsed.is_object()) {
    send_error(exchange, MissionError(ErrorCode::invalid_argument, "the body is not a JSON object",
                                      "send the fields as one JSON object"));
    return std::nullopt;
  }
  return parsed;
}

// Copies the fields a route accepts from the body; the method's schema
// checks their values.
void take(nlohmann::json& params, const nlohmann::json& body,
          std::initializer_list<const char*> fields) {
  for (const char* field : fields) {
    if (body.contains(field)) params[field] = body.at(field);
  }
}

// A workflow's graph with its run (null when it never ran).
Outcome workflow_detail(ControlServices& services, const std::string& id) {
  Outcome graph = call(services, "workflow.graph", {{"id", id}});
  if (!graph.ok) return graph;
  Outcome run = call(services, "workflow.runStatus", {{"id", id}});
  graph.value["run"] = run.ok ? run.value.value("run", nlohmann::json()) : nlohmann::json();
  return graph;
}

// The value of `name` in a query string ("a=1&b=2"), as sent; empty when
// absent.
std::string query_value(std::string_view query, std::string_view name) {
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    if (pair.size() > name.size() && pair.starts_with(name) && pair[name.size()] == '=')
      return std::string(pair.substr(name.size() + 1));
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return {};
}

// GET /api/board: what the page draws, read in one pass on the loop, so a
// first paint waits on one round trip and sees one moment of the state.
void answer_board_state(ControlServices& services, const std::shared_ptr<HttpExchange>& exchange,
                        const std::string& csrf) {
  nlohmann::json state = {{"csrf", csrf}};
  for (auto [field, method] :
       {std::pair{"workflows", "workflow.list"}, std::pair{"inbox", "inbox.list"},
        std::pair{"agents", "execution.list"}}) {
    Outcome outcome = call(services, method, nlohmann::json::object());
    if (!outcome.ok) {
      send_json(exchange, status_for(outcome.value.value("code", "internal")),
                {{"error", outcome.value}});
      return;
    }
    state[field] = std::move(outcome.value);
  }
  const nlohmann::json& listed = state["workflows"].contains("workflows")
                                     ? state["workflows"]["workflows"]
                                     : nlohmann::json::array();
  std::string selected = query_value(exchange->request().query, "workflow");
  const bool known = std::any_of(listed.begin(), listed.end(), [&](const nlohmann::json& w) {
    return w.value("id", "") == selected;
  });
  if (!known) selected = listed.empty() ? std::string() : listed.front().value("id", "");
  state["selected"] = selected.empty() ? nlohmann::json() : nlohmann::json(selected);
  state["workflow"] = nlohmann::json();
  if (!selected.empty()) {
    Outcome detail = workflow_detail(services, selected);
    if (detail.ok) state["workflow"] = std::move(detail.value);
  }
  send_json(exchange, 200, state);
}

// GET /api/workflows/ID/report: what `mission report ID --format json`
// prints, gathered by the same code from the same control methods (the
// files each task changed aside: the CLI reads those from git), in one
// pass on the loop.
void answer_report(ControlServices& services, const std::shared_ptr<HttpExchange>& exchange,
                   const std::string& id) {
  const ControlCall control = [&services](std::string_view method, const nlohmann::json& params) {
    Outcome outcome = call(services, method, params);
    if (!outcome.ok) throw MissionError::from_payload(outcome.value);
    return std::move(outcome.value);
  };
  try {
    send_json(exchange, 200, gather_report(control, id));
  } catch (const MissionError& error) {
    send_error(exchange, error);
  }
}

}  // namespace

void answer_board_api(ControlServices& services, const std::shared_ptr<HttpExchange>& exchange,
                      const std::string& csrf) {
  const HttpRequest& request = exchange->request();
  const std::vector<std::string_view> parts = split_path(request.path);  // "api", ...
  const bool get = request.method == "GET";
  const bool post = request.method == "POST";
  const std::size_t n = parts.size();
  if (get && n == 2 && parts[1] == "workflows") {
    answer_call(services, exchange, "workflow.list", nlohmann::json::object());
    return;
  }
  if (get && n == 2 && parts[1] == "board") {
    answer_board_state(services, exchange, csrf);
    return;
  }
  if (get && n == 3 && parts[1] == "workflows") {
    Outcome detail = workflow_detail(services, std::string(parts[2]));
    if (!detail.ok) {
      send_json(exchange, status_for(detail.value.value("code", "internal")),
                {{"error", detail.value}});
      return;
    }
    send_json(exchange, 200, detail.value);
    return;
  }
  if (get && n == 4 && parts[1] == "workflows" && parts[3] == "report") {
    answer_report(services, exchange, std::string(parts[2]));
    return;
  }
  if (get && n == 6 && parts[1] == "workflows" && parts[3] == "tasks" && parts[5] == "diff") {
    answer_call(services, exchange, "task.diff",
                {{"id", std::string(parts[2])}, {"task", std::string(parts[4])}});
    return;
  }
  if (get && n == 2 && parts[1] == "inbox") {
    answer_call(services, exchange, "inbox.list", nlohmann::json::object());
    return;
  }
  if (get && n == 2 && parts[1] == "agents") {
    answer_call(services, exchange, "execution.list", nlohmann::json::object());
    return;
  }
  if (post && n == 4 && parts[1] == "executions" && parts[3] == "answer") {
    std::optional<nlohmann::json> body = body_object(exchange);
    if (!body) return;
    nlohmann::json params = {{"id", std::string(parts[2])}};
    take(params, *body, {"text", "choice"});
    answer_call(services, exchange, "execution.answer", std::move(params));
    return;
  }
  if (post && n == 4 && parts[1] == "executions" && parts[3] == "type") {
    std::optional<nlohmann::json> body = body_object(exchange);
    if (!body) return;
    nlohmann::json params = {{"id", std::string(parts[2])}};
    take(params, *body, {"text", "enter"});
    answer_call(services, exchange, "terminal.input", std::move(params));
    return;
  }
  if (post && n == 4 && parts[1] == "workflows" && parts[3] == "retry") {
    std::optional<nlohmann::json> body = body_object(exchange);
    if (!body) return;
    nlohmann::json params = {{"id", std::string(parts[2])}};
    take(params, *body, {"task"});
    answer_call(services, exchange, "workflow.retry", std::move(params));
    return;
  }
  if (post && n == 4 && parts[1] == "tasks" && (parts[3] == "approve" || parts[3] == "reject")) {
    std::optional<nlohmann::json> body = body_object(exchange);
    if (!body) return;
    nlohmann::json params = {{"taskId", std::string(parts[2])}};
    if (parts[3] == "reject") take(params, *body, {"reason"});
    answer_call(services, exchange, parts[3] == "approve" ? "task.approve" : "task.reject",
                std::move(params));
    return;
  }
  send_error(exchange, MissionError(ErrorCode::not_found,
                                    "the board has no " + request.method + " " + request.path,
                                    "see missiond(8) for the board's routes"));
}

}  // namespace mission::daemon::http
