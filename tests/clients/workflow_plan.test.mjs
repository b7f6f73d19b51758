// mission workflows plan "GOAL": an agent plans a new workflow through the
// real daemon. The agent is an MCP client of the official SDK v1
// (agents/planner_agent.mjs) launched by the CLI as any MCP agent is; it
// finds the workflow in its prompt, may plan that one only, and sets its
// plan with workflow_set_plan. The person then sees the plan, and it runs
// like any other. An agent that ends without a plan, or that cannot start,
// leaves the person a clear next step, never a workflow stuck in planning.
// By hand: MISSION_PATH=build/bin/mission node tests/clients/workflow_plan.test.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { checkPrerequisites, runTest } from './harness.mjs';

const missionPath = checkPrerequisites(['@modelcontextprotocol/sdk']);
const agent = path.join(path.dirname(fileURLToPath(import.meta.url)), 'agents', 'planner_agent.mjs');

await runTest('workflows plan', missionPath, async (h) => {
  const repo = h.tempDir('repo');
  execFileSync('git', ['-C', repo, 'init', '-q', '-b', 'main']);
  const env = { MISSION_PATH: missionPath };

  // Another workflow, a person's, that the planner holds no grant on.
  const other = path.join(h.base, 'other.toml');
  (await import('node:fs')).writeFileSync(other, 'summary = "s"\napproach = "a"\n[[tasks]]\nname = "x"\ndescription = "x"\n');
  await h.missionJson(['workflows', 'create', 'other', '--from', other, '--cwd', repo]);
  const otherId = (await h.missionJson(['workflows', 'list'])).workflows[0].id;

  const planned = await h.step('workflows plan', () => h.mission(
    ['workflows', 'plan', 'Add a health endpoint\n\nGET /health answers 200.', '--cwd', repo,
     '--env', `OTHER_WORKFLOW=${otherId}`, '--', process.execPath, agent],
    { env, timeoutMs: 60000 }), 70000);
  assert.equal(planned.code, 0, `workflows plan failed:\n${planned.stdout}\n${planned.stderr}`);
  // The agent's own output is followed, then the plan is shown with what to do next.
  assert.match(planned.stdout, /planning wf-[a-z0-9]+ for: Add a health endpoint/);
  assert.match(planned.stdout, /other workflow: forbidden/);
  const id = /Workflow (wf-[a-z0-9]+) \(Add a health endpoint\) is planned: 2 tasks\./.exec(planned.stdout)?.[1];
  assert.ok(id, `no plan shown:\n${planned.stdout}`);
  assert.match(planned.stdout, /^ {2}api {2}<- db$/m);
  assert.match(planned.stdout, new RegExp(`mission workflows edit ${id} to change it`));
  assert.match(planned.stderr, new RegExp(`plans workflow ${id} \\(Add a health endpoint\\); Ctrl-C stops it`));

  const shown = await h.missionJson(['workflows', 'show', id]);
  assert.equal(shown.status, 'ready');
  assert.equal(shown.sourceType, 'prompt');
  assert.equal(shown.sourceContent, 'Add a health endpoint\n\nGET /health answers 200.');
  assert.deepEqual(shown.tasks.map(t => t.name), ['db', 'api']);
  assert.equal((await h.missionJson(['plan', id])).edges.length, 1);
  // The person's other workflow is as it was.
  assert.deepEqual((await h.missionJson(['workflows', 'show', otherId])).tasks.map(t => t.name), ['x']);

  // An agent that ends without a plan: the workflow waits in planning, and
  // the person is told how to go on.
  const idle = await h.step('a planner that sets no plan', () => h.mission(
    ['workflows', 'plan', 'Nothing comes of this', '--name', 'idle', '--cwd', repo, '--', '/bin/sh', '-c', 'echo thinking'],
    { env, timeoutMs: 30000 }), 40000);
  assert.equal(idle.code, 1, `expected exit 1:\n${idle.stdout}\n${idle.stderr}`);
  assert.match(idle.stdout, /thinking/);
  const idleId = /without setting a plan for workflow (wf-[a-z0-9]+)/.exec(idle.stderr)?.[1];
  assert.ok(idleId, idle.stderr);
  assert.match(idle.stderr, new RegExp(`mission workflows rm ${idleId}`));
  assert.equal((await h.missionJson(['workflows', 'show', idleId])).status, 'planning');
  // Another agent can plan the workflow left half made, for its own goal.
  const again = await h.step('workflows plan --workflow', () => h.mission(
    ['workflows', 'plan', '--workflow', idleId, '--cwd', repo, '--', process.execPath, agent],
    { env, timeoutMs: 60000 }), 70000);
  assert.equal(again.code, 0, `workflows plan --workflow failed:\n${again.stdout}\n${again.stderr}`);
  assert.match(again.stdout, new RegExp(`planning ${idleId} for: Nothing comes of this`));
  assert.match(again.stdout, new RegExp(`Workflow ${idleId} \\(idle\\) is planned: 2 tasks\\.`));
  assert.equal((await h.missionJson(['workflows', 'show', idleId])).status, 'ready');
  // Not once a task of it started, nor by a new workflow's name as well.
  const both = await h.mission(['workflows', 'plan', '--workflow', idleId, '--name', 'x', '--', 'true']);
  assert.equal(both.code, 2, both.stderr);
  const removed = await h.mission(['workflows', 'rm', idleId]);
  assert.equal(removed.code, 0, removed.stderr);

  // A planner that cannot start leaves no workflow behind.
  const before = (await h.missionJson(['workflows', 'list'])).workflows.length;
  const broken = await h.mission(['workflows', 'plan', 'Never planned', '--cwd', repo, '--', '/nonexistent/agent'], { env });
  assert.notEqual(broken.code, 0);
  assert.match(broken.stderr, /nonexistent/);
  assert.equal((await h.missionJson(['workflows', 'list'])).workflows.length, before);

  // Without an agent, nothing is made.
  const none = await h.mission(['workflows', 'plan', 'No agent', '--cwd', repo]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no agent to plan with/);
});
