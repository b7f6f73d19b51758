#include "daemon/store/migrations.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "daemon/store/postgresql_dialect.hpp"
#include "daemon/store/postgresql_steps.hpp"
#include "shared/error_code.hpp"

namespace mission::store {
namespace {

// One step of the schema: its SQLite text, and its PostgreSQL text where
// the engines differ (postgresql_steps.hpp); otherwise PostgreSQL runs the
// SQLite text through postgresql_dialect (docs/adr/0052).
struct Migration {
  const char* sql;
  const char* postgresql = nullptr;
};

// Append only: never edit a migration that has shipped; add the next one.
constexpr std::array<Migration, 24> kMigrations{{
    // 1: executions and their observation ledger.
    {R"sql(
CREATE TABLE executions (
  id            TEXT PRIMARY KEY,
  adapter       TEXT NOT NULL,
  delivery      TEXT NOT NULL CHECK (delivery IN ('stdout-marker', 'mcp-tool')),
  descriptor    TEXT NOT NULL,           -- protocol descriptor, JSON
  cwd           TEXT NOT NULL,
  command       TEXT NOT NULL,           -- argv, JSON array
  state         TEXT NOT NULL,
  pid           INTEGER,
  exit_code     INTEGER,
  exit_signal   INTEGER,
  token_sha256  BLOB,                    -- never the token itself
  created_at    INTEGER NOT NULL,        -- unix milliseconds
  started_at    INTEGER,
  ended_at      INTEGER,
  updated_at    INTEGER NOT NULL
);
CREATE INDEX executions_by_state ON executions(state);

CREATE TABLE observations (
  id            INTEGER PRIMARY KEY,
  execution_id  TEXT NOT NULL REFERENCES executions(id) ON DELETE CASCADE,
  event_id      TEXT NOT NULL,
  origin        TEXT NOT NULL,           -- mcp-tool, stdout-marker, daemon
  kind          TEXT NOT NULL,           -- signal type, or diagnostic
  payload       TEXT NOT NULL,           -- JSON
  status        TEXT NOT NULL,           -- accepted, rejected, recorded-only, promoted
  reason        TEXT,
  created_at    INTEGER NOT NULL,
  UNIQUE (execution_id, event_id)
);
)sql"},
    // 2: how an execution came to be, and the MCP sessions attached to it.
    {R"sql(
-- launched: the daemon spawned it; external: created to be launched
-- elsewhere; attached: created by an MCP client attaching without an id,
-- and ended when that session ends.
ALTER TABLE executions ADD COLUMN kind TEXT NOT NULL DEFAULT 'launched'
  CHECK (kind IN ('launched', 'external', 'attached'));

CREATE TABLE mcp_sessions (
  id                INTEGER PRIMARY KEY,
  execution_id      TEXT NOT NULL REFERENCES executions(id) ON DELETE CASCADE,
  client_name       TEXT,
  client_version    TEXT,
  protocol_version  TEXT,
  attached_at       INTEGER NOT NULL,   -- unix milliseconds
  detached_at       INTEGER,
  calls             INTEGER NOT NULL DEFAULT 0,  -- tools/call requests
  tool_lists        INTEGER NOT NULL DEFAULT 0   -- tools/list requests
);
CREATE INDEX mcp_sessions_by_execution ON mcp_sessions(execution_id);
)sql"},
    // 3: what agents track: missions (and legacy workflows), their phases,
    // tasks with their snapshots and change sets, decisions, issues,
    // milestones; and the request_id records of mutating tracking tools.
    // execution_id on each row is the execution that made it.
    {R"sql(
CREATE TABLE missions (
  id             TEXT PRIMARY KEY,
  kind           TEXT NOT NULL CHECK (kind IN ('mission', 'workflow')),
  execution_id   TEXT REFERENCES executions(id) ON DELETE SET NULL,
  cwd            TEXT NOT NULL,
  name           TEXT NOT NULL,
  objective      TEXT,
  description    TEXT,
  profile        TEXT,
  scope          TEXT,
  constraints    TEXT,
  plan           TEXT,                   -- workflows: JSON [{step, goal}]
  total_phases   INTEGER,
  current_phase  INTEGER NOT NULL DEFAULT 1,
  status         TEXT NOT NULL CHECK (status IN ('in_progress', 'completed', 'failed', 'partial')),
  summary        TEXT,
  achievements   TEXT,                   -- JSON array
  limitations    TEXT,                   -- JSON array
  created_at     INTEGER NOT NULL,       -- unix milliseconds
  completed_at   INTEGER,
  updated_at     INTEGER NOT NULL
);
CREATE INDEX missions_by_created ON missions(created_at);

CREATE TABLE phases (
  id             TEXT PRIMARY KEY,
  mission_id     TEXT NOT NULL REFERENCES missions(id) ON DELETE CASCADE,
  number         INTEGER NOT NULL,
  name           TEXT,
  status         TEXT NOT NULL CHECK (status IN ('in_progress', 'completed')),
  execution_id   TEXT REFERENCES executions(id) ON DELETE SET NULL,
  created_at     INTEGER NOT NULL,
  completed_at   INTEGER,
  UNIQUE (mission_id, number)
);

CREATE TABLE tasks (
  id              TEXT PRIMARY KEY,
  mission_id      TEXT NOT NULL REFERENCES missions(id) ON DELETE CASCADE,
  phase_id        TEXT REFERENCES phases(id) ON DELETE CASCADE,
  parent_task_id  TEXT REFERENCES tasks(id) ON DELETE CASCADE,
  execution_id    TEXT REFERENCES executions(id) ON DELETE SET NULL,
  caller_type     TEXT,
  agent_name      TEXT,
  name            TEXT NOT NULL,
  goal            TEXT NOT NULL,
  areas           TEXT NOT NULL,          -- JSON array
  status          TEXT NOT NULL
                  CHECK (status IN ('in_progress', 'success', 'partial_success', 'failed')),
  snapshot_type   TEXT NOT NULL,          -- git or checksum
  snapshot_id     TEXT NOT NULL,
  snapshot_root   TEXT NOT NULL,
  snapshot_data   BLOB NOT NULL,
  outcome         TEXT,                   -- JSON, as given to complete_task
  metadata        TEXT,                   -- JSON, as given to complete_task
  files_changed   TEXT,                   -- JSON {added, modified, deleted, renamed}
  verification    TEXT,                   -- JSON {scope_match, unexpected_files, warnings}
  started_at      INTEGER NOT NULL,
  completed_at    INTEGER
);
CREATE INDEX tasks_by_mission ON tasks(mission_id, started_at);

CREATE TABLE decisions (
  id                  TEXT PRIMARY KEY,
  task_id             TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  execution_id        TEXT REFERENCES executions(id) ON DELETE SET NULL,
  category            TEXT NOT NULL,
  question            TEXT NOT NULL,
  options_considered  TEXT,               -- JSON array
  chosen              TEXT NOT NULL,
  reasoning           TEXT NOT NULL,
  trade_offs          TEXT,
  created_at          INTEGER NOT NULL
);
CREATE INDEX decisions_by_task ON decisions(task_id);

CREATE TABLE issues (
  id                     TEXT PRIMARY KEY,
  task_id                TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  execution_id           TEXT REFERENCES executions(id) ON DELETE SET NULL,
  type                   TEXT NOT NULL,
  description            TEXT NOT NULL,
  resolution             TEXT NOT NULL,
  requires_human_review  INTEGER NOT NULL DEFAULT 0,
  resolved_at            INTEGER,         -- a person cleared the review
  resolved_note          TEXT,
  created_at             INTEGER NOT NULL
);
CREATE INDEX issues_by_task ON issues(task_id);

CREATE TABLE milestones (
  id            TEXT PRIMARY KEY,
  task_id       TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  execution_id  TEXT REFERENCES executions(id) ON DELETE SET NULL,
  message       TEXT NOT NULL,
  progress      REAL,
  metadata      TEXT,                     -- JSON object
  created_at    INTEGER NOT NULL
);
CREATE INDEX milestones_by_task ON milestones(task_id);

-- One row per request_id of a mutating tracking tool (DESIGN.md section 5).
CREATE TABLE idempotency_records (
  request_id      TEXT PRIMARY KEY,
  tool            TEXT NOT NULL,
  payload_sha256  BLOB NOT NULL,          -- of the tool name and its arguments
  state           TEXT NOT NULL CHECK (state IN ('in_progress', 'completed')),
  result          TEXT,                   -- JSON, once completed
  execution_id    TEXT,
  created_at      INTEGER NOT NULL,
  expires_at      INTEGER NOT NULL
);
CREATE INDEX idempotency_by_expiry ON idempotency_records(expires_at);
)sql"},
    // 4: one vocabulary in the store, and lists that page. executions gets
    // a CHECK on its state; missions gain pending and blocked, phases
    // pending and failed (tables rebuilt, rowids kept: they are the page
    // positions). task_changes holds each path a completed task changed,
    // so change sets are counted and paged in SQL. request_id records
    // belong to the execution that made them. Indexes on every foreign key
    // and on what lists order by.
    {R"sql(
CREATE TABLE executions_new (
  id            TEXT PRIMARY KEY,
  adapter       TEXT NOT NULL,
  delivery      TEXT NOT NULL CHECK (delivery IN ('stdout-marker', 'mcp-tool')),
  descriptor    TEXT NOT NULL,
  cwd           TEXT NOT NULL,
  command       TEXT NOT NULL,
  state         TEXT NOT NULL CHECK (state IN ('created', 'launching', 'running',
                  'awaiting_input', 'blocked', 'completed', 'failed', 'cancelled', 'lost')),
  pid           INTEGER,
  exit_code     INTEGER,
  exit_signal   INTEGER,
  token_sha256  BLOB,
  created_at    INTEGER NOT NULL,
  started_at    INTEGER,
  ended_at      INTEGER,
  updated_at    INTEGER NOT NULL,
  kind          TEXT NOT NULL DEFAULT 'launched' CHECK (kind IN ('launched', 'external', 'attached'))
);
INSERT INTO executions_new (rowid, id, adapter, delivery, descriptor, cwd, command, state, pid,
  exit_code, exit_signal, token_sha256, created_at, started_at, ended_at, updated_at, kind)
  SELECT rowid, id, adapter, delivery, descriptor, cwd, command, state, pid, exit_code,
  exit_signal, token_sha256, created_at, started_at, ended_at, updated_at, kind FROM executions;
DROP TABLE executions;
ALTER TABLE executions_new RENAME TO executions;
CREATE INDEX executions_by_state ON executions(state);
CREATE INDEX executions_by_ended ON executions(ended_at) WHERE ended_at IS NOT NULL;

CREATE TABLE missions_new (
  id             TEXT PRIMARY KEY,
  kind           TEXT NOT NULL CHECK (kind IN ('mission', 'workflow')),
  execution_id   TEXT REFERENCES executions(id) ON DELETE SET NULL,
  cwd            TEXT NOT NULL,
  name           TEXT NOT NULL,
  objective      TEXT,
  description    TEXT,
  profile        TEXT,
  scope          TEXT,
  constraints    TEXT,
  plan           TEXT,
  total_phases   INTEGER,
  current_phase  INTEGER NOT NULL DEFAULT 1,
  status         TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'blocked',
                   'completed', 'failed', 'partial')),
  summary        TEXT,
  achievements   TEXT,
  limitations    TEXT,
  created_at     INTEGER NOT NULL,
  completed_at   INTEGER,
  updated_at     INTEGER NOT NULL
);
INSERT INTO missions_new (rowid, id, kind, execution_id, cwd, name, objective, description,
  profile, scope, constraints, plan, total_phases, current_phase, status, summary, achievements,
  limitations, created_at, completed_at, updated_at)
  SELECT rowid, id, kind, execution_id, cwd, name, objective, description, profile, scope,
  constraints, plan, total_phases, current_phase, status, summary, achievements, limitations,
  created_at, completed_at, updated_at FROM missions;
DROP TABLE missions;
ALTER TABLE missions_new RENAME TO missions;
CREATE INDEX missions_by_created ON missions(created_at);
CREATE INDEX missions_by_execution ON missions(execution_id);

CREATE TABLE phases_new (
  id             TEXT PRIMARY KEY,
  mission_id     TEXT NOT NULL REFERENCES missions(id) ON DELETE CASCADE,
  number         INTEGER NOT NULL,
  name           TEXT,
  status         TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'completed', 'failed')),
  execution_id   TEXT REFERENCES executions(id) ON DELETE SET NULL,
  created_at     INTEGER NOT NULL,
  completed_at   INTEGER,
  UNIQUE (mission_id, number)
);
INSERT INTO phases_new (rowid, id, mission_id, number, name, status, execution_id, created_at,
  completed_at)
  SELECT rowid, id, mission_id, number, name, status, execution_id, created_at, completed_at
  FROM phases;
DROP TABLE phases;
ALTER TABLE phases_new RENAME TO phases;
CREATE INDEX phases_by_execution ON phases(execution_id);

CREATE TABLE task_changes (
  id        INTEGER PRIMARY KEY,        -- the page position
  task_id   TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  change    TEXT NOT NULL CHECK (change IN ('added', 'modified', 'deleted', 'renamed')),
  path      TEXT NOT NULL,
  old_path  TEXT,                       -- renamed: where it came from
  in_scope  INTEGER NOT NULL DEFAULT 1  -- 0: outside the task's areas
);
CREATE INDEX task_changes_by_task ON task_changes(task_id, id);
INSERT INTO task_changes (task_id, change, path)
  SELECT t.id, k.change, p.value FROM tasks t,
    (SELECT 'added' AS change UNION ALL SELECT 'modified' UNION ALL SELECT 'deleted') k,
    json_each(t.files_changed, '$.' || k.change) p
  WHERE t.files_changed IS NOT NULL AND json_valid(t.files_changed);
INSERT INTO task_changes (task_id, change, path, old_path)
  SELECT t.id, 'renamed', json_extract(p.value, '$.to'), json_extract(p.value, '$.from')
  FROM tasks t, json_each(t.files_changed, '$.renamed') p
  WHERE t.files_changed IS NOT NULL AND json_valid(t.files_changed);
UPDATE task_changes SET in_scope = 0 WHERE EXISTS (
  SELECT 1 FROM tasks t, json_each(t.verification, '$.unexpected_files') u
  WHERE t.id = task_changes.task_id AND json_valid(t.verification) AND u.value = task_changes.path);

CREATE INDEX tasks_by_phase ON tasks(phase_id);
CREATE INDEX tasks_by_parent ON tasks(parent_task_id);
CREATE INDEX tasks_by_execution ON tasks(execution_id);
CREATE INDEX decisions_by_execution ON decisions(execution_id);
CREATE INDEX issues_by_execution ON issues(execution_id);
CREATE INDEX milestones_by_execution ON milestones(execution_id);
CREATE INDEX observations_by_kind ON observations(execution_id, kind, id);

CREATE TABLE idempotency_records_new (
  execution_id    TEXT NOT NULL,
  request_id      TEXT NOT NULL,
  tool            TEXT NOT NULL,
  payload_sha256  BLOB NOT NULL,
  state           TEXT NOT NULL CHECK (state IN ('in_progress', 'completed')),
  result          TEXT,
  created_at      INTEGER NOT NULL,
  expires_at      INTEGER NOT NULL,
  PRIMARY KEY (execution_id, request_id)
);
INSERT INTO idempotency_records_new (execution_id, request_id, tool, payload_sha256, state,
  result, created_at, expires_at)
  SELECT coalesce(execution_id, ''), request_id, tool, payload_sha256, state, result,
  created_at, expires_at FROM idempotency_records;
DROP TABLE idempotency_records;
ALTER TABLE idempotency_records_new RENAME TO idempotency_records;
CREATE INDEX idempotency_by_expiry ON idempotency_records(expires_at);
)sql",
     kPostgresqlStep4},
    // 5: who else may change a tracked record. Its owner is the execution
    // that created it (missions.execution_id, tasks.execution_id); a grant
    // lets one more execution change a mission (and its tasks) or one task.
    {R"sql(
CREATE TABLE grants (
  id            INTEGER PRIMARY KEY,
  execution_id  TEXT NOT NULL REFERENCES executions(id) ON DELETE CASCADE,
  mission_id    TEXT REFERENCES missions(id) ON DELETE CASCADE,
  task_id       TEXT REFERENCES tasks(id) ON DELETE CASCADE,
  granted_by    TEXT,                 -- the execution, or NULL for a person or the daemon
  created_at    INTEGER NOT NULL,
  CHECK ((mission_id IS NULL) != (task_id IS NULL))
);
CREATE INDEX grants_by_execution ON grants(execution_id);
CREATE INDEX grants_by_mission ON grants(mission_id);
CREATE INDEX grants_by_task ON grants(task_id);
)sql"},
    // 6: agents are executions (ADR 17): what an agent says of itself when
    // it registers, its last heartbeat, the last MCP call of each session
    // (a sign of life too), and the messages between agents and people.
    {R"sql(
ALTER TABLE executions ADD COLUMN agent_name TEXT;
ALTER TABLE executions ADD COLUMN agent_runtime TEXT;
ALTER TABLE executions ADD COLUMN agent_role TEXT CHECK (agent_role IN ('coordinator', 'worker'));
ALTER TABLE executions ADD COLUMN agent_capabilities TEXT;   -- JSON array of strings
ALTER TABLE executions ADD COLUMN agent_status TEXT
  CHECK (agent_status IN ('online', 'busy', 'offline'));
ALTER TABLE executions ADD COLUMN agent_task_id TEXT;
ALTER TABLE executions ADD COLUMN agent_workspace TEXT;
ALTER TABLE executions ADD COLUMN agent_metadata TEXT;       -- JSON object, as the agent gave it
ALTER TABLE executions ADD COLUMN agent_registered_at INTEGER;
ALTER TABLE executions ADD COLUMN last_heartbeat_at INTEGER;
CREATE INDEX executions_registered ON executions(agent_registered_at)
  WHERE agent_registered_at IS NOT NULL;

ALTER TABLE mcp_sessions ADD COLUMN last_call_at INTEGER;

-- From an execution or a person (sender_person, a login name); to an
-- execution, or to people (recipient_execution_id NULL: `mission inbox`).
CREATE TABLE messages (
  id                       INTEGER PRIMARY KEY,   -- the paging position
  message_id               TEXT NOT NULL UNIQUE,  -- ms-...
  thread_id                TEXT NOT NULL,
  sender_execution_id      TEXT REFERENCES executions(id) ON DELETE SET NULL,
  sender_person            TEXT,
  recipient_execution_id   TEXT REFERENCES executions(id) ON DELETE CASCADE,
  message_type             TEXT NOT NULL CHECK (message_type IN ('task_assignment',
                             'status_update', 'query', 'response', 'notification')),
  subject                  TEXT,
  body                     TEXT NOT NULL,         -- a JSON value: text or an object
  priority                 TEXT NOT NULL CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
  workflow_id              TEXT,
  task_id                  TEXT,
  reply_to_id              TEXT,                  -- a message_id
  reply_to_observation_id  INTEGER REFERENCES observations(id) ON DELETE SET NULL,
  created_at               INTEGER NOT NULL,
  expires_at               INTEGER,
  read_at                  INTEGER,
  archived_at              INTEGER
);
CREATE INDEX messages_by_recipient ON messages(recipient_execution_id, id);
CREATE INDEX messages_unread ON messages(recipient_execution_id, id)
  WHERE read_at IS NULL AND archived_at IS NULL;
CREATE INDEX messages_by_thread ON messages(thread_id, id);
CREATE INDEX messages_by_sender ON messages(sender_execution_id);
)sql"},
    // 7: planned work (docs/adr/0015). missions gain kind 'planned' (seed
    // 003's workflows), the statuses planning, ready, paused and cancelled,
    // and the plan's columns; tasks gain pending and skipped, the planned
    // task's columns, and a per-task journal counter; a planned task has no
    // snapshot until it starts. Both tables are rebuilt with their rowids
    // (page positions). Dependencies are rows; every journal entry takes
    // the next value of its task's journal_seq; checkpoints join the
    // journal; repositories and templates are new.
    {R"sql(
CREATE TABLE repositories (
  id          TEXT PRIMARY KEY,
  path        TEXT NOT NULL UNIQUE,
  name        TEXT NOT NULL,
  created_at  INTEGER NOT NULL
);

CREATE TABLE missions_new (
  id             TEXT PRIMARY KEY,
  kind           TEXT NOT NULL CHECK (kind IN ('mission', 'workflow', 'planned')),
  execution_id   TEXT REFERENCES executions(id) ON DELETE SET NULL,
  cwd            TEXT NOT NULL,
  name           TEXT NOT NULL,
  objective      TEXT,
  description    TEXT,
  profile        TEXT,
  scope          TEXT,
  constraints    TEXT,
  plan           TEXT,
  total_phases   INTEGER,
  current_phase  INTEGER NOT NULL DEFAULT 1,
  status         TEXT NOT NULL CHECK (status IN ('planning', 'ready', 'pending', 'in_progress',
                   'blocked', 'paused', 'completed', 'failed', 'partial', 'cancelled')),
  summary        TEXT,
  achievements   TEXT,
  limitations    TEXT,
  created_at     INTEGER NOT NULL,
  completed_at   INTEGER,
  updated_at     INTEGER NOT NULL,
  source_type             TEXT,
  source_ref              TEXT,
  source_content          TEXT,
  repository_id           TEXT REFERENCES repositories(id) ON DELETE SET NULL,
  plan_summary            TEXT,
  plan_approach           TEXT,
  plan_risks              TEXT,           -- JSON array
  plan_assumptions        TEXT,           -- JSON array
  max_parallel_tasks      INTEGER NOT NULL DEFAULT 1 CHECK (max_parallel_tasks >= 1),
  auto_create_workspaces  INTEGER NOT NULL DEFAULT 0,
  status_reason           TEXT,
  plan_revision           INTEGER NOT NULL DEFAULT 0  -- bumped by every change to its planned tasks
);
INSERT INTO missions_new (rowid, id, kind, execution_id, cwd, name, objective, description,
  profile, scope, constraints, plan, total_phases, current_phase, status, summary, achievements,
  limitations, created_at, completed_at, updated_at)
  SELECT rowid, id, kind, execution_id, cwd, name, objective, description, profile, scope,
  constraints, plan, total_phases, current_phase, status, summary, achievements, limitations,
  created_at, completed_at, updated_at FROM missions;
DROP TABLE missions;
ALTER TABLE missions_new RENAME TO missions;
CREATE INDEX missions_by_created ON missions(created_at);
CREATE INDEX missions_by_execution ON missions(execution_id);
CREATE INDEX missions_by_repository ON missions(repository_id);

CREATE TABLE tasks_new (
  id              TEXT PRIMARY KEY,
  mission_id      TEXT NOT NULL REFERENCES missions(id) ON DELETE CASCADE,
  phase_id        TEXT REFERENCES phases(id) ON DELETE CASCADE,
  parent_task_id  TEXT REFERENCES tasks(id) ON DELETE CASCADE,
  execution_id    TEXT REFERENCES executions(id) ON DELETE SET NULL,
  caller_type     TEXT,
  agent_name      TEXT,
  name            TEXT NOT NULL,
  goal            TEXT NOT NULL,
  areas           TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'success',
                    'partial_success', 'failed', 'skipped')),
  snapshot_type   TEXT,                   -- NULL until a planned task starts
  snapshot_id     TEXT,
  snapshot_root   TEXT,
  snapshot_data   BLOB,
  outcome         TEXT,
  metadata        TEXT,
  files_changed   TEXT,
  verification    TEXT,
  started_at      INTEGER,                -- NULL until a planned task starts
  completed_at    INTEGER,
  plan_order      INTEGER,                -- planned tasks: position in the plan, from 0
  description     TEXT,
  sequence        INTEGER,
  parallel_group  TEXT,
  complexity      TEXT CHECK (complexity IN ('low', 'medium', 'high')),
  files_likely_affected  TEXT,            -- JSON array
  acceptance_criteria    TEXT,            -- JSON array
  task_plan       TEXT,                   -- JSON, task_set_plan's plan
  task_context    TEXT,                   -- JSON object, task_set_plan's context
  error           TEXT,                   -- task_update_status failed
  journal_seq     INTEGER NOT NULL DEFAULT 0,  -- the last journal entry's sequence
  created_at      INTEGER
);
INSERT INTO tasks_new (rowid, id, mission_id, phase_id, parent_task_id, execution_id, caller_type,
  agent_name, name, goal, areas, status, snapshot_type, snapshot_id, snapshot_root, snapshot_data,
  outcome, metadata, files_changed, verification, started_at, completed_at, created_at)
  SELECT rowid, id, mission_id, phase_id, parent_task_id, execution_id, caller_type, agent_name,
  name, goal, areas, status, snapshot_type, snapshot_id, snapshot_root, snapshot_data, outcome,
  metadata, files_changed, verification, started_at, completed_at, started_at FROM tasks;
