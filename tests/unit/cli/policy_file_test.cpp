#include "cli/policy_file.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "shared/error_code.hpp"

using mission::MissionError;
using mission::cli::parse_policy_file;

namespace {

std::string refusal(const std::string& text) {
  try {
    parse_policy_file(text, "policy.toml");
  } catch (const MissionError& e) {
    return e.what();
  }
  return "taken";
}

}  // namespace

TEST_CASE("a policy file gives its allow and deny patterns in order") {
  const mission::PermissionPolicy policy = parse_policy_file(
      "# what the agents may do unasked\n"
      "allow = [\"edit\", \"execute:git status*\"]\n"
      "deny = [\"execute:rm *\"]\n",
      "policy.toml");
  CHECK(policy.allow == std::vector<std::string>{"edit", "execute:git status*"});
  CHECK(policy.deny == std::vector<std::string>{"execute:rm *"});
  CHECK(parse_policy_file("", "policy.toml").empty());
}

TEST_CASE("a policy file's mistakes are refused with their line") {
  CHECK(refusal("allow = [\"edit\"]\nask = [\"fetch\"]\n") ==
        "policy.toml line 2: a policy file has no key 'ask'");
  CHECK(refusal("deny = \"execute:rm *\"\n") ==
        "policy.toml line 1: deny is not a list of patterns");
  CHECK(refusal("allow = [\n  \"edit\",\n  \"shell:ls\",\n]\n")
            .starts_with("policy.toml line 3: allow 'shell:ls': 'shell' is not a tool call kind"));
  CHECK(refusal("deny = [3]\n") == "policy.toml line 1: deny holds 3, not a pattern");
  CHECK(refusal("allow = [\n").starts_with("policy.toml"));
}
