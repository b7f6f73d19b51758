// A coordinator driving a worker through the control toolset (ADR 25) with
// the official SDK v1 over the real bridge: it plans a workflow, picks an
// executor, starts an attempt whose worker (a node script launched by the
// generic executor in the attempt's own worktree) writes a file and reports
// through stdout markers, follows the attempt to its end, reads its logs,
// changes and patch, and sends it back for a second turn in the same
// worktree. The SDK checks every result against the tool's published
// outputSchema.
// By hand: MISSION_PATH=build/bin/mission node tests/clients/control_flow.test.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { checkPrerequisites, runTest, sleep } from './harness.mjs';

const missionPath = checkPrerequisites(['@modelcontextprotocol/sdk']);
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');

const GIT_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com',
                  GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' };

function git(h, repo, ...args) {
  execFileSync('git', ['-C', repo, ...args], { env: { PATH: process.env.PATH, HOME: h.base, ...GIT_ENV },
                                               stdio: ['ignore', 'ignore', 'pipe'] });
}

// The worker: what an agent without MCP does with its task. Its turn and
// task come from its environment; it reports with marker lines.
const WORKER = `
import fs from 'node:fs';
const turn = process.env.MISSION_TASK_ATTEMPT;
const name = process.env.MISSION_TASK_NAME;
const marker = (id, signal) => console.log('@agent-execution::' + JSON.stringify({
  version: 1, agentExecutionId: process.env.MISSION_AGENT_EXECUTION_ID, eventId: id + '-' + turn, signal }));
const prompt = fs.readFileSync(process.env.MISSION_TASK_PROMPT_FILE, 'utf8');
if (!prompt.includes(name)) { console.error('the prompt does not name the task'); process.exit(3); }
fs.appendFileSync(name + '.txt', 'turn ' + turn + '\\n');
marker('p', { type: 'progress', summary: 'wrote ' + name + '.txt' });
console.log('worker turn ' + turn);
marker('c', { type: 'completed_claim', summary: 'done' });
`;

