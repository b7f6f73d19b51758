#include "daemon/store/execution_repository.hpp"

#include "daemon/store/prefix_range.hpp"

namespace mission::store {
namespace {

// What a new row is given. The sandbox comes later, with the launch
// (set_sandbox), so the columns are those every schema since kind was
// added has: the migration tests write rows into old databases.
constexpr const char* kInsertColumns =
    "id, adapter, delivery, descriptor, cwd, command, state, pid, exit_code, exit_signal, "
    "token_sha256, created_at, started_at, ended_at, updated_at, kind";
const std::string kColumns = std::string(kInsertColumns) + ", sandbox";
// Where a query that selects kColumns and then the rowid finds the rowid.
constexpr int kRowidAfterColumns = 17;

ExecutionRow read_row(const Statement& s) {
  ExecutionRow row;
  row.id = s.text(0);
  row.adapter = s.text(1);
  row.delivery = s.name<Delivery>(2);
  row.descriptor = s.text(3);
  row.cwd = s.text(4);
  row.command = s.text(5);
  row.state = s.name<ExecutionState>(6);
  row.pid = s.optional_integer(7);
  row.exit_code = s.optional_integer(8);
  row.exit_signal = s.optional_integer(9);
  row.token_sha256 = s.blob(10);
  row.created_at = s.integer(11);
  row.started_at = s.optional_integer(12);
  row.ended_at = s.optional_integer(13);
  row.updated_at = s.integer(14);
  row.kind = s.name<ExecutionKind>(15);
  row.sandbox = s.optional_text(16);
  return row;
}

}  // namespace

void ExecutionRepository::insert(const ExecutionRow& row) {
  auto s = db_.prepare(
      std::string("INSERT INTO executions (") + kInsertColumns +
      ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)");
  s.bind(1, row.id).bind(2, row.adapter).bind(3, row.delivery).bind(4, row.descriptor);
  s.bind(5, row.cwd).bind(6, row.command).bind(7, row.state).bind(8, row.pid);
  s.bind(9, row.exit_code).bind(10, row.exit_signal);
  if (row.token_sha256.empty()) {
    s.bind_null(11);
  } else {
    s.bind_blob(11, row.token_sha256.data(), row.token_sha256.size());
  }
  s.bind(12, row.created_at)
      .bind(13, row.started_at)
      .bind(14, row.ended_at)
      .bind(15, row.updated_at);
  s.bind(16, row.kind);
  s.run();
}

void ExecutionRepository::update(const ExecutionRow& row) {
  auto s = db_.prepare(
      "UPDATE executions SET state = ?2, pid = ?3, exit_code = ?4, exit_signal = ?5, "
      "started_at = ?6, ended_at = ?7, updated_at = ?8 WHERE id = ?1");
  s.bind(1, row.id).bind(2, row.state).bind(3, row.pid).bind(4, row.exit_code);
  s.bind(5, row.exit_signal).bind(6, row.started_at).bind(7, row.ended_at).bind(8, row.updated_at);
  s.run();
}

void ExecutionRepository::set_sandbox(const std::string& id, const std::string& sandbox) {
  auto s = db_.prepare("UPDATE executions SET sandbox = ?2 WHERE id = ?1");
  s.bind(1, id).bind(2, sandbox);
  s.run();
}

void ExecutionRepository::set_command(const std::string& id, const std::string& command) {
  auto s = db_.prepare("UPDATE executions SET command = ?2 WHERE id = ?1");
  s.bind(1, id).bind(2, command);
  s.run();
}

std::optional<ExecutionRow> ExecutionRepository::find(const std::string& id) {
  auto s = db_.prepare(std::string("SELECT ") + kColumns + " FROM executions WHERE id = ?1");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_row(s);
}

void ExecutionRepository::set_name(const std::string& id, const std::string& name) {
  auto s = db_.prepare("UPDATE executions SET agent_name = ?2 WHERE id = ?1");
  s.bind(1, id).bind(2, name);
  s.run();
}

std::optional<std::string> ExecutionRepository::latest_id() {
  auto s = db_.prepare("SELECT id FROM executions ORDER BY rowid DESC LIMIT 1");
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

std::optional<std::string> ExecutionRepository::latest_named(const std::string& name) {
  auto s =
      db_.prepare("SELECT id FROM executions WHERE agent_name = ?1 ORDER BY rowid DESC LIMIT 1");
  s.bind(1, name);
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

std::vector<std::string> ExecutionRepository::ids_with_prefix(const std::string& prefix,
                                                              std::size_t limit) {
  // A range on the primary key, so the prefix needs no escaping and uses
  // the index (prefix_range.hpp).
  auto s = db_.prepare("SELECT id FROM executions WHERE id >= ?1 AND id < ?3 ORDER BY id LIMIT ?2");
  s.bind(1, prefix).bind(2, static_cast<std::int64_t>(limit)).bind(3, prefix_end(prefix));
  std::vector<std::string> ids;
  while (s.step()) ids.push_back(s.text(0));
  return ids;
}

int ExecutionRepository::mark_launched_lost(std::span<const ExecutionState> states,
                                            std::int64_t now) {
  auto s = db_.prepare(
      "UPDATE executions SET state = 'lost', ended_at = ?2, updated_at = ?2 "
      "WHERE kind = 'launched' AND state = ?1");
  int total = 0;
  for (ExecutionState state : states) {
    s.reset();
    s.bind(1, state).bind(2, now);
    s.run();
    total += db_.changes();
  }
  return total;
}

void ExecutionRepository::remove(const std::string& id) {
  auto s = db_.prepare("DELETE FROM executions WHERE id = ?1");
  s.bind(1, id);
  s.run();
}

Page<ExecutionRow> ExecutionRepository::page(std::optional<ExecutionState> state,
                                             const PageRequest& request) {
  auto s = db_.prepare(std::string("SELECT ") + kColumns +
                       ", rowid FROM executions WHERE (?1 IS NULL OR state = ?1)" +
                       page_clause(request, "rowid", 2, 3));
  s.bind(1, state).bind(2, page_position(request));
  s.bind(3, static_cast<std::int64_t>(request.limit) + 1);
  Page<ExecutionRow> page;
  while (s.step()) {
    if (page.rows.size() == request.limit) {
      page.more = true;
      break;
    }
    page.rows.push_back(read_row(s));
    page.positions.push_back(s.integer(kRowidAfterColumns));
  }
  return page;
}

std::vector<ExecutionRow> ExecutionRepository::list_in_states(
    std::span<const ExecutionState> states) {
  std::vector<ExecutionRow> rows;
  auto s = db_.prepare(std::string("SELECT ") + kColumns + " FROM executions WHERE state = ?1");
  for (ExecutionState state : states) {
    s.reset();
    s.bind(1, state);
    while (s.step()) rows.push_back(read_row(s));
  }
  return rows;
}

ExecutionRepository::Counts ExecutionRepository::count(std::span<const ExecutionState> states) {
  // One statement, so `mission status` opens one read transaction, not two.
  std::string sql = "SELECT count(*), count(*) FILTER (WHERE state IN (";
  for (std::size_t i = 0; i < states.size(); ++i) {
    sql += (i == 0 ? "?" : ", ?") + std::to_string(i + 1);
  }
  if (states.empty()) sql += "NULL";
  sql += ")) FROM executions";
  auto s = db_.prepare(sql);
  for (std::size_t i = 0; i < states.size(); ++i) s.bind(static_cast<int>(i + 1), states[i]);
  s.step();
  return {s.integer(0), s.integer(1)};
}

}  // namespace mission::store
