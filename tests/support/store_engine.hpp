#pragma once
// The engine a store test runs on (docs/adr/0052): SQLite, in a file of the
// test's folder, unless MISSION_TEST_STORE says postgresql, then a fresh
// database on the test PostgreSQL (postgresql_server.hpp): a private server
// for `postgresql`, the one running in DIR for `postgresql:DIR` (ctest's
// shared server). ctest runs each store case once per engine, labelled
// engine:sqlite and engine:postgresql.

#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "daemon/store/postgresql_engine.hpp"
#include "support/postgresql_server.hpp"

namespace mission::test {

inline bool on_postgresql() {
  const char* engine = std::getenv("MISSION_TEST_STORE");
  return engine != nullptr && std::string_view(engine).starts_with("postgresql");
}

// What store::Database opens for a test whose folder is `dir`.
inline std::filesystem::path test_store(const std::filesystem::path& dir) {
  if (!on_postgresql()) return dir / "mission.db";
  store::install_postgresql_engine();
  std::string_view engine = std::getenv("MISSION_TEST_STORE");
  auto colon = engine.find(':');
  std::string shared = colon == std::string_view::npos ? "" : std::string(engine.substr(colon + 1));
  return PostgresqlServer::instance(shared).fresh_database();
}

}  // namespace mission::test
