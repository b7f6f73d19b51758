#include "daemon/coordination/inbound_delivery.hpp"

#include "daemon/coordination/coordination.hpp"
#include "daemon/store/message_repository.hpp"
#include "shared/clock.hpp"

namespace mission::daemon::coordination {

InboundDelivery::InboundDelivery(store::Database& db, events::EventBus& bus,
                                 execution::Launcher& launcher)
    : db_(db), bus_(bus), launcher_(launcher) {
  bus_.add_listener(*this);
}

InboundDelivery::~InboundDelivery() {
  bus_.remove_listener(*this);
}

std::string_view InboundDelivery::listens_to() const {
  return kMessageCreated;
}

void InboundDelivery::on_event(const nlohmann::json& event) {
  const std::string recipient = event.value("recipientId", "");
  if (recipient.empty() || !launcher_.owns(recipient)) return;
  const std::string id = event.contains("message") ? event.at("message").value("id", "") : "";
  store::MessageRepository messages(db_);
  auto row = messages.find(id);
  if (!row || row->read_at) return;
  const bool press_enter = event.value(kPressEnterField, true);
  if (!launcher_.deliver_inbound(recipient, inbound_line(*row), press_enter)) return;
  // On its stdin is as read as it gets: the process has it.
  store::Transaction transaction(db_);
  messages.mark_read(row->id, unix_ms_now());
  transaction.commit();
}

}  // namespace mission::daemon::coordination
