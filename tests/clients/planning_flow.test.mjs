// Seed 003's planned flow (orchestration-mcp-interface.md) through a real
// MCP client: the official SDK v1 drives `mission mcp connect` over stdio
// with the planning and templates toolsets, in a real git repository.
// workflow_create -> workflow_set_plan -> workflow_next_tasks -> start_task
// with each planned task's id (its snapshot, so an exact change set) ->
// complete_task -> the workflow completes by itself. Then the refusals
// (cycle, unknown dependency, a task whose dependency is not done), the
// context budget, checkpoints, and a template round trip.
// By hand: MISSION_PATH=build/bin/mission node tests/clients/planning_flow.test.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { checkPrerequisites, runTest } from './harness.mjs';

const missionPath = checkPrerequisites(['@modelcontextprotocol/sdk']);
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');

function git(h, repo, ...args) {
  execFileSync('git', ['-C', repo, ...args], {
    env: { PATH: process.env.PATH, HOME: h.base, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'T',
           GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

function write(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

async function call(h, client, name, args) {
  const result = await h.step(name, () => client.callTool({ name, arguments: args }));
  assert.equal(result.isError, false, `${name} failed: ${JSON.stringify(result.structuredContent)}`);
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent, `${name}: text and structuredContent differ`);
  return result.structuredContent;
}

async function refused(h, client, name, args) {
  const result = await h.step(`${name} (refused)`, () => client.callTool({ name, arguments: args }));
  assert.equal(result.isError, true, `${name} was accepted: ${JSON.stringify(result.structuredContent)}`);
  assert.equal(typeof result.structuredContent.code, 'string');
  assert.equal(typeof result.structuredContent.hint, 'string');
  return result.structuredContent;
}

await runTest('planning flow (sdk v1)', missionPath, async h => {
  const repo = h.tempDir('repo');
  git(h, repo, 'init', '-q', '-b', 'main');
  write(path.join(repo, 'README.md'), 'demo\n');
  git(h, repo, 'add', '-A');
  git(h, repo, 'commit', '-q', '-m', 'first');

  const out = await h.missionJson(['exec', 'create', '--delivery', 'mcp-tool', '--print-token', '--cwd', repo,
                                   '--toolsets', 'tracking,planning,templates']);
  const transport = new StdioClientTransport(h.bridgeParams({ executionId: out.execution.id, token: out.token, cwd: repo }));
  const client = new Client({ name: 'mission-tests-planning', version: '1.0.0' });
  h.onCleanup(() => client.close());
  await h.step('initialize', () => client.connect(transport));
  const { tools } = await h.step('tools/list', () => client.listTools());
  const names = tools.map(tool => tool.name);
  for (const name of ['workflow_create', 'workflow_get', 'workflow_list', 'workflow_set_plan', 'workflow_update_status',
                      'workflow_set_parallelism', 'task_get', 'task_set_plan', 'task_update_status', 'task_replan',
                      'checkpoint_add', 'checkpoint_list', 'task_load_context', 'workflow_get_summary',
                      'workflow_next_tasks', 'workflow_progress', 'task_check_dependencies', 'repository_register',
                      'repository_list', 'repository_get', 'template_create', 'template_list', 'template_apply']) {
    assert.ok(names.includes(name), `tools/list lacks ${name}`);
    const size = JSON.stringify(tools.find(tool => tool.name === name)).length;
    assert.ok(size <= 1024, `${name} takes ${size} bytes of tools/list`);
  }
  // A closed set of values is listed, so a client can offer them; a regex
  // of alternatives would hide them.
  assert.deepEqual(tools.find(tool => tool.name === 'workflow_create').inputSchema.properties.source_type.enum,
                   ['prompt', 'github_issue', 'linear', 'jira', 'custom']);
  const alternatives = JSON.stringify(tools).match(/"pattern":"\^\([a-z_|]+\)\$"/g);
  assert.equal(alternatives, null, `tools/list hides closed sets in regexes: ${alternatives}`);

  const workflow = await call(h, client, 'workflow_create', {
    name: 'Auth', source_type: 'prompt', source_content: 'Add login with JWT.\n'.repeat(200),
    repository_path: repo, max_parallel_tasks: 2 });
  assert.equal(workflow.status, 'planning');
  const id = workflow.id;

  // Refusals name what is wrong, and change nothing.
  const cycle = await refused(h, client, 'workflow_set_plan', { id, plan: { summary: 's', approach: 'a', tasks: [
    { name: 'a', description: 'A', sequence: 1, depends_on: ['b'] },
    { name: 'b', description: 'B', sequence: 1, depends_on: ['a'] }] } });
  assert.equal(cycle.code, 'invalid_argument');
  assert.match(cycle.message, /cycle: (a -> b -> a|b -> a -> b)/);
  const unknown = await refused(h, client, 'workflow_set_plan', { id, plan: { summary: 's', approach: 'a', tasks: [
    { name: 'a', description: 'A', sequence: 1, depends_on: ['nope'] }] } });
  assert.equal(unknown.details.unknown, 'nope');

  const plan = await call(h, client, 'workflow_set_plan', { id, plan: {
    summary: 'JWT login', approach: 'Model, then API and UI side by side, then docs',
    risks: ['token leaks'], assumptions: ['node 20'],
    tasks: [
      { name: 'model', description: 'User model', sequence: 1, files_likely_affected: ['src/model.js'] },
      { name: 'api', description: 'Login endpoint', sequence: 2, parallel_group: 'build', depends_on: ['model'],
        files_likely_affected: ['src/api.js'] },
      { name: 'ui', description: 'Login form', sequence: 2, parallel_group: 'build', depends_on: ['model'],
        files_likely_affected: ['src/ui.js'] },
      { name: 'docs', description: 'Document it', sequence: 3 },
    ] } });
  assert.equal(plan.tasks_created, 4);
  assert.equal(plan.parallelizable_groups, 1);
  assert.equal(plan.status, 'ready');

  // docs waits for api and ui through the sequence order.
  const got = await call(h, client, 'workflow_get', { id, include_tasks: true });
  assert.equal(got.status, 'ready');
  assert.equal(got.plan.summary, 'JWT login');
  const docs = got.tasks.find(task => task.name === 'docs');
  const deps = await call(h, client, 'task_check_dependencies', { task_id: docs.id });
  assert.equal(deps.satisfied, false);
  assert.deepEqual(deps.pending.map(task => task.name).sort(), ['api', 'ui']);
  const early = await refused(h, client, 'start_task', { task_id: docs.id, name: 'docs', goal: 'Document it' });
  assert.deepEqual(early.details.blocked_by.sort(), ['api', 'ui']);

  // A paused workflow starts none of its tasks; the refusal names the
  // status and says how to resume.
  const model = got.tasks.find(task => task.name === 'model');
  await call(h, client, 'workflow_update_status', { id, status: 'paused', reason: 'waiting for review' });
  const paused = await refused(h, client, 'start_task', { task_id: model.id });
  assert.equal(paused.details.workflow_status, 'paused');
  assert.match(paused.message, /is paused/);
  assert.match(paused.hint, /workflow_update_status/);
  const pausedStatus = await refused(h, client, 'task_update_status', { id: model.id, status: 'in_progress' });
  assert.equal(pausedStatus.details.workflow_status, 'paused');
  assert.equal((await call(h, client, 'task_get', { id: model.id })).status, 'ready', 'the refusal changed nothing');
  await call(h, client, 'workflow_update_status', { id, status: 'ready' });
  // An ad-hoc task still needs its name and goal.
  await refused(h, client, 'start_task', { workflow_id: id });

  let changed = 0;
  const finish = async task => {
    write(path.join(repo, `src/${task.name}.js`), `export const ${task.name} = 1;\n`);
    changed++;
    const done = await call(h, client, 'complete_task', {
      task_id: task.id, status: 'success', outcome: { summary: `${task.name} done` } });
    assert.deepEqual(done.files_changed.added, [`src/${task.name}.js`], 'each planned task has its exact change set');
  };
  for (let round = 0; round < 10; round++) {
    const next = await call(h, client, 'workflow_next_tasks', { workflow_id: id });
    if (next.all_complete) break;
    const recommended = next.tasks.filter(task => task.recommended);
    assert.ok(recommended.length >= 1 && recommended.length <= 2, JSON.stringify(next));
    if (round === 1) {
      assert.deepEqual(recommended.map(task => task.name).sort(), ['api', 'ui']);
      assert.equal(recommended[0].can_parallelize, true);
    }
    // One tree: each task starts, works and completes in turn, so each
    // change set is exactly its own (parallel tasks want a worktree each).
    const started = [];
    for (const task of recommended) {
      // A planned task's name and goal come from the plan.
      const start = await call(h, client, 'start_task', { task_id: task.id });
      assert.equal(start.task_id, task.id);
      assert.equal(start.name, task.name);
      assert.equal(start.workflow_id, id);
      assert.equal(start.snapshot_type, 'git');
      started.push(task);
      if (round !== 0) await finish(task);
    }
    if (round === 0) {
      const progress = await call(h, client, 'workflow_progress', { workflow_id: id });
      assert.equal(progress.by_status.in_progress, 1);
      assert.equal(progress.blocked_tasks.length, 3);
      const flowing = await call(h, client, 'workflow_get', { id });
      assert.equal(flowing.status, 'in_progress');
      const checkpoint = await call(h, client, 'checkpoint_add', {
        task_id: started[0].id, type: 'progress', summary: 'schema drafted', detail: { tables: ['users'] } });
      assert.equal(checkpoint.sequence, 1);
      await call(h, client, 'log_milestone', { task_id: started[0].id, message: 'half way', progress: 50 });
      const second = await call(h, client, 'checkpoint_add', {
        task_id: started[0].id, type: 'decision', summary: 'bcrypt for hashes' });
      assert.equal(second.sequence, 3, 'the milestone took sequence 2 of the same journal');
      const list = await call(h, client, 'checkpoint_list', { task_id: started[0].id, since_sequence: 1 });
      assert.deepEqual(list.checkpoints.map(c => c.summary), ['bcrypt for hashes']);
    }
    if (round === 0) for (const task of started) await finish(task);
  }
  assert.equal(changed, 4);
  const finished = await call(h, client, 'workflow_get', { id });
  assert.equal(finished.status, 'completed');
  const progress = await call(h, client, 'workflow_progress', { workflow_id: id });
  assert.equal(progress.by_status.completed, 4);
  assert.equal(typeof progress.estimated_remaining, 'number');

  // Context: docs' prior tasks are its DAG ancestors, and the budget holds.
  const context = await call(h, client, 'task_load_context', { task_id: docs.id, max_tokens: 500 });
  assert.ok(context.token_estimate <= 500, `token_estimate ${context.token_estimate}`);
  assert.ok(context.omitted.source_text_chars > 0, 'the source text was cut to fit');
  const roomy = await call(h, client, 'task_load_context', { task_id: docs.id, max_tokens: 8000 });
  assert.deepEqual(roomy.prior_tasks.map(task => task.name).sort(), ['api', 'model', 'ui']);
  assert.deepEqual(roomy.dependency_outcomes.map(task => task.outcome).sort(), ['api done', 'ui done']);
  const markdown = await call(h, client, 'workflow_get_summary', { id, format: 'markdown' });
  assert.match(markdown.summary, /^# Auth/);

  // Templates: from the workflow, applied again with the same DAG.
  const fromWorkflow = await call(h, client, 'template_create', { name: 'auth-plan', from_workflow_id: id });
  const copy = await call(h, client, 'template_apply', { template_id: fromWorkflow.id, workflow_name: 'Auth again' });
  assert.equal(copy.tasks_created, 4);
  const copied = await call(h, client, 'workflow_get', { id: copy.workflow_id, include_tasks: true });
  assert.deepEqual(copied.tasks.map(task => task.name), ['model', 'api', 'ui', 'docs']);
  const defined = await call(h, client, 'template_create', { name: 'feature', template: {
    tasks: [{ name: 'design {{feature}}', description: 'for {{team}}', sequence: 1 },
            { name: 'build {{feature}}', description: 'build', sequence: 2, depends_on: ['design {{feature}}'] }],
    variables: [{ name: 'feature', description: 'what', required: true }, { name: 'team', description: 'who', default: 'core' }] } });
  const missing = await refused(h, client, 'template_apply', { template_id: defined.id, workflow_name: 'x' });
  assert.deepEqual(missing.details.missing, ['feature']);
  const applied = await call(h, client, 'template_apply', {
    template_id: defined.id, workflow_name: 'Login', variables: { feature: 'login' } });
  const next = await call(h, client, 'workflow_next_tasks', { workflow_id: applied.workflow_id });
  assert.deepEqual(next.tasks.map(task => task.name), ['design login']);
  const templates = await call(h, client, 'template_list', {});
  assert.equal(templates.templates.length, 2);

  const repositories = await call(h, client, 'repository_list', {});
  assert.equal(repositories.repositories[0].path, fs.realpathSync(repo) === repo ? repo : repositories.repositories[0].path);
  const found = await call(h, client, 'repository_get', { path: repo });
  // The workflow made with repository_path, and the two template_apply made
  // without one: those are in the current directory, as the seed says.
  assert.equal(found.repository.workflow_count, 3);
  const listed = await call(h, client, 'workflow_list', { status: ['completed'] });
  assert.deepEqual(listed.workflows.map(w => w.id), [id]);
});
