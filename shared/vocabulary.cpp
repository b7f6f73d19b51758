#include "shared/vocabulary.hpp"

#include <array>

namespace mission {

#define MISSION_VOCABULARY(Enum, ...)                                \
  template <>                                                        \
  std::span<const VocabularyEntry<Enum>> vocabulary<Enum>() {        \
    static constexpr VocabularyEntry<Enum> kTable[] = {__VA_ARGS__}; \
    return kTable;                                                   \
  }

MISSION_VOCABULARY(ExecutionState, {ExecutionState::created, "created"},
                   {ExecutionState::launching, "launching"}, {ExecutionState::running, "running"},
                   {ExecutionState::awaiting_input, "awaiting_input"},
                   {ExecutionState::awaiting_permission, "awaiting_permission"},
                   {ExecutionState::idle, "idle"}, {ExecutionState::blocked, "blocked"},
                   {ExecutionState::completed, "completed"}, {ExecutionState::failed, "failed"},
                   {ExecutionState::cancelled, "cancelled"}, {ExecutionState::lost, "lost"})

MISSION_VOCABULARY(ExecutionKind, {ExecutionKind::launched, "launched"},
                   {ExecutionKind::external, "external"}, {ExecutionKind::attached, "attached"})

MISSION_VOCABULARY(Delivery, {Delivery::stdout_marker, "stdout-marker"},
                   {Delivery::mcp_tool, "mcp-tool"})

MISSION_VOCABULARY(Toolset, {Toolset::signals, "signals"}, {Toolset::tracking, "tracking"},
                   {Toolset::legacy, "legacy"}, {Toolset::inspect, "inspect"},
                   {Toolset::planning, "planning"}, {Toolset::templates, "templates"},
                   {Toolset::coordination, "coordination"}, {Toolset::workspaces, "workspaces"},
                   {Toolset::control, "control"})

MISSION_VOCABULARY(SignalType, {SignalType::progress, "progress"},
                   {SignalType::needs_input, "needs_input"}, {SignalType::blocked, "blocked"},
                   {SignalType::ready_for_verification, "ready_for_verification"},
                   {SignalType::completed_claim, "completed_claim"},
                   {SignalType::failed_claim, "failed_claim"}, {SignalType::message, "message"})

MISSION_VOCABULARY(ObservationStatus, {ObservationStatus::accepted, "accepted"},
                   {ObservationStatus::duplicate, "duplicate"},
                   {ObservationStatus::rejected, "rejected"},
                   {ObservationStatus::recorded_only, "recorded-only"},
                   {ObservationStatus::promoted, "promoted"})

MISSION_VOCABULARY(MissionKind, {MissionKind::mission, "mission"},
                   {MissionKind::workflow, "workflow"}, {MissionKind::planned, "planned"})

MISSION_VOCABULARY(MissionStatus, {MissionStatus::planning, "planning"},
                   {MissionStatus::ready, "ready"}, {MissionStatus::pending, "pending"},
                   {MissionStatus::in_progress, "in_progress"}, {MissionStatus::blocked, "blocked"},
                   {MissionStatus::paused, "paused"}, {MissionStatus::completed, "completed"},
                   {MissionStatus::failed, "failed"}, {MissionStatus::partial, "partial"},
                   {MissionStatus::cancelled, "cancelled"})

MISSION_VOCABULARY(PhaseStatus, {PhaseStatus::pending, "pending"},
                   {PhaseStatus::in_progress, "in_progress"}, {PhaseStatus::completed, "completed"},
                   {PhaseStatus::failed, "failed"})

MISSION_VOCABULARY(TaskStatus, {TaskStatus::pending, "pending"},
                   {TaskStatus::in_progress, "in_progress"}, {TaskStatus::success, "success"},
                   {TaskStatus::partial_success, "partial_success"}, {TaskStatus::failed, "failed"},
                   {TaskStatus::skipped, "skipped"})

MISSION_VOCABULARY(CheckpointType, {CheckpointType::plan, "plan"},
                   {CheckpointType::progress, "progress"}, {CheckpointType::decision, "decision"},
                   {CheckpointType::error, "error"}, {CheckpointType::recovery, "recovery"},
                   {CheckpointType::complete, "complete"}, {CheckpointType::replan, "replan"})

MISSION_VOCABULARY(AgentRole, {AgentRole::coordinator, "coordinator"},
                   {AgentRole::worker, "worker"})

MISSION_VOCABULARY(AgentStatus, {AgentStatus::online, "online"}, {AgentStatus::busy, "busy"},
                   {AgentStatus::offline, "offline"})

MISSION_VOCABULARY(MessageType, {MessageType::task_assignment, "task_assignment"},
                   {MessageType::status_update, "status_update"}, {MessageType::query, "query"},
                   {MessageType::response, "response"}, {MessageType::notification, "notification"})

MISSION_VOCABULARY(MessagePriority, {MessagePriority::low, "low"},
                   {MessagePriority::normal, "normal"}, {MessagePriority::high, "high"},
                   {MessagePriority::urgent, "urgent"})

MISSION_VOCABULARY(WorkspaceStatus, {WorkspaceStatus::active, "active"},
                   {WorkspaceStatus::merged, "merged"}, {WorkspaceStatus::abandoned, "abandoned"},
                   {WorkspaceStatus::removed, "removed"})
MISSION_VOCABULARY(RunStatus, {RunStatus::running, "running"}, {RunStatus::stopping, "stopping"},
                   {RunStatus::stopped, "stopped"}, {RunStatus::completed, "completed"},
                   {RunStatus::failed, "failed"}, {RunStatus::partial, "partial"})
MISSION_VOCABULARY(AttemptStatus, {AttemptStatus::running, "running"},
                   {AttemptStatus::judging, "judging"},
                   {AttemptStatus::awaiting_approval, "awaiting_approval"},
                   {AttemptStatus::queued, "queued"}, {AttemptStatus::merged, "merged"},
                   {AttemptStatus::failed, "failed"}, {AttemptStatus::conflicted, "conflicted"},
                   {AttemptStatus::stopped, "stopped"},
                   {AttemptStatus::budget_reached, "budget_reached"})

#undef MISSION_VOCABULARY

bool is_final(ExecutionState state) {
  return state == ExecutionState::completed || state == ExecutionState::failed ||
         state == ExecutionState::cancelled || state == ExecutionState::lost;
}

std::span<const ExecutionState> active_execution_states() {
  static constexpr ExecutionState kActive[] = {
      ExecutionState::created,        ExecutionState::launching,           ExecutionState::running,
      ExecutionState::awaiting_input, ExecutionState::awaiting_permission, ExecutionState::idle,
      ExecutionState::blocked};
  return kActive;
}

bool is_final(MissionStatus status) {
  return status == MissionStatus::completed || status == MissionStatus::failed ||
         status == MissionStatus::partial || status == MissionStatus::cancelled;
}

bool is_final(TaskStatus status) {
  return status != TaskStatus::in_progress && status != TaskStatus::pending;
}

bool is_final(RunStatus status) {
  return status != RunStatus::running && status != RunStatus::stopping;
}

bool is_done(TaskStatus status) {
  return status == TaskStatus::success || status == TaskStatus::partial_success ||
         status == TaskStatus::skipped;
}

}  // namespace mission
