#pragma once
// Checks shared by the change-set tests (git and checksum snapshots): the
// expected paths of a ChangeSet, and the error code a call throws.

#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "daemon/git/change_set.hpp"
#include "shared/error_code.hpp"

namespace mission::test {

using Paths = std::vector<std::string>;

struct ExpectedChanges {
  Paths added, modified, deleted;
  std::vector<std::pair<std::string, std::string>> renamed = {};
};

inline void check_changes(const daemon::git::ChangeSet& changes, const ExpectedChanges& expected) {
  CHECK(changes.added == expected.added);
  CHECK(changes.modified == expected.modified);
  CHECK(changes.deleted == expected.deleted);
  std::vector<std::pair<std::string, std::string>> renamed;
  for (const auto& rename : changes.renamed) renamed.emplace_back(rename.from, rename.to);
  CHECK(renamed == expected.renamed);
}

// The code of the MissionError `call` throws; fails the test if it throws none.
inline ErrorCode error_code_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const MissionError& error) {
    return error.code();
  }
  FAIL("no MissionError thrown");
  return ErrorCode::internal;
}

}  // namespace mission::test
