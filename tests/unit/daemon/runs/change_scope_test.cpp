// How a run judges an attempt's change set against the plan's
// files_likely_affected (daemon/runs/change_scope.hpp).

#include "daemon/runs/change_scope.hpp"

#include <catch2/catch.hpp>

using mission::daemon::runs::judge_change_set;

TEST_CASE("a plan that names no files checks nothing about the change set") {
  CHECK_FALSE(judge_change_set({}, "[]").failure);
  CHECK_FALSE(judge_change_set({"anything.txt"}, "[]").warning);
  CHECK_FALSE(judge_change_set({}, "not json").failure);
}

TEST_CASE("changing nothing when the plan names files fails the attempt naming them") {
  auto verdict = judge_change_set({}, R"(["src/api/", "docs/*.md"])");
  REQUIRE(verdict.failure);
  CHECK(verdict.failure->find("changed nothing") != std::string::npos);
  CHECK(verdict.failure->find("src/api/, docs/*.md") != std::string::npos);
}

TEST_CASE("files outside the plan's areas pass with a warning naming them") {
  auto inside =
      judge_change_set({"src/api/routes.ts", "docs/api.md"}, R"(["src/api/", "docs/*.md"])");
  CHECK_FALSE(inside.failure);
  CHECK_FALSE(inside.warning);
  auto outside =
      judge_change_set({"src/api/routes.ts", "package.json", "src/db.ts"}, R"(["src/api/"])");
  CHECK_FALSE(outside.failure);
  REQUIRE(outside.warning);
  CHECK(*outside.warning ==
        "2 files changed outside files_likely_affected: package.json, src/db.ts");
}

TEST_CASE("a long list of files outside the areas is cut") {
  std::vector<std::string> changed;
  for (int i = 0; i < 15; ++i) changed.push_back("f" + std::to_string(i) + ".txt");
  auto verdict = judge_change_set(changed, R"(["src/"])");
  REQUIRE(verdict.warning);
  CHECK(verdict.warning->rfind("15 files changed outside", 0) == 0);
  CHECK(verdict.warning->find("f9.txt, ...") != std::string::npos);
  CHECK(verdict.warning->find("f10.txt") == std::string::npos);
}
