#pragma once
// Schema migrations keyed by PRAGMA user_version (on PostgreSQL, the
// mission_schema table). Each migration runs once, in its own transaction,
// in order; one numbered list for both engines (docs/adr/0052).

#include "daemon/store/database.hpp"

namespace mission::store {

// The user_version a fully migrated database has.
int latest_schema_version();

// Brings `db` to latest_schema_version(). Throws MissionError if the file was
// written by a newer mission (its version is higher than ours).
void migrate(Database& db);
// Like migrate, but stops at version `target` (tests build older databases).
void migrate_to(Database& db, int target);

int schema_version(Database& db);

}  // namespace mission::store
