#pragma once
// The PostgreSQL engine under store::Database (docs/adr/0052): one libpq
// connection, its prepared statements (one PQprepare per SQL text), and a
// statement's parameters and fetched rows. Only database.cpp uses it; the
// repositories see store::Database and store::Statement alone.

#include <libpq-fe.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mission::store::pg {

class Connection;

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
class Cursor {
 public:
  // Borrows `prepared` from the connection, or owns an unprepared one.
  Cursor(Connection& connection, Prepared* prepared, Prepared once);
  ~Cursor();
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;

  void bind_text(int index, std::string_view text);
  void bind_int8(int index, std::int64_t value);
  void bind_float8(int index, double value);
  void bind_bytea(int index, const void* data, std::size_t size);
  void bind_null(int index);

  bool step();
  void reset();

  bool is_null(int column) const;
  std::int64_t integer(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  std::string blob(int column) const;
  const char* column_name(int column) const;

 private:
  struct Parameter {
    std::string value;
    unsigned type = 0;  // an Oid; 0 lets the server infer it
    bool null = true;
    bool binary = false;
  };
  Parameter& slot(int index);
  void execute();

  Connection& connection_;
  Prepared* prepared_;
  Prepared once_;
  std::vector<Parameter> parameters_;
  PGresult* result_ = nullptr;
  int row_ = -1;
};

class Connection {
 public:
  // Connects to `conninfo` (a postgresql:// URL or key=value list).
  explicit Connection(const std::string& conninfo);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // A cursor over the statement prepared for `sql`, preparing it on first
  // use; `once` sends it unprepared (SQL whose shape grows with the data).
  // The caller owns the cursor.
  Cursor* cursor(std::string_view sql, bool once);
  // Prepares `statement` on the server with `types` (0: the server infers),
  // guessing a type for a parameter the server cannot infer.
  void prepare(const Prepared& statement, std::vector<unsigned>& types);
  // Runs one or more statements that return no rows.
  void exec(const std::string& sql);
  bool in_transaction() const;
  int changes() const { return changes_; }
  std::size_t prepared_statements() const { return prepared_.size(); }
  const std::string& where() const { return where_; }

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
