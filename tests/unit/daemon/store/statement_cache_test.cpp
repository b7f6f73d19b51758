// The connection's statement cache (docs/adr/0031): a statement compiled
// once serves every later call with the same SQL, and neither reuse nor the
// cache's bound may change what a statement returns.

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"

using namespace mission::store;

namespace {

void fill(Database& db, int count) {
  db.exec("CREATE TABLE numbers (n INTEGER)");
  for (int n = 1; n <= count; ++n)
    db.prepare("INSERT INTO numbers (n) VALUES (?1)").bind(1, n).run();
}

constexpr const char* kAbove = "SELECT n FROM numbers WHERE n > ?1 ORDER BY n";

std::vector<std::int64_t> above(Database& db, std::int64_t floor) {
  std::vector<std::int64_t> out;
  auto s = db.prepare(kAbove);
  s.bind(1, floor);
  while (s.step()) out.push_back(s.integer(0));
  return out;
}

}  // namespace

TEST_CASE("the same SQL asked for inside its own row loop gets a statement of its own") {
  Database db(":memory:");
  fill(db, 5);
  auto outer = db.prepare(kAbove);
  outer.bind(1, 0);
  std::vector<std::int64_t> seen;
  std::vector<std::size_t> inner_counts;
  while (outer.step()) {
    seen.push_back(outer.integer(0));
    inner_counts.push_back(above(db, outer.integer(0)).size());
  }
  CHECK(seen == std::vector<std::int64_t>{1, 2, 3, 4, 5});
  CHECK(inner_counts == std::vector<std::size_t>{4, 3, 2, 1, 0});
}

TEST_CASE("a reused statement starts over with no bindings left from its last use") {
  Database db(":memory:");
  fill(db, 3);
  {
    auto first = db.prepare(kAbove);
    first.bind(1, 0);
    REQUIRE(first.step());  // left after one row of three
  }
  CHECK(above(db, 1) == std::vector<std::int64_t>{2, 3});
  {
    auto unbound = db.prepare(kAbove);  // ?1 is NULL again: n > NULL matches nothing
    CHECK_FALSE(unbound.step());
  }
}

TEST_CASE("past its bound the cache drops idle statements, never one in use") {
  Database db(":memory:");
  fill(db, 3);
  auto held = db.prepare(kAbove);
  held.bind(1, 0);
  REQUIRE(held.step());
  // Far more distinct texts than the cache keeps, each answering right.
  for (int i = 0; i < 1000; ++i) {
    auto s = db.prepare("SELECT ?1 + " + std::to_string(i));
    s.bind(1, 1);
    REQUIRE(s.step());
    REQUIRE(s.integer(0) == i + 1);
  }
  // The held statement was kept through every eviction.
  CHECK(held.integer(0) == 1);
  REQUIRE(held.step());
  CHECK(held.integer(0) == 2);
  REQUIRE(held.step());
  CHECK(held.integer(0) == 3);
  CHECK_FALSE(held.step());
}

TEST_CASE("a kept statement sees a column added after it was compiled") {
  Database db(":memory:");
  fill(db, 1);
  constexpr const char* kAll = "SELECT * FROM numbers";
  {
    auto s = db.prepare(kAll);
    REQUIRE(s.step());
  }
  db.exec("ALTER TABLE numbers ADD COLUMN label TEXT DEFAULT 'one'");
  auto s = db.prepare(kAll);
  REQUIRE(s.step());
  CHECK(s.text(1) == "one");
}

TEST_CASE("dropping the cached statements spares one in use and the next prepare compiles anew") {
  Database db(":memory:");
  fill(db, 2);
  auto held = db.prepare(kAbove);
  held.bind(1, 0);
  REQUIRE(held.step());
  {
    auto count = db.prepare("SELECT count(*) FROM numbers");
    REQUIRE(count.step());
  }
  const std::size_t before = db.cached_statements();
  db.drop_cached_statements();
  CHECK(db.cached_statements() == 1);  // the held one
  CHECK(before > 1);
  REQUIRE(held.step());
  CHECK(held.integer(0) == 2);
  CHECK_FALSE(held.step());
  auto count = db.prepare("SELECT count(*) FROM numbers");
  REQUIRE(count.step());
  CHECK(count.integer(0) == 2);
}
