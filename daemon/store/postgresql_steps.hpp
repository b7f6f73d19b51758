#pragma once
// The PostgreSQL side of the migrations whose SQLite text cannot run there
// (docs/adr/0052): SQLite rebuilds a table to change a CHECK or a column's
// NOT NULL, where PostgreSQL alters it in place (and a rebuild would drop
// the foreign keys that point at it); SQLite's triggers are statement
// lists, PostgreSQL's call a function. Every other step runs its one text
// on both engines, through postgresql_dialect (types, the rowid column).
// Like the SQLite texts: append only, never edit a step that has shipped.

namespace mission::store {

// What SQLite has built in and the repositories' one SQL text calls:
// json_each of a JSON array or object's values, json_extract and
// json_type of a '$.a.b' path, json_object of text pairs, json_valid,
// total() (a float sum, 0 on no rows), sum() of a comparison (a count: a
// comparison is 0 or 1 on SQLite) and the scalar multi-argument max().
// Replaced on every start, so a newer missiond's version wins.
inline constexpr const char* kPostgresqlFunctions = R"sql(
CREATE OR REPLACE FUNCTION sqlite_json_path(path TEXT) RETURNS TEXT[] LANGUAGE sql IMMUTABLE AS
  $f$ SELECT CASE WHEN path = '$' THEN ARRAY[]::TEXT[]
                  ELSE string_to_array(substr(path, 3), '.') END $f$;
CREATE OR REPLACE FUNCTION json_valid(doc TEXT) RETURNS BOOLEAN LANGUAGE plpgsql IMMUTABLE AS $f$
BEGIN
  PERFORM doc::jsonb;
  RETURN doc IS NOT NULL;
EXCEPTION WHEN others THEN
  RETURN FALSE;
END $f$;
CREATE OR REPLACE FUNCTION json_each(doc TEXT) RETURNS TABLE (key TEXT, value TEXT)
  LANGUAGE sql IMMUTABLE AS $f$
  SELECT (e.n - 1)::TEXT, e.v #>> '{}'
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(doc::jsonb) = 'array' THEN doc::jsonb
                                   ELSE '[]'::jsonb END) WITH ORDINALITY AS e(v, n)
  UNION ALL
  SELECT o.k, o.v #>> '{}'
    FROM jsonb_each(CASE WHEN jsonb_typeof(doc::jsonb) = 'object' THEN doc::jsonb
                         ELSE '{}'::jsonb END) AS o(k, v) $f$;
CREATE OR REPLACE FUNCTION json_extract(doc TEXT, path TEXT) RETURNS TEXT
  LANGUAGE sql IMMUTABLE AS $f$ SELECT doc::jsonb #>> sqlite_json_path(path) $f$;
CREATE OR REPLACE FUNCTION json_type(doc TEXT, path TEXT) RETURNS TEXT
  LANGUAGE sql IMMUTABLE AS $f$ SELECT jsonb_typeof(doc::jsonb #> sqlite_json_path(path)) $f$;
CREATE OR REPLACE FUNCTION json_object(VARIADIC pairs TEXT[]) RETURNS TEXT
  LANGUAGE sql IMMUTABLE AS $f$ SELECT pg_catalog.json_object(pairs)::TEXT $f$;
CREATE OR REPLACE FUNCTION max(VARIADIC v BIGINT[]) RETURNS BIGINT LANGUAGE sql IMMUTABLE AS
  $f$ SELECT CASE WHEN array_position(v, NULL) IS NOT NULL THEN NULL
                  ELSE (SELECT pg_catalog.max(x) FROM unnest(v) AS x) END $f$;
CREATE OR REPLACE FUNCTION sqlite_count_true(n BIGINT, v BOOLEAN) RETURNS BIGINT
  LANGUAGE sql IMMUTABLE AS $f$ SELECT coalesce(n, 0) + CASE WHEN v THEN 1 ELSE 0 END $f$;
DO $f$ BEGIN
  CREATE AGGREGATE sum(BOOLEAN) (SFUNC = sqlite_count_true, STYPE = BIGINT);
EXCEPTION WHEN duplicate_function THEN NULL;
END $f$;
DO $f$ BEGIN
  CREATE AGGREGATE total(DOUBLE PRECISION) (SFUNC = float8pl, STYPE = DOUBLE PRECISION,
                                            INITCOND = '0');
EXCEPTION WHEN duplicate_function THEN NULL;
END $f$;
)sql";

