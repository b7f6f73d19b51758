// The official TypeScript MCP SDK, v1 line (@modelcontextprotocol/sdk),
// drives the real bridge `mission mcp connect` through its own
// StdioClientTransport. Exits 0 when every check passes.
// By hand: MISSION_PATH=build/bin/mission node tests/clients/sdk_v1.test.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';

import {
  assertAttachedExecutionEnded,
  assertBridgeRejectsToken,
  assertInvalidArgument,
  assertSignalCatalog,
  assertSignalResult,
  checkPrerequisites,
  rejection,
  runTest,
  waitForDetachedSession,
  wireAnswer,
  wrongTokenFor,
} from './harness.mjs';

const missionPath = checkPrerequisites(['@modelcontextprotocol/sdk']);
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
const { CallToolResultSchema, ErrorCode, McpError, SUPPORTED_PROTOCOL_VERSIONS } =
  await import('@modelcontextprotocol/sdk/types.js');
const sdkVersion = JSON.parse(fs.readFileSync(
  new URL('./node_modules/@modelcontextprotocol/sdk/package.json', import.meta.url), 'utf8')).version;

const CLIENT_NAME = 'mission-tests-sdk-v1';

// A Client on a StdioClientTransport spawning the bridge; closed at cleanup.
function openClient(h, name, bridge) {
  const transport = new StdioClientTransport(h.bridgeParams(bridge));
  const stderr = h.captureStderr(transport, `bridge of ${name}`);
  const wire = h.tap(transport);
  const client = new Client({ name, version: sdkVersion });
  h.onCleanup(() => client.close());
  return { client, transport, wire, stderr };
}

