// The rest of the store's repositories on each engine (docs/adr/0052), run
// like store_engines_test on SQLite and on PostgreSQL: every statement a
// repository prepares runs at least once, so SQL that only one engine
// takes fails here rather than in a daemon.

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "daemon/store/agent_repository.hpp"
#include "daemon/store/claim_repository.hpp"
#include "daemon/store/grant_repository.hpp"
#include "daemon/store/inbox_repository.hpp"
#include "daemon/store/journal_repository.hpp"
#include "daemon/store/plan_repository.hpp"
#include "daemon/store/reference_repository.hpp"
#include "daemon/store/run_repository.hpp"
#include "daemon/store/task_attempt_repository.hpp"
#include "daemon/store/task_repository.hpp"
#include "daemon/store/usage_repository.hpp"
#include "daemon/store/workspace_repository.hpp"
#include "support/engine_store.hpp"

using namespace mission;
using namespace mission::store;

TEST_CASE("agents register, change, page by effective status and list", "[store]") {
  test::EngineStore store;
  store.add_execution("ex-1");
  store.add_execution("ex-2");
  AgentRepository agents(store.db);
  AgentRegistration registration;
  registration.name = "ann";
  registration.runtime = "shell";
  registration.capabilities = R"(["gpu"])";
  agents.register_agent("ex-1", registration, 10);
  AgentChanges changes;
  changes.status = AgentStatus::busy;
  changes.task_id = std::optional<std::string>("t-1");
  changes.heartbeat = true;
  agents.change("ex-1", changes, 11);
  auto found = agents.find("ex-1");
  REQUIRE(found);
  CHECK(found->name == "ann");
  CHECK(found->status == AgentStatus::busy);
  CHECK(found->last_heartbeat_at == 11);
  AgentFilter filter;
  filter.now = 20;
  filter.offline_after_ms = 1000;
  filter.statuses = {AgentStatus::busy};
  CHECK(agents.page(filter, PageRequest{}).rows.size() == 1);
  filter.statuses.clear();
  filter.role = AgentRole::worker;
  CHECK(agents.page(filter, PageRequest{}).rows.size() == 1);
  CHECK(agents.registered_active().size() == 1);
}

TEST_CASE("grants let one more execution change a mission or a task", "[store]") {
  test::EngineStore store;
  store.add_execution("ex-1");
  store.add_workflow("wf-1");
  store.add_task("t-1", "wf-1", 0);
  GrantRepository grants(store.db);
  CHECK_FALSE(grants.holds("ex-1", "wf-1", std::string("t-1")));
  grants.grant_task("ex-1", "t-1", std::nullopt, 1);
  CHECK(grants.holds("ex-1", "wf-1", std::string("t-1")));
  CHECK_FALSE(grants.holds("ex-1", "wf-1", std::nullopt));
  grants.grant_mission("ex-1", "wf-1", std::string("ex-1"), 2);
  CHECK(grants.holds("ex-1", "wf-1", std::nullopt));
}

TEST_CASE("the journal pages decisions, issues and milestones and resolves an issue", "[store]") {
  test::EngineStore store;
  store.add_workflow("wf-1");
  store.add_task("t-1", "wf-1", 0);
  JournalRepository journal(store.db);
  DecisionRow decision;
  decision.id = "dc-1";
  decision.task_id = "t-1";
  decision.category = "design";
  decision.question = "q";
  decision.chosen = "a";
  decision.reasoning = "r";
  decision.created_at = 1;
  journal.insert(decision);
  IssueRow issue;
  issue.id = "is-1";
  issue.task_id = "t-1";
  issue.type = "blocker";
  issue.description = "d";
  issue.resolution = "none";
  issue.requires_human_review = true;
  issue.created_at = 2;
  journal.insert(issue);
  MilestoneRow milestone;
  milestone.id = "mt-1";
  milestone.task_id = "t-1";
  milestone.message = "half";
  milestone.progress = 0.5;
  milestone.created_at = 3;
  journal.insert(milestone);
  RecordFilter any;
  CHECK(journal.decisions("wf-1", any, PageRequest{}).rows.size() == 1);
  CHECK(journal.milestones("wf-1", any, PageRequest{}).rows.at(0).progress == 0.5);
  CHECK(journal.count_open_blockers("wf-1") == 1);
  CHECK(journal.issues("wf-1", any, PageRequest{}, true).rows.size() == 1);
  CHECK(journal.mission_of_issue("is-1") == "wf-1");
  journal.resolve_issue("is-1", 4, std::string("fixed"));
  CHECK(journal.find_issue("is-1")->resolved_at == 4);
  CHECK(journal.count_open_blockers("wf-1") == 0);
  CHECK(next_journal_seq(store.db, "t-1") == 4);
}