DROP TABLE tasks;
ALTER TABLE tasks_new RENAME TO tasks;
CREATE INDEX tasks_by_mission ON tasks(mission_id, started_at);
CREATE INDEX tasks_by_phase ON tasks(phase_id);
CREATE INDEX tasks_by_parent ON tasks(parent_task_id);
CREATE INDEX tasks_by_execution ON tasks(execution_id);
CREATE UNIQUE INDEX tasks_by_plan ON tasks(mission_id, plan_order) WHERE plan_order IS NOT NULL;
-- Whoever changes a planned task's state (the tracking tools too) bumps its
-- workflow's revision, so a cached DAG knows it is stale.
CREATE TRIGGER tasks_revise_plan AFTER UPDATE OF status, started_at, completed_at, outcome ON tasks
  WHEN NEW.plan_order IS NOT NULL
  BEGIN UPDATE missions SET plan_revision = plan_revision + 1 WHERE id = NEW.mission_id; END;

CREATE TABLE task_dependencies (
  task_id        TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  depends_on_id  TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  PRIMARY KEY (task_id, depends_on_id)
) WITHOUT ROWID;
CREATE INDEX task_dependencies_by_prerequisite ON task_dependencies(depends_on_id);

ALTER TABLE decisions ADD COLUMN seq INTEGER;
ALTER TABLE issues ADD COLUMN seq INTEGER;
ALTER TABLE milestones ADD COLUMN seq INTEGER;
CREATE TABLE checkpoints (
  id             TEXT PRIMARY KEY,
  task_id        TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  seq            INTEGER NOT NULL,
  execution_id   TEXT REFERENCES executions(id) ON DELETE SET NULL,
  type           TEXT NOT NULL CHECK (type IN ('plan', 'progress', 'decision', 'error',
                   'recovery', 'complete', 'replan')),
  summary        TEXT NOT NULL,
  detail         TEXT,                    -- JSON object
  files_changed  TEXT,                    -- JSON array
  created_at     INTEGER NOT NULL,
  UNIQUE (task_id, seq)
);
CREATE INDEX checkpoints_by_execution ON checkpoints(execution_id);
-- Entries already recorded take their sequence in time order.
CREATE TEMP TABLE journal_order AS
  SELECT kind, id, row_number() OVER (PARTITION BY task_id ORDER BY created_at, kind, id) AS seq
  FROM (SELECT 'decision' AS kind, id, task_id, created_at FROM decisions
        UNION ALL SELECT 'issue', id, task_id, created_at FROM issues
        UNION ALL SELECT 'milestone', id, task_id, created_at FROM milestones);
