#pragma once
// A run's permission policy as a person gives it (docs/adr/0053): a TOML
// file (--policy FILE) with `allow` and `deny` lists of patterns, and the
// --allow and --deny flags, put together and checked before the daemon is
// asked anything.
//
//   allow = ["edit", "execute:git status*"]
//   deny = ["execute:rm *", "execute:git push*"]

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shared/permission_policy.hpp"

namespace mission::cli {

// Largest policy file read: far more than kMaxPolicyRules patterns need.
inline constexpr std::size_t kMaxPolicyFileBytes = 64 * 1024;

// `text` read as a policy file named `file_name`. Throws MissionError
// invalid_argument naming the file and the line of a key it does not know,
// a value that is not a list of strings, or a bad pattern.
PermissionPolicy parse_policy_file(std::string_view text, const std::string& file_name);

// The file's rules, then the flags' (each list in that order), checked
// whole; nullopt when none was given. The value of permissionPolicy in
// execution.launch and workflow.run. Throws MissionError invalid_argument.
std::optional<nlohmann::json> policy_param(const std::vector<std::string>& allow,
                                           const std::vector<std::string>& deny,
                                           const std::string& file);

}  // namespace mission::cli
