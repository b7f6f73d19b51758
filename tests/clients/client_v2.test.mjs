// The official TypeScript MCP SDK, v2 line (@modelcontextprotocol/client),
// drives the real bridge `mission mcp connect` through its own
// StdioClientTransport: the default (2025-era initialize) connect, the
// stateless 2026-07-28 revision pinned and auto-negotiated, an attached
// session and a wrong token. Exits 0 when every check passes.
// By hand: MISSION_PATH=build/bin/mission node tests/clients/client_v2.test.mjs
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

const missionPath = checkPrerequisites(['@modelcontextprotocol/client']);
const { Client, ProtocolError, ProtocolErrorCode, SdkError, SUPPORTED_PROTOCOL_VERSIONS } =
  await import('@modelcontextprotocol/client');
const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
const sdkVersion = JSON.parse(fs.readFileSync(
  new URL('./node_modules/@modelcontextprotocol/client/package.json', import.meta.url), 'utf8')).version;

const CLIENT_NAME = 'mission-tests-client-v2';
const MODERN = '2026-07-28';
const LEGACY_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

// A Client on a StdioClientTransport spawning the bridge; closed at cleanup.
function openClient(h, name, bridge, options = {}) {
  const transport = new StdioClientTransport(h.bridgeParams(bridge));
  const stderr = h.captureStderr(transport, `bridge of ${name}`);
  const wire = h.tap(transport);
  const client = new Client({ name, version: sdkVersion }, options);
  h.onCleanup(() => client.close());
  return { client, transport, wire, stderr };
}

// The signal calls every session makes: progress, the same eventId again,
// completed_claim, an unknown argument and an unknown tool.
async function callSignals(h, client, executionId, tag) {
  const eventId = `v2-${tag}-progress-1`;
  const first = await h.step(`${tag}: progress`, () =>
    client.callTool({ name: 'progress', arguments: { summary: 'parsed the input', eventId } }));
  assertSignalResult(first, { status: 'accepted', executionId, eventId }, `${tag}: progress`);
  const again = await h.step(`${tag}: progress again, same eventId`, () =>
    client.callTool({ name: 'progress', arguments: { summary: 'parsed the input', eventId } }));
  assertSignalResult(again, { status: 'duplicate', executionId, eventId }, `${tag}: duplicate progress`);
  const claim = await h.step(`${tag}: completed_claim`, () =>
    client.callTool({ name: 'completed_claim', arguments: { summary: 'all done' } }));
  assertSignalResult(claim, { status: 'recorded-only', executionId }, `${tag}: completed_claim`);

  // v2 skips output-schema validation on isError results, so callTool
  // returns the error result as the server sent it.
  const invalid = await h.step(`${tag}: progress with an unknown argument`, () =>
    client.callTool({ name: 'progress', arguments: { summary: 'x', bogus: 1 } }));
  assertInvalidArgument(invalid, `${tag}: progress with an unknown argument`);

  const unknown = await h.step(`${tag}: unknown tool`, () =>
    rejection(client.callTool({ name: 'no_such_tool', arguments: {} }), `${tag}: unknown tool`));
  assert.ok(unknown instanceof ProtocolError, `${tag}: unknown tool: not a ProtocolError: ${unknown}`);
  assert.equal(unknown.code, ProtocolErrorCode.MethodNotFound, `${tag}: unknown tool: code ${unknown.code}`);
  assert.equal(unknown.code, -32601);
  assert.equal(unknown.data?.code, 'unsupported_tool', `${tag}: unknown tool: error data.code`);
}

// exec show after close: the sessions this client opened, all detached.
async function sessionsOf(h, executionId, name, expected) {
  const shown = await h.waitFor(`exec show ${executionId}: ${expected} detached sessions of ${name}`, async () => {
    const exec = await h.showExecution(executionId);
    const sessions = exec.mcpSessions.filter(s => s.client?.name === name);
    return { ok: sessions.length === expected && sessions.every(s => s.attached === false), value: exec };
  });
  return shown.mcpSessions.filter(s => s.client?.name === name);
}

