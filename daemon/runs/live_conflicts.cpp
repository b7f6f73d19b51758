#include "daemon/runs/live_conflicts.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "daemon/coordination/coordination.hpp"
#include "daemon/git/change_set.hpp"
#include "daemon/git/scope_rule.hpp"
#include "daemon/loop/work_queue.hpp"
#include "daemon/store/plan_repository.hpp"
#include "shared/clock.hpp"
#include "shared/time_format.hpp"

namespace mission::daemon::runs {
namespace {

std::string task_words(const LiveTask& task) {
  return "task " + task.name + " (" + task.task_id + ", branch " + task.branch + ")";
}

std::string other_side(const LiveConflict& conflict, bool for_a) {
  if (conflict.with_tip) return "the integration branch " + conflict.b.branch;
  return task_words(for_a ? conflict.b : conflict.a);
}

std::vector<git::scope::Area> areas_of(const std::string& files_likely_affected) {
  std::vector<git::scope::Area> areas;
  const nlohmann::json listed = nlohmann::json::parse(files_likely_affected, nullptr, false);
  if (!listed.is_array()) return areas;
  for (const auto& entry : listed) {
    if (!entry.is_string()) continue;
    git::scope::Area area = git::scope::parse_area(entry.get<std::string>());
    if (!area.pattern.empty()) areas.push_back(std::move(area));
  }
  return areas;
}

}  // namespace

LiveConflicts::LiveConflicts(Services services, std::function<void(const std::string&)> cleared)
    : services_(services),
      cleared_(std::move(cleared)),
      settle_(services.loop, [this] { check_due(); }),
      sweep_(services.loop, [this] { sweep(); }) {
  if (services_.trees != nullptr) {
    services_.trees->listen(
        [this](const std::string& root, const std::string& path) { changed(root, path); });
  }
}

LiveConflicts::~LiveConflicts() {
  *alive_ = false;
  if (services_.trees != nullptr) services_.trees->listen(nullptr);
}

void LiveConflicts::task_started(const std::string& run_id, const std::string& workflow_id,
                                 const std::string& repository,
                                 const std::string& integration_branch, LiveTask task) {
  Run& run = runs_[run_id];
  run.id = run_id;
  run.workflow_id = workflow_id;
  run.repository = repository;
  run.branch = integration_branch;
  const std::string id = task.task_id;
  Task& live = run.tasks[id];
  live = Task{};
  live.info = std::move(task);
  std::error_code ignored;
  live.root = std::filesystem::weakly_canonical(live.info.worktree, ignored).string();
  if (live.root.empty()) live.root = live.info.worktree;
  watch(run_id, id);
  schedule(run);
  arm_sweep();
}

void LiveConflicts::arm_sweep() {
  if (sweeping_) return;
  for (const auto& [run_id, run] : runs_) {
    for (const auto& [task_id, task] : run.tasks) {
      if (task.watched) continue;
      sweeping_ = true;
      sweep_.start(kLiveSweepMs);
      return;
    }
  }
}

void LiveConflicts::watch(const std::string& run_id, const std::string& task_id) {
  if (services_.trees == nullptr) return;
  Task& task = runs_[run_id].tasks[task_id];
  // Its first snapshot adds the watches (each before its folder is read),
  // as a task's start_task does; the snapshot itself is not kept.
  auto ticket = services_.trees->ticket_for(task.root, true);
  const std::string root = task.root;
  loop::queue_work(
      services_.loop,
      [root, ticket] {
        try {
          git::take_snapshot(root, ticket.get());
        } catch (const std::exception& e) {
          std::fprintf(stderr, "missiond: cannot watch %s for live conflicts: %s\n", root.c_str(),
                       e.what());
        }
      },
      [this, alive = alive_, run_id, task_id, ticket] {
        if (!*alive) return;
        services_.trees->collect_finished();
        auto run = runs_.find(run_id);
        if (run == runs_.end()) return;
        auto found = run->second.tasks.find(task_id);
        if (found == run->second.tasks.end()) return;
        Task& live = found->second;
        if (!ticket->report.root.empty()) live.root = ticket->report.root;
        live.watched = services_.trees->watched(live.root);
        // What changed before the watches were there is found by looking
        // at the whole worktree once more.
        live.whole = true;
        schedule(run->second);
      });
}

void LiveConflicts::changed(const std::string& root, const std::string& path) {
  for (auto& [run_id, run] : runs_) {
    for (auto& [task_id, task] : run.tasks) {
      if (task.root != root) continue;
      if (path.empty() || task.touched.size() >= kMaxLiveTouchedPaths) {
        task.whole = true;
      } else {
        task.touched.insert(path);
      }
      schedule(run);
      return;
    }
  }
}

void LiveConflicts::schedule(Run& run) {
  run.dirty = true;
  if (settling_) return;
  // Not restarted by later changes: a conflict is seen within a settle
  // time and a check of the first change, however busy the agents are.
  settling_ = true;
  settle_.start(kLiveSettleMs);
}

void LiveConflicts::check_due() {
  settling_ = false;
  for (auto& [run_id, run] : runs_) {
    if (run.dirty && !run.checking) check(run);
  }
}

void LiveConflicts::check(Run& run) {
  run.dirty = false;
  if (run.tasks.empty()) return;
  run.checking = true;
  auto input = std::make_shared<git::LiveCheckInput>();
  input->repository = run.repository;
  input->integration_branch = run.branch;
  std::vector<std::string> ids;
  for (auto& [task_id, task] : run.tasks) {
    git::LiveSide side;
    side.work_tree = task.root;
    side.base_commit = task.info.base_commit;
    if (task.watched && !task.whole) {
      side.candidates = std::vector<std::string>(task.touched.begin(), task.touched.end());
    }
    task.whole = false;
    input->sides.push_back(std::move(side));
    ids.push_back(task_id);
  }
  auto result = std::make_shared<git::LiveCheckResult>();
  auto error = std::make_shared<std::string>();
  loop::queue_work(
      services_.loop,
      [input, result, error] {
        try {
          *result = git::check_live(*input);
        } catch (const std::exception& e) {
          *error = e.what();
        }
      },
      [this, alive = alive_, run_id = run.id, ids, result, error] {
        if (!*alive) return;
        try {
          checked(run_id, ids, *result, *error);
        } catch (const std::exception& e) {
          std::fprintf(stderr, "missiond: recording live conflicts failed: %s\n", e.what());
        }
      });
}

void LiveConflicts::checked(const std::string& run_id, const std::vector<std::string>& ids,
                            const git::LiveCheckResult& result, const std::string& error) {
  auto found_run = runs_.find(run_id);
  if (found_run == runs_.end()) return;
  Run& run = found_run->second;
  run.checking = false;
  if (!error.empty()) {
    std::fprintf(stderr, "missiond: checking run %s for live conflicts failed: %s\n",
                 run_id.c_str(), error.c_str());
  } else {
    std::set<std::string> unread;  // sides whose worktree could not be read
    for (std::size_t i = 0; i < ids.size(); ++i) {
      auto task = run.tasks.find(ids[i]);
      if (task == run.tasks.end()) continue;
      if (!result.errors[i].empty()) {
        unread.insert(ids[i]);
        continue;
      }
      // What the check found changed is looked at again next time, even
      // when its watcher sees nothing new there.
      for (const auto& path : result.changed[i]) {
        if (task->second.touched.size() >= kMaxLiveTouchedPaths) {
          task->second.whole = true;
          break;
        }
        task->second.touched.insert(path);
      }
    }
    std::set<Key> now;
    const std::int64_t at = unix_ms_now();
    for (const auto& found : result.conflicts) {
      auto a = run.tasks.find(ids[found.a]);
      if (a == run.tasks.end()) continue;
      LiveConflict conflict;
      conflict.run_id = run_id;
      conflict.workflow_id = run.workflow_id;
      conflict.a = a->second.info;
      conflict.path = found.path;
      conflict.since_ms = at;
      if (found.b) {
        auto b = run.tasks.find(ids[*found.b]);
        if (b == run.tasks.end()) continue;
        conflict.b = b->second.info;
      } else {
        conflict.with_tip = true;
        conflict.b.branch = run.branch;
      }
      Key key{run_id, conflict.a.task_id, conflict.b.task_id, conflict.path};
      now.insert(key);
      if (conflicts_.count(key) != 0 || conflicts_.size() >= kMaxLiveConflicts) continue;
      tell(conflict, false);
      conflicts_.emplace(key, std::move(conflict));
    }
    bool any_cleared = false;
    for (auto it = conflicts_.begin(); it != conflicts_.end();) {
      const auto& [key, conflict] = *it;
      const bool ours = std::get<0>(key) == run_id;
      // A side not read this time keeps its conflicts until it is.
      const bool unknown = unread.count(std::get<1>(key)) != 0 ||
                           unread.count(std::get<2>(key)) != 0 ||
                           run.tasks.count(std::get<1>(key)) == 0;
      if (!ours || unknown || now.count(key) != 0) {
        ++it;
        continue;
      }
      tell(conflict, true, "the two changes to it merge now");
      it = conflicts_.erase(it);
      any_cleared = true;
    }
    if (any_cleared) cleared_(run_id);
  }
  if (run.dirty) schedule(run);
}

void LiveConflicts::task_ended(const std::string& run_id, const std::string& task_id) {
  auto run = runs_.find(run_id);
  if (run == runs_.end()) return;
  auto task = run->second.tasks.find(task_id);
  if (task == run->second.tasks.end()) return;
  const std::string root = task->second.root;
  run->second.tasks.erase(task);
  // Its watches end now rather than at the next periodic look.
  if (services_.trees != nullptr) services_.trees->task_ended(root);
  bool any_cleared = false;
  for (auto it = conflicts_.begin(); it != conflicts_.end();) {
    const Key& key = it->first;
    if (std::get<0>(key) != run_id ||
        (std::get<1>(key) != task_id && std::get<2>(key) != task_id)) {
      ++it;
      continue;
    }
    tell(it->second, true,
         "task " + (std::get<1>(key) == task_id ? it->second.a.name : it->second.b.name) +
             "'s agent has ended; if its change lands first, your change is checked against "
             "the integration branch");
    it = conflicts_.erase(it);
    any_cleared = true;
  }
  if (run->second.tasks.empty()) {
    runs_.erase(run);
  } else {
    schedule(run->second);
  }
  if (any_cleared) cleared_(run_id);
}

void LiveConflicts::run_ended(const std::string& run_id) {
  runs_.erase(run_id);
  for (auto it = conflicts_.begin(); it != conflicts_.end();) {
    if (std::get<0>(it->first) == run_id) {
      it = conflicts_.erase(it);
    } else {
      ++it;
    }
  }
}

void LiveConflicts::tip_moved(const std::string& run_id) {
  auto run = runs_.find(run_id);
  if (run != runs_.end()) schedule(run->second);
}

void LiveConflicts::sweep() {
  sweeping_ = false;
  for (auto& [run_id, run] : runs_) {
    for (auto& [task_id, task] : run.tasks) {
      if (task.watched) continue;
      task.whole = true;
      schedule(run);
    }
  }
  arm_sweep();
}

bool LiveConflicts::follows(const std::string& root) const {
  for (const auto& [run_id, run] : runs_) {
    for (const auto& [task_id, task] : run.tasks) {
      if (task.root == root) return true;
    }
  }
  return false;
}

bool LiveConflicts::has_conflicts(const std::string& run_id) const {
  auto it = conflicts_.lower_bound(Key{run_id, "", "", ""});
  return it != conflicts_.end() && std::get<0>(it->first) == run_id;
}

std::optional<std::string> LiveConflicts::holds(const std::string& run_id,
                                                const std::string& files_likely_affected) const {
  if (!has_conflicts(run_id)) return std::nullopt;
  const std::vector<git::scope::Area> areas = areas_of(files_likely_affected);
  for (auto it = conflicts_.lower_bound(Key{run_id, "", "", ""});
       it != conflicts_.end() && std::get<0>(it->first) == run_id; ++it) {
    const LiveConflict& conflict = it->second;
    for (const auto& area : areas) {
      if (!git::scope::covers(area, conflict.path)) continue;
      return "held: " + conflict.path + " is in a live conflict between task " + conflict.a.name +
             " and " + (conflict.with_tip ? "the integration branch" : "task " + conflict.b.name) +
             "; it starts when that clears (mission workspaces conflicts)";
    }
  }
  return std::nullopt;
}

std::vector<LiveConflict> LiveConflicts::current(
    const std::optional<std::string>& workflow_id) const {
  std::vector<LiveConflict> out;
  for (const auto& [key, conflict] : conflicts_) {
    if (!workflow_id || conflict.workflow_id == *workflow_id) out.push_back(conflict);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& x, const auto& y) { return x.since_ms < y.since_ms; });
  return out;
}

