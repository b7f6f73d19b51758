#include "daemon/store/pg_connection.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "daemon/store/placeholders.hpp"
#include "daemon/store/postgresql_engine.hpp"
#include "shared/error_code.hpp"

namespace mission::store::pg {
namespace {

// The built-in type oids (pg_type.dat); libpq ships no header for them.
constexpr unsigned kBoolOid = 16;
constexpr unsigned kByteaOid = 17;
constexpr unsigned kInt8Oid = 20;
constexpr unsigned kTextOid = 25;
constexpr unsigned kFloat8Oid = 701;

// How many statements a connection prepares on the server; past it a new
// SQL text runs unprepared. The same bound as SQLite's cache (ADR 0031):
// the daemon has about a hundred texts.
constexpr std::size_t kMaxPreparedStatements = 192;

// How many times a statement is prepared again with a type guessed for a
// parameter its first execution bound to NULL (LibpqConnection::prepare): two
// guesses for each of a few such parameters, or one for each parameter a
// statement leaves unused (reference_repository's ?9 after ?3).
constexpr int kMaxPrepareGuesses = 16;

// The hint for a SQLSTATE class: a connection problem is the server's or
// the network's to fix; anything else is a bug or a schema mismatch.
const char* hint_for(const char* sqlstate) {
  if (sqlstate != nullptr && std::strncmp(sqlstate, "08", 2) == 0) {
    return "check that the PostgreSQL server is running and reachable, then restart missiond";
  }
  if (sqlstate != nullptr && std::strncmp(sqlstate, "53", 2) == 0) {
    return "the PostgreSQL server is out of a resource (disk, memory, connections): free it, "
           "then retry; nothing of this call was recorded";
  }
  return "check the PostgreSQL server's log for this statement, then retry";
}

// The first line of an error message (libpq appends detail lines).
std::string first_line(const char* message) {
  std::string line = message != nullptr ? message : "unknown error";
  auto end = line.find('\n');
  if (end != std::string::npos) line.resize(end);
  return line;
}

}  // namespace

LibpqCursor::LibpqCursor(LibpqConnection& connection, Prepared* prepared, Prepared once)
    : connection_(connection), prepared_(prepared), once_(std::move(once)) {}

LibpqCursor::~LibpqCursor() {
  PQclear(result_);
}

LibpqCursor::Parameter& LibpqCursor::slot(int index) {
  auto at = static_cast<std::size_t>(index);
  if (index < 1) {
    throw MissionError(ErrorCode::internal,
                       "database: parameter index " + std::to_string(index) + " is out of range");
  }
  if (parameters_.size() < at) parameters_.resize(at);
  return parameters_[at - 1];
}

void LibpqCursor::bind_text(int index, std::string_view text) {
  slot(index) = Parameter{std::string(text), kTextOid, false, false};
}

void LibpqCursor::bind_int8(int index, std::int64_t value) {
  slot(index) = Parameter{std::to_string(value), kInt8Oid, false, false};
}

void LibpqCursor::bind_float8(int index, double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  slot(index) = Parameter{buffer, kFloat8Oid, false, false};
}

void LibpqCursor::bind_bytea(int index, const void* data, std::size_t size) {
  slot(index) =
      Parameter{std::string(static_cast<const char*>(data), size), kByteaOid, false, true};
}

void LibpqCursor::bind_null(int index) {
  slot(index) = Parameter{};
}

void LibpqCursor::execute() {
  Prepared& statement = prepared_ != nullptr ? *prepared_ : once_;
  auto count = static_cast<std::size_t>(statement.parameters);
  // An unbound parameter is NULL, as in SQLite.
  if (parameters_.size() < count) parameters_.resize(count);
  std::vector<unsigned> types(count);
  std::vector<const char*> values(count);
  std::vector<int> lengths(count);
  std::vector<int> formats(count);
  for (std::size_t i = 0; i < count; ++i) {
    const Parameter& parameter = parameters_[i];
    types[i] = parameter.type;
    values[i] = parameter.null ? nullptr : parameter.value.data();
    lengths[i] = static_cast<int>(parameter.value.size());
    formats[i] = parameter.binary ? 1 : 0;
  }
  int n = static_cast<int>(count);
  if (!statement.name.empty() && !statement.on_server) {
    connection_.prepare(statement, types);
    statement.on_server = true;
  }
  PGresult* result = statement.name.empty()
                         ? PQexecParams(connection_.raw(), statement.sql.c_str(), n, types.data(),
                                        values.data(), lengths.data(), formats.data(), 0)
                         : PQexecPrepared(connection_.raw(), statement.name.c_str(), n,
                                          values.data(), lengths.data(), formats.data(), 0);
  connection_.check(result, "step");
  result_ = result;
}

bool LibpqCursor::step() {
  if (result_ == nullptr) {
    execute();
    row_ = -1;
  }
  if (++row_ < PQntuples(result_)) return true;
  // Done: the next step runs the statement again, as sqlite3_step does.
  PQclear(result_);
  result_ = nullptr;
  return false;
}

void LibpqCursor::reset() {
  PQclear(result_);
  result_ = nullptr;
  parameters_.clear();
}

bool LibpqCursor::is_null(int column) const {
  return PQgetisnull(result_, row_, column) != 0;
}

std::int64_t LibpqCursor::integer(int column) const {
  if (is_null(column)) return 0;
  const char* value = PQgetvalue(result_, row_, column);
  // A comparison is a boolean on PostgreSQL and 0/1 on SQLite.
  if (PQftype(result_, column) == kBoolOid) return value[0] == 't' ? 1 : 0;
  return std::strtoll(value, nullptr, 10);
}

double LibpqCursor::real(int column) const {
  if (is_null(column)) return 0;
  return std::strtod(PQgetvalue(result_, row_, column), nullptr);
}

std::string LibpqCursor::text(int column) const {
  if (is_null(column)) return {};
  if (PQftype(result_, column) == kBoolOid) {
    return PQgetvalue(result_, row_, column)[0] == 't' ? "1" : "0";
  }
  return std::string(PQgetvalue(result_, row_, column),
                     static_cast<std::size_t>(PQgetlength(result_, row_, column)));
}

std::string LibpqCursor::blob(int column) const {
  if (is_null(column)) return {};
  if (PQftype(result_, column) != kByteaOid) return text(column);
  std::size_t size = 0;
  unsigned char* bytes = PQunescapeBytea(
      reinterpret_cast<const unsigned char*>(PQgetvalue(result_, row_, column)), &size);
  if (bytes == nullptr) throw MissionError(ErrorCode::internal, "database: out of memory");
  std::string out(reinterpret_cast<const char*>(bytes), size);
  PQfreemem(bytes);
  return out;
}

const char* LibpqCursor::column_name(int column) const {
  return PQfname(result_, column);
}

LibpqConnection::LibpqConnection(const std::string& conninfo) {
  conn_ = PQconnectdb(conninfo.c_str());
  where_ = PQdb(conn_) != nullptr ? PQdb(conn_) : "";
  const char* host = PQhost(conn_);
  if (host != nullptr) where_ = std::string(host) + "/" + where_;
  if (PQstatus(conn_) != CONNECTION_OK) {
    std::string message = first_line(PQerrorMessage(conn_));
    PQfinish(conn_);
    conn_ = nullptr;
    throw MissionError(ErrorCode::internal,
                       "the store at " + where_ + " is unreachable: " + message,
                       "check that the PostgreSQL server is running and accepts this user, then "
                       "start missiond again");
  }
  // Statements say what they mean; notices (an implicit index, a
  // savepoint's release) are not the daemon's output.
  PQsetNoticeProcessor(
      conn_, [](void*, const char*) {}, nullptr);
  exec("SET client_min_messages = warning");
}

LibpqConnection::~LibpqConnection() {
  PQfinish(conn_);
}

Cursor* LibpqConnection::cursor(std::string_view sql, bool once) {
  auto found = prepared_.find(sql);
  if (found != prepared_.end() && !once) return new LibpqCursor(*this, &found->second, {});
  DollarSql rewritten = dollar_placeholders(sql);
  Prepared statement{"", std::move(rewritten.text), rewritten.parameters, false};
  if (once || prepared_.size() >= kMaxPreparedStatements) {
    return new LibpqCursor(*this, nullptr, std::move(statement));
  }
  statement.name = "s" + std::to_string(prepared_.size() + 1);
  found = prepared_.emplace(std::string(sql), std::move(statement)).first;
  return new LibpqCursor(*this, &found->second, {});
}

void LibpqConnection::prepare(const Prepared& statement, std::vector<unsigned>& types) {
  // The first execution's NULLs leave their parameters' types to the server,
  // which cannot always tell them: in `?1 IS NULL OR col = ?1` the IS NULL
  // use stays untyped. Such a parameter is retried as text, then as int8
  // (what a NULL stands for in the repositories' SQL), naming it as the
  // error does; each retry costs one round trip, once per connection.
  std::vector<int> guesses(types.size(), 0);
  int last_guess = -1;
  for (int attempt = 0;; ++attempt) {
    PGresult* result = PQprepare(conn_, statement.name.c_str(), statement.sql.c_str(),
                                 static_cast<int>(types.size()), types.data());
    if (PQresultStatus(result) == PGRES_COMMAND_OK) {
      PQclear(result);
      return;
    }
    const char* state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
    std::string code = state != nullptr ? state : "";
    const char* message = PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY);
    const char* dollar = message != nullptr ? std::strchr(message, '$') : nullptr;
    int named = dollar != nullptr ? std::atoi(dollar + 1) - 1 : -1;
    bool untyped = (code == "42P08" || code == "42P18") && named >= 0 &&
                   named < static_cast<int>(types.size()) && guesses[named] == 0;
    bool mismatched =
        (code == "42883" || code == "42804") && last_guess >= 0 && guesses[last_guess] == 1;
    if (attempt >= kMaxPrepareGuesses || (!untyped && !mismatched)) fail("prepare", result);
    PQclear(result);
    if (untyped) {
      types[named] = kTextOid;
      guesses[named] = 1;
      last_guess = named;
    } else {
      types[last_guess] = kInt8Oid;
      guesses[last_guess] = 2;
    }
  }
}

