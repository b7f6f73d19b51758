#pragma once
// Persistence of messages between agents and people (the messages table,
// ADR 17). An execution id names an agent; a recipient of nullopt is the
// people's inbox (`mission inbox`). Unread means neither read, archived
// nor expired.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "daemon/store/database.hpp"
#include "daemon/store/page.hpp"
#include "shared/vocabulary.hpp"

namespace mission::store {

struct MessageRow {
  std::int64_t position = 0;  // rowid: pages and after_cursor
  std::string id;             // ms-...
  std::string thread_id;
  std::optional<std::string> sender_execution_id;
  std::optional<std::string> sender_person;
  std::optional<std::string> recipient_execution_id;  // nullopt: people
  MessageType type = MessageType::notification;
  std::optional<std::string> subject;
  std::string body;  // a JSON value
  MessagePriority priority = MessagePriority::normal;
  std::optional<std::string> workflow_id;
  std::optional<std::string> task_id;
  std::optional<std::string> reply_to_id;
  std::optional<std::int64_t> reply_to_observation_id;
  std::int64_t created_at = 0;
  std::optional<std::int64_t> expires_at;
  std::optional<std::int64_t> read_at;
  std::optional<std::int64_t> archived_at;
};

enum class MessageState { unread, read, all };

struct MessageFilter {
  std::optional<std::string> recipient;  // nullopt: people
  MessageState state = MessageState::unread;
  std::vector<MessageType> types;  // empty: any
  std::vector<MessagePriority> priorities;
  std::optional<std::string> workflow_id;
  std::optional<std::string> thread_id;
  // With thread_id: the messages `recipient` sent in the thread too (whatever
  // their state), so a thread reads as both halves of the conversation.
  bool include_sent = false;
  std::optional<std::int64_t> since_ms;
  std::int64_t now = 0;  // for expiry
};

class MessageRepository {
 public:
  explicit MessageRepository(Database& db) : db_(db) {}

  // Stores `row` and returns its position.
  std::int64_t insert(const MessageRow& row);
  std::optional<MessageRow> find(const std::string& id);
  Page<MessageRow> page(const MessageFilter& filter, const PageRequest& request);
  // Unread messages of `recipient` by priority name: the counts the
  // triggers of migration 16 keep, less those that have expired since
  // (read from an index of the expiring ones); never a scan of the backlog.
  std::map<std::string, std::int64_t> count_unread(const std::optional<std::string>& recipient,
                                                   std::int64_t now);
  // The oldest `limit` unread messages of an execution, oldest first.
  std::vector<MessageRow> unread(const std::string& recipient, std::int64_t now, std::size_t limit);
  // Unread messages of each of `execution_ids` (a JSON array text), from
  // the same kept counts.
  std::map<std::string, std::int64_t> unread_by_execution(const std::string& execution_ids,
                                                          std::int64_t now);
  // The position of the newest message to `recipient`, or 0.
  std::int64_t newest_position(const std::string& recipient);
  void mark_read(const std::string& id, std::int64_t now);
  void archive(const std::string& id, std::int64_t now);

 private:
  Database& db_;
};

}  // namespace mission::store
