#include "cli/event_view.hpp"

#include "cli/output.hpp"

namespace mission::cli {
namespace {

bool is_final(const std::string& state) {
  return state == "completed" || state == "failed" || state == "cancelled" || state == "lost";
}


// "task:updated" and its record -> "task tk-... success: Setup JWT (+2 ~1 -0)".
std::string describe_tracking(const std::string& type, const nlohmann::json& event) {
  const std::string noun = type.substr(0, type.find(':'));
  const std::string change = type.substr(type.find(':') + 1);
  if (noun == "task") {
    const nlohmann::json task = event.value("task", nlohmann::json::object());
    std::string line = "task " + task.value("taskId", "") + " " +
                       (change == "created" ? "started" : task.value("status", "")) + ": " +
                       task.value("name", "");
    if (task.contains("filesChanged")) {
      const nlohmann::json counts = task.at("filesChanged").value("counts", nlohmann::json::object());
      line += " (+" + std::to_string(counts.value("added", 0)) + " ~" +
              std::to_string(counts.value("modified", 0)) + " -" + std::to_string(counts.value("deleted", 0)) + ")";
    }
    return line;
  }
  if (noun == "phase") {
    const nlohmann::json phase = event.value("phase", nlohmann::json::object());
    return "phase " + std::to_string(phase.value("phaseNumber", 0)) + " of " +
           event.value("missionId", "") + " " + (change == "created" ? "started" : phase.value("status", "")) +
           ": " + phase.value("name", "");
  }
  const nlohmann::json mission = event.value("mission", nlohmann::json::object());
  return noun + " " + mission.value("missionId", "") + " " +
         (change == "created" ? "started" : mission.value("status", "")) + ": " + mission.value("name", "");
}

}  // namespace

std::string observation_text(const nlohmann::json& observation) {
  const std::string kind = observation.value("kind", "");
  const nlohmann::json payload = observation.value("payload", nlohmann::json::object());
  auto text = [&](const char* key) {
    return payload.is_object() && payload.contains(key) && payload.at(key).is_string()
               ? payload.at(key).get<std::string>()
               : std::string();
  };
  if (kind == "diagnostic") return "rejected marker: " + observation.value("reason", "");
  if (kind == "needs_input") {
    std::string choices;
    for (const auto& choice : payload.value("choices", nlohmann::json::array())) {
      choices += (choices.empty() ? "" : "/") + choice.get<std::string>();
    }
    return "asks: " + text("question") + (choices.empty() ? "" : " [" + choices + "]");
  }
  for (const char* key : {"summary", "reason", "text"}) {
    if (!text(key).empty()) return kind + ": " + text(key);
  }
  return kind;
}

std::string message_text(const nlohmann::json& message) {
  const nlohmann::json body = message.value("body", nlohmann::json());
  const std::string text = body.is_string() ? body.get<std::string>() : body.dump();
  const std::string from = message.contains("senderName") ? message.value("senderName", "")
                                                          : message.value("senderId", "");
  const std::string verb = message.contains("replyToObservationId") ? "answer from " : "message from ";
  return verb + from + " to " + message.value("recipientId", "") + ": " + text;
}

bool event_is_final(const nlohmann::json& event) {
  return event.value("type", "") != "observation.recorded" && event.contains("execution") &&
         is_final(event.at("execution").value("state", ""));
}

std::string event_line(const nlohmann::json& event) {
  std::string at = event.value("at", "");
  std::string line = (at.size() >= 19 ? at.substr(11, 8) : at) + "  " +
                     event.value("agentExecutionId", "") + "  ";
  const std::string type = event.value("type", "");
  if (type == "observation.recorded") {
    line += observation_text(event.value("observation", nlohmann::json::object()));
  } else if (type == "message.created") {
    line += message_text(event.value("message", nlohmann::json::object()));
  } else if (type.find(':') != std::string::npos) {
    line += describe_tracking(type, event);
  } else {
    const nlohmann::json execution = event.value("execution", nlohmann::json::object());
    const std::string state = execution.value("state", "");
    line += (type == "execution.created" ? "created, " : "") + state;
    if (execution.contains("exitCode")) line += " (exit " + execution.at("exitCode").dump() + ")";
    if (execution.contains("exitSignal")) line += " (signal " + execution.at("exitSignal").dump() + ")";
  }
  return fit(line, kOutputColumns);
}

}  // namespace mission::cli
