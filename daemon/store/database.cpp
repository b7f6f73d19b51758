#include "daemon/store/database.hpp"

#include "daemon/store/fault_vfs.hpp"
#include "daemon/store/pg_engine.hpp"
#include "shared/error_code.hpp"
#include "shared/fault_points.hpp"

namespace mission::store {
namespace {

// How long a statement waits on a lock held by another connection (the CLI
// never opens the database, but sqlite3 or a backup tool might).
constexpr int kBusyTimeoutMs = 5000;

// How many compiled statements a connection keeps. The daemon's SQL texts
// are fixed strings and a few shapes built from them (filters, multi-row
// inserts): about a hundred in all, so the cache seldom evicts; the bound
// keeps a shape built from data from growing it without end.
constexpr std::size_t kMaxCachedStatements = 192;

// The hint for what SQLite reported: a full disk and an I/O error are the
// machine's to fix, not the caller's.
const char* hint_for(int code) {
  switch (code & 0xff) {
    case SQLITE_FULL:
      return "the disk holding the state dir is full: free space there, then retry; nothing of "
             "this call was recorded";
    case SQLITE_IOERR:
      return "the disk holding the state dir reported an I/O error: check it, then retry; "
             "nothing of this call was recorded";
    case SQLITE_READONLY:
      return "the database cannot be written: check the state dir's permissions and mounts";
    default:
      return "check the state dir's disk and permissions, then retry";
  }
}

[[noreturn]] void fail(sqlite3* db, std::string_view what) {
  throw MissionError(ErrorCode::internal,
                     std::string("database: ") + std::string(what) + ": " + sqlite3_errmsg(db),
                     hint_for(sqlite3_extended_errcode(db)));
}

}  // namespace

namespace pg {
namespace {

Opener g_opener = nullptr;  // set once, before any store is opened

}  // namespace

Opener installed_opener() {
  return g_opener;
}

void install_opener(Opener opener) {
  g_opener = opener;
}

}  // namespace pg

Engine engine_of(std::string_view store) {
  return store.starts_with("postgresql://") || store.starts_with("postgres://") ? Engine::postgresql
                                                                                : Engine::sqlite;
}

Statement::Statement(pg::Cursor* cursor) : pg_(cursor) {}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
      SQLITE_OK) {
    fail(db_, "prepare");
  }
}

Statement::Statement(sqlite3* db, sqlite3_stmt* cached, bool* in_use)
    : db_(db), stmt_(cached), in_use_(in_use) {
  *in_use_ = true;
}

Statement::~Statement() {
  if (pg_ != nullptr) [[unlikely]] {
    delete pg_;
    return;
  }
  if (stmt_ == nullptr) return;
  if (in_use_ != nullptr) {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    *in_use_ = false;
  } else {
    sqlite3_finalize(stmt_);
  }
}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(other.stmt_), in_use_(other.in_use_), pg_(other.pg_) {
  other.stmt_ = nullptr;
  other.in_use_ = nullptr;
  other.pg_ = nullptr;
}

Statement& Statement::bind(int index, std::string_view text) {
  if (pg_ != nullptr) [[unlikely]] {
    pg_->bind_text(index, text);
    return *this;
  }
  if (sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()),
                        SQLITE_TRANSIENT) != SQLITE_OK) {
    fail(db_, "bind");
  }
  return *this;
}

Statement& Statement::bind(int index, std::int64_t value) {
  if (pg_ != nullptr) [[unlikely]] {
    pg_->bind_int8(index, value);
    return *this;
  }
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) fail(db_, "bind");
  return *this;
}

Statement& Statement::bind(int index, double value) {
  if (pg_ != nullptr) [[unlikely]] {
    pg_->bind_float8(index, value);
    return *this;
  }
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) fail(db_, "bind");
  return *this;
}

Statement& Statement::bind_null(int index) {
  if (pg_ != nullptr) [[unlikely]] {
    pg_->bind_null(index);
    return *this;
  }
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) fail(db_, "bind");
  return *this;
}