nlohmann::json LiveConflicts::to_json(const LiveConflict& conflict, KeyStyle style) {
  auto side = [style](const LiveTask& task) {
    return nlohmann::json{{"id", task.task_id},
                          {"name", task.name},
                          {"branch", task.branch},
                          {key(style, "agent_execution_id"), task.execution_id}};
  };
  nlohmann::json tasks = nlohmann::json::array({side(conflict.a)});
  if (!conflict.with_tip) tasks.push_back(side(conflict.b));
  nlohmann::json out = {{key(style, "run_id"), conflict.run_id},
                        {key(style, "workflow_id"), conflict.workflow_id},
                        {"path", conflict.path},
                        {"since", format_utc_iso8601(conflict.since_ms)},
                        {"tasks", std::move(tasks)}};
  if (conflict.with_tip) out[key(style, "with_integration_branch")] = conflict.b.branch;
  return out;
}

void LiveConflicts::tell(const LiveConflict& conflict, bool resolved, const std::string& why) {
  auto text_for = [&](bool for_a) {
    const std::string other = other_side(conflict, for_a);
    if (resolved) {
      return "conflict resolved: " + conflict.path + " no longer conflicts with " + other + ": " +
             why + ".";
    }
    const LiveTask& them = for_a ? conflict.b : conflict.a;
    std::string text = "conflict: " + conflict.path + " is changed by you and by " + other;
    if (!conflict.with_tip && !them.goal.empty()) text += ", which is working on: " + them.goal;
    text += ". The two changes to " + conflict.path + " do not merge. ";
    if (conflict.with_tip) {
      text += "What to do: merge " + conflict.b.branch + " into your branch now and resolve " +
              conflict.path +
              ", or redo your change on top of it; you will be told when it clears.";
    } else {
      text += "What to do: keep your change to " + conflict.path +
              " to what your task needs and leave the other task's part alone (or agree with "
              "it: its agent is " +
              them.execution_id + "); you will be told when it clears.";
    }
    return text;
  };
  auto send = [&](const LiveTask& to, bool for_a) {
    if (to.execution_id.empty()) return;
    try {
      events::EventBatch events(services_.events);
      store::Transaction transaction(services_.db);
      coordination::PersonMessage message;
      message.person = "mission";
      message.execution_id = to.execution_id;
      message.text = text_for(for_a);
      message.subject = (resolved ? "conflict resolved: " : "conflict: ") + conflict.path;
      message.priority = MessagePriority::high;
      coordination::person_send(services_.db, events, message, services_.launcher);
      transaction.commit();
      events.publish_to(services_.events);
    } catch (const std::exception& e) {
      // An agent that has just ended, or has no room for the message now.
      std::fprintf(stderr, "missiond: cannot tell agent %s of a live conflict: %s\n",
                   to.execution_id.c_str(), e.what());
    }
  };
  send(conflict.a, true);
  if (!conflict.with_tip) send(conflict.b, false);
}

}  // namespace mission::daemon::runs
