// Agents and messages on a real SQLite file (ADR 17): every agent tool is
// bound to its caller, messages keep their state across a reopen, the
// unread notice says what is waiting, and an answer puts a waiting
// execution back to running.

#include "daemon/coordination/coordination.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <random>

#include "daemon/events/event_bus.hpp"
#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/message_repository.hpp"
#include "daemon/store/migrations.hpp"
#include "daemon/store/observation_repository.hpp"
#include "shared/error_code.hpp"
#include "support/sample_rows.hpp"
#include "support/temp_dir.hpp"

using namespace mission;
using namespace mission::daemon;
using nlohmann::json;

namespace {

struct Fixture {
  test::TempDir dir;
  std::unique_ptr<store::Database> db;
  events::EventBus bus;

  Fixture() { open(); }
  void open() {
    db = std::make_unique<store::Database>(dir.path() / "mission.db");
    store::migrate(*db);
  }
  void add_execution(const std::string& id, ExecutionState state = ExecutionState::running) {
    store::ExecutionRepository(*db).insert(test::sample_execution(id, state, Delivery::mcp_tool));
  }
  template <class Request, class Function>
  json as(const std::string& caller_id, Function function, const Request& request) {
    events::EventBatch batch(bus);
    coordination::Caller caller{*db, caller_id, batch};
    return function(caller, request);
  }
};

ErrorCode code_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const MissionError& e) {
    return e.code();
  }
  FAIL("no MissionError");
  return ErrorCode::internal;
}

coordination::MessageSendRequest text_to(const std::string& recipient, const std::string& text) {
  coordination::MessageSendRequest request;
  request.recipient_id = recipient;
  request.content.type = MessageType::query;
  request.content.body = json(text).dump();
  return request;
}

}  // namespace

TEST_CASE("an agent registers as its own execution and cannot act as another") {
  Fixture f;
  f.add_execution("ae-a");
  f.add_execution("ae-b");
  coordination::AgentRegisterRequest registration;
  registration.name = "builder";
  registration.runtime = "custom";
  registration.capabilities = {"cpp"};
  json registered = f.as("ae-a", coordination::agent_register, registration);
  CHECK(registered["id"] == "ae-a");
  CHECK(registered["status"] == "online");
  CHECK(registered["next_heartbeat_ms"] == 30000);

  coordination::AgentHeartbeatRequest beat;
  beat.agent_id = "ae-b";
  CHECK(code_of([&] { f.as("ae-a", coordination::agent_heartbeat, beat); }) ==
        ErrorCode::forbidden);
  coordination::AgentIdRequest other{"ae-b"};
  CHECK(code_of([&] { f.as("ae-a", coordination::agent_unregister, other); }) ==
        ErrorCode::forbidden);
  coordination::MessageListRequest list;
  list.agent_id = "ae-b";
  CHECK(code_of([&] { f.as("ae-a", coordination::message_list, list); }) == ErrorCode::forbidden);
  auto send = text_to("ae-b", "hi");
  send.sender_id = "ae-b";
  CHECK(code_of([&] { f.as("ae-a", coordination::message_send, send); }) == ErrorCode::forbidden);

  // Reading another agent is fine; one that never registered is not found.
  coordination::AgentIdRequest self{"ae-a"};
  CHECK(f.as("ae-b", coordination::agent_get, self)["name"] == "builder");
  CHECK(code_of([&] { f.as("ae-a", coordination::agent_get, other); }) == ErrorCode::not_found);

  coordination::AgentListRequest all;
  all.page.limit = 10;
  json agents = coordination::agent_list(*f.db, all);
  REQUIRE(agents["agents"].size() == 1);
  CHECK(agents["agents"][0]["capabilities"] == json::array({"cpp"}));
  all.status = {AgentStatus::offline};
  CHECK(coordination::agent_list(*f.db, all)["agents"].empty());
}