Statement& Statement::bind_blob(int index, const void* data, std::size_t size) {
  if (pg_ != nullptr) [[unlikely]] {
    pg_->bind_bytea(index, data, size);
    return *this;
  }
  if (sqlite3_bind_blob(stmt_, index, data, static_cast<int>(size), SQLITE_TRANSIENT) !=
      SQLITE_OK) {
    fail(db_, "bind");
  }
  return *this;
}

bool Statement::step() {
  if (pg_ != nullptr) [[unlikely]]
    return pg_->step();
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(db_, "step");
}

void Statement::run() {
  while (step()) {
  }
}

void Statement::reset() {
  if (pg_ != nullptr) [[unlikely]] {
    pg_->reset();
    return;
  }
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Statement::is_null(int column) const {
  if (pg_ != nullptr) [[unlikely]]
    return pg_->is_null(column);
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::int64_t Statement::integer(int column) const {
  if (pg_ != nullptr) [[unlikely]]
    return pg_->integer(column);
  return sqlite3_column_int64(stmt_, column);
}

double Statement::real(int column) const {
  if (pg_ != nullptr) [[unlikely]]
    return pg_->real(column);
  return sqlite3_column_double(stmt_, column);
}

std::string Statement::text(int column) const {
  if (pg_ != nullptr) [[unlikely]]
    return pg_->text(column);
  const auto* data = sqlite3_column_text(stmt_, column);
  return data ? std::string(reinterpret_cast<const char*>(data),
                            static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)))
              : std::string();
}

void Statement::throw_unknown_name(int column, const std::string& value) const {
  const char* name = pg_ != nullptr ? pg_->column_name(column) : sqlite3_column_name(stmt_, column);
  throw MissionError(ErrorCode::internal,
                     std::string("database: column ") + (name ? name : "?") + " holds '" + value +
                         "', which this missiond does not know",
                     "the database was written by another version; run the missiond that wrote it");
}

std::optional<std::int64_t> Statement::optional_integer(int column) const {
  if (is_null(column)) return std::nullopt;
  return integer(column);
}

std::optional<std::string> Statement::optional_text(int column) const {
  if (is_null(column)) return std::nullopt;
  return text(column);
}

std::string Statement::blob(int column) const {
  if (pg_ != nullptr) [[unlikely]]
    return pg_->blob(column);
  const void* data = sqlite3_column_blob(stmt_, column);
  return data ? std::string(static_cast<const char*>(data),
                            static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)))
              : std::string();
}

Database::Database(const std::filesystem::path& path) : path_(path) {
  if (engine_of(path.native()) == Engine::postgresql) {
    pg::Opener open = pg::installed_opener();
    if (open == nullptr) {
      throw MissionError(ErrorCode::internal,
                         "this program cannot open the PostgreSQL store " + path.string() +
                             ": its PostgreSQL engine is not linked in",
                         "use a SQLite store (a file path); missiond does not take a "
                         "PostgreSQL store yet");
    }
    pg_ = open(path.native()).release();
    return;
  }
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  install_fault_vfs_if_armed();
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw MissionError(ErrorCode::internal,
                       "cannot open database " + path.string() + ": " + message,
                       "check MISSION_STATE_DIR and its permissions");
  }
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
  // WAL with synchronous=NORMAL: a commit survives a crash of the daemon
  // (what the ledger promises); only a power loss may drop the last commits.
  exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;");
}

Database::~Database() {
  delete pg_;
  for (auto& [sql, entry] : cache_) sqlite3_finalize(entry.statement);
  sqlite3_close_v2(db_);
}

