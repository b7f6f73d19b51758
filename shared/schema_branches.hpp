#pragma once
// What a value lacks for the oneOf or anyOf branch its caller evidently
// meant. valijson reports every branch's failures, and the deepest of them
// names a discriminator of a branch nobody meant ("/mode: Failed to match
// expected value set by 'const' constraint"); this names the field to add
// or drop in the branch whose discriminators (const and enum properties)
// the value matches and whose required fields it has most of.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mission {

struct BranchMiss {
  std::string path;     // "/<field>" when one field is missing or extra, else "/"
  std::string message;  // e.g. "required when mode is 'send'"
};

// The miss of `value` (an object) against the branches of a oneOf or
// anyOf, or nullopt when a branch fits, when no branch is meant, or when a
// branch uses keywords other than properties (const and enum), required
// and not/required: the caller falls back to the validator's own words.
std::optional<BranchMiss> explain_branch_miss(const nlohmann::json& branches,
                                              const nlohmann::json& value);

}  // namespace mission
