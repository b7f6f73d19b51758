#pragma once
// A thin RAII layer over one store connection: run statements,
// transactions. SQLite (a file, in WAL mode) is the engine unless the store
// is a postgresql:// URL (docs/adr/0052); the repositories see one API and
// write one SQL text for both. Throws MissionError(internal) on errors.

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "shared/vocabulary.hpp"

namespace mission::store {

namespace pg {
class Connection;
class Cursor;
}  // namespace pg

enum class Engine { sqlite, postgresql };

// The engine a store address names: a postgresql:// (or postgres://) URL is
// PostgreSQL, anything else a SQLite file's path.
Engine engine_of(std::string_view store);

// Each accessor checks the PostgreSQL cursor first and is otherwise the
// SQLite call it always was: one predictable branch, so the default engine
// pays nothing measurable for the seam (docs/adr/0052).
class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  // Owns a PostgreSQL cursor.
  explicit Statement(pg::Cursor* cursor);
  // Borrows a statement owned by the Database's cache: the destructor resets
  // it and hands it back (clears *in_use) instead of finalizing it.
  Statement(sqlite3* db, sqlite3_stmt* cached, bool* in_use);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement& operator=(Statement&&) = delete;

  // Binds by 1-based index; returns *this so calls chain.
  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  Statement& bind(int index, double value);
  Statement& bind_null(int index);
  Statement& bind_blob(int index, const void* data, std::size_t size);
  template <class T>
  Statement& bind(int index, const std::optional<T>& value) {
    return value ? bind(index, *value) : bind_null(index);
  }
  // A vocabulary value is stored by its name (shared/vocabulary.hpp).
  template <Vocabulary Enum>
  Statement& bind(int index, Enum value) {
    return bind(index, name_of(value));
  }

  // Advances; true while a row is available.
  bool step();
  // Runs to completion (for statements that return no rows).
  void run();
  void reset();

  bool is_null(int column) const;
  std::int64_t integer(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  std::optional<std::int64_t> optional_integer(int column) const;
  std::optional<std::string> optional_text(int column) const;
  std::string blob(int column) const;
  // A vocabulary column; a name outside the vocabulary throws internal.
  template <Vocabulary Enum>
  Enum name(int column) const {
    std::string text_value = text(column);
    if (auto value = parse_name<Enum>(text_value)) return *value;
    throw_unknown_name(column, text_value);
  }

 private:
  [[noreturn]] void throw_unknown_name(int column, const std::string& value) const;

  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
  bool* in_use_ = nullptr;  // set when borrowed from the cache
  pg::Cursor* pg_ = nullptr;
};

class Database {
 public:
  // Opens (creating if needed) the database at `path`, enables WAL, foreign
  // keys and a busy timeout. Use ":memory:" for tests. A postgresql:// URL
  // connects to that PostgreSQL database instead.
  explicit Database(const std::filesystem::path& path);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // A statement for `sql`, compiled once and kept for the next call with
  // the same text (docs/adr/0031): parsing is most of a small request's
  // time. While one is in use, the same SQL asked again (a loop over rows
  // that calls back into a repository) gets a fresh statement of its own.
  Statement prepare(std::string_view sql);
  // Compiled for this one use and not kept: for SQL whose shape grows with
  // the data (a multi-row insert, an IN list of a page of ids), which would
  // only push the reused statements out of the cache.
  Statement prepare_once(std::string_view sql);
  // Finalizes every cached statement not in use: those of the daemon's
  // start (migrations, recovery) do not run again.
  void drop_cached_statements();
  std::size_t cached_statements() const { return cache_.size(); }
  // Runs one or more statements that return no rows.
  void exec(const std::string& sql);
  // Rows the last INSERT, UPDATE or DELETE changed.
  int changes() const;
  // Whether a transaction is open on this connection.
  bool in_transaction() const;
  Engine engine() const { return pg_ != nullptr ? Engine::postgresql : Engine::sqlite; }
  const std::filesystem::path& path() const { return path_; }
  // SQLite only (nullptr on PostgreSQL): for the daemon's memory release
  // and the fault VFS. Repositories must not need it.
  sqlite3* handle() { return db_; }
  pg::Connection* postgresql() { return pg_; }

 private:
  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
  pg::Connection* pg_ = nullptr;  // owned; set for a postgresql:// store
  struct CachedStatement {
    sqlite3_stmt* statement = nullptr;
    bool in_use = false;
    std::uint64_t last_used = 0;
  };
  // Makes room for one more, dropping the least recently used idle entry;
  // false when every entry is in use.
  bool make_room();

  std::map<std::string, CachedStatement, std::less<>> cache_;
  std::uint64_t uses_ = 0;
};

// BEGIN IMMEDIATE on construction; ROLLBACK in the destructor unless
// committed. Inside another transaction it is a savepoint, so a unit of work
// can be composed into a larger one and still commit or roll back as one.
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Database& db_;
  bool nested_ = false;
  bool done_ = false;
};

}  // namespace mission::store