TEST_CASE("messages are threaded, read, archived, counted, and survive a reopen") {
  Fixture f;
  f.add_execution("ae-a");
  f.add_execution("ae-b");
  json sent = f.as("ae-a", coordination::message_send, text_to("ae-b", "which port?"));
  auto reply = text_to("ae-a", "8080");
  reply.reply_to_id = sent["id"].get<std::string>();
  json replied = f.as("ae-b", coordination::message_send, reply);
  CHECK(replied["thread_id"] == sent["thread_id"]);

  // A third agent may neither read nor mark them.
  f.add_execution("ae-c");
  coordination::MessageGetRequest get{sent["id"], true};
  CHECK(code_of([&] { f.as("ae-c", coordination::message_get, get); }) == ErrorCode::forbidden);
  coordination::MessageIdsRequest ids{{sent["id"]}};
  CHECK(code_of([&] { f.as("ae-a", coordination::message_mark_read, ids); }) ==
        ErrorCode::forbidden);

  f.open();  // durable: a new connection to the same file sees it all
  coordination::MessageCountRequest count;
  CHECK(f.as("ae-b", coordination::message_count_unread, count)["count"] == 1);
  auto notice = coordination::unread_notice(*f.db, "ae-b", true);
  REQUIRE(notice);
  CHECK(notice->find("which port?") != std::string::npos);
  CHECK(notice->find("message_list") != std::string::npos);

  f.as("ae-b", coordination::message_mark_read, ids);
  CHECK(f.as("ae-b", coordination::message_count_unread, count)["count"] == 0);
  CHECK_FALSE(coordination::unread_notice(*f.db, "ae-b", true));
  coordination::MessageListRequest read;
  read.status = "read";
  read.page.limit = 20;
  CHECK(f.as("ae-b", coordination::message_list, read)["messages"].size() == 1);
  f.as("ae-b", coordination::message_archive, ids);
  CHECK(f.as("ae-b", coordination::message_list, read)["messages"].empty());

  // Without the message tools the notice carries the message and reads it.
  auto unread_for_a = coordination::unread_notice(*f.db, "ae-a", false);
  REQUIRE(unread_for_a);
  CHECK(unread_for_a->find("8080") != std::string::npos);
  CHECK_FALSE(coordination::unread_notice(*f.db, "ae-a", false));
}

TEST_CASE("a message to a final execution or to nobody is refused") {
  Fixture f;
  f.add_execution("ae-a");
  f.add_execution("ae-done", ExecutionState::completed);
  CHECK(code_of([&] { f.as("ae-a", coordination::message_send, text_to("ae-done", "x")); }) ==
        ErrorCode::execution_final);
  CHECK(code_of([&] { f.as("ae-a", coordination::message_send, text_to("ae-none", "x")); }) ==
        ErrorCode::not_found);
  CHECK(f.as("ae-a", coordination::message_send, text_to("person", "done"))["id"].is_string());
}

TEST_CASE("an answer replies to the open question and puts the execution back to running") {
  Fixture f;
  f.add_execution("ae-q", ExecutionState::awaiting_input);
  store::ObservationRow question;
  question.execution_id = "ae-q";
  question.event_id = "ev-1";
  question.origin = "mcp-tool";
  question.kind = "needs_input";
  question.payload = R"({"type":"needs_input","question":"Keep it?","choices":["yes","no"]})";
  question.created_at = 1;
  const std::int64_t observation = *store::ObservationRepository(*f.db).insert_unique(question);

  events::EventBatch batch(f.bus);
  coordination::PersonMessage answer{"alice", "ae-q", "", MessagePriority::high, std::nullopt};
  CHECK(code_of([&] { coordination::person_answer(*f.db, batch, answer, 3, nullptr); }) ==
        ErrorCode::invalid_argument);
  json answered = coordination::person_answer(*f.db, batch, answer, 2, nullptr);
  CHECK(answered["message"]["body"] == "no");
  CHECK(answered["message"]["replyToObservationId"] == observation);
  CHECK(store::ExecutionRepository(*f.db).find("ae-q")->state == ExecutionState::running);
  // Nothing is open any more.
  CHECK(code_of([&] { coordination::person_answer(*f.db, batch, answer, 1, nullptr); }) ==
        ErrorCode::invalid_argument);

  coordination::MessageWaitRequest wait;
  json ready = *coordination::message_wait_ready(*f.db, "ae-q", wait);
  CHECK(ready["messages"][0]["body"] == "no");
  CHECK(ready["timed_out"] == false);
  wait.after = std::stoll(ready["after_cursor"].get<std::string>());
  CHECK_FALSE(coordination::message_wait_ready(*f.db, "ae-q", wait));
}

