// The scope rule: words, file stems, path prefixes and globs, how renames
// and unexpected files are reported, and the JSON shape.

#include "daemon/git/scope_rule.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "daemon/git/change_set.hpp"

using namespace mission::daemon::git;
using scope::AreaKind;
using scope::covers;
using scope::glob_match;
using scope::parse_area;

TEST_CASE("scope rule: a bare word matches a segment or a segment's stem, ignoring case") {
  auto auth = parse_area("auth");
  CHECK(auth.kind == AreaKind::word);
  CHECK(covers(auth, "src/auth/jwt.ts"));
  CHECK(covers(auth, "auth.ts"));
  CHECK(covers(auth, "tests/auth.test.ts"));
  CHECK(covers(auth, "src/Auth/Login.ts"));
  CHECK(covers(parse_area("AUTH"), "lib/auth.py"));
  CHECK_FALSE(covers(auth, "author.ts"));
  CHECK_FALSE(covers(auth, "src/oauth/flow.ts"));
  CHECK_FALSE(covers(auth, "src/my.auth.ts"));  // the stem ends at the first '.'
  CHECK(covers(parse_area("package.json"), "web/package.json"));
  CHECK_FALSE(covers(parse_area("package.json"), "web/package.lock"));
}

TEST_CASE("scope rule: an area with a slash is a path prefix on segment boundaries") {
  auto area = parse_area("src/auth");
  CHECK(area.kind == AreaKind::prefix);
  CHECK(covers(area, "src/auth"));
  CHECK(covers(area, "src/auth/x.ts"));
  CHECK(covers(area, "src/auth/deep/y.ts"));
  CHECK_FALSE(covers(area, "src/authz.ts"));
  CHECK_FALSE(covers(area, "lib/src/auth/x.ts"));
  CHECK_FALSE(covers(area, "src/Auth/x.ts"));  // case-sensitive, like the paths

  auto directory = parse_area("./docs/");
  CHECK(directory.kind == AreaKind::prefix);
  CHECK(directory.pattern == "docs");
  CHECK(covers(directory, "docs/guide.md"));
  CHECK_FALSE(covers(directory, "src/docs/x.md"));
}

TEST_CASE("scope rule: globs keep * and ? inside a segment and let ** cross them") {
  CHECK(parse_area("src/*.ts").kind == AreaKind::glob);
  CHECK(glob_match("src/*.ts", "src/a.ts"));
  CHECK_FALSE(glob_match("src/*.ts", "src/deep/a.ts"));
  CHECK_FALSE(glob_match("*.ts", "src/a.ts"));
  CHECK(glob_match("*.ts", "a.ts"));
  CHECK(glob_match("src/?.c", "src/a.c"));
  CHECK_FALSE(glob_match("src/?.c", "src/ab.c"));
  CHECK_FALSE(glob_match("src?a.c", "src/a.c"));

  CHECK(glob_match("src/**/*.ts", "src/a.ts"));
  CHECK(glob_match("src/**/*.ts", "src/x/y/z/a.ts"));
  CHECK_FALSE(glob_match("src/**/*.ts", "lib/a.ts"));
  CHECK(glob_match("**/test_*.py", "test_a.py"));
  CHECK(glob_match("**/test_*.py", "pkg/tests/test_a.py"));
  CHECK(glob_match("docs/**", "docs/a/b/c.md"));
  CHECK(glob_match("**", "anything/at/all"));
  CHECK(glob_match("a/**/b/**/c", "a/x/b/y/z/c"));
  CHECK_FALSE(glob_match("a/**/b/**/c", "a/x/y/c"));

  CHECK(glob_match("src/[ab]*.c", "src/beta.c"));
  CHECK_FALSE(glob_match("src/[ab]*.c", "src/gamma.c"));
  CHECK(glob_match("v[0-9].txt", "v7.txt"));
  CHECK(glob_match("v[!0-9].txt", "vx.txt"));
  CHECK_FALSE(glob_match("v[!0-9].txt", "v7.txt"));
  CHECK(glob_match("odd[.txt", "odd[.txt"));  // an unclosed [ is an ordinary character
  CHECK(glob_match("*a*b*c*", "xaybzc"));
  CHECK_FALSE(glob_match("*a*b*c*", "xacb"));
}

TEST_CASE("scope rule: no areas means the scope is not checked") {
  ChangeSet changes{{"a.ts"}, {}, {}, {}};
  auto result = verify_scope(changes, {});
  CHECK(result.scope_match);
  CHECK(result.unexpected_files.empty());
  CHECK(result.warnings == std::vector<std::string>{"no areas declared; scope not checked"});
  auto blank = verify_scope(changes, {" ", "./"});
  CHECK(blank.scope_match);
  CHECK(blank.warnings.back() == "no areas declared; scope not checked");
}

TEST_CASE("scope rule: files outside every area are unexpected") {
  ChangeSet changes{{"src/auth/new.ts", "README.md"}, {"tests/auth.test.ts"}, {"lib/db.ts"}, {}};
  auto result = verify_scope(changes, {"auth", "docs/**"});
  CHECK_FALSE(result.scope_match);
  CHECK(result.unexpected_files == std::vector<std::string>{"README.md", "lib/db.ts"});
  CHECK(result.warnings ==
        std::vector<std::string>{"2 file(s) changed outside the declared areas (auth, docs/**)"});

  auto inside = verify_scope(changes, {"auth", "README.md", "lib"});
  CHECK(inside.scope_match);
  CHECK(inside.unexpected_files.empty());
  CHECK(inside.warnings.empty());
}

TEST_CASE("scope rule: a rename is in scope only when both its paths are") {
  ChangeSet inside{{"src/auth/b.ts"}, {}, {"src/auth/a.ts"}, {{"src/auth/a.ts", "src/auth/b.ts"}}};
  CHECK(verify_scope(inside, {"src/auth"}).scope_match);

  ChangeSet out{{"lib/a.ts"}, {}, {"src/auth/a.ts"}, {{"src/auth/a.ts", "lib/a.ts"}}};
  auto result = verify_scope(out, {"src/auth"});
  CHECK_FALSE(result.scope_match);
  CHECK(result.unexpected_files == std::vector<std::string>{"lib/a.ts"});
  CHECK(result.warnings.back() ==
        "renamed src/auth/a.ts to lib/a.ts: moved out of the declared areas");
}

TEST_CASE("scope rule: to_json gives scope_match, unexpected_files and warnings") {
  auto result = verify_scope(ChangeSet{{"x.txt"}, {}, {}, {}}, {"src"});
  CHECK(to_json(result) == nlohmann::json::parse(R"json({"scope_match": false,
      "unexpected_files": ["x.txt"],
      "warnings": ["1 file(s) changed outside the declared areas (src)"]})json"));
}
