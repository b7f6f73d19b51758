// Shared helpers for the real-client tests: an isolated mission daemon in a
// temp dir, the `mission` CLI, bridge parameters for the SDKs' stdio
// transports, and a global timeout so a test fails instead of hanging.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export const SIGNAL_TOOLS = [
  'blocked',
  'completed_claim',
  'failed_claim',
  'message',
  'needs_input',
  'progress',
  'ready_for_verification',
];

// The tracking toolset, which the default toolsets add to the signals.
export const TRACKING_TOOLS = [
  'complete_mission', 'complete_task', 'get_context', 'log_decision', 'log_issue', 'log_milestone',
  'start_mission', 'start_task',
];


// Checks what must hold before any SDK is imported, so a missing install is
// one clear line instead of an ERR_MODULE_NOT_FOUND stack.
export function checkPrerequisites(packages) {
  const missionPath = process.env.MISSION_PATH;
  if (!missionPath) {
    fail('MISSION_PATH is not set: point it at the built `mission` binary ' +
         '(ctest sets it; by hand: MISSION_PATH=build/bin/mission node tests/clients/<test>.mjs)');
  }
  if (!fs.existsSync(missionPath)) fail(`MISSION_PATH=${missionPath} does not exist: build mission first`);
  for (const name of packages) {
    if (!fs.existsSync(path.join(here, 'node_modules', name, 'package.json'))) {
      fail(`${name} is not installed in tests/clients/node_modules: run scripts/install-test-clients.sh`);
    }
  }
  return path.resolve(missionPath);
}

function fail(message) {
  console.error(`FAIL: ${message}`);
  process.exit(1);
}

function errorText(error) {
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}

export function sleep(ms) {
  return new Promise(resolve => setTimeout(resolve, ms));
}

// Rejects with "<what> timed out after N ms" when `promise` does not settle.
export function within(ms, what, promise) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([Promise.resolve(promise), timeout]).finally(() => clearTimeout(timer));
}

// Resolves to what `promise` rejected with; fails when it resolved.
export async function rejection(promise, what) {
  try {
    const value = await promise;
    assert.fail(`${what}: expected an error, got ${JSON.stringify(value)}`);
  } catch (error) {
    if (error instanceof assert.AssertionError) throw error;
    return error;
  }
}

class Harness {
  constructor(missionPath, name) {
    this.missionPath = missionPath;
    // Short base path: daemon.sock must fit in sun_path.
    const tmp = os.tmpdir().length > 60 ? '/tmp' : os.tmpdir();
    this.base = fs.mkdtempSync(path.join(tmp, `mission-${name.replace(/[^A-Za-z0-9]+/g, '-')}-`));
    // The daemon creates the runtime dir itself (0700); the state dir too.
    this.runtimeDir = path.join(this.base, 'run');
    this.stateDir = path.join(this.base, 'state');
    const env = { ...process.env };
    delete env.MISSION_SOCKET;
    delete env.MISSION_MCP_TOKEN;
    // The daemon next to this mission (e.g. the ASan one), not one from the caller's env.
    delete env.MISSION_DAEMON_BIN;
    this.env = { ...env, MISSION_RUNTIME_DIR: this.runtimeDir, MISSION_STATE_DIR: this.stateDir, NO_COLOR: '1' };
    this.cleanups = [];
    this.stderrTexts = [];
  }

  log(message) {
    console.log(`-- ${message}`);
  }

  // Logs and runs one step; a step that does not finish in timeoutMs fails
  // the test with its name instead of waiting for the global timeout.
  step(what, fn, timeoutMs = 20000) {
    this.log(what);
    return within(timeoutMs, what, fn());
  }

  // A fresh directory inside the test's temp dir (real path, as getcwd sees it).
  tempDir(name) {
    const dir = path.join(this.base, name);
    fs.mkdirSync(dir, { recursive: true });
    return fs.realpathSync(dir);
  }

  // Runs `mission ARGS`; never hangs (SIGKILL after timeoutMs).
  mission(args, { cwd = this.base, env = {}, timeoutMs = 20000 } = {}) {
    return new Promise(resolve => {
      execFile(this.missionPath, args,
               { cwd, env: { ...this.env, ...env }, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 << 20 },
               (error, stdout, stderr) => {
                 let code = 0;
                 if (error) code = typeof error.code === 'number' ? error.code : (error.killed ? 'timeout' : -1);
                 resolve({ code, stdout, stderr });
               });
    });
  }

