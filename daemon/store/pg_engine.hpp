#pragma once
// What store::Database sees of its PostgreSQL engine (docs/adr/0052): a
// connection and the cursor of one statement's use, as interfaces. The
// engine itself (pg_connection, over libpq) is a library of its own that a
// program links and installs; a daemon on SQLite neither links libpq nor
// maps it and the libraries it brings (ADR 0031's idle memory).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace mission::store::pg {

// One use of a statement: its bound values, then its rows.
class Cursor {
 public:
  virtual ~Cursor() = default;
  virtual void bind_text(int index, std::string_view text) = 0;
  virtual void bind_int8(int index, std::int64_t value) = 0;
  virtual void bind_float8(int index, double value) = 0;
  virtual void bind_bytea(int index, const void* data, std::size_t size) = 0;
  virtual void bind_null(int index) = 0;
  virtual bool step() = 0;
  virtual void reset() = 0;
  virtual bool is_null(int column) const = 0;
  virtual std::int64_t integer(int column) const = 0;
  virtual double real(int column) const = 0;
  virtual std::string text(int column) const = 0;
  virtual std::string blob(int column) const = 0;
  virtual const char* column_name(int column) const = 0;
};

class Connection {
 public:
  virtual ~Connection() = default;
  // A cursor over the statement for `sql` (prepared once per text; `once`
  // sends it unprepared). The caller owns the cursor.
  virtual Cursor* cursor(std::string_view sql, bool once) = 0;
  // Runs one or more statements that return no rows.
  virtual void exec(const std::string& sql) = 0;
  virtual bool in_transaction() const = 0;
  // A statement of the open transaction failed: the server refuses the rest.
  virtual bool transaction_aborted() const = 0;
  virtual int changes() const = 0;
  virtual std::size_t prepared_statements() const = 0;
  virtual const std::string& where() const = 0;
};

// Opens a connection to `conninfo` (a postgresql:// URL); throws
// MissionError when it cannot.
using Opener = std::unique_ptr<Connection> (*)(const std::string& conninfo);

// The engine a program installed (postgresql_engine.hpp), or null.
Opener installed_opener();
void install_opener(Opener opener);

}  // namespace mission::store::pg