// 4: executions gain their state CHECK, missions and phases more statuses;
// the rest as on SQLite.
inline constexpr const char* kPostgresqlStep4 = R"sql(
ALTER TABLE executions ADD CONSTRAINT executions_state_check CHECK (state IN ('created',
  'launching', 'running', 'awaiting_input', 'blocked', 'completed', 'failed', 'cancelled', 'lost'));
CREATE INDEX executions_by_ended ON executions(ended_at) WHERE ended_at IS NOT NULL;
ALTER TABLE missions DROP CONSTRAINT missions_status_check, ADD CONSTRAINT missions_status_check
  CHECK (status IN ('pending', 'in_progress', 'blocked', 'completed', 'failed', 'partial'));
CREATE INDEX missions_by_execution ON missions(execution_id);
ALTER TABLE phases DROP CONSTRAINT phases_status_check, ADD CONSTRAINT phases_status_check
  CHECK (status IN ('pending', 'in_progress', 'completed', 'failed'));
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
  SELECT t.id, k.change, p.value FROM tasks t
    CROSS JOIN (VALUES ('added'), ('modified'), ('deleted')) AS k(change)
    CROSS JOIN LATERAL json_each(json_extract(t.files_changed, '$.' || k.change)) p
  WHERE json_valid(t.files_changed);
INSERT INTO task_changes (task_id, change, path, old_path)
  SELECT t.id, 'renamed', json_extract(p.value, '$.to'), json_extract(p.value, '$.from')
  FROM tasks t CROSS JOIN LATERAL json_each(json_extract(t.files_changed, '$.renamed')) p
  WHERE json_valid(t.files_changed);
UPDATE task_changes SET in_scope = 0 WHERE EXISTS (
  SELECT 1 FROM tasks t CROSS JOIN LATERAL json_each(json_extract(t.verification,
    '$.unexpected_files')) u
  WHERE t.id = task_changes.task_id AND json_valid(t.verification) AND u.value = task_changes.path);

CREATE INDEX tasks_by_phase ON tasks(phase_id);
CREATE INDEX tasks_by_parent ON tasks(parent_task_id);
CREATE INDEX tasks_by_execution ON tasks(execution_id);
CREATE INDEX decisions_by_execution ON decisions(execution_id);
CREATE INDEX issues_by_execution ON issues(execution_id);
CREATE INDEX milestones_by_execution ON milestones(execution_id);
CREATE INDEX observations_by_kind ON observations(execution_id, kind, id);

UPDATE idempotency_records SET execution_id = '' WHERE execution_id IS NULL;
ALTER TABLE idempotency_records DROP CONSTRAINT idempotency_records_pkey,
  ALTER COLUMN execution_id SET NOT NULL, ADD PRIMARY KEY (execution_id, request_id);
)sql";

// 7: missions and tasks gain their planning columns and statuses in
// place; the plan-revision trigger is a function.
inline constexpr const char* kPostgresqlStep7 = R"sql(
CREATE TABLE repositories (
  id          TEXT PRIMARY KEY,
  path        TEXT NOT NULL UNIQUE,
  name        TEXT NOT NULL,
  created_at  INTEGER NOT NULL
);

ALTER TABLE missions DROP CONSTRAINT missions_kind_check, ADD CONSTRAINT missions_kind_check
  CHECK (kind IN ('mission', 'workflow', 'planned'));
ALTER TABLE missions DROP CONSTRAINT missions_status_check, ADD CONSTRAINT missions_status_check
  CHECK (status IN ('planning', 'ready', 'pending', 'in_progress', 'blocked', 'paused',
                    'completed', 'failed', 'partial', 'cancelled'));