UPDATE decisions SET seq = (SELECT seq FROM journal_order o WHERE o.kind = 'decision' AND o.id = decisions.id);
UPDATE issues SET seq = (SELECT seq FROM journal_order o WHERE o.kind = 'issue' AND o.id = issues.id);
UPDATE milestones SET seq = (SELECT seq FROM journal_order o WHERE o.kind = 'milestone' AND o.id = milestones.id);
DROP TABLE journal_order;
UPDATE tasks SET journal_seq = coalesce((SELECT max(seq) FROM (
  SELECT seq FROM decisions WHERE task_id = tasks.id UNION ALL
  SELECT seq FROM issues WHERE task_id = tasks.id UNION ALL
  SELECT seq FROM milestones WHERE task_id = tasks.id)), 0);
CREATE UNIQUE INDEX decisions_by_seq ON decisions(task_id, seq);
CREATE UNIQUE INDEX issues_by_seq ON issues(task_id, seq);
CREATE UNIQUE INDEX milestones_by_seq ON milestones(task_id, seq);

CREATE TABLE templates (
  id           TEXT PRIMARY KEY,
  name         TEXT NOT NULL UNIQUE,
  description  TEXT,
  definition   TEXT NOT NULL,           -- JSON {tasks, variables}
  execution_id TEXT REFERENCES executions(id) ON DELETE SET NULL,
  created_at   INTEGER NOT NULL
);
)sql",
     kPostgresqlStep7},
    // 8: claims as leases (docs/adr/0019). A planned task is claimed by one
    // execution at a time (tasks.claimed_by); the claim ends in the same
    // transaction as whatever ends it. Triggers do it, so that every path
    // that ends an execution (its process exit, a stop, a session's end, a
    // daemon found gone at start-up) releases its claims without having to
    // know about them: the task goes back to pending, with a recovery
    // checkpoint in its journal saying why. A task that ends drops its claim.
    {R"sql(
ALTER TABLE tasks ADD COLUMN claimed_by TEXT REFERENCES executions(id) ON DELETE SET NULL;
ALTER TABLE tasks ADD COLUMN claimed_at INTEGER;
CREATE INDEX tasks_by_claim ON tasks(claimed_by) WHERE claimed_by IS NOT NULL;
CREATE TRIGGER executions_end_claims AFTER UPDATE OF state ON executions
  WHEN NEW.state IN ('completed', 'failed', 'cancelled', 'lost')
   AND OLD.state NOT IN ('completed', 'failed', 'cancelled', 'lost')
  BEGIN
    INSERT INTO checkpoints (id, task_id, seq, execution_id, type, summary, detail, created_at)
      SELECT 'cp-' || lower(hex(randomblob(5))), t.id, t.journal_seq + 1, NEW.id, 'recovery',
             'claim released: agent execution ' || NEW.id || ' ended ' || NEW.state ||
             CASE WHEN t.status = 'in_progress' THEN ' while the task was in progress' ELSE '' END,
             json_object('reason', 'execution_' || NEW.state, 'agent_execution_id', NEW.id,
                         'previous_status', t.status),
             NEW.updated_at
      FROM tasks t WHERE t.claimed_by = NEW.id;
    UPDATE tasks SET journal_seq = journal_seq + 1, claimed_by = NULL, claimed_at = NULL,
                     started_at = CASE WHEN status = 'in_progress' THEN NULL ELSE started_at END,
                     status = CASE WHEN status = 'in_progress' THEN 'pending' ELSE status END
      WHERE claimed_by = NEW.id;
  END;
CREATE TRIGGER tasks_end_claim AFTER UPDATE OF status ON tasks
  WHEN NEW.claimed_by IS NOT NULL AND NEW.status NOT IN ('pending', 'in_progress')
  BEGIN UPDATE tasks SET claimed_by = NULL, claimed_at = NULL WHERE id = NEW.id; END;
)sql",
     kPostgresqlStep8},
    // 9: workspaces (docs/adr/0019): a git worktree on its own branch for a
    // workflow's tasks, made by mission (owned: mission removes it) or
    // registered as it is; a task names the workspace its snapshot and
    // change set are taken in.
    {R"sql(
CREATE TABLE workspaces (
  id            TEXT PRIMARY KEY,
  workflow_id   TEXT NOT NULL REFERENCES missions(id) ON DELETE CASCADE,
  path          TEXT NOT NULL UNIQUE,
  branch        TEXT NOT NULL,
  base_branch   TEXT,
  base_commit   TEXT,
  repository    TEXT NOT NULL,             -- the main work tree
  status        TEXT NOT NULL CHECK (status IN ('active', 'merged', 'abandoned', 'removed')),
  merge_commit  TEXT,
  owned         INTEGER NOT NULL DEFAULT 0,
  execution_id  TEXT REFERENCES executions(id) ON DELETE SET NULL,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
CREATE INDEX workspaces_by_workflow ON workspaces(workflow_id, status);
ALTER TABLE tasks ADD COLUMN workspace_id TEXT REFERENCES workspaces(id) ON DELETE SET NULL;
CREATE INDEX tasks_by_workspace ON tasks(workspace_id) WHERE workspace_id IS NOT NULL;
)sql"},
    // 10: workflow runs (docs/adr/0023): the daemon dispatching agents onto a
    // workflow's ready tasks, and every attempt at a task with how it was
    // judged. A workflow has at most one live run.
    {R"sql(
CREATE TABLE runs (
  id                 TEXT PRIMARY KEY,
  workflow_id        TEXT NOT NULL REFERENCES missions(id) ON DELETE CASCADE,
  status             TEXT NOT NULL CHECK (status IN ('running', 'stopping', 'stopped', 'completed', 'failed', 'partial')),
  options            TEXT NOT NULL,      -- JSON: adapter, command, parallel, check, attempts, timeout, env
  repository         TEXT NOT NULL,      -- the main work tree
  integration_branch TEXT NOT NULL,
  base_commit        TEXT NOT NULL,
  reason             TEXT,
  created_at         INTEGER NOT NULL,
  ended_at           INTEGER
);
CREATE UNIQUE INDEX runs_live ON runs(workflow_id) WHERE status IN ('running', 'stopping');
CREATE TABLE run_attempts (
  run_id        TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  task_id       TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  attempt       INTEGER NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('running', 'judging', 'awaiting_approval', 'queued', 'merged', 'failed', 'conflicted', 'stopped')),
  execution_id  TEXT REFERENCES executions(id) ON DELETE SET NULL,
  workspace_id  TEXT REFERENCES workspaces(id) ON DELETE SET NULL,
  reason        TEXT,                    -- why it failed or conflicted
  check_output  TEXT,                    -- the tail of the check's output
  merge_commit  TEXT,
  dispatch_us   INTEGER,                 -- picked to process spawned, worktree creation left out
  started_at    INTEGER NOT NULL,
  ended_at      INTEGER,
  PRIMARY KEY (run_id, task_id, attempt)
);
CREATE INDEX run_attempts_by_execution ON run_attempts(execution_id) WHERE execution_id IS NOT NULL;
-- Deleting a task (a plan replaced) checks its attempts through this.
CREATE INDEX run_attempts_by_task ON run_attempts(task_id);
)sql"},
    // 11: attempts a coordinating agent starts through the control toolset
    // (docs/adr/0025): a worktree of their own, an agent in it, and
    // follow-up turns in the same worktree. A queued prompt launches the
    // next turn once no turn of the attempt is live (the first turn too).
    {R"sql(
CREATE TABLE task_attempts (
  id             TEXT PRIMARY KEY,
  task_id        TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  coordinator_id TEXT NOT NULL,          -- the execution that started it
  executor       TEXT NOT NULL,          -- the adapter
  command        TEXT NOT NULL,          -- JSON array: the words before the prompt
  workspace_id   TEXT REFERENCES workspaces(id) ON DELETE SET NULL,
  worktree       TEXT NOT NULL,
  branch         TEXT NOT NULL,
  base_commit    TEXT NOT NULL,
  execution_id   TEXT REFERENCES executions(id) ON DELETE SET NULL,  -- the latest turn's agent
  turns          INTEGER NOT NULL DEFAULT 0,
  queued_prompt  TEXT,
  launch_error   TEXT,
  stopped        INTEGER NOT NULL DEFAULT 0,
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL
);
CREATE INDEX task_attempts_by_task ON task_attempts(task_id, created_at);
CREATE INDEX task_attempts_by_execution ON task_attempts(execution_id) WHERE execution_id IS NOT NULL;
CREATE INDEX task_attempts_queued ON task_attempts(id) WHERE queued_prompt IS NOT NULL;
)sql"},
    // 12: the tokens an attempt's agent reported in complete_task's metadata
    // (tokens_input, tokens_output), for mission report (docs/adr/0026).
    {R"sql(
ALTER TABLE run_attempts ADD COLUMN tokens_input INTEGER;
ALTER TABLE run_attempts ADD COLUMN tokens_output INTEGER;
)sql"},
    // 13: what an attempt changed outside its task's files_likely_affected
    // when it passed anyway (daemon/runs/change_scope.hpp).
    {R"sql(
ALTER TABLE run_attempts ADD COLUMN scope_warning TEXT;
)sql"},
    // 14: a plan's rows written faster (docs/adr/0029). The edges lose their
    // foreign keys, which cost two probes of the tasks' primary key per edge
    // inserted: only the planning code writes edges, between tasks it has
    // just written or read in the same transaction. A trigger removes a
    // deleted task's edges both ways, as the cascades did. Tasks' phase and
    // parent are NULL for planned tasks: their indexes keep only the rows
    // that have one (lookups by value and the cascades still use them).
    {R"sql(
CREATE TABLE task_dependencies_new (
  task_id        TEXT NOT NULL,  -- tasks(id); removed with it by tasks_drop_dependencies
  depends_on_id  TEXT NOT NULL,  -- tasks(id); likewise
  PRIMARY KEY (task_id, depends_on_id)
) WITHOUT ROWID;
INSERT INTO task_dependencies_new (task_id, depends_on_id)
  SELECT task_id, depends_on_id FROM task_dependencies ORDER BY task_id, depends_on_id;
DROP TABLE task_dependencies;
ALTER TABLE task_dependencies_new RENAME TO task_dependencies;
CREATE INDEX task_dependencies_by_prerequisite ON task_dependencies(depends_on_id);
CREATE TRIGGER tasks_drop_dependencies AFTER DELETE ON tasks
  BEGIN
    DELETE FROM task_dependencies WHERE task_id = OLD.id;
    DELETE FROM task_dependencies WHERE depends_on_id = OLD.id;
  END;
DROP INDEX tasks_by_phase;
CREATE INDEX tasks_by_phase ON tasks(phase_id) WHERE phase_id IS NOT NULL;
DROP INDEX tasks_by_parent;
CREATE INDEX tasks_by_parent ON tasks(parent_task_id) WHERE parent_task_id IS NOT NULL;
)sql",
     kPostgresqlStep14},
    // 15: a run's stored options kept the whole environment of the
    // `mission workflows run` that started it, secrets and a caller's MCP
    // token included. The environment now lives in a 0600 file of the
    // runtime dir (docs/adr/0032); what the database held goes. A run live
    // across this upgrade resumes with the daemon's environment.
    {R"sql(
UPDATE runs SET options = json_remove(options, '$.env') WHERE json_valid(options) AND json_type(options, '$.env') IS NOT NULL;
)sql",
     kPostgresqlStep15},
    // 16: a task added to a plan (create_task) finds what it needs by index,
    // not by reading the whole plan (docs/adr/0033): a planned task by
    // name, the plan's last sequence, and the tasks of the stage before a
    // sequence.
    {R"sql(
CREATE INDEX tasks_planned_by_name ON tasks(mission_id, name) WHERE plan_order IS NOT NULL;
CREATE INDEX tasks_planned_by_sequence ON tasks(mission_id, sequence, plan_order) WHERE plan_order IS NOT NULL;
)sql"},
    // 17: unread messages counted, not scanned (docs/adr/0033): every tool
    // result of an agent looks for unread messages, and counting a backlog
    // of 100,000 read each of them. Triggers keep the count of unread
    // (neither read nor archived) messages per recipient and priority; the
    // ones among them that have expired are counted through an index of
    // only the messages that can expire. The unread index carries
    // expires_at, so finding the oldest unexpired message skips expired
    // ones in the index alone.
    {R"sql(
CREATE TABLE message_unread_counts (
  recipient  TEXT NOT NULL,  -- recipient_execution_id, or '' for the people's inbox
  priority   TEXT NOT NULL,
  unread     INTEGER NOT NULL,
  PRIMARY KEY (recipient, priority)
) WITHOUT ROWID;
INSERT INTO message_unread_counts (recipient, priority, unread)
  SELECT coalesce(recipient_execution_id, ''), priority, count(*) FROM messages
  WHERE read_at IS NULL AND archived_at IS NULL GROUP BY 1, 2;
CREATE TRIGGER messages_count_insert AFTER INSERT ON messages
  WHEN NEW.read_at IS NULL AND NEW.archived_at IS NULL
  BEGIN
    INSERT INTO message_unread_counts (recipient, priority, unread)
      VALUES (coalesce(NEW.recipient_execution_id, ''), NEW.priority, 1)
      ON CONFLICT (recipient, priority) DO UPDATE SET unread = unread + 1;
  END;
CREATE TRIGGER messages_count_update
  AFTER UPDATE OF read_at, archived_at, recipient_execution_id, priority ON messages
  BEGIN
    UPDATE message_unread_counts SET unread = unread - 1
      WHERE OLD.read_at IS NULL AND OLD.archived_at IS NULL
        AND recipient = coalesce(OLD.recipient_execution_id, '') AND priority = OLD.priority;
    INSERT INTO message_unread_counts (recipient, priority, unread)
      SELECT coalesce(NEW.recipient_execution_id, ''), NEW.priority, 1
      WHERE NEW.read_at IS NULL AND NEW.archived_at IS NULL
      ON CONFLICT (recipient, priority) DO UPDATE SET unread = unread + 1;
  END;
CREATE TRIGGER messages_count_delete AFTER DELETE ON messages
  WHEN OLD.read_at IS NULL AND OLD.archived_at IS NULL
  BEGIN
    UPDATE message_unread_counts SET unread = unread - 1
      WHERE recipient = coalesce(OLD.recipient_execution_id, '') AND priority = OLD.priority;
  END;
CREATE TRIGGER executions_drop_message_counts AFTER DELETE ON executions
  BEGIN DELETE FROM message_unread_counts WHERE recipient = OLD.id; END;
DROP INDEX messages_unread;
CREATE INDEX messages_unread ON messages(recipient_execution_id, id, expires_at)
  WHERE read_at IS NULL AND archived_at IS NULL;
-- read_at and archived_at (always NULL here) make it covering for the
-- count, which names them to match the index's WHERE.
CREATE INDEX messages_unread_expiring
  ON messages(recipient_execution_id, priority, expires_at, read_at, archived_at)
  WHERE read_at IS NULL AND archived_at IS NULL AND expires_at IS NOT NULL;
)sql",
     kPostgresqlStep17},
    // 18: how a launched agent ran, in people's words: "confined (Landlock
    // ABI N)", "not confined: --sandbox off", "not confined: kernel has no
    // Landlock" (docs/adr/0036). NULL for an execution not launched by the
    // daemon, or launched before this was recorded.
    {R"sql(
ALTER TABLE executions ADD COLUMN sandbox TEXT;
)sql"},
    // 19: where a person landed a run (mission workflows land): a JSON
    // object {into, commit, how, at}; NULL until it lands.
    {R"sql(
ALTER TABLE runs ADD COLUMN landed TEXT;
)sql"},
    // 20: a run's --gate on the tree that would land (docs/adr/0041): the
    // merged tree's id, the integration tip it was merged onto, whether it
    // passed, the tail of its output and when it ended. NULL when the
    // attempt was not gated.
    {R"sql(
ALTER TABLE run_attempts ADD COLUMN gate_tree TEXT;
ALTER TABLE run_attempts ADD COLUMN gate_onto TEXT;
ALTER TABLE run_attempts ADD COLUMN gate_passed INTEGER;
ALTER TABLE run_attempts ADD COLUMN gate_output TEXT;
ALTER TABLE run_attempts ADD COLUMN gate_at INTEGER;
)sql"},
    // 21: the tokens and cost an agent's own stream stated
    // (shared/agent_usage.hpp), one row per execution, as the agent gave
    // them; `source` says where they were read ('stream'). What an agent
    // reports through complete_task stays on its run attempt.
    {R"sql(
CREATE TABLE execution_usage (
  execution_id        TEXT PRIMARY KEY REFERENCES executions(id) ON DELETE CASCADE,
  source              TEXT NOT NULL CHECK (source IN ('stream')),
  input_tokens        INTEGER,
  output_tokens       INTEGER,
  cache_read_tokens   INTEGER,
  cache_write_tokens  INTEGER,
  cost_usd            REAL,
  updated_at          INTEGER NOT NULL
) WITHOUT ROWID;
)sql"},
    // 22: every --gate verdict of a run by merged tree (docs/adr/0041, "The
    // queue"): combined trees of several queued tasks are judged too, and
    // no attempt holds those. A tree is judged once per run, so the rows
    // are also the count of gate runs; a resumed run reads them back.
    {R"sql(
CREATE TABLE run_gates (
  run_id  TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  tree    TEXT NOT NULL,
  onto    TEXT NOT NULL,
  passed  INTEGER NOT NULL,
  reason  TEXT NOT NULL,
  output  TEXT NOT NULL,
  at      INTEGER NOT NULL,
  PRIMARY KEY (run_id, tree)
) WITHOUT ROWID;
)sql"},
    // 23: an agent driven over ACP says when it waits on a permission
    // request and when its session is open between turns (docs/adr/0044):
    // the executions CHECK gains awaiting_permission and idle. The table is
    // rebuilt as migration 4 did, rowids kept (they are the page
    // positions), its indexes and triggers made again.
    {R"sql(
CREATE TABLE executions_new (
  id            TEXT PRIMARY KEY,
  adapter       TEXT NOT NULL,
  delivery      TEXT NOT NULL CHECK (delivery IN ('stdout-marker', 'mcp-tool')),
  descriptor    TEXT NOT NULL,
  cwd           TEXT NOT NULL,
  command       TEXT NOT NULL,
  state         TEXT NOT NULL CHECK (state IN ('created', 'launching', 'running',
                  'awaiting_input', 'awaiting_permission', 'idle', 'blocked', 'completed',
                  'failed', 'cancelled', 'lost')),
  pid           INTEGER,
  exit_code     INTEGER,
  exit_signal   INTEGER,
  token_sha256  BLOB,
  created_at    INTEGER NOT NULL,
  started_at    INTEGER,
  ended_at      INTEGER,
  updated_at    INTEGER NOT NULL,
  kind          TEXT NOT NULL DEFAULT 'launched' CHECK (kind IN ('launched', 'external', 'attached')),
  agent_name    TEXT,
  agent_runtime TEXT,
  agent_role    TEXT CHECK (agent_role IN ('coordinator', 'worker')),
  agent_capabilities TEXT,
  agent_status  TEXT CHECK (agent_status IN ('online', 'busy', 'offline')),
  agent_task_id TEXT,
  agent_workspace TEXT,
  agent_metadata TEXT,
  agent_registered_at INTEGER,
  last_heartbeat_at INTEGER,
  sandbox       TEXT
);
INSERT INTO executions_new (rowid, id, adapter, delivery, descriptor, cwd, command, state, pid,
  exit_code, exit_signal, token_sha256, created_at, started_at, ended_at, updated_at, kind,
  agent_name, agent_runtime, agent_role, agent_capabilities, agent_status, agent_task_id,
  agent_workspace, agent_metadata, agent_registered_at, last_heartbeat_at, sandbox)
  SELECT rowid, id, adapter, delivery, descriptor, cwd, command, state, pid, exit_code,
  exit_signal, token_sha256, created_at, started_at, ended_at, updated_at, kind, agent_name,
  agent_runtime, agent_role, agent_capabilities, agent_status, agent_task_id, agent_workspace,
  agent_metadata, agent_registered_at, last_heartbeat_at, sandbox FROM executions;
DROP TABLE executions;
ALTER TABLE executions_new RENAME TO executions;
CREATE INDEX executions_by_state ON executions(state);
CREATE INDEX executions_by_ended ON executions(ended_at) WHERE ended_at IS NOT NULL;
CREATE INDEX executions_registered ON executions(agent_registered_at)
  WHERE agent_registered_at IS NOT NULL;
CREATE TRIGGER executions_end_claims AFTER UPDATE OF state ON executions
  WHEN NEW.state IN ('completed', 'failed', 'cancelled', 'lost')
   AND OLD.state NOT IN ('completed', 'failed', 'cancelled', 'lost')
  BEGIN
    INSERT INTO checkpoints (id, task_id, seq, execution_id, type, summary, detail, created_at)
      SELECT 'cp-' || lower(hex(randomblob(5))), t.id, t.journal_seq + 1, NEW.id, 'recovery',
             'claim released: agent execution ' || NEW.id || ' ended ' || NEW.state ||
             CASE WHEN t.status = 'in_progress' THEN ' while the task was in progress' ELSE '' END,
             json_object('reason', 'execution_' || NEW.state, 'agent_execution_id', NEW.id,
                         'previous_status', t.status),
             NEW.updated_at
      FROM tasks t WHERE t.claimed_by = NEW.id;
    UPDATE tasks SET journal_seq = journal_seq + 1, claimed_by = NULL, claimed_at = NULL,
                     started_at = CASE WHEN status = 'in_progress' THEN NULL ELSE started_at END,
                     status = CASE WHEN status = 'in_progress' THEN 'pending' ELSE status END
      WHERE claimed_by = NEW.id;
  END;
CREATE TRIGGER executions_drop_message_counts AFTER DELETE ON executions
  BEGIN DELETE FROM message_unread_counts WHERE recipient = OLD.id; END;
)sql",
     kPostgresqlStep23},
    // 24: an attempt stopped at its task's or its run's budget waits as
    // budget_reached until a person raises it (docs/adr/0049): the
    // run_attempts CHECK gains it. The table is rebuilt as migration 23
    // rebuilt executions, rowids and indexes kept.
    {R"sql(
CREATE TABLE run_attempts_new (
  run_id        TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  task_id       TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  attempt       INTEGER NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('running', 'judging', 'awaiting_approval', 'queued',
                  'merged', 'failed', 'conflicted', 'stopped', 'budget_reached')),
  execution_id  TEXT REFERENCES executions(id) ON DELETE SET NULL,
  workspace_id  TEXT REFERENCES workspaces(id) ON DELETE SET NULL,
  reason        TEXT,
  check_output  TEXT,
  merge_commit  TEXT,
  dispatch_us   INTEGER,
  started_at    INTEGER NOT NULL,
  ended_at      INTEGER,
  tokens_input  INTEGER,
  tokens_output INTEGER,
  scope_warning TEXT,
  gate_tree     TEXT,
  gate_onto     TEXT,
  gate_passed   INTEGER,
  gate_output   TEXT,
  gate_at       INTEGER,
  PRIMARY KEY (run_id, task_id, attempt)
);
INSERT INTO run_attempts_new (rowid, run_id, task_id, attempt, status, execution_id, workspace_id,
  reason, check_output, merge_commit, dispatch_us, started_at, ended_at, tokens_input,
  tokens_output, scope_warning, gate_tree, gate_onto, gate_passed, gate_output, gate_at)
  SELECT rowid, run_id, task_id, attempt, status, execution_id, workspace_id, reason,
  check_output, merge_commit, dispatch_us, started_at, ended_at, tokens_input, tokens_output,
  scope_warning, gate_tree, gate_onto, gate_passed, gate_output, gate_at FROM run_attempts;
