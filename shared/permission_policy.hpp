#pragma once
// A run's permission policy (docs/adr/0053): rules that answer an ACP
// agent's permission requests before a person is asked. A rule's pattern
// is a tool call kind as ACP names it, optionally with a glob over the
// request's subject: `edit`, `fetch:*`, `execute:rm *`, `execute:git push*`.
// Deny rules win over allow rules; a request no rule matches is left to a
// person. Read by the CLI (to refuse a bad pattern before anything runs)
// and by the daemon (to check it again and to decide).

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mission {

// Most rules in each list (allow, deny) of a policy, flags and file
// together: each request is matched against every rule, so the lists stay
// short.
inline constexpr std::size_t kMaxPolicyRules = 64;
// Longest pattern of a rule: a kind and a command's glob.
inline constexpr std::size_t kMaxPolicyPatternBytes = 256;

struct PermissionPolicy {
  std::vector<std::string> allow;  // patterns, in the order given
  std::vector<std::string> deny;
  bool empty() const { return allow.empty() && deny.empty(); }
};

// What a permission request is about: its tool call's kind (empty: ACP's
// default, other) and its subject, the text a rule's glob is matched
// against (permission_subject).
struct PermissionSubject {
  std::string kind;
  std::string subject;
};

struct PermissionDecision {
  bool allow = false;
  std::string rule;  // "deny execute:rm *": the list and the pattern that matched
};

// The ACP tool call kinds a pattern may name, and `*` for any.
const std::vector<std::string_view>& permission_kinds();

// Why `pattern` cannot be a rule, in a person's words; nullopt when it can.
std::optional<std::string> pattern_error(std::string_view pattern);

// Throws MissionError invalid_argument naming the first bad pattern (with
// the flag `--allow`/`--deny` it came from) or a list past kMaxPolicyRules.
void check_policy(const PermissionPolicy& policy);

// The subject of an ACP tool call (a request's toolCall): for execute the
// command (rawInput.command, a string or words joined by spaces), for
// fetch the URL (rawInput.url), else, or when those are missing, its title;
// white space at either end dropped.
PermissionSubject permission_subject(const nlohmann::json& tool_call);

// The first deny rule that matches, else the first allow rule, else
// nullopt (a person decides).
std::optional<PermissionDecision> decide(const PermissionPolicy& policy,
                                         const PermissionSubject& subject);

// {allow: [...], deny: [...]}, the lists that are not empty.
nlohmann::json policy_json(const PermissionPolicy& policy);
// Reads what policy_json wrote (or a request's permissionPolicy) and checks
// it (check_policy); a missing or null value is the empty policy.
PermissionPolicy policy_from_json(const nlohmann::json& value);

}  // namespace mission
