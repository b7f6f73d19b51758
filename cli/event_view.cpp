#include "cli/event_view.hpp"

#include "cli/output.hpp"

namespace mission::cli {
namespace {

bool is_final(const std::string& state) {
  return state == "completed" || state == "failed" || state == "cancelled" || state == "lost";
}

// "milestone:added" -> "milestone on tk-...: tests pass (60%)"; an issue
// that waits for a person says "blocker".
std::string describe_journal(const std::string& noun, const nlohmann::json& event) {
  const nlohmann::json entry = event.value("entry", nlohmann::json::object());
  const std::string on = " on " + event.value("taskId", "") + ": ";
  if (noun == "decision") {
    return "decision" + on + entry.value("question", "") + " -> " + entry.value("chosen", "");
  }
  if (noun == "issue") {
    return (entry.value("requiresHumanReview", false) ? "blocker" : "issue") + on +
           entry.value("description", "") + " (" + entry.value("issueId", "") + ")";
  }
  std::string line = "milestone" + on + entry.value("message", "");
  if (entry.contains("progress") && entry.at("progress").is_number()) {
    line +=
        " (" + std::to_string(static_cast<int>(entry.at("progress").get<double>() + 0.5)) + "%)";
  }
  return line;
}

// "task:updated" and its record -> "task tk-... success: Setup JWT (+2 ~1 -0)".
std::string describe_tracking(const std::string& type, const nlohmann::json& event) {
  const std::string noun = type.substr(0, type.find(':'));
  const std::string change = type.substr(type.find(':') + 1);
  if (change == "added") return describe_journal(noun, event);
  if (noun == "task") {
    const nlohmann::json task = event.value("task", nlohmann::json::object());
    std::string line = "task " + task.value("taskId", "") + " " +
                       (change == "created" ? "started" : task.value("status", "")) + ": " +
                       task.value("name", "");
    if (task.contains("filesChanged")) {
      const nlohmann::json counts =
          task.at("filesChanged").value("counts", nlohmann::json::object());
      line += " (+" + std::to_string(counts.value("added", 0)) + " ~" +
              std::to_string(counts.value("modified", 0)) + " -" +
              std::to_string(counts.value("deleted", 0)) + ")";
    }
    return line;
  }
  if (noun == "phase") {
    const nlohmann::json phase = event.value("phase", nlohmann::json::object());
    return "phase " + std::to_string(phase.value("phaseNumber", 0)) + " of " +
           event.value("missionId", "") + " " +
           (change == "created" ? "started" : phase.value("status", "")) + ": " +
           phase.value("name", "");
  }
  const nlohmann::json mission = event.value("mission", nlohmann::json::object());
  return noun + " " + mission.value("missionId", "") + " " +
         (change == "created" ? "started" : mission.value("status", "")) + ": " +
         mission.value("name", "");
}

}  // namespace

std::string permission_origin(bool detected) {
  return detected ? "(detected from its screen)" : "(reported by the agent)";
}

std::string observation_text(const nlohmann::json& observation) {
  const std::string kind = observation.value("kind", "");
  const nlohmann::json payload = observation.value("payload", nlohmann::json::object());
  auto text = [&](const char* key) {
    return payload.is_object() && payload.contains(key) && payload.at(key).is_string()
               ? payload.at(key).get<std::string>()
               : std::string();
  };
  const bool over_acp = observation.value("origin", "") == "acp";
  if (kind == "diagnostic") {
    return (over_acp ? "refused ACP line: " : "rejected marker: ") +
           observation.value("reason", "");
  }
  // Reported by an agent driven over ACP (daemon/execution/acp_session.hpp).
  if (kind == "agent_message") return "says: " + text("text");
  if (kind == "tool_call" || kind == "tool_call_update") {
    std::string line = kind == "tool_call" ? "tool call" : "tool call update";
    if (!text("kind").empty()) line += " " + text("kind");
    if (!text("title").empty()) line += ": " + text("title");
    if (!text("status").empty()) line += " (" + text("status") + ")";
    return line;
  }
  if (kind == "plan") {
    const nlohmann::json entries =
        payload.is_object() ? payload.value("entries", nlohmann::json()) : nlohmann::json();
    return "plan of " + std::to_string(entries.is_array() ? entries.size() : 0) + " entries";
  }
  // Read from an agent's terminal, not reported by the agent.
  if (kind == "permission_prompt") {
    std::string options;
    for (const auto& option : payload.value("options", nlohmann::json::array())) {
      options += (options.empty() ? "" : "/") + option.get<std::string>();
    }
    return "awaits permission " + permission_origin(payload.value("detected", true)) + ": " +
           text("question") + (options.empty() ? "" : " [" + options + "]");
  }
  if (kind == "permission_prompt_cleared") {
    return over_acp ? "permission request closed" : "permission prompt left its screen";
  }
  if (kind == "permission_answer") {
    // The policy's rule says why it decided; a person's answer is its own.
    return "permission prompt answered by " + text("by") +
           (text("rule").empty() ? "" : " (" + text("rule") + ")") + ": " +
           std::to_string(payload.value("choice", 0)) + ". " + text("option");
  }
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
  const std::string verb =
      message.contains("replyToObservationId") ? "answer from " : "message from ";
  return verb + from + " to " + message.value("recipientId", "") + ": " + text;
}

bool event_is_final(const nlohmann::json& event) {
  return event.value("type", "") != "observation.recorded" && event.contains("execution") &&
         is_final(event.at("execution").value("state", ""));
}

std::string event_line(const nlohmann::json& event) {
  std::string line = clock_time(event.value("at", nlohmann::json())) + "  " +
                     event.value("agentExecutionId", "") + "  ";
  const std::string type = event.value("type", "");
  if (type == "observation.recorded") {
    const nlohmann::json observation = event.value("observation", nlohmann::json::object());
    // A question is wrapped, never cut: the person must read all of it.
    if (observation.value("kind", "") == "needs_input" ||
        observation.value("kind", "") == "permission_prompt") {
      const std::size_t indent = line.size();
      std::string text;
      for (const auto& part :
           wrapped(line + observation_text(observation), output_columns(), indent)) {
        text += (text.empty() ? "" : "\n") + part;
      }
      return styled(text, Tone::attention);
    }
    line += observation_text(observation);
  } else if (type == "message.created") {
    line += message_text(event.value("message", nlohmann::json::object()));
  } else if (type == "issue:added" &&
             event.value("entry", nlohmann::json::object()).value("requiresHumanReview", false)) {
    return styled(fit(line + describe_tracking(type, event), output_columns()), Tone::attention);
  } else if (type.find(':') != std::string::npos) {
    line += describe_tracking(type, event);
  } else if (type == "run.attempt") {
    // "task lint, attempt 2 of 3: failed (check failed)".
    const nlohmann::json attempt = event.value("attempt", nlohmann::json::object());
    line += "task " + safe(attempt.value("taskName", "")) + ", attempt " +
            std::to_string(attempt.value("attempt", 0)) + " of " +
            std::to_string(attempt.value("maxAttempts", 0)) + ": " + attempt.value("status", "") +
            (attempt.contains("reason") ? " (" + safe(attempt.value("reason", "")) + ")" : "");
  } else if (type == "run.updated") {
    const nlohmann::json run = event.value("run", nlohmann::json::object());
    line += "run " + event.value("runId", "") + " of workflow " + event.value("workflowId", "") +
            ": " + run.value("status", "");
  } else if (!event.contains("execution")) {
    return "";  // nothing a person reads: no line at all, not a bare time
  } else {
    const nlohmann::json execution = event.value("execution", nlohmann::json::object());
    const std::string state = execution.value("state", "");
    line += (type == "execution.created"   ? "created, "
             : type == "execution.current" ? "is "
                                           : "") +
            state;
    if (type == "execution.current") {
      line += " (" + execution.value("adapter", "") +
              (execution.contains("agentName") ? ", " + execution.value("agentName", "") : "") +
              ")";
    }
    if (execution.contains("exitCode")) line += " (exit " + execution.at("exitCode").dump() + ")";
    if (execution.contains("exitSignal"))
      line += " (signal " + execution.at("exitSignal").dump() + ")";
    if (execution.contains("awaitingPermission")) {
      line += ", awaiting permission " +
              permission_origin(execution.at("awaitingPermission").value("detected", true));
      return styled(fit(line, output_columns()), Tone::attention);
    }
    if (state == "awaiting_input" || state == "awaiting_permission") {
      return styled(fit(line, output_columns()), Tone::attention);
    }
  }
  return fit(line, output_columns());
}

}  // namespace mission::cli
