// The tracking seed's whole usage flow (mission-control-mcp-protocol.md,
// "Typical Usage Flow") through a real MCP client: the official SDK v1
// drives `mission mcp connect` over stdio, in a real git repository that
// the test changes between calls. Every result is also checked against the
// tool's published outputSchema by the SDK itself (callTool does that).
// By hand: MISSION_PATH=build/bin/mission node tests/clients/tracking_flow.test.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { checkPrerequisites, runTest } from './harness.mjs';

const missionPath = checkPrerequisites(['@modelcontextprotocol/sdk']);
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');

// Runs git in `repo` with an identity and no user or system config.
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

// The structured result of a tool call that must succeed.
async function call(h, client, name, args) {
  const result = await h.step(name, () => client.callTool({ name, arguments: args }));
  assert.equal(result.isError, false, `${name} failed: ${JSON.stringify(result.structuredContent)}`);
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent, `${name}: text and structuredContent differ`);
  return result.structuredContent;
}

await runTest('tracking flow (sdk v1)', missionPath, async h => {
  const repo = h.tempDir('repo');
  git(h, repo, 'init', '-q', '-b', 'main');
  write(path.join(repo, 'package.json'), '{"name":"demo"}\n');
  write(path.join(repo, 'src/server.ts'), 'export {};\n');
  git(h, repo, 'add', '-A');
  git(h, repo, 'commit', '-q', '-m', 'first');

  // The default toolsets: signals and tracking.
  const out = await h.missionJson(['exec', 'create', '--delivery', 'mcp-tool', '--print-token', '--cwd', repo]);
  const transport = new StdioClientTransport(h.bridgeParams({ executionId: out.execution.id, token: out.token, cwd: repo }));
  const client = new Client({ name: 'mission-tests-tracking', version: '1.0.0' });
  h.onCleanup(() => client.close());
  await h.step('initialize', () => client.connect(transport));
  const { tools } = await h.step('tools/list', () => client.listTools());
  const names = tools.map(tool => tool.name);
  for (const name of ['start_mission', 'complete_mission', 'get_context', 'start_task', 'complete_task',
                      'log_decision', 'log_issue', 'log_milestone']) {
    assert.ok(names.includes(name), `tools/list lacks ${name}`);
  }

  // 1. Initialize mission
  const { mission_id } = await call(h, client, 'start_mission', {
    name: 'Auth System', objective: 'Implement JWT authentication', profile: 'standard' });
  // 2. Start Phase 1 task (auto-creates phase)
  const task = await call(h, client, 'start_task', {
    mission_id, phase: 1, phase_name: 'Setup', caller_type: 'orchestrator',
    name: 'Setup JWT middleware', goal: 'Create middleware to verify JWT tokens', areas: ['auth', 'middleware'] });
  assert.equal(task.snapshot_type, 'git');
  assert.equal(task.phase_created, true);
  const { task_id } = task;
  // The work, committed and not.
  write(path.join(repo, 'src/auth/jwt.ts'), 'export const verify = () => true;\n');
  git(h, repo, 'add', '-A');
  git(h, repo, 'commit', '-q', '-m', 'jwt');
  write(path.join(repo, 'src/middleware.ts'), 'export const mw = 1;\n');
  write(path.join(repo, 'package.json'), '{"name":"demo","dependencies":{"jsonwebtoken":"9"}}\n');
  // 3. (Optional) Log decision
  await call(h, client, 'log_decision', {
    task_id, category: 'library_choice', question: 'Which JWT library?',
    options_considered: ['jsonwebtoken', 'jose'], chosen: 'jsonwebtoken', reasoning: 'More mature and documented' });
  // 4. (Optional) Real-time updates
  await call(h, client, 'log_milestone', { task_id, message: 'Installing dependencies...', progress: 50 });
  // 5. Complete task and phase
  const done = await call(h, client, 'complete_task', {
    task_id, status: 'success',
    outcome: { summary: 'JWT middleware created and tested successfully',
               achievements: ['Middleware verifies JWT signature', 'Tests pass (100% coverage)'],
               limitations: ['Refresh tokens not implemented (future feature)'] },
    metadata: { packages_added: ['jsonwebtoken', '@types/jsonwebtoken'], tests_status: 'passed' },
    phase_complete: true });
  assert.deepEqual(done.files_changed.added, ['src/auth/jwt.ts', 'src/middleware.ts']);
  assert.deepEqual(done.files_changed.modified, ['package.json']);
  assert.deepEqual(done.files_changed.deleted, []);
  assert.equal(done.verification.scope_match, false, 'package.json is outside auth and middleware');
  assert.deepEqual(done.verification.unexpected_files, ['package.json']);
  assert.equal(done.phase_status, 'completed');
  // 6. Continue with Phase 2...
  const context = await call(h, client, 'get_context', {
    mission_id, include: ['phase_summary', 'decisions', 'blockers'] });
  assert.equal(context.current_phase, 2);
  assert.equal(context.phase_summary[0].status, 'completed');
  assert.equal(context.decisions[0].chosen, 'jsonwebtoken');
  // 7. Complete mission
  const finished = await call(h, client, 'complete_mission', {
    mission_id, status: 'completed', summary: 'Auth system fully implemented',
    achievements: ['JWT auth', 'Role-based access', 'Token refresh'], limitations: ['OAuth deferred to next sprint'] });
  assert.equal(finished.metrics.total_tasks, 1);
  assert.equal(finished.metrics.files_changed, 3);

  // What a person then sees.
  const report = await h.mission(['report', mission_id]);
  assert.equal(report.code, 0, report.stderr);
  assert.match(report.stdout, /## Mission: Auth System/);
  assert.match(report.stdout, /`\+src\/auth\/jwt\.ts`/);
  const check = await h.mission(['check', '--mission', mission_id]);
  assert.equal(check.code, 1, 'the scope mismatch must fail the check');
  assert.match(check.stdout, /package\.json/);
  assert.equal((await h.mission(['check', '--mission', mission_id, '--allow-scope'])).code, 0);
});
