#include "cli/execution_view.hpp"

#include <cstdio>
#include <string>

#include "cli/event_view.hpp"
#include "cli/output.hpp"
#include "cli/table.hpp"

namespace mission::cli {
namespace {

Tone state_tone(const std::string& state) {
  if (state == "completed") return Tone::good;
  if (state == "failed" || state == "lost" || state == "blocked") return Tone::bad;
  if (state == "cancelled") return Tone::dim;
  if (state == "awaiting_input" || state == "awaiting_permission") return Tone::attention;
  return Tone::plain;
}

// A word as a shell would need it to stay one word: quoted when it holds
// anything but the characters of plain words.
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                          "0123456789_./:=@%+,-") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The command as one line a person could paste: `sh -c 'sleep 1'`.
std::string command_line(const nlohmann::json& words) {
  std::string line;
  if (!words.is_array()) return line;
  for (const auto& word : words) {
    if (!word.is_string()) continue;
    line += (line.empty() ? "" : " ") + shell_word(word.get<std::string>());
  }
  return line;
}

std::string session_clients(const nlohmann::json& sessions) {
  if (!sessions.is_array() || sessions.empty()) return "-";
  std::string names;
  for (const auto& session : sessions) {
    std::string name = session.at("client").value("name", "");
    if (name.empty()) name = "?";
    if (names.find(name) != std::string::npos) continue;
    if (!names.empty()) names += ",";
    names += name;
  }
  return names;
}

}  // namespace

void print_execution_table(const nlohmann::json& given) {
  const nlohmann::json executions = for_display(given);
  if (executions.empty()) {
    std::printf("no agent executions\n");
    return;
  }
  // On a narrow terminal the delivery goes first, then the adapter, then
  // when it was created; the id and state always show.
  Table table({{"ID", TableColumn::Fit::whole},
               {"STATE", TableColumn::Fit::whole},
               {"ADAPTER", TableColumn::Fit::elide, 2, 12},
               {"DELIVERY", TableColumn::Fit::whole, 3},
               {std::string("CREATED") + (utc_times() ? " UTC" : ""), TableColumn::Fit::whole, 1},
               {"MCP CLIENTS", TableColumn::Fit::flexible}});
  for (const auto& execution : executions) {
    const std::string state = execution.value("state", "");
    table.add_row({{execution.value("id", "")},
                   {state, state_tone(state)},
                   {execution.value("adapter", "")},
                   {execution.value("delivery", "")},
                   {table_time(execution.value("createdAt", nlohmann::json()))},
                   {session_clients(execution.value("mcpSessions", nlohmann::json::array()))}});
  }
  table.print();
}

std::string refused_write_text(const nlohmann::json& refused) {
  return refused.value("operation", "write") + " " + refused.value("path", "") + " (from " +
         refused.value("from", "the agent's output") + ")";
}