TEST_CASE(
    "unread counts kept by the store equal a count of the messages, whatever happens to them") {
  Fixture f;
  const std::vector<std::string> agents = {"ae-a", "ae-b", "ae-c"};
  for (const auto& id : agents) f.add_execution(id);
  store::MessageRepository messages(*f.db);
  std::mt19937 rng(7);
  const std::int64_t now = 1'000'000;
  // The count as a scan of the messages would give it.
  auto scanned = [&](const std::optional<std::string>& recipient, std::int64_t at) {
    auto s = f.db->prepare(
        "SELECT priority, count(*) FROM messages WHERE recipient_execution_id IS ?1 AND read_at IS "
        "NULL "
        "AND archived_at IS NULL AND (expires_at IS NULL OR expires_at > ?2) GROUP BY priority");
    s.bind(1, recipient).bind(2, at);
    std::map<std::string, std::int64_t> counts;
    while (s.step()) counts[s.text(0)] = s.integer(1);
    return counts;
  };
  std::vector<std::string> ids;
  std::vector<std::optional<std::string>> recipients = {std::nullopt};
  for (const auto& id : agents) recipients.push_back(id);
  const MessagePriority priorities[] = {MessagePriority::low, MessagePriority::normal,
                                        MessagePriority::urgent};
  for (int step = 0; step < 600; ++step) {
    const int action = static_cast<int>(rng() % 10);
    if (action < 6 || ids.empty()) {
      store::MessageRow row;
      row.id = "ms-" + std::to_string(step);
      row.thread_id = row.id;
      row.recipient_execution_id = recipients[rng() % recipients.size()];
      row.sender_person = "p";
      row.body = "\"hi\"";
      row.priority = priorities[rng() % 3];
      row.created_at = now - 10;
      if (rng() % 3 == 0) row.expires_at = now - 500 + static_cast<std::int64_t>(rng() % 1000);
      messages.insert(row);
      ids.push_back(row.id);
    } else if (action < 8) {
      messages.mark_read(ids[rng() % ids.size()], now);
    } else {
      messages.archive(ids[rng() % ids.size()], now);
    }
    if (step % 50 != 0) continue;
    for (const auto& recipient : recipients) {
      for (std::int64_t at : {now - 600, now, now + 600}) {
        INFO("step " << step << " recipient " << recipient.value_or("people") << " at " << at);
        CHECK(messages.count_unread(recipient, at) == scanned(recipient, at));
      }
    }
  }
  json ids_json = agents;
  auto by_execution = messages.unread_by_execution(ids_json.dump(), now);
  for (const auto& id : agents) {
    std::int64_t total = 0;
    for (const auto& [priority, n] : scanned(id, now)) total += n;
    CHECK(by_execution[id] == total);
  }
  // An execution removed takes its messages, and its counts, with it.
  store::ExecutionRepository(*f.db).remove("ae-b");
  CHECK(messages.count_unread(std::string("ae-b"), now).empty());
  auto left = f.db->prepare("SELECT count(*) FROM message_unread_counts WHERE recipient = 'ae-b'");
  left.step();
  CHECK(left.integer(0) == 0);
  CHECK(messages.count_unread(std::string("ae-a"), now) == scanned(std::string("ae-a"), now));
}
