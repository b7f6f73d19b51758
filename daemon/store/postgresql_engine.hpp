#pragma once
// Links the PostgreSQL engine into a program (docs/adr/0052): after this
// call store::Database opens postgresql:// stores. A program that never
// calls it does not link libpq.

namespace mission::store {

void install_postgresql_engine();

}  // namespace mission::store