Statement Database::prepare(std::string_view sql) {
  if (pg_ != nullptr) [[unlikely]]
    return Statement(pg_->cursor(sql, false));
  auto found = cache_.find(sql);
  if (found != cache_.end()) {
    if (found->second.in_use) return Statement(db_, sql);
    found->second.last_used = ++uses_;
    return Statement(db_, found->second.statement, &found->second.in_use);
  }
  if (!make_room()) return Statement(db_, sql);
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                         &statement, nullptr) != SQLITE_OK) {
    fail(db_, "prepare");
  }
  found = cache_.emplace(std::string(sql), CachedStatement{statement, false, ++uses_}).first;
  return Statement(db_, found->second.statement, &found->second.in_use);
}

Statement Database::prepare_once(std::string_view sql) {
  if (pg_ != nullptr) [[unlikely]]
    return Statement(pg_->cursor(sql, true));
  return Statement(db_, sql);
}

void Database::drop_cached_statements() {
  for (auto it = cache_.begin(); it != cache_.end();) {
    if (it->second.in_use) {
      ++it;
      continue;
    }
    sqlite3_finalize(it->second.statement);
    it = cache_.erase(it);
  }
}

bool Database::make_room() {
  if (cache_.size() < kMaxCachedStatements) return true;
  auto oldest = cache_.end();
  for (auto it = cache_.begin(); it != cache_.end(); ++it) {
    if (!it->second.in_use &&
        (oldest == cache_.end() || it->second.last_used < oldest->second.last_used)) {
      oldest = it;
    }
  }
  if (oldest == cache_.end()) return false;
  sqlite3_finalize(oldest->second.statement);
  cache_.erase(oldest);
  return true;
}

void Database::exec(const std::string& sql) {
  if (pg_ != nullptr) {
    pg_->exec(sql);
    return;
  }
  char* error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error ? error : "unknown error";
    sqlite3_free(error);
    throw MissionError(ErrorCode::internal, "database: " + message,
                       hint_for(sqlite3_extended_errcode(db_)));
  }
}

int Database::changes() const {
  if (pg_ != nullptr) [[unlikely]]
    return pg_->changes();
  return sqlite3_changes(db_);
}

bool Database::in_transaction() const {
  if (pg_ != nullptr) [[unlikely]]
    return pg_->in_transaction();
  return sqlite3_get_autocommit(db_) == 0;
}

// BEGIN IMMEDIATE takes SQLite's write lock at once, so two writers never
// deadlock upgrading a read; PostgreSQL locks rows as statements touch them.
Transaction::Transaction(Database& db) : db_(db), nested_(db.in_transaction()) {
  const char* begin = db.engine() == Engine::sqlite ? "BEGIN IMMEDIATE" : "BEGIN";
  db_.prepare(nested_ ? "SAVEPOINT nested" : begin).run();
}

Transaction::~Transaction() {
  if (done_) return;
  try {
    if (nested_) {
      db_.prepare("ROLLBACK TO nested").run();
      db_.prepare("RELEASE nested").run();
    } else {
      db_.prepare("ROLLBACK").run();
    }
  } catch (...) {
  }
}

void Transaction::commit() {
  if (auto* pg = db_.postgresql(); pg != nullptr && pg->transaction_aborted()) {
    // A statement failed and PostgreSQL refuses the rest: the destructor
    // rolls back (to the savepoint, when nested).
    throw MissionError(ErrorCode::internal,
                       "database: the transaction was aborted by an earlier error",
                       "check the PostgreSQL server's log, then retry; nothing of this call was "
                       "recorded");
  }
  if (db_.engine() == Engine::sqlite && !db_.in_transaction()) {
    // SQLite rolled the transaction back itself after an error such as a
    // full disk: say so, not "cannot commit - no transaction is active".
    done_ = true;
    throw MissionError(ErrorCode::internal,
                       "database: the transaction was rolled back after an error (" +
                           std::string(sqlite3_errmsg(db_.handle())) + ")",
                       hint_for(sqlite3_extended_errcode(db_.handle())));
  }
  if (!nested_) faults::at(faults::FaultPoint::before_commit);
  db_.prepare(nested_ ? "RELEASE nested" : "COMMIT").run();
  done_ = true;
}

}  // namespace mission::store
