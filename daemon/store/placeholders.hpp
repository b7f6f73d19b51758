#pragma once
// The repositories' SQL names its parameters as SQLite does, `?N`;
// PostgreSQL's are `$N`. Rewritten once, when a statement is prepared
// (docs/adr/0052), so both engines run one text.

#include <string>
#include <string_view>

namespace mission::store {

struct DollarSql {
  std::string text;
  int parameters = 0;  // the highest $N: how many values an execution sends
};

// `sql` with every `?N` outside a string literal, a quoted identifier and a
// comment written as `$N`; a bare `?` becomes the next number after the
// highest seen so far, as SQLite numbers it.
DollarSql dollar_placeholders(std::string_view sql);

}  // namespace mission::store
