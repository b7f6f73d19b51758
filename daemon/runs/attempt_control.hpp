#pragma once
// Attempts a coordinating agent starts on tasks through the control toolset
// (docs/adr/0025, the closed loop of the seed mcp-tool-ux-design.md): a
// worktree of the attempt's own, an agent launched in it through its
// adapter with the task's prompt, and follow-up turns in the same worktree.
//
// An attempt's next turn waits in its row as a queued prompt and launches
// once no turn of the attempt is live, after the transaction that queued it
// commits: the first turn right after start_task_attempt, a follow-up when
// the running turn ends. A stopped attempt launches nothing by itself.
//
// Everything here runs on the loop; the worktree is made on a pool thread.

#include <uv.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "daemon/events/event_sink.hpp"
#include "daemon/execution/launcher.hpp"
#include "daemon/git/worktrees.hpp"
#include "daemon/loop/next_turn.hpp"
#include "daemon/planning/plan_cache.hpp"
#include "daemon/runs/run_services.hpp"
#include "daemon/store/database.hpp"
#include "daemon/store/execution_repository.hpp"
#include "daemon/store/task_attempt_repository.hpp"
#include "daemon/workspaces/workspaces.hpp"
#include "shared/runtime_paths.hpp"

namespace mission::daemon::runs {

struct AttemptStartRequest {
  std::string task_id;
  std::string executor;               // an adapter name
  std::vector<std::string> args;      // the words before the prompt; generic: the whole command
  std::optional<std::string> prompt;  // the coordinator's own instructions, after the task's
  std::optional<std::string> base_branch;
};

// A start planned on the loop; its worktree is made on a pool thread.
struct AttemptStart {
  std::string coordinator;
  AttemptStartRequest request;
  workspaces::CreatePlan worktree;
};

// What follow_up did.
enum class FollowUpMode { send, queue, cancel };
struct FollowUpOutcome {
  // message: delivered to the running agent; turn: a new turn launches
  // now; queued: the turn launches when the running one ends; cancelled:
  // the queued prompt was dropped.
  std::string delivered_as;
  std::optional<std::string> message_id;
  store::TaskAttemptRow attempt;
};

class AttemptControl {
 public:
  explicit AttemptControl(RunServices services);
  ~AttemptControl();
  AttemptControl(const AttemptControl&) = delete;
  AttemptControl& operator=(const AttemptControl&) = delete;

  // On the loop: checks the task (a planned task `coordinator` may change,
  // not ended, not claimed by another), the executor and the prompt, and
  // plans the worktree. Writes nothing; throws MissionError.
  AttemptStart plan_start(const std::string& coordinator, AttemptStartRequest request);
  // On a pool thread.
  static git::WorktreeCreated run_start(const AttemptStart& start);
  // On the loop, in the caller's transaction: the workspace and the
  // attempt, its first turn queued to launch once the transaction commits.
  store::TaskAttemptRow record_start(const AttemptStart& start, const git::WorktreeCreated& made);

  // The attempt, or not_found naming the tool that lists attempts.
  store::TaskAttemptRow require(const std::string& attempt_id);
  // The attempt's latest turn's execution, if it has launched.
  std::optional<store::ExecutionRow> latest_turn(const store::TaskAttemptRow& attempt);
  // Whether a turn of the attempt is launching or running.
  bool live(const store::TaskAttemptRow& attempt);

  // In the caller's transaction (the tool's), by the coordinator that
  // started the attempt; `events` takes the message a send makes.
  FollowUpOutcome follow_up(const std::string& coordinator, const std::string& attempt_id,
                            FollowUpMode mode, const std::optional<std::string>& prompt,
                            events::EventBatch& events);
  // Stops the running turn (SIGTERM, then SIGKILL after the grace period;
  // at once with `force`) and drops a queued prompt. Whether a process
  // was signalled.
  bool stop(const std::string& coordinator, const std::string& attempt_id, bool force);

  // Where the turns' output logs are (execution_log.hpp).
  std::filesystem::path logs_dir() const { return services_.paths.logs_dir(); }

  // At start-up: queued turns launch (a daemon that died before launching
  // them left them queued).
  void resume();

 private:
  void schedule(const std::string& attempt_id);
  void launch_queued();
  void launch_turn(const std::string& attempt_id);
  store::TaskAttemptRow require_coordinator(const std::string& coordinator,
                                            const std::string& attempt_id);

  RunServices services_;
  std::vector<std::string> to_launch_;
  loop::NextTurn launch_turn_;
  std::size_t end_observer_ = 0;
};

// The attempt for a tool result (snake_case): its ids, worktree, turns,
// queued prompt, launch error, and its latest turn's state and exit.
nlohmann::json attempt_json(const store::TaskAttemptRow& attempt,
                            const std::optional<store::ExecutionRow>& turn);

}  // namespace mission::daemon::runs
