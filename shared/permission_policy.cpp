#include "shared/permission_policy.hpp"

#include "shared/error_code.hpp"
#include "shared/json_member.hpp"

namespace mission {
namespace {

// ACP's ToolKind values (schema v1), and `*` for any of them.
const std::vector<std::string_view> kKinds = {"read",        "edit",    "delete", "move",
                                              "search",      "execute", "think",  "fetch",
                                              "switch_mode", "other",   "*"};

std::string kinds_text() {
  std::string out;
  for (std::string_view kind : kKinds) out += (out.empty() ? "" : ", ") + std::string(kind);
  return out;
}

// `*` is any run of characters, every other character itself; the whole
// subject must match. Backtracks to the last star only: linear enough for
// patterns of kMaxPolicyPatternBytes.
bool glob_matches(std::string_view glob, std::string_view text) {
  std::size_t g = 0;
  std::size_t t = 0;
  std::size_t star = std::string_view::npos;
  std::size_t resume = 0;
  while (t < text.size()) {
    if (g < glob.size() && glob[g] == '*') {
      star = g++;
      resume = t;
    } else if (g < glob.size() && glob[g] == text[t]) {
      ++g;
      ++t;
    } else if (star != std::string_view::npos) {
      g = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}

bool matches(std::string_view pattern, const PermissionSubject& subject) {
  const std::size_t colon = pattern.find(':');
  const std::string_view kind = pattern.substr(0, colon);
  std::string_view asked = subject.kind;
  if (asked.empty()) asked = "other";
  if (kind != "*" && kind != asked) return false;
  return colon == std::string_view::npos ||
         glob_matches(pattern.substr(colon + 1), subject.subject);
}

std::string trimmed(std::string text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

void check_list(const std::vector<std::string>& patterns, const char* flag) {
  if (patterns.size() > kMaxPolicyRules) {
    throw MissionError(ErrorCode::invalid_argument,
                       std::to_string(patterns.size()) + " " + flag + " rules are too many",
                       "give at most " + std::to_string(kMaxPolicyRules) +
                           ": a kind alone (edit) covers all its requests");
  }
  for (const std::string& pattern : patterns) {
    if (auto error = pattern_error(pattern)) {
      throw MissionError(ErrorCode::invalid_argument,
                         std::string(flag) + " '" + pattern + "': " + *error,
                         "give KIND or KIND:GLOB, e.g. " + std::string(flag) +
                             " 'execute:rm *' (man mission, PERMISSION POLICY)",
                         {{"pattern", pattern}});
    }
  }
}

std::vector<std::string> strings_at(const nlohmann::json& value, const char* key) {
  const nlohmann::json& list = json_member(value, key);
  if (list.is_null()) return {};
  if (!list.is_array()) {
    throw MissionError(ErrorCode::invalid_argument,
                       std::string("the permission policy's ") + key + " is not a list of patterns",
                       "give a list of strings");
  }
  std::vector<std::string> out;
  for (const nlohmann::json& item : list) {
    if (!item.is_string()) {
      throw MissionError(ErrorCode::invalid_argument,
                         std::string("the permission policy's ") + key + " holds " + item.dump() +
                             ", not a pattern",
                         "give each pattern as a string");
    }
    out.push_back(item.get<std::string>());
  }
  return out;
}

}  // namespace

const std::vector<std::string_view>& permission_kinds() {
  return kKinds;
}

std::optional<std::string> pattern_error(std::string_view pattern) {
  if (pattern.empty()) return "the pattern is empty";
  if (pattern.size() > kMaxPolicyPatternBytes)
    return "the pattern is longer than " + std::to_string(kMaxPolicyPatternBytes) + " bytes";
  for (char c : pattern) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      return "the pattern holds a control character";
  }
  const std::size_t colon = pattern.find(':');
  const std::string_view kind = pattern.substr(0, colon);
  bool known = false;
  for (std::string_view each : kKinds) known = known || each == kind;
  if (!known) {
    return "'" + std::string(kind) + "' is not a tool call kind; the kinds are " + kinds_text();
  }
  if (colon != std::string_view::npos && colon + 1 == pattern.size())
    return "nothing follows ':'; give a glob (fetch:*) or the kind alone (fetch)";
  return std::nullopt;
}

void check_policy(const PermissionPolicy& policy) {
  check_list(policy.allow, "--allow");
  check_list(policy.deny, "--deny");
}

PermissionSubject permission_subject(const nlohmann::json& tool_call) {
  PermissionSubject out;
  const nlohmann::json& kind = json_member(tool_call, "kind");
  if (kind.is_string()) out.kind = kind.get<std::string>();
  const nlohmann::json& raw = json_member(tool_call, "rawInput");
  std::string subject;
  if (out.kind == "execute") {
    const nlohmann::json& command = json_member(raw, "command");
    if (command.is_string()) {
      subject = command.get<std::string>();
    } else if (command.is_array()) {
      // Codex states argv: its words as a shell line would show them.
      for (const nlohmann::json& word : command) {
        if (word.is_string()) subject += (subject.empty() ? "" : " ") + word.get<std::string>();
      }
    }
  } else if (out.kind == "fetch") {
    const nlohmann::json& url = json_member(raw, "url");
    if (url.is_string()) subject = url.get<std::string>();
  }
  if (trimmed(subject).empty()) {
    const nlohmann::json& title = json_member(tool_call, "title");
    if (title.is_string()) subject = title.get<std::string>();
  }
  out.subject = trimmed(std::move(subject));
  return out;
}

std::optional<PermissionDecision> decide(const PermissionPolicy& policy,
                                         const PermissionSubject& subject) {
  // Deny first: a rule that refuses is never overruled by one that allows.
  for (const std::string& pattern : policy.deny) {
    if (matches(pattern, subject)) return PermissionDecision{false, "deny " + pattern};
  }
  for (const std::string& pattern : policy.allow) {
    if (matches(pattern, subject)) return PermissionDecision{true, "allow " + pattern};
  }
  return std::nullopt;
}

nlohmann::json policy_json(const PermissionPolicy& policy) {
  nlohmann::json out = nlohmann::json::object();
  if (!policy.allow.empty()) out["allow"] = policy.allow;
  if (!policy.deny.empty()) out["deny"] = policy.deny;
  return out;
}

PermissionPolicy policy_from_json(const nlohmann::json& value) {
  if (value.is_null()) return {};
  if (!value.is_object()) {
    throw MissionError(ErrorCode::invalid_argument, "the permission policy is not an object",
                       "give {\"allow\": [...], \"deny\": [...]}");
  }
  PermissionPolicy policy{strings_at(value, "allow"), strings_at(value, "deny")};
  check_policy(policy);
  return policy;
}

}  // namespace mission