ALTER TABLE missions
  ADD COLUMN source_type TEXT,
  ADD COLUMN source_ref TEXT,
  ADD COLUMN source_content TEXT,
  ADD COLUMN repository_id TEXT REFERENCES repositories(id) ON DELETE SET NULL,
  ADD COLUMN plan_summary TEXT,
  ADD COLUMN plan_approach TEXT,
  ADD COLUMN plan_risks TEXT,
  ADD COLUMN plan_assumptions TEXT,
  ADD COLUMN max_parallel_tasks INTEGER NOT NULL DEFAULT 1 CHECK (max_parallel_tasks >= 1),
  ADD COLUMN auto_create_workspaces INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN status_reason TEXT,
  ADD COLUMN plan_revision INTEGER NOT NULL DEFAULT 0;
CREATE INDEX missions_by_repository ON missions(repository_id);

ALTER TABLE tasks DROP CONSTRAINT tasks_status_check, ADD CONSTRAINT tasks_status_check
  CHECK (status IN ('pending', 'in_progress', 'success', 'partial_success', 'failed', 'skipped'));
ALTER TABLE tasks
  ALTER COLUMN snapshot_type DROP NOT NULL,
  ALTER COLUMN snapshot_id DROP NOT NULL,
  ALTER COLUMN snapshot_root DROP NOT NULL,
  ALTER COLUMN snapshot_data DROP NOT NULL,
  ALTER COLUMN started_at DROP NOT NULL,
  ADD COLUMN plan_order INTEGER,
  ADD COLUMN description TEXT,
  ADD COLUMN sequence INTEGER,
  ADD COLUMN parallel_group TEXT,
  ADD COLUMN complexity TEXT CHECK (complexity IN ('low', 'medium', 'high')),
  ADD COLUMN files_likely_affected TEXT,
  ADD COLUMN acceptance_criteria TEXT,
  ADD COLUMN task_plan TEXT,
  ADD COLUMN task_context TEXT,
  ADD COLUMN error TEXT,
  ADD COLUMN journal_seq INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN created_at INTEGER;
UPDATE tasks SET created_at = started_at;
CREATE UNIQUE INDEX tasks_by_plan ON tasks(mission_id, plan_order) WHERE plan_order IS NOT NULL;
CREATE FUNCTION tasks_revise_plan() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  UPDATE missions SET plan_revision = plan_revision + 1 WHERE id = NEW.mission_id;
  RETURN NULL;
END $f$;
CREATE TRIGGER tasks_revise_plan AFTER UPDATE OF status, started_at, completed_at, outcome ON tasks
  FOR EACH ROW WHEN (NEW.plan_order IS NOT NULL) EXECUTE FUNCTION tasks_revise_plan();

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
WITH journal_order AS (
  SELECT kind, id, row_number() OVER (PARTITION BY task_id ORDER BY created_at, kind, id) AS seq
  FROM (SELECT 'decision' AS kind, id, task_id, created_at FROM decisions
        UNION ALL SELECT 'issue', id, task_id, created_at FROM issues
        UNION ALL SELECT 'milestone', id, task_id, created_at FROM milestones) AS entries),
  d AS (UPDATE decisions SET seq = o.seq FROM journal_order o
        WHERE o.kind = 'decision' AND o.id = decisions.id),
  i AS (UPDATE issues SET seq = o.seq FROM journal_order o WHERE o.kind = 'issue' AND o.id = issues.id)
UPDATE milestones SET seq = o.seq FROM journal_order o
  WHERE o.kind = 'milestone' AND o.id = milestones.id;
UPDATE tasks SET journal_seq = coalesce((SELECT max(seq) FROM (
  SELECT seq FROM decisions WHERE task_id = tasks.id UNION ALL
  SELECT seq FROM issues WHERE task_id = tasks.id UNION ALL
  SELECT seq FROM milestones WHERE task_id = tasks.id) AS entries), 0);
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
)sql";

