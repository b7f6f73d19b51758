// The board's HTTP side (mission board, ADR 0037) through a real daemon:
// `mission board` starts the listener on loopback and prints a one-time
// link; the link signs in once (an HttpOnly, SameSite=Strict cookie, then a
// redirect to /) and never again; the page is served with a strict CSP;
// the API and the live events need the cookie; an action needs this
// listener's Origin and the session's CSRF token; an agent's token opens
// nothing of the board and the cookie nothing of /mcp; a question answered
// through the API reaches the agent's message_wait; failed sign-ins are
// rate-limited.
// By hand: MISSION_PATH=build/bin/mission node tests/clients/board_http.test.mjs
import assert from 'node:assert/strict';
import http from 'node:http';

import { checkPrerequisites, runTest, within } from './harness.mjs';

const missionPath = checkPrerequisites(['@modelcontextprotocol/sdk']);
const v1 = await import('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');

// One raw HTTP request; resolves to {status, headers, body}.
function request(origin, { method = 'GET', path, headers = {}, body }) {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers, agent: false }, response => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', chunk => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: text }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

// A server-sent event stream; next(predicate) resolves with the first
// event's data (parsed) that satisfies it.
function openEvents(origin, cookie) {
  const url = new URL(origin);
  const events = [];
  const waiters = [];
  let buffer = '';
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: '/events', headers: { Cookie: cookie }, agent: false },
      response => {
        response.setEncoding('utf8');
        response.on('data', chunk => {
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split('\n').filter(line => line.startsWith('data: ')).map(line => line.slice(6)).join('\n');
            if (!data) continue;
            const event = JSON.parse(data);
            events.push(event);
            for (const waiter of [...waiters]) {
              if (waiter.predicate(event)) {
                waiters.splice(waiters.indexOf(waiter), 1);
                waiter.resolve(event);
              }
            }
          }
        });
        resolve({
          status: response.statusCode,
          headers: response.headers,
          next(predicate) {
            const seen = events.find(predicate);
            if (seen) return Promise.resolve(seen);
            return new Promise(done => waiters.push({ predicate, resolve: done }));
          },
          close() { req.destroy(); },
        });
      });
    req.on('error', reject);
    req.end();
  });
}

function errorOf(response, what) {
  let body;
  try {
    body = JSON.parse(response.body);
  } catch {
    assert.fail(`${what}: not a JSON body: ${response.body}`);
  }
  assert.ok(body.error?.code, `${what}: no error code: ${response.body}`);
  assert.ok(body.error?.hint, `${what}: the error does not say what to do: ${response.body}`);
  return body.error;
}

