#include "shared/schema_branches.hpp"

#include <algorithm>
#include <vector>

namespace mission {
namespace {

using nlohmann::json;

// How `value` stands against one branch.
struct Fit {
  bool contradicted = false;           // a const or enum of the branch refuses a given field
  std::vector<std::string> matched;    // "mode is 'send'", for each discriminator met
  std::vector<std::string> present;    // required fields given
  std::vector<std::string> missing;    // required fields not given
  std::vector<std::string> forbidden;  // fields the branch's not/required refuses, given

  std::size_t evidence() const { return matched.size() + present.size(); }
  std::size_t faults() const { return missing.size() + forbidden.size(); }
};

std::string quoted(const json& value) {
  return value.is_string() ? "'" + value.get<std::string>() + "'" : value.dump();
}

// "a", "a and b", "a, b and c".
std::string listed(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " and " : ", ";
    out += items[i];
  }
  return out;
}

// The values a discriminator allows, or nullopt for a property rule that
// is not one.
std::optional<json> allowed_values(const json& rule) {
  if (!rule.is_object()) return std::nullopt;
  if (rule.contains("const")) return json::array({rule.at("const")});
  if (rule.contains("enum") && rule.at("enum").is_array()) return rule.at("enum");
  return std::nullopt;
}

bool names(const json& fields) {
  return fields.is_array() &&
         std::all_of(fields.begin(), fields.end(), [](const json& f) { return f.is_string(); });
}

// nullopt for a branch with keywords this does not read.
std::optional<Fit> fit_of(const json& branch, const json& value) {
  if (!branch.is_object()) return std::nullopt;
  Fit fit;
  for (const auto& [keyword, rule] : branch.items()) {
    if (keyword == "properties" && rule.is_object()) {
      for (const auto& [field, property] : rule.items()) {
        auto values = allowed_values(property);
        if (!values) return std::nullopt;
        if (!value.contains(field)) continue;  // absent: the required fields decide
        const json& given = value.at(field);
        if (std::find(values->begin(), values->end(), given) == values->end()) {
          fit.contradicted = true;
        } else {
          fit.matched.push_back(field + " is " + quoted(given));
        }
      }
    } else if (keyword == "required" && names(rule)) {
      for (const auto& field : rule) {
        const std::string& name = field.get_ref<const std::string&>();
        (value.contains(name) ? fit.present : fit.missing).push_back(name);
      }
    } else if (keyword == "not" && rule.is_object() && rule.size() == 1 &&
               rule.contains("required") && names(rule.at("required"))) {
      std::vector<std::string> given;
      for (const auto& field : rule.at("required")) {
        if (value.contains(field.get_ref<const std::string&>()))
          given.push_back(field.get<std::string>());
      }
      if (!given.empty() && given.size() == rule.at("required").size())
        fit.forbidden = std::move(given);
    } else if (keyword != "description" && keyword != "title") {
      return std::nullopt;
    }
  }
  return fit;
}

// " when mode is 'send'", " with name and goal", or "".
std::string context_of(const Fit& fit) {
  if (!fit.matched.empty()) return " when " + listed(fit.matched);
  if (!fit.present.empty()) return " with " + listed(fit.present);
  return "";
}

}  // namespace

std::optional<BranchMiss> explain_branch_miss(const json& branches, const json& value) {
  if (!branches.is_array() || !value.is_object()) return std::nullopt;
  std::vector<Fit> candidates;
  for (const auto& branch : branches) {
    auto fit = fit_of(branch, value);
    if (!fit) return std::nullopt;
    if (fit->contradicted) continue;
    if (fit->faults() == 0) return std::nullopt;  // it fits: what failed is elsewhere
    candidates.push_back(std::move(*fit));
  }
  if (candidates.empty()) return std::nullopt;
  // The branch meant: the most of its discriminators and required fields
  // given, then the fewest faults. With nothing of any branch given, every
  // branch is offered.
  std::size_t most = 0;
  for (const Fit& fit : candidates) most = std::max(most, fit.evidence());
  std::vector<const Fit*> meant;
  for (const Fit& fit : candidates) {
    if (fit.evidence() == most) meant.push_back(&fit);
  }
  if (most > 0) {
    std::size_t fewest = meant.front()->faults();
    for (const Fit* fit : meant) fewest = std::min(fewest, fit->faults());
    meant.erase(std::remove_if(meant.begin(), meant.end(),
                               [&](const Fit* fit) { return fit->faults() > fewest; }),
                meant.end());
  }
  if (meant.size() == 1) {
    const Fit& fit = *meant.front();
    const std::vector<std::string>& fields = fit.missing.empty() ? fit.forbidden : fit.missing;
    const bool one = fields.size() == 1;
    std::string message = fit.missing.empty()
                              ? (one ? "must be left out" : listed(fields) + " must be left out")
                              : (one ? "required" : listed(fields) + " are required");
    return BranchMiss{one ? "/" + fields.front() : "/", message + context_of(fit)};
  }
  // Alternatives: each branch's missing fields, and what they share.
  std::vector<std::string> alternatives;
  bool compound = false;
  for (const Fit* fit : meant) {
    if (fit->missing.empty()) continue;
    compound = compound || fit->missing.size() > 1;
    alternatives.push_back(listed(fit->missing));
  }
  if (alternatives.empty()) return std::nullopt;
  std::string choice;
  for (std::size_t i = 0; i < alternatives.size(); ++i) {
    if (i > 0)
      choice += compound ? (i + 1 == alternatives.size() ? "; or " : "; ")
                         : (i + 1 == alternatives.size() ? " or " : ", ");
    choice += alternatives[i];
  }
  const bool same_context = std::all_of(meant.begin(), meant.end(), [&](const Fit* fit) {
    return context_of(*fit) == context_of(*meant.front());
  });
  return BranchMiss{
      "/", "one of " + choice + " is required" + (same_context ? context_of(*meant.front()) : "")};
}

}  // namespace mission
