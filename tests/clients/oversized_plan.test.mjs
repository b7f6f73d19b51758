// A plan over the 1 MiB limit of one MCP message, sent through `mission mcp
// connect` by the official SDK v1: the daemon cannot keep the message, but
// it reads the request's id from its first and last bytes and answers that
// id with payload_too_large, naming the limit and how to split the plan.
// The client gets its error at once instead of waiting for a reply that
// never comes, and the session goes on.
// By hand: MISSION_PATH=build/bin/mission node tests/clients/oversized_plan.test.mjs
import assert from 'node:assert/strict';

import { checkPrerequisites, rejection, runTest, within } from './harness.mjs';

const missionPath = checkPrerequisites(['@modelcontextprotocol/sdk']);
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');

const kLimit = 1024 * 1024;

await runTest('oversized plan (sdk v1)', missionPath, async h => {
  const cwd = h.tempDir('work');
  const out = await h.missionJson(['exec', 'create', '--delivery', 'mcp-tool', '--print-token', '--cwd', cwd,
                                   '--toolsets', 'planning']);
  const transport = new StdioClientTransport(h.bridgeParams({ executionId: out.execution.id, token: out.token, cwd }));
  const client = new Client({ name: 'mission-tests-oversized', version: '1.0.0' });
  h.onCleanup(() => client.close());
  await h.step('initialize', () => client.connect(transport));

  const workflow = await h.step('workflow_create', () => client.callTool({
    name: 'workflow_create', arguments: { name: 'Big', source_type: 'prompt', source_content: 'a big plan' } }));
  assert.equal(workflow.isError, false, JSON.stringify(workflow.structuredContent));
  const id = workflow.structuredContent.id;

  // 3,000 tasks of about 400 bytes: about 1.3 MB in one tools/call.
  const tasks = [];
  for (let i = 0; i < 3000; i++) {
    tasks.push({ name: `task-${i}`, description: `Step ${i}: ${'x'.repeat(380)}`, sequence: 1 + Math.floor(i / 100) });
  }
  const plan = { summary: 'too big', approach: 'all at once', tasks };
  assert.ok(JSON.stringify(plan).length > kLimit, 'the plan is not over the limit');
  const error = await h.step('workflow_set_plan over 1 MiB', () => rejection(
    within(15000, 'the reply to the oversized workflow_set_plan',
           client.callTool({ name: 'workflow_set_plan', arguments: { id, plan } })),
    'oversized workflow_set_plan'));
  assert.doesNotMatch(String(error.message), /timed out/, `no reply: ${error.message}`);
  assert.equal(error.data?.code, 'payload_too_large', JSON.stringify(error));
  assert.equal(error.data?.details?.limit, kLimit);
  assert.equal(error.data?.details?.tool, 'workflow_set_plan');
  assert.match(error.message, /1048576-byte/);
  assert.match(error.data.hint, /task_set_plan/);

  // The session goes on: the same plan in two steps fits, short
  // descriptions first, then a task's details on their own.
  const small = tasks.map(task => ({ ...task, description: task.name }));
  const set = await h.step('workflow_set_plan, split', () => client.callTool({
    name: 'workflow_set_plan', arguments: { id, plan: { ...plan, tasks: small } } }));
  assert.equal(set.isError, false, JSON.stringify(set.structuredContent));
  assert.equal(set.structuredContent.tasks_created, 3000);
});