await runTest('board over http', missionPath, async h => {
  // A daemon without --http: `mission board` turns the listener on.
  const agent = await h.createExecution({ toolsets: ['signals', 'coordination'] });
  const before = await h.missionJson(['daemon', 'status']);
  assert.equal(before.http, null, 'the daemon listens for HTTP before anyone asked');
  const opened = await h.missionJson(['board']);
  assert.equal(opened.started, true, `board.open did not start the listener: ${JSON.stringify(opened)}`);
  const link = new URL(opened.url);
  assert.equal(link.hostname, '127.0.0.1', `the board is not on loopback: ${opened.url}`);
  assert.equal(link.pathname, '/signin');
  assert.match(link.searchParams.get('t') ?? '', /^[0-9a-f]{64}$/, 'no 64-hex sign-in token in the link');
  const origin = link.origin;
  const status = await h.missionJson(['daemon', 'status']);
  assert.equal(status.http, link.host, 'daemon status does not show the board\'s listener');
  // A second call keeps the listener and mints another link.
  const again = await h.missionJson(['board']);
  assert.equal(again.started, false);
  assert.equal(new URL(again.url).host, link.host);
  assert.notEqual(again.url, opened.url, 'the same link was minted twice');
  // The human form prints the link alone on stdout.
  const human = await h.mission(['board']);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout.trim(), /^http:\/\/127\.0\.0\.1:\d+\/signin\?t=[0-9a-f]{64}$/);

  // The page: served to anyone who can reach loopback, with a strict CSP;
  // it holds no data until signed in.
  const page = await h.step('GET /', () => request(origin, { path: '/' }));
  assert.equal(page.status, 200);
  assert.match(page.headers['content-security-policy'] ?? '', /default-src 'self'/);
  assert.match(page.body, /<script src="\/board\.js"/);
  assert.equal((await request(origin, { path: '/board.js' })).status, 200);
  const anonymous = await request(origin, { path: '/api/workflows' });
  assert.equal(anonymous.status, 401);
  assert.equal(errorOf(anonymous, 'no cookie').code, 'unauthorized');
  assert.equal((await request(origin, { path: '/events' })).status, 401, '/events without a cookie');

  // An agent's token opens nothing of the board.
  const withToken = await request(origin, { path: '/api/inbox', headers: { Authorization: `Bearer ${agent.token}` } });
  assert.equal(withToken.status, 401, 'an agent token opened the board');

  // Sign-in: a wrong token is refused, the right one works once.
  const wrong = await request(origin, { path: `/signin?t=${'0'.repeat(64)}` });
  assert.equal(wrong.status, 403);
  errorOf(wrong, 'a wrong sign-in token');
  const signin = await h.step('sign in', () => request(origin, { path: `${link.pathname}${link.search}` }));
  assert.equal(signin.status, 303, `sign-in: ${signin.status} ${signin.body}`);
  assert.equal(signin.headers.location, '/', 'sign-in does not redirect to / (the token would stay in the URL)');
  const setCookie = (signin.headers['set-cookie'] ?? []).join('\n');
  assert.match(setCookie, /HttpOnly/, 'the session cookie is readable by scripts');
  assert.match(setCookie, /SameSite=Strict/, 'the session cookie is not SameSite=Strict');
  const cookie = setCookie.split(';')[0];
  assert.match(cookie, /^mission_board=[0-9a-f]{64}$/);
  const spent = await request(origin, { path: `${link.pathname}${link.search}` });
  assert.equal(spent.status, 403, 'a sign-in link worked twice');

  // The cookie opens nothing under /mcp.
  const mcpWithCookie = await request(origin, {
    method: 'POST', path: `/mcp/${agent.id}`,
    headers: { Cookie: cookie, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
                           params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }),
  });
  assert.equal(mcpWithCookie.status, 401, 'the board cookie opened /mcp');

  // Signed in: the session's CSRF token, the read API.
  const session = JSON.parse((await request(origin, { path: '/api/session', headers: { Cookie: cookie } })).body);
  assert.match(session.csrf ?? '', /^[0-9a-f]{64}$/, 'no CSRF token from /api/session');
  for (const path of ['/api/workflows', '/api/inbox', '/api/agents']) {
    const read = await request(origin, { path, headers: { Cookie: cookie } });
    assert.equal(read.status, 200, `${path}: ${read.body}`);
  }
  const agents = JSON.parse((await request(origin, { path: '/api/agents', headers: { Cookie: cookie } })).body);
  assert.ok(agents.executions.some(e => e.id === agent.id), 'the agent is not among /api/agents');
  // All the page draws in one reply: the same session, the same lists; a
  // workflow asked for that is not there selects none rather than failing.
  const boardRead = await request(origin, { path: '/api/board?workflow=wf-unknown', headers: { Cookie: cookie } });
  assert.equal(boardRead.status, 200, `/api/board: ${boardRead.body}`);
  const board = JSON.parse(boardRead.body);
  assert.equal(board.csrf, session.csrf, '/api/board carries another CSRF token');
  assert.ok(board.agents.executions.some(e => e.id === agent.id), `the agent is not on /api/board: ${boardRead.body}`);
  assert.deepEqual([board.selected, board.workflow], [null, null], `no workflow, yet one selected: ${boardRead.body}`);
  assert.equal((await request(origin, { path: '/api/board' })).status, 401, '/api/board read without a session');
  const unknown = await request(origin, { path: '/api/workflows/wf-unknown', headers: { Cookie: cookie } });
  assert.equal(unknown.status, 404, `an unknown workflow: ${unknown.body}`);
  errorOf(unknown, 'an unknown workflow');

  // Live events: the agent asks a question; the page's stream hears it.
  const events = await openEvents(origin, cookie);
  h.onCleanup(() => events.close());
  assert.equal(events.status, 200);
  assert.match(events.headers['content-type'] ?? '', /text\/event-stream/);
  await h.step('the stream says it is connected', () => events.next(e => e.type === 'board.connected'));
  const client = new v1.Client({ name: 'mission-tests-board-agent', version: '1.0.0' });
  h.onCleanup(() => client.close());
  await h.step('the agent connects over HTTP', () => client.connect(new StreamableHTTPClientTransport(
    new URL(`${origin}/mcp/${agent.id}`), { requestInit: { headers: { Authorization: `Bearer ${agent.token}` } } })));
  await h.step('the agent asks', () =>
    client.callTool({ name: 'needs_input', arguments: { question: 'Which port?', choices: ['80', '8080'] } }));
  await h.step('the question reaches the page as an event', () =>
    within(10000, 'an event of the agent', events.next(e => e.agentExecutionId === agent.id)));
  const inbox = JSON.parse((await request(origin, { path: '/api/inbox', headers: { Cookie: cookie } })).body);
  const question = (inbox.questions ?? []).find(q => q.agentExecutionId === agent.id);
  assert.equal(question?.question, 'Which port?', `the question is not in /api/inbox: ${JSON.stringify(inbox)}`);

  // Actions: refused without the CSRF token, without an Origin, from
  // another origin; then answered from the board, which wakes the agent.
  const answerPath = `/api/executions/${agent.id}/answer`;
  const json = { 'Content-Type': 'application/json', Cookie: cookie };
  const body = JSON.stringify({ choice: 2 });
  const noCsrf = await request(origin, { method: 'POST', path: answerPath, headers: { ...json, Origin: origin }, body });
  assert.equal(noCsrf.status, 403, `an action without a CSRF token: ${noCsrf.body}`);
  const noOrigin = await request(origin, { method: 'POST', path: answerPath, headers: { ...json, 'X-Mission-CSRF': session.csrf }, body });
  assert.equal(noOrigin.status, 403, `an action without an Origin: ${noOrigin.body}`);
  const otherSite = await request(origin, {
    method: 'POST', path: answerPath, headers: { ...json, 'X-Mission-CSRF': session.csrf, Origin: 'http://evil.example' }, body });
  assert.equal(otherSite.status, 403, `an action from another origin: ${otherSite.body}`);
  assert.equal((await h.showExecution(agent.id)).state, 'awaiting_input', 'a refused action answered the question');
  const waiting = client.callTool({ name: 'message_wait', arguments: { timeout_ms: 50000 } }, undefined, { timeout: 90000 });
  const answered = await request(origin, {
    method: 'POST', path: answerPath, headers: { ...json, 'X-Mission-CSRF': session.csrf, Origin: origin }, body });
  assert.equal(answered.status, 200, `answer from the board: ${answered.body}`);
  assert.equal(JSON.parse(answered.body).state, 'running');
  const woken = await h.step('message_wait woken by the board\'s answer', () => within(30000, 'message_wait', waiting), 40000);
  assert.equal(woken.structuredContent.timed_out, false, 'message_wait timed out instead of waking');
  assert.equal(woken.structuredContent.messages[0].body, '8080');

  // Signing out ends the session.
  const signout = await request(origin, {
    method: 'POST', path: '/api/signout', headers: { ...json, 'X-Mission-CSRF': session.csrf, Origin: origin } });
  assert.equal(signout.status, 200);
  assert.equal((await request(origin, { path: '/api/inbox', headers: { Cookie: cookie } })).status, 401, 'signed out, still in');

  // Failed sign-ins are limited: past the limit even a good link waits.
  const good = new URL((await h.missionJson(['board'])).url);
  let limited = null;
  for (let i = 0; i < 20 && !limited; ++i) {
    const guess = await request(origin, { path: `/signin?t=${i.toString(16).padStart(64, 'a')}` });
    if (guess.status === 429) limited = guess;
    else assert.equal(guess.status, 403);
  }
  assert.ok(limited, 'twenty wrong sign-ins in a row were never rate-limited');
  assert.ok(Number(limited.headers['retry-after']) > 0, 'a rate-limited sign-in does not say when to retry');
  assert.equal((await request(origin, { path: `${good.pathname}${good.search}` })).status, 429,
               'a good link signed in while sign-ins were limited');
});