  // Runs `mission --json ARGS`, requires exit 0 and returns the parsed stdout.
  async missionJson(args, options) {
    const result = await this.mission(['--json', ...args], options);
    assert.equal(result.code, 0,
                 `mission --json ${args.join(' ')} exited ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
    try {
      return JSON.parse(result.stdout);
    } catch (error) {
      assert.fail(`mission --json ${args.join(' ')} printed invalid JSON (${error.message}):\n${result.stdout}`);
    }
  }

  // Creates an mcp-tool execution; returns {id, token, execution}.
  async createExecution({ toolsets = ['signals'], cwd } = {}) {
    const args = ['exec', 'create', '--delivery', 'mcp-tool', '--print-token', '--toolsets', toolsets.join(',')];
    if (cwd) args.push('--cwd', cwd);
    const out = await this.missionJson(args);
    assert.match(out?.execution?.id ?? '', /^ae-/, `exec create: no execution id in ${JSON.stringify(out)}`);
    assert.match(out?.token ?? '', /^[0-9a-f]{64}$/, 'exec create: no 64-hex token');
    return { id: out.execution.id, token: out.token, execution: out.execution };
  }

  showExecution(id) {
    return this.missionJson(['exec', 'show', id]);
  }

  async listExecutions() {
    const out = await this.missionJson(['exec', 'list']);
    assert.ok(Array.isArray(out.executions), `exec list: no executions array in ${JSON.stringify(out)}`);
    return out.executions;
  }

  // Polls fn() until it returns a truthy value; fails with `what` and the
  // last value seen after timeoutMs.
  async waitFor(what, fn, { timeoutMs = 10000, intervalMs = 100 } = {}) {
    const deadline = Date.now() + timeoutMs;
    let last;
    for (;;) {
      last = await fn();
      if (last?.ok) return last.value;
      if (Date.now() > deadline) {
        assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${JSON.stringify(last?.value, null, 1)}`);
      }
      await sleep(intervalMs);
    }
  }

  // StdioServerParameters for `mission mcp connect`, the same shape in both
  // SDKs. stderr is piped and kept, so failures can show what the bridge said.
  bridgeParams({ executionId, token, cwd } = {}) {
    const args = ['mcp', 'connect'];
    if (executionId) args.push('--agent-execution', executionId);
    const env = { ...this.env };
    if (token !== undefined) env.MISSION_MCP_TOKEN = token;
    return { command: this.missionPath, args, env, cwd: cwd ?? this.base, stderr: 'pipe' };
  }

  // Collects the piped stderr of a transport; returns a function giving the text so far.
  captureStderr(transport, label) {
    const record = { label, text: '' };
    this.stderrTexts.push(record);
    transport.stderr?.on('data', chunk => { record.text += chunk.toString(); });
    return () => record.text;
  }

  // Records the JSON-RPC traffic of a transport (both SDKs chain a
  // pre-set onmessage, and send is wrapped on the instance only).
  tap(transport) {
    const wire = [];
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      wire.push({ dir: 'client->server', message });
      return send(message, options);
    };
    transport.onmessage = message => wire.push({ dir: 'server->client', message });
    return wire;
  }

  onCleanup(fn) {
    this.cleanups.push(fn);
  }

  async cleanup() {
    for (const fn of this.cleanups.reverse()) {
      try {
        await within(10000, 'cleanup step', fn());
      } catch (error) {
        console.error(`cleanup: ${error.message}`);
      }
    }
    this.cleanups = [];
    if (fs.existsSync(this.runtimeDir)) {
      const stop = await this.mission(['daemon', 'stop', '--force'], { timeoutMs: 15000 });
      if (stop.code !== 0 && !/not running/i.test(stop.stderr + stop.stdout)) {
        console.error(`cleanup: mission daemon stop exited ${stop.code}: ${stop.stderr.trim()}`);
        this.killDaemon();
      }
    }
    const reports = this.sanitizerReports();
    fs.rmSync(this.base, { recursive: true, force: true });
    return reports;
  }

  // Sanitizer reports (ASan/UBSan builds) in the bridges' stderr and the
  // daemon log: a test that passed with one of these did not pass.
  sanitizerReports() {
    const pattern = /ERROR: (Address|Leak|Thread|Memory)Sanitizer|runtime error:|UndefinedBehaviorSanitizer/;
    const reports = [];
    for (const { label, text } of this.stderrTexts) {
      if (pattern.test(text)) reports.push(`stderr of ${label}:\n${text.trimEnd()}`);
    }
    try {
      const log = fs.readFileSync(path.join(this.stateDir, 'missiond.log'), 'utf8');
      if (pattern.test(log)) reports.push(`missiond.log:\n${log.trimEnd()}`);
    } catch {
      // no daemon log
    }
    return reports;
  }

  // Last resort when `daemon stop` failed: the daemon this test started.
  killDaemon() {
    try {
      const pid = Number(fs.readFileSync(path.join(this.runtimeDir, 'daemon.pid'), 'utf8').trim());
      // Only if that pid is still our daemon (its socket is in our runtime dir).
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (pid > 1 && cmdline.includes('missiond') && cmdline.includes(this.runtimeDir)) process.kill(pid, 'SIGKILL');
    } catch {
      // no pid file or already gone
    }
  }

  // Synchronous variant for the global-timeout path.
  cleanupSync() {
    if (fs.existsSync(this.runtimeDir)) {
      const stop = spawnSync(this.missionPath, ['daemon', 'stop', '--force'], { env: this.env, timeout: 10000, killSignal: 'SIGKILL' });
      if (stop.status !== 0) this.killDaemon();
    }
    fs.rmSync(this.base, { recursive: true, force: true });
  }

  dumpStderr() {
    for (const { label, text } of this.stderrTexts) {
      if (text.trim()) console.error(`--- stderr of ${label}:\n${text.trimEnd()}`);
    }
  }
}

