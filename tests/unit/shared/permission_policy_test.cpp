#include "shared/permission_policy.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "shared/error_code.hpp"

using mission::check_policy;
using mission::decide;
using mission::MissionError;
using mission::pattern_error;
using mission::permission_subject;
using mission::PermissionPolicy;
using mission::PermissionSubject;
using mission::policy_from_json;
using nlohmann::json;

namespace {

std::string decided(const PermissionPolicy& policy, const PermissionSubject& subject) {
  auto decision = decide(policy, subject);
  return decision ? decision->rule : "person";
}

}  // namespace

TEST_CASE("a policy's deny rule wins over its allow rule, and what none matches goes to a person") {
  const PermissionPolicy policy{{"execute:*", "edit"}, {"execute:rm *", "execute:git push*"}};
  CHECK(decided(policy, {"execute", "rm -rf build"}) == "deny execute:rm *");
  CHECK(decided(policy, {"execute", "git push origin main"}) == "deny execute:git push*");
  CHECK(decided(policy, {"execute", "git status"}) == "allow execute:*");
  CHECK(decided(policy, {"edit", "Edit src/a.cpp"}) == "allow edit");
  CHECK(decided(policy, {"fetch", "https://example.org"}) == "person");
  // `rm *` needs the space: rmdir is another command, and so is rm alone.
  CHECK(decided({{}, {"execute:rm *"}}, {"execute", "rmdir x"}) == "person");
  CHECK(decided({{}, {"execute:rm *"}}, {"execute", "rm"}) == "person");
  // A kind the agent did not state is ACP's default, other.
  CHECK(decided({{"other"}, {}}, {"", "something"}) == "allow other");
  CHECK(decided({{}, {"*"}}, {"think", "x"}) == "deny *");
}

TEST_CASE("a policy's glob matches the whole subject with stars anywhere") {
  const PermissionPolicy policy{{"execute:*test*", "fetch:https://docs.*/*"}, {}};
  CHECK(decided(policy, {"execute", "make test"}) == "allow execute:*test*");
  CHECK(decided(policy, {"execute", "ctest -j3"}) == "allow execute:*test*");
  CHECK(decided(policy, {"execute", "make"}) == "person");
  CHECK(decided(policy, {"fetch", "https://docs.rs/serde"}) == "allow fetch:https://docs.*/*");
  CHECK(decided(policy, {"fetch", "https://evil.example/docs"}) == "person");
}

TEST_CASE("a permission request's subject is its command, its URL or its title") {
  CHECK(permission_subject(
            json::parse(
                R"({"kind":"execute","title":"`rm -rf x`","rawInput":{"command":" rm -rf x "}})"))
            .subject == "rm -rf x");
  // Codex states the command as argv.
  CHECK(permission_subject(
            json::parse(
                R"({"kind":"execute","title":"t","rawInput":{"command":["git","push","origin"]}})"))
            .subject == "git push origin");
  CHECK(permission_subject(json::parse(R"({"kind":"execute","title":"touch made"})")).subject ==
        "touch made");
  CHECK(permission_subject(
            json::parse(R"({"kind":"fetch","title":"Fetch","rawInput":{"url":"https://a.b/c"}})"))
            .subject == "https://a.b/c");
  const PermissionSubject edit =
      permission_subject(json::parse(R"({"kind":"edit","title":"Edit notes.md"})"));
  CHECK(edit.kind == "edit");
  CHECK(edit.subject == "Edit notes.md");
  CHECK(permission_subject(json::parse(R"({"title":3})")).subject.empty());
}

TEST_CASE("bad permission patterns are refused naming the flag, the pattern and what to give") {
  CHECK_FALSE(pattern_error("execute:rm *"));
  CHECK_FALSE(pattern_error("edit"));
  CHECK_FALSE(pattern_error("*"));
  CHECK(pattern_error("")->find("empty") != std::string::npos);
  CHECK(pattern_error("exec:rm *")->find("'exec' is not a tool call kind") != std::string::npos);
  CHECK(pattern_error("fetch:")->find("nothing follows ':'") != std::string::npos);
  CHECK(pattern_error("edit\n")->find("control character") != std::string::npos);
  CHECK(pattern_error(std::string(300, 'x'))->find("longer than 256") != std::string::npos);
  try {
    check_policy({{"edit"}, {"shell:rm *"}});
    FAIL("a bad deny pattern was taken");
  } catch (const MissionError& e) {
    CHECK(std::string(e.what()).find("--deny 'shell:rm *'") != std::string::npos);
    CHECK(e.hint().find("KIND:GLOB") != std::string::npos);
  }
  const PermissionPolicy too_many{std::vector<std::string>(65, "edit"), {}};
  CHECK_THROWS_AS(check_policy(too_many), MissionError);
  CHECK_THROWS_AS(policy_from_json(json::parse(R"({"allow":[1]})")), MissionError);
  CHECK_THROWS_AS(policy_from_json(json::parse(R"({"deny":"edit"})")), MissionError);
  CHECK(policy_from_json(json()).empty());
  const PermissionPolicy read = policy_from_json(json::parse(R"({"deny":["execute:rm *"]})"));
  CHECK(read.deny == std::vector<std::string>{"execute:rm *"});
  CHECK(mission::policy_json(read) == json::parse(R"({"deny":["execute:rm *"]})"));
}