DROP TABLE run_attempts;
ALTER TABLE run_attempts_new RENAME TO run_attempts;
CREATE INDEX run_attempts_by_execution ON run_attempts(execution_id) WHERE execution_id IS NOT NULL;
CREATE INDEX run_attempts_by_task ON run_attempts(task_id);
)sql",
     kPostgresqlStep24},
}};

}  // namespace

int latest_schema_version() {
  return static_cast<int>(kMigrations.size());
}

namespace {

// PostgreSQL keeps the version in a table (SQLite's is PRAGMA user_version).
constexpr const char* kPostgresqlVersionTable =
    "CREATE TABLE IF NOT EXISTS mission_schema (version BIGINT NOT NULL)";

// Held by the transaction of each PostgreSQL step: two daemons starting on
// one database migrate one after the other, the second finding it done.
constexpr const char* kPostgresqlMigrationLock = "SELECT pg_advisory_xact_lock(5143500052)";

void check_not_newer(Database& db, int current) {
  if (current <= latest_schema_version()) return;
  throw MissionError(ErrorCode::internal,
                     "database " + db.path().string() + " has schema version " +
                         std::to_string(current) + ", newer than this missiond understands (" +
                         std::to_string(latest_schema_version()) + ")",
                     "run the newer missiond, or point MISSION_STATE_DIR elsewhere");
}

void migrate_postgresql(Database& db, int target) {
  db.exec(kPostgresqlVersionTable);
  check_not_newer(db, schema_version(db));
  {
    Transaction transaction(db);
    db.prepare(kPostgresqlMigrationLock).run();
    db.exec(kPostgresqlFunctions);
    transaction.commit();
  }
  for (int version = 1; version <= std::min(target, latest_schema_version()); ++version) {
    Transaction transaction(db);
    db.prepare(kPostgresqlMigrationLock).run();
    if (schema_version(db) >= version) continue;
    const Migration& step = kMigrations[static_cast<std::size_t>(version - 1)];
    db.exec(postgresql_dialect(step.postgresql != nullptr ? step.postgresql : step.sql));
    db.prepare("DELETE FROM mission_schema").run();
    db.prepare("INSERT INTO mission_schema (version) VALUES (?1)").bind(1, version).run();
    transaction.commit();
  }
}

}  // namespace