async function call(h, client, name, args) {
  const result = await h.step(name, () => client.callTool({ name, arguments: args }));
  assert.equal(result.isError, false, `${name} failed: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent;
}

async function waitAttempt(h, client, attemptId, done) {
  const deadline = Date.now() + 20000;
  let status;
  while (Date.now() < deadline) {
    status = (await client.callTool({ name: 'get_attempt_status', arguments: { attempt_id: attemptId } })).structuredContent;
    if (done(status)) return status;
    await sleep(50);
  }
  assert.fail(`attempt ${attemptId} did not get there: ${JSON.stringify(status)}`);
}

await runTest('control flow (sdk v1)', missionPath, async h => {
  const repo = h.tempDir('repo');
  git(h, repo, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(repo, 'README.md'), '# demo\n');
  git(h, repo, 'add', '-A');
  git(h, repo, 'commit', '-q', '-m', 'first');
  const worker = path.join(h.tempDir('tools'), 'worker.mjs');
  fs.writeFileSync(worker, WORKER);

  const out = await h.missionJson(['exec', 'create', '--delivery', 'mcp-tool', '--print-token', '--cwd', repo,
                                   '--toolsets', 'planning,control,tracking']);
  const client = new Client({ name: 'mission-tests-coordinator', version: '1.0.0' });
  h.onCleanup(() => client.close());
  await h.step('initialize', () => client.connect(
    new StdioClientTransport(h.bridgeParams({ executionId: out.execution.id, token: out.token, cwd: repo }))));
  const { tools } = await h.step('tools/list', () => client.listTools());
  const names = tools.map(tool => tool.name);
  for (const name of ['list_executors', 'list_tasks', 'get_task', 'create_task', 'start_task_attempt',
                      'get_attempt_status', 'tail_attempt_logs', 'get_attempt_changes', 'get_attempt_patch',
                      'follow_up', 'stop_attempt']) {
    assert.ok(names.includes(name), `tools/list lacks ${name}`);
  }
  const followUp = tools.find(tool => tool.name === 'follow_up');
  assert.ok(Array.isArray(followUp.inputSchema.oneOf), 'follow_up publishes its branches');

  const workflow = await call(h, client, 'workflow_create', { name: 'steered', source_type: 'prompt', source_content: 'docs' });
  await call(h, client, 'workflow_set_plan', { id: workflow.id, plan: { summary: 's', approach: 'a', tasks: [
    { name: 'notes', description: 'write notes', sequence: 1 }] } });
  const executors = (await call(h, client, 'list_executors', {})).executors;
  assert.ok(executors.find(e => e.name === 'generic')?.available, 'generic is available');
  const { tasks } = await call(h, client, 'list_tasks', { workflow_id: workflow.id });
  assert.equal(tasks.length, 1);
  assert.equal(tasks[0].status, 'ready');
  const taskId = tasks[0].task_id;

  const attempt = await call(h, client, 'start_task_attempt', {
    task_id: taskId, executor: 'generic', args: [process.execPath, worker], prompt: 'keep it short',
    request_id: 'start-notes-1' });
  // A retry with the same request_id is the same attempt, not a second one.
  const again = await call(h, client, 'start_task_attempt', {
    task_id: taskId, executor: 'generic', args: [process.execPath, worker], prompt: 'keep it short',
    request_id: 'start-notes-1' });
  assert.equal(again.attempt_id, attempt.attempt_id);

  const ended = await waitAttempt(h, client, attempt.attempt_id, s => s.final);
  assert.equal(ended.state, 'completed', JSON.stringify(ended));
  assert.equal(ended.turns, 1);
  assert.equal(fs.readFileSync(path.join(attempt.worktree, 'notes.txt'), 'utf8'), 'turn 1\n');

  const logs = await call(h, client, 'tail_attempt_logs', { attempt_id: attempt.attempt_id, limit: 10 });
  assert.ok(logs.entries.some(entry => entry.text === 'worker turn 1'), JSON.stringify(logs));
  const mixed = await client.callTool({ name: 'tail_attempt_logs',
                                        arguments: { attempt_id: attempt.attempt_id, cursor: 1, after_entry_index: 0 } });
  assert.equal(mixed.isError, true);
  assert.equal(mixed.structuredContent.code, 'mixed_pagination');

  const changes = await call(h, client, 'get_attempt_changes', { attempt_id: attempt.attempt_id });
  assert.deepEqual(changes.files.map(file => [file.path, file.status, file.additions]), [['notes.txt', 'added', 1]]);
  const patch = await call(h, client, 'get_attempt_patch', { attempt_id: attempt.attempt_id, paths: ['notes.txt'] });
  assert.match(patch.patch, /\+turn 1/);

  // Back to the worker for a second turn in the same worktree.
  const sent = await call(h, client, 'follow_up', { attempt_id: attempt.attempt_id, mode: 'send', prompt: 'add a line' });
  assert.equal(sent.delivered_as, 'turn');
  const second = await waitAttempt(h, client, attempt.attempt_id, s => s.turns === 2 && s.final);
  assert.equal(second.state, 'completed');
  assert.equal(fs.readFileSync(path.join(attempt.worktree, 'notes.txt'), 'utf8'), 'turn 1\nturn 2\n');
  const wrong = await client.callTool({ name: 'follow_up', arguments: { attempt_id: attempt.attempt_id, mode: 'cancel' } });
  assert.equal(wrong.isError, true);
  assert.match(wrong.structuredContent.hint, /queue/);

  const task = await call(h, client, 'get_task', { task_id: taskId });
  assert.equal(task.attempt_count, 1);
  assert.equal(task.attempts[0].turns, 2);
  const stopped = await call(h, client, 'stop_attempt', { attempt_id: attempt.attempt_id });
  assert.equal(stopped.signalled, false);
});
