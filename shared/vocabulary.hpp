#pragma once
// The words mission uses for states, kinds and statuses, each one enum with
// one name table (shared/vocabulary.cpp), as error_code.cpp does for error
// codes. The names are the wire and storage spelling: the schemas, the
// SQLite CHECK constraints and the CLI all use exactly these (tests tie
// each of them to the tables).

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

namespace mission {

// An AgentExecution's life (DESIGN.md section 6): completed, failed,
// cancelled and lost are final. The store keeps the names, not these values.
enum class ExecutionState {
  created,
  launching,
  running,
  awaiting_input,
  blocked,
  completed,
  failed,
  cancelled,
  lost,
  // A permission request of the agent's is unanswered (over ACP, where the
  // agent says so); a menu read off a screen leaves the state as it is.
  awaiting_permission,
  // Between the turns of a session that stays open (over ACP): its last
  // turn ended, the process waits for the next prompt.
  idle,
};

// How an execution came to be: the daemon spawned it, it was created to be
// launched elsewhere, or an MCP client attached without an id.
enum class ExecutionKind { launched, external, attached };

// How an execution's signals reach the daemon.
enum class Delivery { stdout_marker, mcp_tool };

// Groups of MCP tools a session may be granted (DESIGN.md section 5).
// `control` launches and steers other agents (docs/adr/0025): only a
// descriptor that names it grants it, never a default.
enum class Toolset {
  signals,
  tracking,
  legacy,
  inspect,
  planning,
  templates,
  coordination,
  workspaces,
  control
};

// The seven signals an agent sends (DESIGN.md section 6).
enum class SignalType {
  progress,
  needs_input,
  blocked,
  ready_for_verification,
  completed_claim,
  failed_claim,
  message,
};

// An observation's acknowledgement status. `duplicate` is only ever an
// answer: the stored row keeps the status of its first recording.
enum class ObservationStatus { accepted, duplicate, rejected, recorded_only, promoted };

// A tracked record: a mission (seed 000), a workflow (seed 001) or a
// planned workflow (seed 003; docs/adr/0015).
enum class MissionKind { mission, workflow, planned };

// A mission's status (seed 000's MissionStatus, with complete_mission's
// `partial`). `blocked` holds while a blocker is open. A planned workflow
// goes planning -> ready -> in_progress (docs/adr/0015); paused and
// cancelled come from workflow_update_status.
enum class MissionStatus {
  planning,
  ready,
  pending,
  in_progress,
  blocked,
  paused,
  completed,
  failed,
  partial,
  cancelled,
};

// A phase's status (seed 000's PhaseStatus).
enum class PhaseStatus { pending, in_progress, completed, failed };

// A task's status (seed 000's TaskStatus, with a planned task's pending
// and skipped; docs/adr/0015).
enum class TaskStatus { pending, in_progress, success, partial_success, failed, skipped };

// The kinds of a checkpoint in a task's journal (seed 003's CheckpointType,
// with task_replan's replan).
enum class CheckpointType { plan, progress, decision, error, recovery, complete, replan };

// An agent's part in a team (seed 003's agent role).
enum class AgentRole { coordinator, worker };

// What an agent says of itself; `offline` once it unregisters, its
// execution ends, or (external agents) its heartbeats stop.
enum class AgentStatus { online, busy, offline };

// Seed 003's message types.
enum class MessageType { task_assignment, status_update, query, response, notification };

// Seed 003's message priorities, lowest first.
enum class MessagePriority { low, normal, high, urgent };

// A workspace (git worktree) of a workflow: seed 003's active, merged and
// abandoned, and removed once mission took its worktree away.
enum class WorkspaceStatus { active, merged, abandoned, removed };

// A workflow run (docs/adr/0023): the daemon dispatching agents onto a
// workflow's ready tasks. running and stopping are live; the others final.
enum class RunStatus { running, stopping, stopped, completed, failed, partial };

// One attempt at one task in a run: its agent runs, then it is judged
// (exit, claims, scope, check), waits for a person's approval when the
// run asks for one (--approve), waits in the merge queue once it passed,
// and ends merged, failed (retried while attempts remain; a rejection is a
// failure), conflicted (blocked: its merge would conflict), stopped
// with the run, or budget_reached (its task's or its run's token or cost
// budget was used up: the task waits for a person to raise it, neither
// failed nor retried; docs/adr/0049).
enum class AttemptStatus {
  running,
  judging,
  awaiting_approval,
  queued,
  merged,
  failed,
  conflicted,
  stopped,
  budget_reached
};

template <class Enum>
struct VocabularyEntry {
  Enum value;
  std::string_view name;
};

// Every value of `Enum` with its name, in declaration order.
template <class Enum>
std::span<const VocabularyEntry<Enum>> vocabulary();
template <>
std::span<const VocabularyEntry<ExecutionState>> vocabulary<ExecutionState>();
template <>
std::span<const VocabularyEntry<ExecutionKind>> vocabulary<ExecutionKind>();
template <>
std::span<const VocabularyEntry<Delivery>> vocabulary<Delivery>();
template <>
std::span<const VocabularyEntry<Toolset>> vocabulary<Toolset>();
template <>
std::span<const VocabularyEntry<SignalType>> vocabulary<SignalType>();
template <>
std::span<const VocabularyEntry<ObservationStatus>> vocabulary<ObservationStatus>();
template <>
std::span<const VocabularyEntry<MissionKind>> vocabulary<MissionKind>();
template <>
std::span<const VocabularyEntry<MissionStatus>> vocabulary<MissionStatus>();
template <>
std::span<const VocabularyEntry<PhaseStatus>> vocabulary<PhaseStatus>();
template <>
std::span<const VocabularyEntry<TaskStatus>> vocabulary<TaskStatus>();
template <>
std::span<const VocabularyEntry<CheckpointType>> vocabulary<CheckpointType>();
template <>
std::span<const VocabularyEntry<AgentRole>> vocabulary<AgentRole>();
template <>
std::span<const VocabularyEntry<AgentStatus>> vocabulary<AgentStatus>();
template <>
std::span<const VocabularyEntry<MessageType>> vocabulary<MessageType>();
template <>
std::span<const VocabularyEntry<MessagePriority>> vocabulary<MessagePriority>();
template <>
std::span<const VocabularyEntry<WorkspaceStatus>> vocabulary<WorkspaceStatus>();
template <>
std::span<const VocabularyEntry<RunStatus>> vocabulary<RunStatus>();
template <>
std::span<const VocabularyEntry<AttemptStatus>> vocabulary<AttemptStatus>();

// Whether `Enum` is one of the vocabularies above: only those read and
// write JSON by name.
template <class Enum>
inline constexpr bool kIsVocabulary = false;
template <>
inline constexpr bool kIsVocabulary<ExecutionState> = true;
template <>
inline constexpr bool kIsVocabulary<ExecutionKind> = true;
template <>
inline constexpr bool kIsVocabulary<Delivery> = true;
template <>
inline constexpr bool kIsVocabulary<Toolset> = true;
template <>
inline constexpr bool kIsVocabulary<SignalType> = true;
template <>
inline constexpr bool kIsVocabulary<ObservationStatus> = true;
template <>
inline constexpr bool kIsVocabulary<MissionKind> = true;
template <>
inline constexpr bool kIsVocabulary<MissionStatus> = true;
template <>
inline constexpr bool kIsVocabulary<PhaseStatus> = true;
template <>
inline constexpr bool kIsVocabulary<TaskStatus> = true;
template <>
inline constexpr bool kIsVocabulary<CheckpointType> = true;
template <>
inline constexpr bool kIsVocabulary<AgentRole> = true;
template <>
inline constexpr bool kIsVocabulary<AgentStatus> = true;
template <>
inline constexpr bool kIsVocabulary<MessageType> = true;
template <>
inline constexpr bool kIsVocabulary<MessagePriority> = true;
template <>
inline constexpr bool kIsVocabulary<WorkspaceStatus> = true;
template <>
inline constexpr bool kIsVocabulary<RunStatus> = true;
template <>
inline constexpr bool kIsVocabulary<AttemptStatus> = true;

template <class Enum>
concept Vocabulary = kIsVocabulary<Enum>;

// The name of `value`, e.g. "awaiting_input" or "stdout-marker".
template <Vocabulary Enum>
std::string_view name_of(Enum value) {
  for (const auto& entry : vocabulary<Enum>()) {
    if (entry.value == value) return entry.name;
  }
  return "unknown";
}

// The value named `name`, or nullopt.
template <Vocabulary Enum>
std::optional<Enum> parse_name(std::string_view name) {
  for (const auto& entry : vocabulary<Enum>()) {
    if (entry.name == name) return entry.value;
  }
  return std::nullopt;
}

// "a, b or c": the names, for an error hint.
template <Vocabulary Enum>
std::string names_list() {
  std::string out;
  auto entries = vocabulary<Enum>();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (i > 0) out += i + 1 == entries.size() ? " or " : ", ";
    out += entries[i].name;
  }
  return out;
}

// The value named `name`; a name outside the vocabulary is a corrupt row or
// a bug, so it throws std::invalid_argument naming both.
template <Vocabulary Enum>
Enum require_name(std::string_view name, std::string_view what) {
  if (auto value = parse_name<Enum>(name)) return *value;
  throw std::invalid_argument("unknown " + std::string(what) + " '" + std::string(name) + "'");
}

// JSON reads and writes every vocabulary by name.
template <Vocabulary Enum>
void to_json(nlohmann::json& j, Enum value) {
  j = name_of(value);
}
template <Vocabulary Enum>
void from_json(const nlohmann::json& j, Enum& value) {
  value = require_name<Enum>(j.get_ref<const std::string&>(), "name");
}

bool is_final(ExecutionState state);
// States in which an execution still has, or may get, a live agent.
std::span<const ExecutionState> active_execution_states();

// Whether a mission in `status` is over (completed, failed, partial or
// cancelled).
bool is_final(MissionStatus status);

// Whether a task in `status` has ended.
bool is_final(TaskStatus status);

// Whether a task in `status` lets the tasks that depend on it start: it
// succeeded, partly succeeded or was skipped.
bool is_done(TaskStatus status);
bool is_final(RunStatus status);

}  // namespace mission