int schema_version(Database& db) {
  if (db.engine() == Engine::postgresql) {
    auto exists = db.prepare("SELECT to_regclass('mission_schema') IS NOT NULL");
    exists.step();
    if (exists.integer(0) == 0) return 0;
    auto statement = db.prepare("SELECT coalesce(max(version), 0) FROM mission_schema");
    statement.step();
    return static_cast<int>(statement.integer(0));
  }
  auto statement = db.prepare("PRAGMA user_version");
  statement.step();
  return static_cast<int>(statement.integer(0));
}

void migrate(Database& db) {
  migrate_to(db, latest_schema_version());
}

void migrate_to(Database& db, int target) {
  if (db.engine() == Engine::postgresql) {
    migrate_postgresql(db, target);
    return;
  }
  int current = schema_version(db);
  check_not_newer(db, current);
  if (current >= target) return;
  // A migration may rebuild a table that others reference; with foreign
  // keys on, dropping the old one would cascade. They are off while
  // migrating (the pragma is a no-op inside a transaction) and the result
  // is checked before each commit.
  db.exec("PRAGMA foreign_keys = OFF");
  try {
    for (int version = current + 1; version <= std::min(target, latest_schema_version());
         ++version) {
      Transaction transaction(db);
      db.exec(kMigrations[static_cast<std::size_t>(version - 1)].sql);
      auto violations = db.prepare("PRAGMA foreign_key_check");
      if (violations.step()) {
        throw MissionError(ErrorCode::internal,
                           "migration " + std::to_string(version) + " of " + db.path().string() +
                               " left a broken reference in table " + violations.text(0),
                           "restore the database from a backup, or report it");
      }
      db.exec("PRAGMA user_version = " + std::to_string(version));
      transaction.commit();
    }
  } catch (...) {
    db.exec("PRAGMA foreign_keys = ON");
    throw;
  }
  db.exec("PRAGMA foreign_keys = ON");
}

}  // namespace mission::store
