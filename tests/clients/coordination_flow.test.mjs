// Agents and messages through a real MCP client (ADR 17): the official SDK
// v1 drives `mission mcp connect` over stdio with the coordination toolset.
// The agent registers, asks a question, and blocks in message_wait; a
// person answers from the shell with `mission answer`, and the wait returns
// with that answer at once. Every result is also checked against its
// published outputSchema by the SDK (callTool does that).
// By hand: MISSION_PATH=build/bin/mission node tests/clients/coordination_flow.test.mjs
import assert from 'node:assert/strict';

import { checkPrerequisites, runTest, within } from './harness.mjs';

const missionPath = checkPrerequisites(['@modelcontextprotocol/sdk']);
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');

async function call(h, client, name, args) {
  const result = await h.step(name, () => client.callTool({ name, arguments: args }));
  assert.equal(result.isError, false, `${name} failed: ${JSON.stringify(result.structuredContent)}`);
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent, `${name}: text and structuredContent differ`);
  return result;
}

await runTest('coordination flow (sdk v1)', missionPath, async h => {
  const { id, token } = await h.createExecution({ toolsets: ['signals', 'coordination'] });
  const transport = new StdioClientTransport(h.bridgeParams({ executionId: id, token }));
  const client = new Client({ name: 'mission-tests-coordination', version: '1.0.0' });
  h.onCleanup(() => client.close());
  await h.step('initialize', () => client.connect(transport));
  const { tools } = await h.step('tools/list', () => client.listTools());
  const names = tools.map(tool => tool.name);
  for (const name of ['agent_register', 'agent_heartbeat', 'message_send', 'message_list', 'message_wait']) {
    assert.ok(names.includes(name), `tools/list lacks ${name}`);
  }

  const registered = (await call(h, client, 'agent_register', { name: 'asker', runtime: 'custom', capabilities: ['testing'] })).structuredContent;
  assert.equal(registered.id, id);
  assert.equal(registered.next_heartbeat_ms, 30000);
  const forbidden = await client.callTool({ name: 'agent_heartbeat', arguments: { agent_id: 'ae-someoneelse' } });
  assert.equal(forbidden.isError, true);
  assert.equal(forbidden.structuredContent.code, 'forbidden');
  assert.match(forbidden.structuredContent.hint, /leave agent_id out/);

  await call(h, client, 'needs_input', { question: 'Which database?', choices: ['postgres', 'sqlite'] });
  const agents = await h.missionJson(['agents']);
  assert.equal(agents.agents[0].name, 'asker');

  // Blocked in message_wait until a person answers.
  const started = Date.now();
  const waiting = client.callTool({ name: 'message_wait', arguments: { timeout_ms: 20000 } });
  let settled = false;
  waiting.then(() => { settled = true; }, () => { settled = true; });
  await new Promise(resolve => setTimeout(resolve, 300));
  assert.equal(settled, false, 'message_wait returned before any message');
  const answered = await h.missionJson(['answer', id, '--choice', '2']);
  assert.equal(answered.state, 'running');
  const result = await within(5000, 'message_wait to return the answer', waiting);
  assert.equal(result.isError, false, JSON.stringify(result.structuredContent));
  const { messages, timed_out } = result.structuredContent;
  assert.equal(timed_out, false);
  assert.equal(messages[0].body, 'sqlite');
  assert.equal(messages[0].message_type, 'response');
  assert.ok(Number.isInteger(messages[0].reply_to_observation_id), 'the answer replies to the question');
  assert.ok(Date.now() - started < 5000);
  assert.equal((await h.showExecution(id)).state, 'running');

  // Unread until marked: every other tool result says so in a second text block.
  const progress = await call(h, client, 'progress', { summary: 'using sqlite' });
  assert.equal(progress.content.length, 2);
  assert.match(progress.content[1].text, /1 unread message/);
  await call(h, client, 'message_mark_read', { message_ids: [messages[0].id] });
  const quiet = await call(h, client, 'progress', { summary: 'done reading' });
  assert.equal(quiet.content.length, 1);

  // A wait that finds nothing ends within its timeout, with a cursor to go on from.
  const empty = await call(h, client, 'message_wait', { timeout_ms: 200, after_cursor: result.structuredContent.after_cursor });
  assert.equal(empty.structuredContent.timed_out, true);
  assert.deepEqual(empty.structuredContent.messages, []);

  // To the people at the shell.
  await call(h, client, 'message_send', { recipient_id: 'person', message_type: 'status_update', body: 'migrated to sqlite' });
  const inbox = await h.missionJson(['inbox']);
  assert.equal(inbox.messages[0].body, 'migrated to sqlite');
  assert.equal(inbox.messages[0].senderId, id);
});