await runTest('client v2', missionPath, async h => {
  h.log(`@modelcontextprotocol/client ${sdkVersion}`);

  // --- default options: which protocol does v2 use against us? -------------
  {
    const exec = await h.createExecution();
    const { client, transport, wire } = openClient(h, CLIENT_NAME, { executionId: exec.id, token: exec.token });
    await h.step('default: connect', () => client.connect(transport));
    // By default v2 runs the 2025 initialize handshake (versionNegotiation
    // 'legacy'): no server/discover probe, no per-request _meta.
    assert.equal(client.getProtocolEra(), 'legacy', 'default: protocol era');
    assert.equal(wire[0]?.message?.method, 'initialize', 'default: the first message is not initialize');
    const init = wireAnswer(wire, { method: 'initialize' });
    const negotiated = client.getNegotiatedProtocolVersion();
    assert.equal(negotiated, init.answer.result?.protocolVersion, 'default: negotiated version vs initialize result');
    assert.equal(negotiated, init.request.params.protocolVersion, 'default: the server did not echo the requested version');
    assert.ok(SUPPORTED_PROTOCOL_VERSIONS.includes(negotiated), `default: SDK does not support ${negotiated}`);
    assert.equal(client.getServerVersion()?.name, 'mission', 'default: serverInfo.name');
    assert.ok(client.getServerCapabilities()?.tools, 'default: no tools capability');
    h.log(`default: negotiated ${negotiated} (era ${client.getProtocolEra()})`);

    const { tools } = await h.step('default: tools/list', () => client.listTools());
    assertSignalCatalog(tools);
    await callSignals(h, client, exec.id, 'default');
    assert.deepEqual(await h.step('default: ping', () => client.ping()), {}, 'default: ping result');
    await h.step('default: close', () => client.close());

    const shown = await waitForDetachedSession(h, exec.id, CLIENT_NAME);
    const [session] = shown.mcpSessions;
    assert.equal(shown.mcpSessions.length, 1, 'default: exec show: expected exactly one MCP session');
    assert.equal(session.client.version, sdkVersion, 'default: exec show: client.version');
    assert.equal(session.protocolVersion, negotiated, 'default: exec show: protocolVersion');
    assert.ok(session.calls >= 5, `default: exec show: calls ${session.calls} < 5`);
    assert.ok(session.toolLists >= 1, `default: exec show: toolLists ${session.toolLists} < 1`);
  }

  // --- pinned to the stateless 2026-07-28 revision ---------------------------
  {
    const name = `${CLIENT_NAME}-pinned`;
    const exec = await h.createExecution();
    const { client, transport, wire } = openClient(h, name, { executionId: exec.id, token: exec.token },
                                                   { versionNegotiation: { mode: { pin: MODERN } } });
    await h.step('pinned: connect (server/discover probe)', () => client.connect(transport));
    assert.equal(client.getProtocolEra(), 'modern', 'pinned: protocol era');
    assert.equal(client.getNegotiatedProtocolVersion(), MODERN, 'pinned: negotiated version');
    assert.equal(client.getServerVersion()?.name, 'mission', 'pinned: serverInfo.name from discover _meta');
    const discovered = client.getDiscoverResult();
    for (const version of [MODERN, ...LEGACY_VERSIONS]) {
      assert.ok(discovered?.supportedVersions?.includes(version), `pinned: discover supportedVersions lacks ${version}`);
    }
    assert.ok(discovered.capabilities?.tools, 'pinned: discover capabilities lack tools');

    // The probe ran on a sibling process: this transport never saw initialize.
    // 2026-07-28 list results must carry ttlMs and cacheScope; v2 rejects
    // them otherwise.
    const { tools } = await h.step('pinned: tools/list', () => client.listTools());
    assertSignalCatalog(tools);
    // Whatever the SDK made of it, the catalog on the wire must be right.
    const list = wireAnswer(wire, { method: 'tools/list' });
    assert.equal(list.request.params?._meta?.[VERSION_META_KEY], MODERN, 'pinned: tools/list carried no modern _meta');
    assert.equal(list.answer.result?.resultType, 'complete', 'pinned: tools/list resultType');
    assertSignalCatalog(list.answer.result?.tools);

    await callSignals(h, client, exec.id, 'pinned');
    assert.equal(wire.filter(entry => entry.message.method === 'initialize').length, 0, 'pinned: sent initialize');
    for (const entry of wire.filter(e => e.dir === 'client->server' && e.message.id !== undefined)) {
      assert.equal(entry.message.params?._meta?.[VERSION_META_KEY], MODERN,
                   `pinned: ${entry.message.method} without the modern _meta`);
    }
    // ping and logging/setLevel are gone in 2026-07-28 (the SDK refuses them
    // locally); server/discover is the liveness check.
    const rediscovered = await h.step('pinned: server/discover', () => client.discover());
    assert.ok(rediscovered.supportedVersions.includes(MODERN), 'pinned: server/discover again');
    await h.step('pinned: close', () => client.close());

    // Two sessions: the SDK's disposable probe process (server/discover
    // only) and the real one.
    const sessions = await sessionsOf(h, exec.id, name, 2);
    const real = sessions.find(s => s.calls > 0);
    const probe = sessions.find(s => s.calls === 0);
    assert.ok(real && probe, `pinned: expected a probe session and a working session: ${JSON.stringify(sessions)}`);
    assert.equal(real.protocolVersion, MODERN, 'pinned: exec show: protocolVersion');
    assert.ok(real.calls >= 5, `pinned: exec show: calls ${real.calls} < 5`);
    assert.ok(real.toolLists >= 1, `pinned: exec show: toolLists ${real.toolLists} < 1`);
    assert.equal(probe.toolLists, 0, 'pinned: the probe session listed tools');
  }

  // --- auto negotiation: v2 picks the stateless revision against us --------
  {
    const name = `${CLIENT_NAME}-auto`;
    const exec = await h.createExecution();
    const { client, transport, wire } = openClient(h, name, { executionId: exec.id, token: exec.token },
                                                   { versionNegotiation: { mode: 'auto' } });
    await h.step('auto: connect', () => client.connect(transport));
    assert.equal(client.getProtocolEra(), 'modern', 'auto: era (server/discover offered 2026-07-28)');
    assert.equal(client.getNegotiatedProtocolVersion(), MODERN, 'auto: negotiated version');
    const said = await h.step('auto: progress', () =>
      client.callTool({ name: 'progress', arguments: { summary: 'auto mode', eventId: 'v2-auto-1' } }));
    assertSignalResult(said, { status: 'accepted', executionId: exec.id, eventId: 'v2-auto-1' }, 'auto: progress');
    assert.equal(wire.filter(entry => entry.message.method === 'initialize').length, 0, 'auto: sent initialize');
    await h.step('auto: close', () => client.close());
    const sessions = await sessionsOf(h, exec.id, name, 2);
    assert.ok(sessions.every(s => s.protocolVersion === MODERN), `auto: exec show: ${JSON.stringify(sessions)}`);
    assert.equal(sessions.reduce((n, s) => n + s.calls, 0), 1, 'auto: exec show: calls');
  }

  // --- a session without --agent-execution: an attached execution ----------
  {
    const cwd = h.tempDir('attached-cwd');
    const name = `${CLIENT_NAME}-attached`;
    const { client, transport } = openClient(h, name, { cwd });
    await h.step('attached: connect', () => client.connect(transport));
    assertSignalCatalog((await h.step('attached: tools/list', () => client.listTools())).tools,
                        { tracking: true });
    const said = await h.step('attached: message', () =>
      client.callTool({ name: 'message', arguments: { text: 'hello from client v2' } }));
    const attachedId = said.structuredContent?.agentExecutionId;
    assert.match(attachedId ?? '', /^ae-/, 'attached: no agentExecutionId');
    assertSignalResult(said, { status: 'recorded-only', executionId: attachedId }, 'attached: message');
    await h.step('attached: close', () => client.close());
    await assertAttachedExecutionEnded(h, { cwd, executionId: attachedId, clientName: name });
  }

  // --- a wrong token: connect fails, nothing hangs --------------------------
  {
    const locked = await h.createExecution();
    const wrongToken = wrongTokenFor(locked.token);
    for (const [mode, options] of [['default', {}], ['pinned', { versionNegotiation: { mode: { pin: MODERN } } }]]) {
      const wrong = openClient(h, `${CLIENT_NAME}-wrong-token-${mode}`, { executionId: locked.id, token: wrongToken }, options);
      const refused = await h.step(`wrong token (${mode}): connect fails`, () =>
        rejection(wrong.client.connect(wrong.transport), `connect with a wrong token (${mode})`), 15000);
      h.log(`wrong token (${mode}): connect failed as expected: ${refused.constructor.name} ${refused.code}: ${refused.message}`);
      assert.ok(refused instanceof SdkError, `wrong token (${mode}): not an SdkError: ${refused}`);
      assert.equal(wrong.wire.filter(entry => entry.dir === 'server->client').length, 0,
                   `wrong token (${mode}): the bridge answered MCP traffic`);
    }
    await assertBridgeRejectsToken(h, locked.id, wrongToken);
  }
});