await runTest('sdk v1', missionPath, async h => {
  h.log(`@modelcontextprotocol/sdk ${sdkVersion}`);

  // --- a session bound to an execution by its token -------------------------
  const exec = await h.createExecution();
  const { client, transport, wire } = openClient(h, CLIENT_NAME, { executionId: exec.id, token: exec.token });
  await h.step('initialize', () => client.connect(transport));
  const init = wireAnswer(wire, { method: 'initialize' });
  const negotiated = init.answer.result?.protocolVersion;
  assert.equal(negotiated, init.request.params.protocolVersion,
               'initialize: the server did not echo the version the SDK asked for');
  assert.ok(SUPPORTED_PROTOCOL_VERSIONS.includes(negotiated), `initialize: SDK does not support ${negotiated}`);
  assert.equal(client.getServerVersion()?.name, 'mission', 'initialize: serverInfo.name');
  assert.ok(client.getServerCapabilities()?.tools, 'initialize: no tools capability');
  h.log(`negotiated ${negotiated}`);

  const { tools } = await h.step('tools/list', () => client.listTools());
  assertSignalCatalog(tools);

  const first = await h.step('progress', () =>
    client.callTool({ name: 'progress', arguments: { summary: 'parsed the input', eventId: 'v1-progress-1' } }));
  assertSignalResult(first, { status: 'accepted', executionId: exec.id, eventId: 'v1-progress-1' }, 'progress');
  const again = await h.step('progress again, same eventId', () =>
    client.callTool({ name: 'progress', arguments: { summary: 'parsed the input', eventId: 'v1-progress-1' } }));
  assertSignalResult(again, { status: 'duplicate', executionId: exec.id, eventId: 'v1-progress-1' }, 'duplicate progress');
  const claim = await h.step('completed_claim', () =>
    client.callTool({ name: 'completed_claim', arguments: { summary: 'all done' } }));
  assertSignalResult(claim, { status: 'recorded-only', executionId: exec.id }, 'completed_claim');

  // An unknown argument. What the server answers, read without the SDK's
  // output-schema check (Client.request validates only the result shape):
  const bogus = { name: 'progress', arguments: { summary: 'x', bogus: 1 } };
  const raw = await h.step('progress with an unknown argument (raw request)', () =>
    client.request({ method: 'tools/call', params: bogus }, CallToolResultSchema));
  assertInvalidArgument(raw, 'progress with an unknown argument');
  // Through callTool, which checks structuredContent against the tool's
  // outputSchema even on isError results (typescript-sdk#1943): the
  // published outputSchema must admit the error payload too.
  const result = await h.step('progress with an unknown argument (callTool)', () => client.callTool(bogus));
  assertInvalidArgument(result, 'callTool progress with an unknown argument');

  const unknown = await h.step('unknown tool', () =>
    rejection(client.callTool({ name: 'no_such_tool', arguments: {} }), 'unknown tool'));
  assert.ok(unknown instanceof McpError, `unknown tool: not an McpError: ${unknown}`);
  assert.equal(unknown.code, ErrorCode.MethodNotFound, `unknown tool: code ${unknown.code}`);
  assert.equal(unknown.data?.code, 'unsupported_tool', 'unknown tool: error data.code');

  assert.deepEqual(await h.step('ping', () => client.ping()), {}, 'ping result');
  // The session is still usable after the errors.
  assertSignalResult(
    await h.step('message', () => client.callTool({ name: 'message', arguments: { text: 'still here' } })),
    { status: 'recorded-only', executionId: exec.id }, 'message after the errors');

  await h.step('close', () => client.close());
  const shown = await waitForDetachedSession(h, exec.id, CLIENT_NAME);
  const [session] = shown.mcpSessions;
  assert.equal(shown.mcpSessions.length, 1, 'exec show: expected exactly one MCP session');
  assert.equal(session.client.version, sdkVersion, 'exec show: client.version');
  assert.equal(session.protocolVersion, negotiated, 'exec show: protocolVersion');
  assert.ok(session.calls >= 5, `exec show: calls ${session.calls} < 5`);
  assert.ok(session.toolLists >= 1, `exec show: toolLists ${session.toolLists} < 1`);
  assert.ok(session.detachedAt, 'exec show: no detachedAt');

  // --- a session without --agent-execution: an attached execution ----------
  const cwd = h.tempDir('attached-cwd');
  const attachedName = `${CLIENT_NAME}-attached`;
  const attached = openClient(h, attachedName, { cwd });
  await h.step('attached: initialize', () => attached.client.connect(attached.transport));
  assertSignalCatalog((await h.step('attached: tools/list', () => attached.client.listTools())).tools,
                      { tracking: true });
  const said = await h.step('attached: message', () =>
    attached.client.callTool({ name: 'message', arguments: { text: 'hello from sdk v1' } }));
  const attachedId = said.structuredContent?.agentExecutionId;
  assertSignalResult(said, { status: 'recorded-only', executionId: attachedId }, 'attached: message');
  assert.match(attachedId ?? '', /^ae-/, 'attached: no agentExecutionId');
  // Real work, then the client goes without claiming anything: the
  // execution ends completed, not lost (ADR 0024).
  const started = await h.step('attached: start_mission', () => attached.client.callTool({
    name: 'start_mission', arguments: { name: 'Attached work', objective: 'Record a mission, then close' } }));
  assert.ok(!started.isError, `attached: start_mission failed: ${JSON.stringify(started.content)}`);
  await h.step('attached: close', () => attached.client.close());
  await assertAttachedExecutionEnded(h, { cwd, executionId: attachedId, clientName: attachedName });

  // --- a wrong token: connect fails, nothing hangs --------------------------
  const locked = await h.createExecution();
  const wrong = openClient(h, `${CLIENT_NAME}-wrong-token`, { executionId: locked.id, token: wrongTokenFor(locked.token) });
  const refused = await h.step('wrong token: connect fails', () =>
    rejection(wrong.client.connect(wrong.transport), 'connect with a wrong token'), 15000);
  h.log(`connect failed as expected: ${refused.message}`);
  assert.equal(wrong.wire.filter(entry => entry.dir === 'server->client').length, 0,
               'wrong token: the bridge answered MCP traffic');
  await h.waitFor('the bridge to say why on stderr', () => ({ ok: /token/i.test(wrong.stderr()), value: wrong.stderr() }),
                  { timeoutMs: 5000 });
  await assertBridgeRejectsToken(h, locked.id, wrongTokenFor(locked.token));
});