// 8: claims as leases; the triggers that end them are functions.
inline constexpr const char* kPostgresqlStep8 = R"sql(
ALTER TABLE tasks ADD COLUMN claimed_by TEXT REFERENCES executions(id) ON DELETE SET NULL;
ALTER TABLE tasks ADD COLUMN claimed_at INTEGER;
CREATE INDEX tasks_by_claim ON tasks(claimed_by) WHERE claimed_by IS NOT NULL;
CREATE FUNCTION executions_end_claims() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  INSERT INTO checkpoints (id, task_id, seq, execution_id, type, summary, detail, created_at)
    SELECT 'cp-' || substr(md5(random()::TEXT || clock_timestamp()::TEXT), 1, 10), t.id,
           t.journal_seq + 1, NEW.id, 'recovery',
           'claim released: agent execution ' || NEW.id || ' ended ' || NEW.state ||
           CASE WHEN t.status = 'in_progress' THEN ' while the task was in progress' ELSE '' END,
           json_build_object('reason', 'execution_' || NEW.state, 'agent_execution_id', NEW.id,
                             'previous_status', t.status)::TEXT,
           NEW.updated_at
    FROM tasks t WHERE t.claimed_by = NEW.id;
  UPDATE tasks SET journal_seq = journal_seq + 1, claimed_by = NULL, claimed_at = NULL,
                   started_at = CASE WHEN status = 'in_progress' THEN NULL ELSE started_at END,
                   status = CASE WHEN status = 'in_progress' THEN 'pending' ELSE status END
    WHERE claimed_by = NEW.id;
  RETURN NULL;
END $f$;
CREATE TRIGGER executions_end_claims AFTER UPDATE OF state ON executions FOR EACH ROW
  WHEN (NEW.state IN ('completed', 'failed', 'cancelled', 'lost')
        AND OLD.state NOT IN ('completed', 'failed', 'cancelled', 'lost'))
  EXECUTE FUNCTION executions_end_claims();
CREATE FUNCTION tasks_end_claim() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  UPDATE tasks SET claimed_by = NULL, claimed_at = NULL WHERE id = NEW.id;
  RETURN NULL;
END $f$;
CREATE TRIGGER tasks_end_claim AFTER UPDATE OF status ON tasks FOR EACH ROW
  WHEN (NEW.claimed_by IS NOT NULL AND NEW.status NOT IN ('pending', 'in_progress'))
  EXECUTE FUNCTION tasks_end_claim();
)sql";

// 14: the edges lose their foreign keys; the trigger that removes a
// deleted task's edges is a function.
inline constexpr const char* kPostgresqlStep14 = R"sql(
ALTER TABLE task_dependencies DROP CONSTRAINT task_dependencies_task_id_fkey,
  DROP CONSTRAINT task_dependencies_depends_on_id_fkey;
CREATE FUNCTION tasks_drop_dependencies() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  DELETE FROM task_dependencies WHERE task_id = OLD.id;
  DELETE FROM task_dependencies WHERE depends_on_id = OLD.id;
  RETURN NULL;
END $f$;
CREATE TRIGGER tasks_drop_dependencies AFTER DELETE ON tasks FOR EACH ROW
  EXECUTE FUNCTION tasks_drop_dependencies();
DROP INDEX tasks_by_phase;
CREATE INDEX tasks_by_phase ON tasks(phase_id) WHERE phase_id IS NOT NULL;
DROP INDEX tasks_by_parent;
CREATE INDEX tasks_by_parent ON tasks(parent_task_id) WHERE parent_task_id IS NOT NULL;
)sql";

// 15: a run's stored environment goes.
inline constexpr const char* kPostgresqlStep15 = R"sql(
UPDATE runs SET options = (options::jsonb - 'env')::TEXT
  WHERE json_valid(options) AND jsonb_exists(options::jsonb, 'env');
)sql";

// 17: unread messages counted by triggers, which are functions here.
inline constexpr const char* kPostgresqlStep17 = R"sql(
CREATE TABLE message_unread_counts (
  recipient  TEXT NOT NULL,  -- recipient_execution_id, or '' for the people's inbox
  priority   TEXT NOT NULL,
  unread     INTEGER NOT NULL,
  PRIMARY KEY (recipient, priority)
) WITHOUT ROWID;
INSERT INTO message_unread_counts (recipient, priority, unread)
  SELECT coalesce(recipient_execution_id, ''), priority, count(*) FROM messages
  WHERE read_at IS NULL AND archived_at IS NULL GROUP BY 1, 2;
