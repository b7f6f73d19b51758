#pragma once
// Conflicts caught while agents work (docs/adr/0050): the running tasks of
// each run are trial-merged pairwise, and each with the integration tip,
// as their worktrees are now (git/trial_merge.hpp), whenever one of them
// changes. A run's worktrees are watched (docs/adr/0013) from their agent's
// launch: each check then looks only at the paths their watchers saw
// change; a worktree that cannot be watched is looked at whole, every
// kLiveSweepMs.
//
// A real conflict (the same path changed on both sides, and the changes do
// not merge) is told at once to the agents on both sides, as a message
// naming the path, the other task, its branch and goal, and what to do,
// and is shown to people (`mission inbox`, `mission workspaces
// conflicts`) until it clears, when the agents are told so. A pair and a
// path are reported once until they clear. Ready tasks whose
// files_likely_affected cover a path in conflict are held back (holds()).
//
// On the loop; the git work goes to the thread pool, one check per run at
// a time.

#include <uv.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "daemon/events/event_sink.hpp"
#include "daemon/execution/launcher.hpp"
#include "daemon/git/tree_watch_service.hpp"
#include "daemon/git/trial_merge.hpp"
#include "daemon/loop/timer.hpp"
#include "daemon/store/database.hpp"
#include "shared/key_style.hpp"

namespace mission::daemon::runs {

// After a change, this long for the writes that come with it (an editor's
// save is several events) before the check: the time a conflict takes to
// be seen is this plus the check.
inline constexpr int kLiveSettleMs = 50;
// How often runs with a worktree that is not watched are checked whole.
inline constexpr int kLiveSweepMs = 2000;
// Paths one task is remembered to have touched; past this its checks look
// at its whole worktree (a task that rewrites a tree is no longer O(changed)).
inline constexpr std::size_t kMaxLiveTouchedPaths = 5000;
// Live conflicts kept across the daemon; more are not reported (a run that
// conflicts this much is to be looked at, not listed).
inline constexpr std::size_t kMaxLiveConflicts = 500;

// A running task of a run, as its agent works.
struct LiveTask {
  std::string task_id;
  std::string name;
  std::string goal;  // the plan's description of the task
  std::string execution_id;
  std::string worktree;
  std::string branch;
  std::string base_commit;
};

struct LiveConflict {
  std::string run_id;
  std::string workflow_id;
  LiveTask a;
  // The other task; with `with_tip`, only its branch is set: the
  // integration branch, which changed the path since a's base.
  LiveTask b;
  bool with_tip = false;
  std::string path;
  std::int64_t since_ms = 0;
};

class LiveConflicts {
 public:
  struct Services {
    uv_loop_t* loop;
    store::Database& db;
    events::EventSink& events;
    const execution::Launcher* launcher;
    git::TreeWatchService* trees;  // null: worktrees are never watched
  };
  // `cleared(run_id)`: a conflict of the run ended; held tasks may start.
  LiveConflicts(Services services, std::function<void(const std::string&)> cleared);
  ~LiveConflicts();
  LiveConflicts(const LiveConflicts&) = delete;
  LiveConflicts& operator=(const LiveConflicts&) = delete;

  // The agent of `task` was launched in its worktree.
  void task_started(const std::string& run_id, const std::string& workflow_id,
                    const std::string& repository, const std::string& integration_branch,
                    LiveTask task);
  // Its agent ended: its conflicts end with it.
  void task_ended(const std::string& run_id, const std::string& task_id);
  void run_ended(const std::string& run_id);
  // The integration branch moved: its tasks are checked against it again.
  void tip_moved(const std::string& run_id);

  // Whether a live task works in the tree at `root` (its watches stay).
  bool follows(const std::string& root) const;
  // Why the task `task_id` of the run waits: its files_likely_affected
  // (a JSON array of areas) cover a path in conflict; nullopt when free.
  std::optional<std::string> holds(const std::string& run_id,
                                   const std::string& files_likely_affected) const;
  bool has_conflicts(const std::string& run_id) const;

  // The live conflicts, of one workflow or all, oldest first.
  std::vector<LiveConflict> current(const std::optional<std::string>& workflow_id) const;
  // {runId, workflowId, path, since, tasks: [{id, name, branch, agentExecutionId}],
  // withIntegrationBranch?}: camelCase for the control API, snake_case for
  // MCP (workspace_conflicts' live_conflicts).
  static nlohmann::json to_json(const LiveConflict& conflict, KeyStyle style = KeyStyle::camel);

 private:
  struct Task {
    LiveTask info;
    std::string root;      // the work tree as its watcher names it
    bool watched = false;  // its watcher tells which paths change
    bool whole = true;     // its next check looks at the whole worktree
    std::set<std::string> touched;
  };
  struct Run {
    std::string id;
    std::string workflow_id;
    std::string repository;
    std::string branch;
    std::map<std::string, Task> tasks;
    bool dirty = false;
    bool checking = false;
  };
  // run, task a, task b ("" for the tip), path
  using Key = std::tuple<std::string, std::string, std::string, std::string>;

  void changed(const std::string& root, const std::string& path);
  void schedule(Run& run);
  void check_due();
  void check(Run& run);
  void checked(const std::string& run_id, const std::vector<std::string>& ids,
               const git::LiveCheckResult& result, const std::string& error);
  void watch(const std::string& run_id, const std::string& task_id);
  void sweep();
  // Whole checks every kLiveSweepMs while a live task is not watched.
  void arm_sweep();
  // Tells the agents on both sides (and, when `resolved`, that it is over).
  void tell(const LiveConflict& conflict, bool resolved, const std::string& why = {});

  Services services_;
  std::function<void(const std::string&)> cleared_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  std::map<std::string, Run> runs_;
  std::map<Key, LiveConflict> conflicts_;
  loop::Timer settle_;
  loop::Timer sweep_;
  bool settling_ = false;
  bool sweeping_ = false;
};

}  // namespace mission::daemon::runs
