#include "daemon/execution/marker_instructions.hpp"

#include "shared/limits.hpp"
#include "shared/marker_reader.hpp"
#include "shared/schema_registry.hpp"

namespace mission::daemon::execution {
namespace {

// "summary, detail?" from a signal schema: required fields first, then the
// optional ones; artifacts are described once for all.
std::string field_list(const nlohmann::json& schema) {
  const nlohmann::json& properties = schema.at("properties");
  const nlohmann::json required = schema.value("required", nlohmann::json::array());
  std::string fields;
  auto add = [&](const std::string& name, bool is_required) {
    if (name == "type" || name == "artifacts" || !properties.contains(name)) return;
    if (!fields.empty()) fields += ", ";
    fields += name + (is_required ? "" : "?");
    if (properties.at(name).value("type", "") == "array") fields += " [strings]";
  };
  for (const auto& name : required) add(name.get<std::string>(), true);
  for (const auto& [name, property] : properties.items()) {
    if (std::find(required.begin(), required.end(), name) == required.end()) add(name, false);
  }
  return fields;
}

}  // namespace

std::string marker_instructions(const std::string& execution_id, const nlohmann::json& descriptor) {
  const SchemaRegistry& schemas = SchemaRegistry::embedded();
  std::string text;
  if (descriptor.contains("mcp")) {
    // Its markers are ignored: telling the agent to print them would lose
    // every signal.
    return "Execution " + execution_id +
           " reports through MCP: its agent calls mission's tools (progress,\n"
           "needs_input, blocked, ready_for_verification, completed_claim, failed_claim,\n"
           "message) through `mission mcp connect --agent-execution " +
           execution_id + "`.\nMarker lines on its stdout are ignored. See mission-mcp(7).\n";
  }
  text += "Report to mission by printing marker lines on stdout, one marker per line:\n\n";
  text +=
      std::string(kMarkerPrefix) + "{\"version\":1,\"agentExecutionId\":\"" + execution_id +
      "\",\"eventId\":\"<unique id>\",\"signal\":{\"type\":\"progress\",\"summary\":\"...\"}}\n\n";
  text += "- agentExecutionId is always " + execution_id + ".\n";
  text +=
      "- eventId is yours: unique per signal (letters, digits, . _ : -, up to 128); send\n"
      "  the same eventId again only to resend the same signal.\n";
  text += "- Strict JSON on one line, no other keys, at most " +
          std::to_string(limits::kMaxMarkerBytes / 1024) + " KiB.\n";
  text += "- Only stdout counts: markers on stderr are ignored.\n\n";
  text += "Signals (? marks an optional field):\n";
  for (const auto& signal : descriptor.value("signals", nlohmann::json::array())) {
    const std::string type = signal.value("type", "");
    const std::string id = "signals/" + type;
    if (!schemas.contains(id)) continue;
    text += "  " + type + ": " + field_list(schemas.resolved(id)) + "\n";
  }
  text +=
      "Every signal may also carry artifacts: [{\"path\": \"...\", \"activity\":\n"
      "\"read|created|modified|deleted\"}].\n";
  text +=
      "progress, needs_input and blocked set the execution's state; claims are\n"
      "recorded, and mission decides the outcome when your process exits.\n";
  return text;
}

}  // namespace mission::daemon::execution