CREATE FUNCTION messages_count_insert() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  INSERT INTO message_unread_counts AS c (recipient, priority, unread)
    VALUES (coalesce(NEW.recipient_execution_id, ''), NEW.priority, 1)
    ON CONFLICT (recipient, priority) DO UPDATE SET unread = c.unread + 1;
  RETURN NULL;
END $f$;
CREATE TRIGGER messages_count_insert AFTER INSERT ON messages FOR EACH ROW
  WHEN (NEW.read_at IS NULL AND NEW.archived_at IS NULL)
  EXECUTE FUNCTION messages_count_insert();
CREATE FUNCTION messages_count_update() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  UPDATE message_unread_counts SET unread = unread - 1
    WHERE OLD.read_at IS NULL AND OLD.archived_at IS NULL
      AND recipient = coalesce(OLD.recipient_execution_id, '') AND priority = OLD.priority;
  INSERT INTO message_unread_counts AS c (recipient, priority, unread)
    SELECT coalesce(NEW.recipient_execution_id, ''), NEW.priority, 1
    WHERE NEW.read_at IS NULL AND NEW.archived_at IS NULL
    ON CONFLICT (recipient, priority) DO UPDATE SET unread = c.unread + 1;
  RETURN NULL;
END $f$;
CREATE TRIGGER messages_count_update
  AFTER UPDATE OF read_at, archived_at, recipient_execution_id, priority ON messages FOR EACH ROW
  EXECUTE FUNCTION messages_count_update();
CREATE FUNCTION messages_count_delete() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  UPDATE message_unread_counts SET unread = unread - 1
    WHERE recipient = coalesce(OLD.recipient_execution_id, '') AND priority = OLD.priority;
  RETURN NULL;
END $f$;
CREATE TRIGGER messages_count_delete AFTER DELETE ON messages FOR EACH ROW
  WHEN (OLD.read_at IS NULL AND OLD.archived_at IS NULL)
  EXECUTE FUNCTION messages_count_delete();
CREATE FUNCTION executions_drop_message_counts() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  DELETE FROM message_unread_counts WHERE recipient = OLD.id;
  RETURN NULL;
END $f$;
CREATE TRIGGER executions_drop_message_counts AFTER DELETE ON executions FOR EACH ROW
  EXECUTE FUNCTION executions_drop_message_counts();
DROP INDEX messages_unread;
CREATE INDEX messages_unread ON messages(recipient_execution_id, id, expires_at)
  WHERE read_at IS NULL AND archived_at IS NULL;
CREATE INDEX messages_unread_expiring
  ON messages(recipient_execution_id, priority, expires_at, read_at, archived_at)
  WHERE read_at IS NULL AND archived_at IS NULL AND expires_at IS NOT NULL;
)sql";

// 23: executions' state CHECK gains awaiting_permission and idle; its
// indexes and triggers stay where they are.
inline constexpr const char* kPostgresqlStep23 = R"sql(
ALTER TABLE executions DROP CONSTRAINT executions_state_check,
  ADD CONSTRAINT executions_state_check CHECK (state IN ('created', 'launching', 'running',
    'awaiting_input', 'awaiting_permission', 'idle', 'blocked', 'completed', 'failed',
    'cancelled', 'lost'));
)sql";

// 24: run_attempts' status CHECK gains budget_reached.
inline constexpr const char* kPostgresqlStep24 = R"sql(
ALTER TABLE run_attempts DROP CONSTRAINT run_attempts_status_check,
  ADD CONSTRAINT run_attempts_status_check CHECK (status IN ('running', 'judging',
    'awaiting_approval', 'queued', 'merged', 'failed', 'conflicted', 'stopped',
    'budget_reached'));
)sql";

}  // namespace mission::store
