#pragma once
// A migration's DDL, written for SQLite, as PostgreSQL takes it
// (docs/adr/0052): INTEGER is BIGINT (SQLite's integers are 64-bit), BLOB
// BYTEA, REAL DOUBLE PRECISION; TEXT compares byte by byte (COLLATE "C"),
// as SQLite's BINARY does, whatever the database's locale; an INTEGER
// PRIMARY KEY an identity; and
// every table but a WITHOUT ROWID one has the `rowid` column SQLite gives
// it implicitly, since lists page and order by it: the id itself where
// SQLite's rowid is the INTEGER PRIMARY KEY, else an identity.

#include <string>
#include <string_view>

namespace mission::store {

std::string postgresql_dialect(std::string_view sqlite_ddl);

}  // namespace mission::store