void LibpqConnection::exec(const std::string& sql) {
  PGresult* result = PQexec(conn_, sql.c_str());
  check(result, "exec");
  PQclear(result);
}

bool LibpqConnection::transaction_aborted() const {
  return PQtransactionStatus(conn_) == PQTRANS_INERROR;
}

bool LibpqConnection::in_transaction() const {
  return PQtransactionStatus(conn_) != PQTRANS_IDLE;
}

void LibpqConnection::check(PGresult* result, std::string_view what) {
  auto status = PQresultStatus(result);
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) fail(what, result);
  const char* command = PQcmdStatus(result);
  if (std::strncmp(command, "INSERT", 6) == 0 || std::strncmp(command, "UPDATE", 6) == 0 ||
      std::strncmp(command, "DELETE", 6) == 0) {
    changes_ = std::atoi(PQcmdTuples(result));
  }
}

void LibpqConnection::fail(std::string_view what, const PGresult* result) {
  std::string message = first_line(result != nullptr ? PQresultErrorMessage(result) : nullptr);
  if (message.empty() || message == "unknown error") message = first_line(PQerrorMessage(conn_));
  const char* sqlstate = result != nullptr ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  std::string state = sqlstate != nullptr ? sqlstate : "";
  PQclear(const_cast<PGresult*>(result));
  if (PQstatus(conn_) != CONNECTION_OK) {
    throw MissionError(ErrorCode::internal,
                       "the store at " + where_ + " is unreachable: " + message,
                       "check that the PostgreSQL server is running and reachable, then restart "
                       "missiond; nothing of this call was recorded");
  }
  throw MissionError(ErrorCode::internal,
                     "database: " + std::string(what) + ": " + message +
                         (state.empty() ? "" : " (SQLSTATE " + state + ")"),
                     hint_for(state.empty() ? nullptr : state.c_str()));
}

}  // namespace mission::store::pg

namespace mission::store {

void install_postgresql_engine() {
  pg::install_opener([](const std::string& conninfo) -> std::unique_ptr<pg::Connection> {
    return std::make_unique<pg::LibpqConnection>(conninfo);
  });
}

}  // namespace mission::store
