#pragma once
// Ids that start with a prefix, found as a range on the primary key: no
// LIKE to escape, and the index answers on both engines (docs/adr/0052).
// The ids are ASCII and the engines compare them byte by byte (SQLite's
// BINARY, PostgreSQL's "C" collation, postgresql_dialect.hpp), so every id
// that starts with `prefix` sorts in [prefix, prefix_end(prefix)).

#include <string>

namespace mission::store {

// The first string past every one that starts with `prefix`: its last byte
// raised by one (bytes at or above 0x7f, never in an id, are dropped
// first); past every ASCII id for an empty prefix.
inline std::string prefix_end(std::string prefix) {
  while (!prefix.empty() && static_cast<unsigned char>(prefix.back()) >= 0x7f) prefix.pop_back();
  if (prefix.empty()) return std::string(1, '\x7f');
  prefix.back() = static_cast<char>(prefix.back() + 1);
  return prefix;
}

}  // namespace mission::store