// Runs body(harness) with a fresh daemon; exits 0 on success and 1 with the
// error on failure or after timeoutMs. Cleanup runs in every case.
export async function runTest(name, missionPath, body, { timeoutMs = 100000 } = {}) {
  const harness = new Harness(missionPath, name);
  let finished = false;
  const finish = async (error) => {
    if (finished) return;
    finished = true;
    clearTimeout(globalTimer);
    if (error) {
      console.error(`FAIL: ${name}\n${errorText(error)}`);
      harness.dumpStderr();
    }
    // A hung cleanup must not turn a result into a hang either.
    setTimeout(() => {
      console.error('FAIL: cleanup hung; exiting');
      process.exit(1);
    }, 30000).unref();
    if (process.env.MISSION_CLIENT_TESTS_VERBOSE === '1' && !error) harness.dumpStderr();
    let reports = [];
    try {
      reports = await harness.cleanup();
    } catch (cleanupError) {
      console.error(`cleanup failed: ${errorText(cleanupError)}`);
    }
    if (reports.length > 0) {
      console.error(`FAIL: ${name}: sanitizer reports\n${reports.join('\n')}`);
      process.exit(1);
    }
    if (!error) console.log(`PASS: ${name}`);
    process.exit(error ? 1 : 0);
  };
  const globalTimer = setTimeout(() => {
    if (finished) return;
    finished = true;
    console.error(`FAIL: ${name}: global timeout of ${timeoutMs} ms reached`);
    harness.dumpStderr();
    harness.cleanupSync();
    process.exit(1);
  }, timeoutMs);
  process.on('unhandledRejection', error => finish(error ?? new Error('unhandled rejection')));
  process.on('uncaughtException', error => finish(error));
  try {
    await body(harness);
  } catch (error) {
    await finish(error);
    return;
  }
  await finish(null);
}

// The server's answer, as the wire tap saw it, to the first `method` request
// (or the request `id`) the client sent.
export function wireAnswer(wire, { method, id }) {
  const request = wire.find(entry => entry.dir === 'client->server' &&
                                     (id !== undefined ? entry.message.id === id
                                                       : entry.message.method === method && entry.message.id !== undefined));
  assert.ok(request, `wire: the client sent no ${method ?? `request ${id}`}`);
  const answer = wire.find(entry => entry.dir === 'server->client' && entry.message.id === request.message.id &&
                                    entry.message.method === undefined);
  assert.ok(answer, `wire: no answer to ${JSON.stringify(request.message)}`);
  return { request: request.message, answer: answer.message };
}

// --- assertions shared by both SDK tests -----------------------------------

// The signal tools, and with `tracking` (the default toolsets) the tracking
// tools too; every one well formed.
export function assertSignalCatalog(tools, { tracking = false } = {}) {
  assert.ok(Array.isArray(tools), 'tools/list: tools is not an array');
  const names = tools.map(tool => tool.name).sort();
  const expected = (tracking ? [...SIGNAL_TOOLS, ...TRACKING_TOOLS] : SIGNAL_TOOLS).slice().sort();
  assert.deepEqual(names, expected, `tools/list: not exactly the ${expected.length} expected tools`);
  for (const tool of tools) {
    const where = `tool ${tool.name}`;
    assert.equal(typeof tool.title, 'string', `${where}: no title`);
    assert.ok(tool.title.length > 0, `${where}: empty title`);
    assert.equal(typeof tool.description, 'string', `${where}: no description`);
    assert.ok(tool.description.includes('Use when:'), `${where}: description lacks "Use when:"`);
    assert.equal(tool.inputSchema?.type, 'object', `${where}: inputSchema.type is not object`);
    assert.equal(tool.inputSchema.additionalProperties, false, `${where}: inputSchema.additionalProperties is not false`);
    assert.equal(typeof tool.outputSchema, 'object', `${where}: no outputSchema`);
    assert.equal(tool.outputSchema?.type, 'object', `${where}: outputSchema.type is not object`);
    assert.equal(typeof tool.annotations, 'object', `${where}: no annotations`);
    assert.ok(tool.annotations !== null, `${where}: annotations is null`);
  }
}

