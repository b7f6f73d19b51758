#pragma once
// The PostgreSQL engine under store::Database (docs/adr/0052), over libpq,
// in a library of its own (pg_engine.hpp): one libpq connection, its prepared statements (one
// PQprepare per SQL text), and a statement's parameters and fetched rows. Only database.cpp uses
// it; the repositories see store::Database and store::Statement alone.

#include <libpq-fe.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/store/pg_engine.hpp"

namespace mission::store::pg {

class LibpqConnection;

// A statement the connection prepared (or will, at its first execution:
// its parameter types are those of that execution's bind calls).
struct Prepared {
  std::string name;  // empty: sent unprepared each time
  std::string sql;   // with $N placeholders
  int parameters = 0;
  bool on_server = false;
};

// One use of a statement: its bound values, then all its rows (fetched at
// the first step, so a row loop may call back into the connection).
class LibpqCursor : public Cursor {
 public:
  // Borrows `prepared` from the connection, or owns an unprepared one.
  LibpqCursor(LibpqConnection& connection, Prepared* prepared, Prepared once);
  ~LibpqCursor() override;
  LibpqCursor(const LibpqCursor&) = delete;
  LibpqCursor& operator=(const LibpqCursor&) = delete;

  void bind_text(int index, std::string_view text) override;
  void bind_int8(int index, std::int64_t value) override;
  void bind_float8(int index, double value) override;
  void bind_bytea(int index, const void* data, std::size_t size) override;
  void bind_null(int index) override;

  bool step() override;
  void reset() override;

  bool is_null(int column) const override;
  std::int64_t integer(int column) const override;
  double real(int column) const override;
  std::string text(int column) const override;
  std::string blob(int column) const override;
  const char* column_name(int column) const override;

 private:
  struct Parameter {
    std::string value;
    unsigned type = 0;  // an Oid; 0 lets the server infer it
    bool null = true;
    bool binary = false;
  };
  Parameter& slot(int index);
  void execute();

  LibpqConnection& connection_;
  Prepared* prepared_;
  Prepared once_;
  std::vector<Parameter> parameters_;
  PGresult* result_ = nullptr;
  int row_ = -1;
};

class LibpqConnection : public Connection {
 public:
  // Connects to `conninfo` (a postgresql:// URL or key=value list).
  explicit LibpqConnection(const std::string& conninfo);
  ~LibpqConnection() override;
  LibpqConnection(const LibpqConnection&) = delete;
  LibpqConnection& operator=(const LibpqConnection&) = delete;

  // A cursor over the statement prepared for `sql`, preparing it on first
  // use; `once` sends it unprepared (SQL whose shape grows with the data).
  // The caller owns the cursor.
  Cursor* cursor(std::string_view sql, bool once) override;
  // Prepares `statement` on the server with `types` (0: the server infers),
  // guessing a type for a parameter the server cannot infer.
  void prepare(const Prepared& statement, std::vector<unsigned>& types);
  // Runs one or more statements that return no rows.
  void exec(const std::string& sql) override;
  bool in_transaction() const override;
  bool transaction_aborted() const override;
  int changes() const override { return changes_; }
  std::size_t prepared_statements() const override { return prepared_.size(); }
  const std::string& where() const override { return where_; }

  // Throws MissionError for a failed result (clearing it), recording the
  // row count of an INSERT, UPDATE or DELETE that succeeded; the caller
  // keeps a result that succeeded.
  void check(PGresult* result, std::string_view what);
  // The unreachable error when the connection is gone, else the server's.
  [[noreturn]] void fail(std::string_view what, const PGresult* result);
  PGconn* raw() { return conn_; }

 private:
  PGconn* conn_ = nullptr;
  std::string where_;  // host and database, for messages
  std::map<std::string, Prepared, std::less<>> prepared_;
  int changes_ = 0;
};

}  // namespace mission::store::pg