void print_execution(const nlohmann::json& given) {
  const nlohmann::json execution = for_display(given);
  const std::string state = execution.value("state", "");
  std::printf("%s  %s%s\n", styled(execution.value("id", ""), Tone::bold).c_str(),
              styled(state, state_tone(state)).c_str(),
              execution.contains("awaitingPermission")
                  ? styled(", awaiting permission " +
                               permission_origin(
                                   execution.at("awaitingPermission").value("detected", true)),
                           Tone::attention)
                        .c_str()
                  : "");
  std::vector<Field> fields{
      {"kind", execution.value("kind", "")},
      {"adapter", execution.value("adapter", "")},
      {"delivery", execution.value("delivery", "")},
      {"toolsets", joined(execution.value("toolsets", nlohmann::json::array()), ",")},
      {"cwd", execution.value("cwd", "")},
      {"command", command_line(execution.value("command", nlohmann::json::array())), false, true},
      {"created", short_time(execution.value("createdAt", nlohmann::json()))},
      {"updated", short_time(execution.value("updatedAt", nlohmann::json()))},
      {"observations", std::to_string(execution.value("observations", 0))},
  };
  if (execution.contains("sandbox")) fields.push_back({"sandbox", execution.value("sandbox", "")});
  for (const auto& refused : execution.value("refusedWrites", nlohmann::json::array())) {
    fields.push_back({"refused", refused_write_text(refused), true});
  }
  if (execution.contains("endedAt"))
    fields.push_back({"ended", short_time(execution.at("endedAt"))});
  if (execution.contains("exitCode")) {
    fields.push_back({"exit code", std::to_string(execution.at("exitCode").get<int>())});
  }
  if (execution.contains("waitingOn")) {
    fields.push_back({"waiting on", observation_text(execution.at("waitingOn")), true});
  }
  if (execution.contains("awaitingPermission")) {
    const nlohmann::json prompt = execution.at("awaitingPermission");
    std::string text = prompt.value("question", "");
    int index = 1;
    for (const auto& option : prompt.value("options", nlohmann::json::array())) {
      text += " " + std::to_string(index++) + ". " + option.get<std::string>();
    }
    fields.push_back(
        {"permission",
         text + " (answer: mission answer " + execution.value("id", "") + " --choice N)", true});
  }
  if (execution.contains("agentName"))
    fields.push_back({"agent", execution.value("agentName", "")});
  fields.push_back({"messages", std::to_string(execution.value("unreadMessages", 0)) + " unread"});
  const nlohmann::json claims = execution.value("claims", nlohmann::json::array());
  std::string claimed;
  for (const auto& claim : claims) {
    claimed += (claimed.empty() ? "" : ", ") + safe(claim.value("taskId", "")) + " " +
               safe(claim.value("taskName", "")) + " (" + safe(claim.value("status", "")) + ")";
  }
  fields.push_back({"claims", claims.empty() ? "none" : claimed});
  print_fields(fields);
  const nlohmann::json sessions = execution.value("mcpSessions", nlohmann::json::array());
  std::printf("%s\n", styled("MCP sessions", Tone::bold).c_str());
  if (sessions.empty()) std::printf("  none\n");
  for (const auto& session : sessions) {
    const nlohmann::json client = session.value("client", nlohmann::json::object());
    std::string name = client.value("name", "");
    std::string who =
        (name.empty() ? "(no initialize yet)" : name) +
        (client.value("version", "").empty() ? "" : " " + client.value("version", ""));
    std::string line = "  #" + std::to_string(session.value("id", 0)) + " " + fit(who, 24) + "  " +
                       safe(session.value("protocolVersion", "")) + "  " +
                       std::to_string(session.value("calls", 0)) + " calls, " +
                       std::to_string(session.value("toolLists", 0)) + " tools/list  " +
                       (session.value("attached", false)
                            ? styled("attached", Tone::good)
                            : "left " + clock_time(session.value("detachedAt", nlohmann::json())));
    std::printf("%s\n", line.c_str());
  }
}

void print_observation_table(const nlohmann::json& given) {
  const nlohmann::json observations = for_display(given);
  if (observations.empty()) {
    std::printf("no observations\n");
    return;
  }
  std::printf("%s\n",
              styled("ID    KIND                   STATUS        ORIGIN  WHAT", Tone::dim).c_str());
  for (const auto& observation : observations) {
    const nlohmann::json payload = observation.value("payload", nlohmann::json::object());
    std::string what = observation.value("reason", "");
    // An answer says who gave it first (a person, or the policy by its rule).
    if (observation.value("kind", "") == "permission_answer" && payload.is_object()) {
      const std::string rule = payload.value("rule", "");
      what = "by " + payload.value("by", "") + (rule.empty() ? "" : " (" + rule + ")") + ": " +
             payload.value("option", "");
    }
    for (const char* field : {"summary", "question", "reason", "text", "title"}) {
      if (what.empty() && payload.is_object() && payload.contains(field) &&
          payload.at(field).is_string()) {
        what = payload.at(field).get<std::string>();
      }
    }
    const std::string status = observation.value("status", "");
    // 6 + 23 + 14 + 8 = 51 columns, and what it said in the rest.
    const std::string given_origin = observation.value("origin", "");
    const std::string origin = given_origin == "stdout-marker"                     ? "marker"
                               : given_origin == "acp" || given_origin == "screen" ? given_origin
                                                                                   : "mcp";
    std::string line = padded(std::to_string(observation.value("id", 0)), 6);
    line += padded(observation.value("kind", ""), 23);
    line += styled(padded(status, 14), status == "rejected" ? Tone::bad : Tone::plain);
    line += padded(origin, 8);
    line += fit(what, output_columns() - 51);
    std::printf("%s\n", line.c_str());
  }
}

}  // namespace mission::cli
