#include "cli/policy_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli/toml_document.hpp"
#include "shared/error_code.hpp"

namespace mission::cli {
namespace {

std::string at_line(const std::string& file_name, std::size_t line) {
  return line > 0 ? file_name + " line " + std::to_string(line) : file_name;
}

std::vector<std::string> patterns_at(const LinedDocument& document, const std::string& key,
                                     const std::string& file_name) {
  const nlohmann::json& list = document.root.at(key);
  const std::string where = at_line(file_name, document.line_of("/" + key));
  if (!list.is_array()) {
    throw MissionError(ErrorCode::invalid_argument,
                       where + ": " + key + " is not a list of patterns",
                       "write it as " + key + " = [\"execute:rm *\"]");
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string item_where =
        at_line(file_name, document.line_of("/" + key + "/" + std::to_string(i)));
    if (!list[i].is_string()) {
      throw MissionError(ErrorCode::invalid_argument,
                         item_where + ": " + key + " holds " + list[i].dump() + ", not a pattern",
                         "give each pattern as a string, e.g. \"execute:rm *\"");
    }
    const std::string pattern = list[i].get<std::string>();
    if (auto error = pattern_error(pattern)) {
      throw MissionError(ErrorCode::invalid_argument,
                         item_where + ": " + key + " '" + pattern + "': " + *error,
                         "give KIND or KIND:GLOB, e.g. \"execute:rm *\" (man mission, PERMISSION "
                         "POLICY)");
    }
    out.push_back(pattern);
  }
  return out;
}

std::string read_text(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    throw MissionError(ErrorCode::invalid_argument,
                       "cannot read the policy file " + path + ": " + std::strerror(errno),
                       "give the path of a TOML file with allow and deny lists");
  }
  std::string text;
  char buffer[16 * 1024];
  std::size_t got = 0;
  while (text.size() <= kMaxPolicyFileBytes &&
         (got = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
    text.append(buffer, got);
  }
  const bool failed = std::ferror(file) != 0;
  const int error = errno;
  std::fclose(file);
  if (failed) {
    throw MissionError(ErrorCode::invalid_argument,
                       "cannot read the policy file " + path + ": " + std::strerror(error),
                       "give the path of a TOML file with allow and deny lists");
  }
  if (text.size() > kMaxPolicyFileBytes) {
    throw MissionError(ErrorCode::invalid_argument,
                       "the policy file " + path + " is larger than " +
                           std::to_string(kMaxPolicyFileBytes) + " bytes",
                       "keep to the allow and deny lists: a kind alone (edit) covers all its "
                       "requests");
  }
  return text;
}

}  // namespace

PermissionPolicy parse_policy_file(std::string_view text, const std::string& file_name) {
  const LinedDocument document = read_toml(text, file_name);
  for (const auto& [key, value] : document.root.items()) {
    if (key != "allow" && key != "deny") {
      throw MissionError(
          ErrorCode::invalid_argument,
          at_line(file_name, document.line_of("/" + pointer_token(key))) +
              ": a policy file has no key '" + key + "'",
          "give allow = [...] and deny = [...], lists of patterns (man mission, PERMISSION "
          "POLICY)");
    }
  }
  PermissionPolicy policy;
  if (document.root.contains("allow")) policy.allow = patterns_at(document, "allow", file_name);
  if (document.root.contains("deny")) policy.deny = patterns_at(document, "deny", file_name);
  return policy;
}

std::optional<nlohmann::json> policy_param(const std::vector<std::string>& allow,
                                           const std::vector<std::string>& deny,
                                           const std::string& file) {
  if (allow.empty() && deny.empty() && file.empty()) return std::nullopt;
  PermissionPolicy policy;
  if (!file.empty()) policy = parse_policy_file(read_text(file), file);
  policy.allow.insert(policy.allow.end(), allow.begin(), allow.end());
  policy.deny.insert(policy.deny.end(), deny.begin(), deny.end());
  check_policy(policy);
  return policy_json(policy);
}

}  // namespace mission::cli
