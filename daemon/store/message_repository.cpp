#include "daemon/store/message_repository.hpp"

namespace mission::store {
namespace {

constexpr const char* kColumns =
    "id, message_id, thread_id, sender_execution_id, sender_person, recipient_execution_id, "
    "message_type, subject, body, priority, workflow_id, task_id, reply_to_id, "
    "reply_to_observation_id, created_at, expires_at, read_at, archived_at";

// Unread, for a query whose WHERE clause is open and whose ?1 is "now".
constexpr const char* kUnread =
    " AND read_at IS NULL AND archived_at IS NULL AND (expires_at IS NULL OR expires_at > ?1)";

MessageRow read_row(const Statement& s) {
  MessageRow row;
  row.position = s.integer(0);
  row.id = s.text(1);
  row.thread_id = s.text(2);
  row.sender_execution_id = s.optional_text(3);
  row.sender_person = s.optional_text(4);
  row.recipient_execution_id = s.optional_text(5);
  row.type = s.name<MessageType>(6);
  row.subject = s.optional_text(7);
  row.body = s.text(8);
  row.priority = s.name<MessagePriority>(9);
  row.workflow_id = s.optional_text(10);
  row.task_id = s.optional_text(11);
  row.reply_to_id = s.optional_text(12);
  row.reply_to_observation_id = s.optional_integer(13);
  row.created_at = s.integer(14);
  row.expires_at = s.optional_integer(15);
  row.read_at = s.optional_integer(16);
  row.archived_at = s.optional_integer(17);
  return row;
}

// A JSON array of the names, for json_each.
template <class Enum>
std::optional<std::string> names_json(const std::vector<Enum>& values) {
  if (values.empty()) return std::nullopt;
  nlohmann::json names = nlohmann::json::array();
  for (Enum value : values) names.push_back(name_of(value));
  return names.dump();
}

}  // namespace

std::int64_t MessageRepository::insert(const MessageRow& row) {
  auto s = db_.prepare(
      "INSERT INTO messages (message_id, thread_id, sender_execution_id, sender_person, "
      "recipient_execution_id, message_type, subject, body, priority, workflow_id, task_id, "
      "reply_to_id, reply_to_observation_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, "
      "?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15) RETURNING id");
  s.bind(1, row.id).bind(2, row.thread_id).bind(3, row.sender_execution_id);
  s.bind(4, row.sender_person).bind(5, row.recipient_execution_id).bind(6, row.type);
  s.bind(7, row.subject).bind(8, row.body).bind(9, row.priority).bind(10, row.workflow_id);
  s.bind(11, row.task_id).bind(12, row.reply_to_id).bind(13, row.reply_to_observation_id);
  s.bind(14, row.created_at).bind(15, row.expires_at);
  s.step();
  return s.integer(0);
}

std::optional<MessageRow> MessageRepository::find(const std::string& id) {
  auto s = db_.prepare(std::string("SELECT ") + kColumns + " FROM messages WHERE message_id = ?1");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return read_row(s);
}

Page<MessageRow> MessageRepository::page(const MessageFilter& filter, const PageRequest& request) {
  std::string sql = std::string("SELECT ") + kColumns +
                    " FROM messages WHERE ((recipient_execution_id IS NOT DISTINCT FROM ?2";
  if (filter.state == MessageState::unread) sql += kUnread;
  if (filter.state == MessageState::read) sql += " AND read_at IS NOT NULL AND archived_at IS NULL";
  if (filter.state == MessageState::all) sql += " AND archived_at IS NULL";
  sql += ")";
  if (filter.include_sent && filter.thread_id && filter.recipient) {
    sql += " OR (sender_execution_id = ?2 AND thread_id = ?6)";
  }
  sql += ")";
  sql +=
      " AND (?3 IS NULL OR message_type IN (SELECT value FROM json_each(?3)))"
      " AND (?4 IS NULL OR priority IN (SELECT value FROM json_each(?4)))"
      " AND (?5 IS NULL OR workflow_id = ?5) AND (?6 IS NULL OR thread_id = ?6)"
      " AND (?7 IS NULL OR created_at >= ?7)";
  sql += page_clause(request, "id", 8, 9);
  auto s = db_.prepare(sql);
  s.bind(1, filter.now).bind(2, filter.recipient).bind(3, names_json(filter.types));
  s.bind(4, names_json(filter.priorities)).bind(5, filter.workflow_id).bind(6, filter.thread_id);
  s.bind(7, filter.since_ms).bind(8, page_position(request));
  s.bind(9, static_cast<std::int64_t>(request.limit) + 1);
  Page<MessageRow> page;
  while (s.step()) {
    if (page.rows.size() == request.limit) {
      page.more = true;
      break;
    }
    page.rows.push_back(read_row(s));
    page.positions.push_back(page.rows.back().position);
  }
  return page;
}

std::map<std::string, std::int64_t> MessageRepository::count_unread(
    const std::optional<std::string>& recipient, std::int64_t now) {
  // The kept counts (migration 16), less the counted messages that have
  // expired since, which the index of expiring messages finds alone.
  std::map<std::string, std::int64_t> counts;
  auto kept = db_.prepare(
      "SELECT priority, unread FROM message_unread_counts WHERE recipient = coalesce(?1, '')");
  kept.bind(1, recipient);
  while (kept.step()) counts[kept.text(0)] = kept.integer(1);
  // One range of the index per priority counted: no sort, no row read.
  for (auto& [priority, count] : counts) {
    auto expired = db_.prepare(
        "SELECT count(*) FROM messages WHERE recipient_execution_id IS NOT DISTINCT FROM ?2 AND "
        "priority = ?3 "
        "AND read_at IS NULL AND archived_at IS NULL AND expires_at IS NOT NULL AND expires_at <= "
        "?1");
    expired.bind(1, now).bind(2, recipient).bind(3, priority);
    expired.step();
    count -= expired.integer(0);
  }
  std::erase_if(counts, [](const auto& entry) { return entry.second <= 0; });
  return counts;
}

std::vector<MessageRow> MessageRepository::unread(const std::string& recipient, std::int64_t now,
                                                  std::size_t limit) {
  auto s = db_.prepare(std::string("SELECT ") + kColumns +
                       " FROM messages WHERE recipient_execution_id = ?2" + kUnread +
                       " ORDER BY id LIMIT ?3");
  s.bind(1, now).bind(2, recipient).bind(3, static_cast<std::int64_t>(limit));
  std::vector<MessageRow> rows;
  while (s.step()) rows.push_back(read_row(s));
  return rows;
}

std::map<std::string, std::int64_t> MessageRepository::unread_by_execution(
    const std::string& execution_ids, std::int64_t now) {
  std::map<std::string, std::int64_t> counts;
  auto kept = db_.prepare(
      "SELECT recipient, sum(unread) FROM message_unread_counts "
      "WHERE recipient IN (SELECT value FROM json_each(?1)) GROUP BY recipient");
  kept.bind(1, execution_ids);
  while (kept.step()) counts[kept.text(0)] = kept.integer(1);
  auto expired = db_.prepare(
      "SELECT recipient_execution_id, count(*) FROM messages WHERE recipient_execution_id IN "
      "(SELECT value FROM json_each(?2)) AND read_at IS NULL AND archived_at IS NULL "
      "AND expires_at IS NOT NULL AND expires_at <= ?1 GROUP BY recipient_execution_id");
  expired.bind(1, now).bind(2, execution_ids);
  while (expired.step()) counts[expired.text(0)] -= expired.integer(1);
  std::erase_if(counts, [](const auto& entry) { return entry.second <= 0; });
  return counts;
}

std::int64_t MessageRepository::newest_position(const std::string& recipient) {
  auto s =
      db_.prepare("SELECT coalesce(max(id), 0) FROM messages WHERE recipient_execution_id = ?1");
  s.bind(1, recipient);
  s.step();
  return s.integer(0);
}

void MessageRepository::mark_read(const std::string& id, std::int64_t now) {
  auto s = db_.prepare("UPDATE messages SET read_at = coalesce(read_at, ?2) WHERE message_id = ?1");
  s.bind(1, id).bind(2, now);
  s.run();
}

void MessageRepository::archive(const std::string& id, std::int64_t now) {
  auto s = db_.prepare(
      "UPDATE messages SET archived_at = coalesce(archived_at, ?2), read_at = coalesce(read_at, "
      "?2) "
      "WHERE message_id = ?1");
  s.bind(1, id).bind(2, now);
  s.run();
}

}  // namespace mission::store