TEST_CASE("a plan is written, read, counted and replaced", "[store]") {
  test::EngineStore store;
  store.add_workflow("wf-1");
  PlanRepository plans(store.db);
  std::vector<PlannedTaskRow> tasks;
  for (int i = 0; i < 3; ++i) {
    PlannedTaskRow row;
    row.id = "t-" + std::to_string(i);
    row.mission_id = "wf-1";
    row.name = "task " + std::to_string(i);
    row.plan_order = i;
    row.sequence = i;
    row.created_at = 1;
    tasks.push_back(row);
  }
  std::vector<DependencyRow> edges{{"t-1", "t-0"}, {"t-2", "t-1"}};
  plans.insert_planned(tasks, edges);
  CHECK(plans.planned_tasks("wf-1").size() == 3);
  CHECK(plans.dependencies("wf-1").size() == 2);
  CHECK(plans.plan_end("wf-1").last_order == 2);
  CHECK(plans.planned_task_ref("wf-1", "task 1")->id == "t-1");
  CHECK(plans.stage_before("wf-1", 2).size() == 1);
  CHECK(plans.progress_counts("wf-1").total == 3);
  CHECK(plans.planned_progress("wf-1").size() == 3);
  plans.set_task_plan("t-0", R"({"steps":[]})", std::string("{}"));
  PlannedTaskRow started = *plans.task("t-0");
  started.status = TaskStatus::success;
  started.completed_at = 5;
  plans.set_task_status(started);
  CHECK(plans.task_status("t-0") == TaskStatus::success);
  CHECK(plans.progress_counts("wf-1").done == 1);
  CheckpointRow checkpoint;
  checkpoint.id = "cp-1";
  checkpoint.task_id = "t-1";
  checkpoint.seq = 1;
  checkpoint.summary = "s";
  checkpoint.created_at = 6;
  plans.insert_checkpoint(checkpoint);
  std::vector<CheckpointType> types;
  CHECK(plans.checkpoints("t-1", types, std::nullopt, std::nullopt).size() == 1);
  plans.bump_revision("wf-1");
  CHECK(plans.workflow_plan("wf-1")->plan_revision > 0);
  plans.delete_planned("wf-1");
  CHECK(plans.planned_tasks("wf-1").empty());
  CHECK(plans.dependencies("wf-1").empty());
}

TEST_CASE("repositories, templates and workflow lists page", "[store]") {
  test::EngineStore store;
  PlanRepository plans(store.db);
  plans.insert_repository(RepositoryRow{"rp-1", "/repo", "repo", 1});
  CHECK(plans.repository_by_path("/repo")->id == "rp-1");
  CHECK(plans.repositories(PageRequest{}).rows.size() == 1);
  plans.insert_template(TemplateRow{"tp-1", "t", std::nullopt, "{}", std::nullopt, 1});
  CHECK(plans.template_by_name("t")->id == "tp-1");
  CHECK(plans.templates(PageRequest{}).rows.size() == 1);
  store.add_workflow("wf-1");
  std::vector<MissionStatus> statuses{MissionStatus::ready};
  CHECK(plans.workflow_ids(std::nullopt, statuses, PageRequest{}).rows.size() == 1);
  CHECK(plans.workflow_count(std::nullopt, statuses) == 1);
}

TEST_CASE("tasks of a mission record their changes and count them", "[store]") {
  test::EngineStore store;
  store.add_workflow("wf-1");
  TaskRepository tasks(store.db);
  TaskRow row;
  row.id = "t-1";
  row.mission_id = "wf-1";
  row.name = "n";
  row.goal = "g";
  row.snapshot_type = "git";
  row.snapshot_id = "abc";
  row.snapshot_root = "/repo";
  row.started_at = 1;
  tasks.insert(row, std::string("\x01\x02", 2));
  CHECK(tasks.snapshot_data("t-1") == std::string("\x01\x02", 2));
  CHECK(tasks.has_in_progress("/repo"));
  std::vector<ChangeRow> changes{{"added", "a.txt", std::nullopt, true},
                                 {"modified", "b.txt", std::nullopt, false}};
  tasks.record_changes("t-1", changes);
  CHECK(tasks.changes("t-1", PageRequest{}, false).rows.size() == 2);
  std::vector<std::string> ids{"t-1"};
  CHECK(tasks.change_counts(ids)["t-1"].total() == 2);
  CHECK(tasks.first_changes(ids, 1)["t-1"].size() == 1);
  CHECK(tasks.distinct_changed_paths("wf-1") == 2);
  CHECK(tasks.status_counts("wf-1").in_progress == 1);
  CHECK(tasks.open_tasks("wf-1", 10).size() == 1);
  CHECK(tasks.page("wf-1", RecordFilter{}, PageRequest{}).rows.size() == 1);
  row.status = TaskStatus::success;
  row.completed_at = 2;
  tasks.complete(row);
  CHECK(tasks.snapshot_data("t-1").empty());
  CHECK(tasks.close_open_tasks("wf-1", TaskStatus::failed, 3) == 0);
}

