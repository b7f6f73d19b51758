#pragma once
// The scope rule: which changed paths a task's declared areas cover.
//
// Each area is one of three kinds, told apart by its text (surrounding
// blanks, a leading "./" or "/" and a trailing "/" are dropped first):
//   glob    contains * ? or [ : matched against the whole relative path.
//           * and ? never cross '/', [abc] [a-z] [!a] match one character,
//           and a segment that is exactly ** matches any number of whole
//           segments (none included): src/**/*.ts, **/test_*.py, docs/*.
//   prefix  contains '/': the path itself or anything under it, on segment
//           boundaries: src/auth covers src/auth and src/auth/jwt.ts, not
//           src/authz.ts.
//   word    anything else: covers a path when any of its segments, or the
//           stem of a segment (the part before its first '.'), equals the
//           word, ignoring case: auth covers src/auth/jwt.ts, auth.ts and
//           tests/auth.test.ts, not author.ts.
// Globs and prefixes are case-sensitive, like the paths they name.
//
// verify_scope: with no areas the scope is not checked (scope_match true,
// one warning). Otherwise every changed path (added, modified, deleted;
// both sides of a rename, so a rename is in scope only when both its paths
// are) that no area covers is an unexpected file; scope_match is true when
// there are none. Warnings count the unexpected files and name each rename
// that crosses the areas' border; an area that names no path is ignored
// with a warning.

#include <string>
#include <string_view>

namespace mission::daemon::git::scope {

enum class AreaKind { glob, prefix, word };

struct Area {
  AreaKind kind;
  std::string pattern;  // normalized; empty when the area names no path
};

Area parse_area(std::string_view text);

bool covers(const Area& area, std::string_view path);

// The glob matcher above, on its own: `pattern` against the whole `path`.
bool glob_match(std::string_view pattern, std::string_view path);

}  // namespace mission::daemon::git::scope