// A successful signal result: structuredContent with the status, and the
// first text content being the same JSON.
export function assertSignalResult(result, { status, executionId, eventId }, what) {
  assert.notEqual(result.isError, true, `${what}: isError is true: ${JSON.stringify(result)}`);
  const structured = result.structuredContent;
  assert.equal(typeof structured, 'object', `${what}: no structuredContent: ${JSON.stringify(result)}`);
  assert.equal(structured.status, status, `${what}: status ${structured.status}, expected ${status}`);
  assert.equal(structured.agentExecutionId, executionId, `${what}: agentExecutionId`);
  if (eventId !== undefined) assert.equal(structured.eventId, eventId, `${what}: eventId`);
  assert.equal(result.content?.[0]?.type, 'text', `${what}: content[0] is not text`);
  assert.deepEqual(JSON.parse(result.content[0].text), structured, `${what}: content[0].text differs from structuredContent`);
}

export function assertInvalidArgument(result, what) {
  assert.equal(result.isError, true, `${what}: isError is not true: ${JSON.stringify(result)}`);
  assert.equal(result.structuredContent?.code, 'invalid_argument', `${what}: structuredContent.code: ${JSON.stringify(result)}`);
  assert.equal(typeof result.structuredContent.message, 'string', `${what}: no message`);
  assert.equal(result.content?.[0]?.type, 'text', `${what}: content[0] is not text`);
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent, `${what}: content[0].text differs from structuredContent`);
}

// The mcpSessions entry of `exec show` once the daemon recorded the detach.
export async function waitForDetachedSession(harness, executionId, clientName) {
  return harness.waitFor(`exec show ${executionId} to record the detach of ${clientName}`, async () => {
    const exec = await harness.showExecution(executionId);
    const sessions = (exec.mcpSessions ?? []).filter(s => s.client?.name === clientName);
    const session = sessions[0];
    return { ok: sessions.length === 1 && session.attached === false, value: exec };
  });
}

export const FINAL_STATES = ['completed', 'failed', 'cancelled', 'lost'];

// After an attached session (no --agent-execution) closed: `exec list` has
// exactly one attached execution for `cwd`, it is `executionId`, its session
// is the client's, and it ended `completed`: the client closed its session
// after real calls and claimed nothing, which is no crash (ADR 0024).
export async function assertAttachedExecutionEnded(harness, { cwd, executionId, clientName }) {
  const exec = await harness.waitFor(`the attached execution for ${cwd} to become final`, async () => {
    const executions = await harness.listExecutions();
    const attached = executions.filter(e => e.kind === 'attached' && e.cwd === cwd);
    return { ok: attached.length === 1 && FINAL_STATES.includes(attached[0].state), value: attached };
  });
  const [execution] = exec;
  assert.equal(execution.id, executionId, 'exec list: the attached execution is not the one the tool results named');
  assert.equal(execution.state, 'completed', `attached execution ended ${execution.state}, expected completed (no claim was made, the session closed)`);
  assert.equal(execution.mcpSessions?.length, 1, `attached execution: ${execution.mcpSessions?.length} MCP sessions, expected 1`);
  const [session] = execution.mcpSessions;
  assert.equal(session.client?.name, clientName, 'attached execution: session client name');
  assert.equal(session.attached, false, 'attached execution: session still attached');
  assert.ok(session.calls >= 1 && session.toolLists >= 1, `attached execution: calls/toolLists not counted: ${JSON.stringify(session)}`);
  return execution;
}

// The bridge itself, without an SDK: a wrong token exits 1 with a message on
// stderr and nothing on stdout, and the execution gets no session.
export async function assertBridgeRejectsToken(harness, executionId, wrongToken) {
  const result = await harness.mission(['mcp', 'connect', '--agent-execution', executionId],
                                       { env: { MISSION_MCP_TOKEN: wrongToken }, timeoutMs: 15000 });
  assert.equal(result.code, 1, `bridge with a wrong token exited ${result.code}, expected 1 (stderr: ${result.stderr})`);
  assert.equal(result.stdout, '', 'bridge with a wrong token wrote to stdout');
  assert.match(result.stderr, /token/i, 'bridge with a wrong token: stderr does not mention the token');
  const exec = await harness.showExecution(executionId);
  assert.equal(exec.mcpSessions?.length, 0, `a rejected attach left a session: ${JSON.stringify(exec.mcpSessions)}`);
  assert.equal(exec.state, 'created', `a rejected attach changed the execution state to ${exec.state}`);
}

// A valid-looking token that is not the execution's.
export function wrongTokenFor(token) {
  return (token[0] === '0' ? '1' : '0') + token.slice(1);
}