TEST_CASE("references find records and tasks by id, prefix, name and recency", "[store]") {
  test::EngineStore store;
  store.add_workflow("wf-abc");
  store.add_workflow("wf-abd");
  store.add_workflow("wx-1");
  store.add_task("t-1", "wf-abc", 0);
  ReferenceRepository references(store.db);
  CHECK(references.records_with_prefix("wf-ab", true, 10).size() == 2);
  CHECK(references.records_with_prefix("wf-abc", true, 10).size() == 1);
  CHECK(references.record("wx-1", true));
  CHECK(references.last_record(true));
  CHECK(references.recent_records(true, 10).size() == 3);
  CHECK(references.latest_named_record("wf", true));
  CHECK(references.task("t-1"));
  CHECK(references.tasks_with_prefix("t-", std::nullopt, 10).size() == 1);
  CHECK(references.tasks_named("t-1", std::string("wf-abc"), 10).size() == 1);
  CHECK(references.recent_tasks(std::nullopt, 10).size() == 1);
}

TEST_CASE("workspaces are found, assigned, listed by status and end", "[store]") {
  test::EngineStore store;
  store.add_workflow("wf-1");
  store.add_task("t-1", "wf-1", 0);
  WorkspaceRepository workspaces(store.db);
  WorkspaceRow row;
  row.id = "ws-1";
  row.workflow_id = "wf-1";
  row.path = "/tmp/ws-1";
  row.branch = "b";
  row.repository = "/repo";
  row.owned = true;
  row.created_at = row.updated_at = 1;
  workspaces.insert(row);
  workspaces.assign("t-1", std::string("ws-1"));
  CHECK(workspaces.of_task("t-1")->id == "ws-1");
  CHECK(workspaces.find("ws-1")->task_ids == std::vector<std::string>{"t-1"});
  CHECK(workspaces.find_by_path("/tmp/ws-1")->owned);
  std::vector<WorkspaceStatus> active{WorkspaceStatus::active};
  CHECK(workspaces.page(std::string("wf-1"), active, PageRequest{}).rows.size() == 1);
  workspaces.set_status("ws-1", WorkspaceStatus::merged, std::string("abc"), 2);
  CHECK(workspaces.in_statuses(std::nullopt, active).empty());
}

TEST_CASE("task attempts queue prompts and are found by their agent", "[store]") {
  test::EngineStore store;
  store.add_workflow("wf-1");
  store.add_task("t-1", "wf-1", 0);
  store.add_execution("ex-1");
  TaskAttemptRepository attempts(store.db);
  TaskAttemptRow row;
  row.id = "at-1";
  row.task_id = "t-1";
  row.coordinator_id = "ex-0";
  row.executor = "shell";
  row.worktree = "/tmp/at-1";
  row.branch = "b";
  row.base_commit = "abc";
  row.queued_prompt = "go";
  row.created_at = row.updated_at = 1;
  attempts.insert(row);
  CHECK(attempts.queued().size() == 1);
  row.execution_id = "ex-1";
  row.queued_prompt.reset();
  row.stopped = true;
  attempts.update(row);
  CHECK(attempts.of_execution("ex-1")->stopped);
  CHECK(attempts.of_task("t-1", PageRequest{}).rows.size() == 1);
  CHECK(attempts.count_of_task("t-1") == 1);
  CHECK(attempts.queued().empty());
}

TEST_CASE("usage sums by workflow and execution, and the inbox lists waiting tasks", "[store]") {
  test::EngineStore store;
  store.add_workflow("wf-1");
  store.add_task("t-1", "wf-1", 0);
  store.add_execution("ex-1");
  store.add_run("run-1", "wf-1");
  RunRepository runs(store.db);
  AttemptRow attempt = store.attempt_of("run-1", "t-1");
  attempt.execution_id = "ex-1";
  attempt.status = AttemptStatus::awaiting_approval;
  attempt.started_at = 2;
  runs.insert_attempt(attempt);
  UsageRepository usage(store.db);
  UsageRow row;
  row.execution_id = "ex-1";
  row.usage.input_tokens = 100;
  row.usage.cost_usd = 0.25;
  row.updated_at = 3;
  usage.put(row);
  row.usage.output_tokens = 7;
  usage.put(row);  // the stream said more
  CHECK(usage.find("ex-1")->usage.output_tokens == 7);
  CHECK(usage.total(0, std::nullopt).usage.input_tokens == 100);
  CHECK(usage.by_workflow(0, 10).size() >= 1);
  CHECK(usage.of_workflow("wf-1", 0, 10).size() >= 1);
  InboxRepository inbox(store.db);
  CHECK(inbox.awaiting_approval(10).size() == 1);
  CHECK(inbox.conflicted(10).empty());
  CHECK(inbox.budget_reached(10).empty());
}
