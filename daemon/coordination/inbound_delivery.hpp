#pragma once
// Delivers the inbound channel (ADR 17) to launched agents that read lines:
// each committed message to such an execution goes to its process through
// execution::Launcher::deliver_inbound, and is then marked read. Agents
// reached over MCP read theirs with the message tools or in the notice of
// their next tool result.

#include <string_view>

#include "daemon/events/event_bus.hpp"
#include "daemon/execution/launcher.hpp"
#include "daemon/store/database.hpp"

namespace mission::daemon::coordination {

class InboundDelivery : public events::EventListener {
 public:
  // Listens on `bus` until destroyed.
  InboundDelivery(store::Database& db, events::EventBus& bus, execution::Launcher& launcher);
  ~InboundDelivery() override;
  InboundDelivery(const InboundDelivery&) = delete;
  InboundDelivery& operator=(const InboundDelivery&) = delete;

  std::string_view listens_to() const override;
  void on_event(const nlohmann::json& event) override;

 private:
  store::Database& db_;
  events::EventBus& bus_;
  execution::Launcher& launcher_;
};

}  // namespace mission::daemon::coordination
