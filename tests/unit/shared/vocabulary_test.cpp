// One vocabulary: each enum's name table round-trips, and the schemas name
// exactly the values the tables have.

#include "shared/vocabulary.hpp"

#include <catch2/catch.hpp>
#include <set>

#include "shared/schema_registry.hpp"

using mission::SchemaRegistry;
using nlohmann::json;

namespace {

template <class Enum>
std::set<std::string> names() {
  std::set<std::string> out;
  for (const auto& entry : mission::vocabulary<Enum>()) out.emplace(entry.name);
  return out;
}

template <class Enum>
void round_trips() {
  for (const auto& entry : mission::vocabulary<Enum>()) {
    INFO(entry.name);
    CHECK(mission::name_of(entry.value) == entry.name);
    CHECK(mission::parse_name<Enum>(entry.name) == entry.value);
    CHECK(json(entry.value) == std::string(entry.name));
    CHECK(json(std::string(entry.name)).get<Enum>() == entry.value);
  }
  CHECK_FALSE(mission::parse_name<Enum>("no-such-name").has_value());
}

std::set<std::string> schema_enum(const std::string& id, const std::string& pointer) {
  const json& schema = SchemaRegistry::embedded().resolved(id);
  std::set<std::string> out;
  for (const auto& value : schema.at(json::json_pointer(pointer)))
    out.insert(value.get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("every vocabulary's names round-trip through its table and JSON") {
  round_trips<mission::ExecutionState>();
  round_trips<mission::ExecutionKind>();
  round_trips<mission::Delivery>();
  round_trips<mission::Toolset>();
  round_trips<mission::SignalType>();
  round_trips<mission::ObservationStatus>();
  round_trips<mission::MissionKind>();
  round_trips<mission::MissionStatus>();
  round_trips<mission::PhaseStatus>();
  round_trips<mission::TaskStatus>();
  round_trips<mission::CheckpointType>();
  round_trips<mission::AgentRole>();
  round_trips<mission::AgentStatus>();
  round_trips<mission::MessageType>();
  round_trips<mission::MessagePriority>();
  CHECK(mission::names_list<mission::Delivery>() == "stdout-marker or mcp-tool");
}

TEST_CASE("the schemas name exactly the vocabulary's values") {
  using namespace mission;
  CHECK(schema_enum("control/execution.list.params", "/properties/state/enum") ==
        names<ExecutionState>());
  CHECK(schema_enum("control/execution.launch.params", "/properties/delivery/enum") ==
        names<Delivery>());
  CHECK(schema_enum("control/execution.create.params", "/properties/delivery/enum") ==
        names<Delivery>());
  CHECK(schema_enum("markers/envelope", "/properties/signal/properties/type/enum") ==
        names<SignalType>());
  // complete_task ends a task: every final status but skipped, which only
  // task_update_status gives a planned task.
  std::set<std::string> ended;
  for (const auto& entry : vocabulary<TaskStatus>()) {
    if (is_final(entry.value) && entry.value != TaskStatus::skipped) ended.emplace(entry.name);
  }
  CHECK(schema_enum("tools/complete_task.input", "/properties/status/enum") == ended);
  // complete_mission ends a mission: its final statuses.
  std::set<std::string> final_statuses;
  for (const auto& entry : vocabulary<MissionStatus>()) {
    // cancelled is workflow_update_status's word, not complete_mission's.
    if (is_final(entry.value) && entry.value != MissionStatus::cancelled) {
      final_statuses.emplace(entry.name);
    }
  }
  CHECK(schema_enum("tools/complete_mission.input", "/properties/status/enum") == final_statuses);
  CHECK(schema_enum("signals/ack", "/properties/status/enum") == names<ObservationStatus>());
  CHECK(schema_enum("tools/agent_register.input", "/properties/role/enum") == names<AgentRole>());
  CHECK(schema_enum("tools/agent_update.input", "/properties/status/enum") == names<AgentStatus>());
  CHECK(schema_enum("tools/message_send.input", "/properties/message_type/enum") ==
        names<MessageType>());
  CHECK(schema_enum("tools/message_send.input", "/properties/priority/enum") ==
        names<MessagePriority>());
  CHECK(schema_enum("control/agent.list.params", "/properties/status/items/enum") ==
        names<AgentStatus>());
}
