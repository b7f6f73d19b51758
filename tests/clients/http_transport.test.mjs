// MCP over Streamable HTTP (missiond --http, ADR 0035) judged by the
// official SDKs' own HTTP transports, at the URL `mission mcp config --http`
// prints: SDK v1 initializes a 2025-11-25
// session, lists tools, calls a tracking tool, and waits in message_wait
// until a person answers from the shell; client v2 does the 2025 handshake
// and the stateless 2026-07-28 revision. Then the refusals, with raw
// requests: no token, another execution's token, a wrong Host (DNS
// rebinding), a wrong Origin, no session.
// By hand: MISSION_PATH=build/bin/mission node tests/clients/http_transport.test.mjs
import assert from 'node:assert/strict';
import http from 'node:http';

import { assertSignalResult, checkPrerequisites, runTest, within } from './harness.mjs';

const missionPath = checkPrerequisites(['@modelcontextprotocol/sdk', '@modelcontextprotocol/client']);
const v1 = await import('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport: V1Transport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
const v2 = await import('@modelcontextprotocol/client');

const MODERN = '2026-07-28';

// One raw HTTP request; resolves to {status, headers, body}.
function rawRequest(address, { method = 'POST', path, headers = {}, body }) {
  const [host, port] = [address.slice(0, address.lastIndexOf(':')), Number(address.slice(address.lastIndexOf(':') + 1))];
  return new Promise((resolve, reject) => {
    const request = http.request({ host, port, method, path, headers, agent: false }, response => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', chunk => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    if (body !== undefined) request.write(body);
    request.end();
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

// A refusal: the status, and a JSON-RPC error body that says what to do.
function assertRefused(response, status, code, hintPattern, what) {
  assert.equal(response.status, status, `${what}: status ${response.status}, expected ${status}: ${response.body}`);
  const body = JSON.parse(response.body);
  assert.equal(body.jsonrpc, '2.0', `${what}: not a JSON-RPC body: ${response.body}`);
  assert.equal(body.error?.data?.code, code, `${what}: error code: ${response.body}`);
  assert.match(body.error.data.hint ?? '', hintPattern, `${what}: the hint does not say what to do: ${response.body}`);
}

await runTest('mcp over streamable http', missionPath, async h => {
  // The daemon the CLI starts reads --http from its environment.
  h.env.MISSION_HTTP = '127.0.0.1:0';
  const { id, token } = await h.createExecution({ toolsets: ['signals', 'tracking', 'coordination'] });
  const status = await h.missionJson(['daemon', 'status']);
  assert.match(status.http ?? '', /^127\.0\.0\.1:\d+$/, `daemon status: no http address: ${JSON.stringify(status)}`);
  const address = status.http;
  // The remote form `mission mcp config --http` prints names the endpoint.
  const config = await h.missionJson(['mcp', 'config', '--adapter', 'generic', '--agent-execution', id,
                                      '--http', `http://${address}/`]);
  const entry = JSON.parse(config.text);
  assert.equal(entry.url, `http://${address}/mcp/${id}`, `mcp config --http: ${config.text}`);
  assert.equal(entry.headers?.Authorization, 'Bearer ${MISSION_MCP_TOKEN}', 'mcp config --http: no token placeholder');
  const url = new URL(entry.url);
  const auth = { Authorization: `Bearer ${token}` };

  // --- SDK v1: a 2025-11-25 session ---------------------------------------
  const transport = new V1Transport(url, { requestInit: { headers: auth } });
  const client = new v1.Client({ name: 'mission-tests-http-v1', version: '1.0.0' });
  h.onCleanup(() => client.close());
  await h.step('v1: initialize over HTTP', () => client.connect(transport));
  assert.match(transport.sessionId ?? '', /^[0-9a-f]{64}$/, 'v1: no Mcp-Session-Id from initialize');
  const { tools } = await h.step('v1: tools/list', () => client.listTools());
  const names = tools.map(tool => tool.name);
  for (const name of ['progress', 'start_mission', 'message_wait']) assert.ok(names.includes(name), `tools/list lacks ${name}`);
  const progress = await h.step('v1: progress', () =>
    client.callTool({ name: 'progress', arguments: { summary: 'over http', eventId: 'http-1' } }));
  assertSignalResult(progress, { status: 'accepted', executionId: id, eventId: 'http-1' }, 'v1: progress');
  const mission = await h.step('v1: start_mission (tracking)', () =>
    client.callTool({ name: 'start_mission', arguments: { name: 'Remote work', objective: 'Work from another host' } }));
  assert.notEqual(mission.isError, true, `start_mission failed: ${JSON.stringify(mission.structuredContent)}`);
  assert.match(mission.structuredContent.mission_id ?? '', /.+/, 'start_mission: no mission_id');

  // message_wait holds its response (an SSE stream) until a person answers.
  await h.step('v1: needs_input', () =>
    client.callTool({ name: 'needs_input', arguments: { question: 'Which port?', choices: ['80', '8080'] } }));
  const waiting = client.callTool({ name: 'message_wait', arguments: { timeout_ms: 50000 } }, undefined, { timeout: 90000 });
  const answered = await h.missionJson(['answer', id, '--choice', '2']);
  assert.equal(answered.state, 'running');
  const woken = await h.step('v1: message_wait woken by the answer', () => within(30000, 'message_wait', waiting), 40000);
  assert.equal(woken.isError, false, JSON.stringify(woken.structuredContent));
  assert.equal(woken.structuredContent.timed_out, false, 'message_wait timed out instead of waking');
  assert.equal(woken.structuredContent.messages[0].body, '8080');

  // DELETE ends the session: exec show records the detach.
  await h.step('v1: terminate the session (DELETE)', () => transport.terminateSession());
  await h.waitFor('the HTTP session to be detached', async () => {
    const exec = await h.showExecution(id);
    const session = (exec.mcpSessions ?? []).find(s => s.client?.name === 'mission-tests-http-v1');
    return { ok: session?.attached === false && session.calls >= 4, value: exec.mcpSessions };
  });
  await client.close();

  // --- client v2: 2025 handshake, then stateless 2026-07-28 ---------------
  for (const [mode, options] of [['default', {}], ['pinned', { versionNegotiation: { mode: { pin: MODERN } } }]]) {
    const transport2 = new v2.StreamableHTTPClientTransport(url, { requestInit: { headers: auth } });
    const client2 = new v2.Client({ name: `mission-tests-http-v2-${mode}`, version: '2.0.0' }, options);
    h.onCleanup(() => client2.close());
    await h.step(`v2 ${mode}: connect`, () => client2.connect(transport2));
    if (mode === 'pinned') {
      assert.equal(client2.getNegotiatedProtocolVersion(), MODERN, 'v2 pinned: negotiated version');
      assert.equal(transport2.sessionId, undefined, 'v2 pinned: a stateless client got a session id');
    }
    const listed = await h.step(`v2 ${mode}: tools/list`, () => client2.listTools());
    assert.ok(listed.tools.some(tool => tool.name === 'progress'), `v2 ${mode}: no progress tool`);
    const result = await h.step(`v2 ${mode}: progress`, () =>
      client2.callTool({ name: 'progress', arguments: { summary: `v2 ${mode}`, eventId: `http-v2-${mode}` } }));
    assertSignalResult(result, { status: 'accepted', executionId: id, eventId: `http-v2-${mode}` }, `v2 ${mode}: progress`);
    await client2.close();
  }

  // --- refusals ------------------------------------------------------------
  const json = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const path = `/mcp/${id}`;
  assertRefused(await rawRequest(address, { path, headers: json, body: INITIALIZE }),
                401, 'unauthorized', /Authorization: Bearer/, 'no token');
  const other = await h.createExecution();
  assertRefused(await rawRequest(address, { path, headers: { ...json, Authorization: `Bearer ${other.token}` }, body: INITIALIZE }),
                403, 'unauthorized', /Authorization: Bearer/, "another execution's token");
  assertRefused(await rawRequest(address, { path, headers: { ...json, ...auth, Host: `rebound.example:${url.port}` }, body: INITIALIZE }),
                421, 'forbidden', /DNS rebinding/, 'a wrong Host');
  assertRefused(await rawRequest(address, { path, headers: { ...json, ...auth, Origin: 'http://evil.example' }, body: INITIALIZE }),
                403, 'forbidden', /another site/, 'a wrong Origin');
  assertRefused(await rawRequest(address, { path, headers: { ...json, ...auth },
                                            body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) }),
                400, 'handshake_required', /initialize/, 'no session and no 2026-07-28 _meta');
  assertRefused(await rawRequest(address, { path, headers: { ...json, ...auth, 'Mcp-Session-Id': 'f'.repeat(64) },
                                            body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }) }),
                404, 'not_found', /initialize a new session/, 'an unknown session');
  // The SDK sees the refusal too, and nothing hangs.
  const refusedClient = new v1.Client({ name: 'mission-tests-http-refused', version: '1.0.0' });
  await assert.rejects(h.step('v1 without a token', () => refusedClient.connect(new V1Transport(url))),
                       /401|Unauthorized/i, 'v1 without a token connected');
  const exec = await h.showExecution(id);
  assert.ok(!(exec.mcpSessions ?? []).some(s => s.client?.name === 'raw'), 'a refused initialize left a session');
});
