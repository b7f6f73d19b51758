// How people name executions (mission exec show NAME, attach @last...):
// exact ids, names, unique prefixes, and the errors when a reference names
// none or several, on a real SQLite file.

#include "daemon/execution/execution_reference.hpp"

#include <catch2/catch.hpp>

#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/migrations.hpp"
#include "shared/error_code.hpp"
#include "support/sample_rows.hpp"
#include "support/temp_dir.hpp"

using namespace mission;
using mission::daemon::execution::resolve_execution_reference;

namespace {

struct Fixture {
  test::TempDir dir;
  store::Database db{dir.path() / "mission.db"};
  Fixture() { store::migrate(db); }
  void add(const std::string& id, const std::string& name = "") {
    store::ExecutionRepository executions(db);
    executions.insert(test::sample_execution(id, ExecutionState::running, Delivery::stdout_marker));
    if (!name.empty()) executions.set_name(id, name);
  }
};

ErrorCode error_of(store::Database& db, const std::string& reference) {
  try {
    resolve_execution_reference(db, reference);
  } catch (const MissionError& e) {
    return e.code();
  }
  FAIL("'" << reference << "' resolved, an error was expected");
  return ErrorCode::internal;
}

}  // namespace

TEST_CASE("an execution reference is an id, @last, a name or a unique prefix") {
  Fixture f;
  CHECK(error_of(f.db, "@last") == ErrorCode::not_found);
  f.add("ae-abcd111111", "fix-auth");
  f.add("ae-abcd222222");
  f.add("ae-zzzz000000", "fix-auth");
  f.add("ae-qrst000000");

  auto resolved = resolve_execution_reference(f.db, "ae-abcd222222");
  CHECK(resolved.id == "ae-abcd222222");
  CHECK(resolved.matched_by == "id");

  resolved = resolve_execution_reference(f.db, "@last");
  CHECK(resolved.id == "ae-qrst000000");
  CHECK(resolved.matched_by == "last");

  // A name shared by two executions names the one created last.
  resolved = resolve_execution_reference(f.db, "fix-auth");
  CHECK(resolved.id == "ae-zzzz000000");
  CHECK(resolved.matched_by == "name");

  // A prefix, with or without "ae-".
  CHECK(resolve_execution_reference(f.db, "qrst").id == "ae-qrst000000");
  CHECK(resolve_execution_reference(f.db, "ae-abcd1").id == "ae-abcd111111");
  CHECK(resolve_execution_reference(f.db, "abcd2").matched_by == "prefix");
}

TEST_CASE(
    "a reference that names several executions, or none, is refused with candidates or a hint") {
  Fixture f;
  f.add("ae-abcd111111");
  f.add("ae-abcd222222");
  try {
    resolve_execution_reference(f.db, "abcd");
    FAIL("an ambiguous prefix resolved");
  } catch (const MissionError& e) {
    CHECK(e.code() == ErrorCode::ambiguous_target);
    CHECK(std::string(e.what()).find("ae-abcd111111, ae-abcd222222") != std::string::npos);
    CHECK(e.details().at("candidates").size() == 2);
  }
  // Too short to be a prefix, though it is the start of both.
  CHECK(error_of(f.db, "abc") == ErrorCode::not_found);
  CHECK(error_of(f.db, "nothing-like-it") == ErrorCode::not_found);
  // Characters that LIKE or GLOB would read as patterns are plain here.
  CHECK(error_of(f.db, "ab%d") == ErrorCode::not_found);
  CHECK(error_of(f.db, "ab*d") == ErrorCode::not_found);
}
