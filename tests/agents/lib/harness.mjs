// Shared plumbing for the real-agent tests: an isolated sandbox per test
// (HOME, XDG dirs, mission runtime/state dirs), a mission daemon of its own,
// a local stand-in for the model APIs, and agent runs with hard timeouts that
// kill the agent's whole process group.
//
// Exit codes: 0 pass, 1 fail (also when the agents are not installed: run
// scripts/install-test-clients.sh).

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const AGENTS_DIR = path.resolve(here, '..');
const BIN_DIR = path.join(AGENTS_DIR, 'node_modules', '.bin');

const liveGroups = new Set();
const cleanups = [];
let failures = 0;
const started = Date.now();

export function log(msg) {
  const t = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
  process.stdout.write(`[${t}s] ${msg}\n`);
}

export function check(cond, what, detail) {
  if (cond) {
    log(`ok   - ${what}`);
  } else {
    failures++;
    log(`FAIL - ${what}${detail ? `\n${indent(detail)}` : ''}`);
  }
  return cond;
}

function indent(text) {
  return String(text).split('\n').map((l) => `         ${l}`).join('\n');
}

export function tail(text, n = 3000) {
  const s = String(text ?? '');
  return s.length > n ? `...${s.slice(-n)}` : s;
}

export function stripAnsi(s) {
  // eslint-disable-next-line no-control-regex
  return String(s).replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
}

function killGroup(pid, signal) {
  try { process.kill(-pid, signal); } catch { /* already gone */ }
}

function killAllGroups() {
  for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
  liveGroups.clear();
}
process.on('exit', killAllGroups);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => { killAllGroups(); process.exit(1); });
}

/// Runs body(); prints a summary; always cleans up; exits 0 or 1. A watchdog
/// ends the whole test (and every agent process group) after limitMs.
export async function main(name, limitMs, body) {
  const watchdog = setTimeout(() => {
    log(`FAIL - ${name}: whole test exceeded ${limitMs / 1000}s; killing everything`);
    killAllGroups();
    runCleanups(false);
    process.exit(1);
  }, limitMs);
  let code = 0;
  try {
    await body();
    code = failures === 0 ? 0 : 1;
  } catch (err) {
    log(`FAIL - ${name}: ${err && err.stack ? err.stack : err}`);
    code = 1;
  }
  clearTimeout(watchdog);
  killAllGroups();
  runCleanups(code === 0);
  log(code === 0 ? `PASS - ${name}` : `FAILED - ${name}`);
  process.exit(code);
}

function runCleanups(ok) {
  while (cleanups.length) {
    try { cleanups.pop()(ok); } catch (err) { log(`cleanup: ${err}`); }
  }
}

/// Path of an agent's npm binary; a clear error when tests/agents is not
/// installed.
export function agentBinary(name) {
  const bin = path.join(BIN_DIR, name);
  if (!fs.existsSync(bin)) {
    throw new Error(`${bin} is missing: run scripts/install-test-clients.sh ` +
                    `(npm ci in tests/agents) first`);
  }
  return bin;
}

export function missionPath() {
  const m = process.env.MISSION_PATH;
  if (!m || !path.isAbsolute(m) || !fs.existsSync(m)) {
    throw new Error(`MISSION_PATH must be the absolute path of the built mission binary (got ${JSON.stringify(m)})`);
  }
  return m;
}

/// A fresh temp tree: home (and XDG dirs inside it), mission runtime and state
/// dirs, a work dir (the agent's cwd) and a cfg dir for config files. env is
/// built from scratch so no user config, API key or MISSION_SOCKET leaks in.
export function sandbox(name) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `mission-agents-${name}-`));
  const d = (p) => path.join(root, p);
  const sb = {
    root,
    home: d('home'),
    work: d('work'),
    cfg: d('cfg'),
    runtime: d('run'), // created by the daemon with mode 0700
    state: d('state'),
  };
  for (const p of [sb.home, sb.work, sb.cfg, sb.state]) fs.mkdirSync(p, { recursive: true });
  const xdg = {
    XDG_CONFIG_HOME: path.join(sb.home, '.config'),
    XDG_DATA_HOME: path.join(sb.home, '.local', 'share'),
    XDG_STATE_HOME: path.join(sb.home, '.local', 'state'),
    XDG_CACHE_HOME: path.join(sb.home, '.cache'),
  };
  for (const p of Object.values(xdg)) fs.mkdirSync(p, { recursive: true });
  const env = {};
  for (const k of ['LANG', 'LC_ALL', 'TZ', 'USER', 'LOGNAME']) {
    if (process.env[k] !== undefined) env[k] = process.env[k];
  }
  // node first: @openai/codex's launcher is a node script.
  env.PATH = [path.dirname(process.execPath), process.env.PATH || '/usr/bin:/bin'].join(path.delimiter);
  Object.assign(env, xdg, {
    HOME: sb.home,
    TMPDIR: os.tmpdir(),
    SHELL: '/bin/sh',
    TERM: 'dumb',
    NO_COLOR: '1',
    MISSION_RUNTIME_DIR: sb.runtime,
    MISSION_STATE_DIR: sb.state,
  });
  sb.env = env;
  cleanups.push((ok) => {
    stopLiveExecutions(sb);
    stopDaemon(sb);
    if (ok && !process.env.MISSION_AGENT_TEST_KEEP) {
      fs.rmSync(root, { recursive: true, force: true });
    } else {
      log(`kept ${root}`);
    }
  });
  log(`sandbox ${root}`);
  return sb;
}

/// Runs mission synchronously in the sandbox (never hangs: 30 s limit), with
/// the sandbox's environment or `env` (for `mission run`, the agent's).
export function mission(sb, args, { timeoutMs = 30000, env = sb.env } = {}) {
  const r = spawnSync(missionPath(), args, {
    env, cwd: sb.work, encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL',
  });
  if (r.error) throw new Error(`mission ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0) {
    throw new Error(`mission ${args.join(' ')} exited ${r.status}${r.signal ? ` (${r.signal})` : ''}: ${r.stderr}`);
  }
  return r.stdout;
}

/// `mission --json exec create --delivery mcp-tool --print-token` -> {id, token}.
export function createExecution(sb) {
  const out = JSON.parse(mission(sb, ['--json', 'exec', 'create', '--delivery', 'mcp-tool',
                                       '--print-token', '--cwd', sb.work]));
  const id = out.execution && out.execution.id;
  if (!/^ae-[a-z0-9]+$/.test(id || '') || !/^[0-9a-f]{64}$/.test(out.token || '')) {
    throw new Error(`unexpected exec create output: ${JSON.stringify(out)}`);
  }
  log(`execution ${id} created`);
  return { id, token: out.token };
}

export function showExecution(sb, id) {
  return JSON.parse(mission(sb, ['--json', 'exec', 'show', id]));
}

/// Polls exec show until every MCP session has detached (the bridge exited
/// when the agent did), or limitMs passes. Returns the last execution.
export async function waitDetached(sb, id, limitMs = 10000) {
  const end = Date.now() + limitMs;
  for (;;) {
    const ex = showExecution(sb, id);
    const open = (ex.mcpSessions || []).filter((s) => s.attached);
    if (open.length === 0 || Date.now() > end) return ex;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/// Agents launched through `mission run` belong to the daemon, not to this
/// test, and outlive a daemon stop: end every one still running, and its
/// process group, before the daemon goes.
function stopLiveExecutions(sb) {
  if (!fs.existsSync(path.join(sb.runtime, 'daemon.sock'))) return;
  const opts = { env: sb.env, cwd: sb.work, encoding: 'utf8', timeout: 15000, killSignal: 'SIGKILL' };
  const listed = spawnSync(missionPath(), ['--no-autostart', '--json', 'exec', 'list', '--limit', '1000'], opts);
  let executions = [];
  try { executions = JSON.parse(listed.stdout).executions || []; } catch { return; }
  for (const ex of executions) {
    if (['completed', 'failed', 'cancelled', 'lost'].includes(ex.state)) continue;
    log(`execution ${ex.id} still ${ex.state}: stopping it`);
    spawnSync(missionPath(), ['--no-autostart', 'exec', 'stop', '--force', ex.id], opts);
    if (ex.pid) killGroup(ex.pid, 'SIGKILL');
  }
}

function stopDaemon(sb) {
  if (!fs.existsSync(path.join(sb.runtime, 'daemon.sock'))) return;
  spawnSync(missionPath(), ['--no-autostart', 'daemon', 'stop', '--force'], {
    env: sb.env, cwd: sb.work, encoding: 'utf8', timeout: 15000, killSignal: 'SIGKILL',
  });
  // Belt and braces: never leave this sandbox's daemon behind (only a
  // missiond whose command line names this sandbox's socket).
  try {
    const pid = Number(fs.readFileSync(path.join(sb.runtime, 'daemon.pid'), 'utf8').trim());
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (pid > 1 && cmdline.includes('missiond') && cmdline.includes(sb.runtime)) {
      process.kill(pid, 'SIGKILL');
      log(`daemon ${pid} did not stop; killed it`);
    }
  } catch { /* gone, as it should be */ }
}

/// The server block every agent gets: `mission mcp connect --agent-execution ID`
/// with the token and the sandbox's mission dirs in its environment.
export function bridgeServer(sb, exec) {
  return {
    command: missionPath(),
    args: ['mcp', 'connect', '--agent-execution', exec.id],
    env: {
      MISSION_MCP_TOKEN: exec.token,
      MISSION_RUNTIME_DIR: sb.runtime,
      MISSION_STATE_DIR: sb.state,
    },
  };
}

export function writePrivate(file, text) {
  fs.writeFileSync(file, text, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return file;
}

/// A local stand-in for the Anthropic and OpenAI APIs: every request is
/// recorded and answered 401 with an "invalid API key" error, which agents do
/// not retry. Keeps the tests offline and fast. `respond(request)` may answer
/// instead, with {status, headers, body}.
export async function fakeModelApi({ respond } = {}) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const request = { method: req.method, url: req.url, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(request);
      const answer = respond && respond(request);
      if (answer) {
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
        return;
      }
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({
        type: 'error',
        error: { type: 'authentication_error', message: 'invalid x-api-key (mission test stub)',
                 code: 'invalid_api_key' },
      }));
    });
  });
  server.on('upgrade', (_req, socket) => socket.destroy()); // no websockets here
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  cleanups.push(() => server.close());
  log(`fake model API at ${url}`);
  return {
    url,
    requests,
    summary: () => requests.map((r) => `${r.method} ${r.url} (${r.body.length} bytes)`).join('\n') || '(none)',
  };
}

/// Runs an agent in its own process group with stdin on /dev/null. After
/// timeoutMs the whole group gets SIGTERM, then SIGKILL 3 s later. When the
/// agent exits, whatever it left in its group is killed too.
export function runAgent(label, cmd, args, { env, cwd, timeoutMs }) {
  log(`run ${label}: ${[path.basename(cmd), ...args].map(shellQuote).join(' ')}`);
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const pid = child.pid;
    if (pid) liveGroups.add(pid);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let exit = null;
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const term = setTimeout(() => {
      timedOut = true;
      log(`${label}: still running after ${timeoutMs / 1000}s, killing its process group`);
      killGroup(pid, 'SIGTERM');
      setTimeout(() => killGroup(pid, 'SIGKILL'), 3000).unref();
    }, timeoutMs);
    const finish = () => {
      clearTimeout(term);
      killGroup(pid, 'SIGKILL'); // leftovers (an MCP server the agent orphaned, ...)
      liveGroups.delete(pid);
      const ms = Date.now() - t0;
      log(`${label}: exited ${exit.code ?? exit.signal} after ${(ms / 1000).toFixed(1)}s${timedOut ? ' (timed out)' : ''}`);
      resolve({ code: exit.code, signal: exit.signal, timedOut, ms, stdout, stderr });
    };
    child.on('error', (err) => {
      exit = { code: null, signal: null };
      stderr += `\nspawn error: ${err.message}`;
      finish();
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Give the pipes a moment to drain; a grandchild may still hold them.
      let done = false;
      const once = () => { if (!done) { done = true; finish(); } };
      child.on('close', once);
      setTimeout(once, 2000).unref();
    });
  });
}

function shellQuote(s) {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${String(s).replace(/'/g, `'\\''`)}'`;
}

/// The sessions of an execution opened by clientName.
export function sessionsOf(ex, clientName) {
  return (ex.mcpSessions || []).filter((s) => s.client && s.client.name === clientName);
}

// The checks every agent run must pass: it ended by itself (non-zero is
// expected: the stub model API answers 401), its MCP client attached as
// `clientName`, listed the tools, and detached when the agent exited.
export function checkAgentRun(agent, run, timeoutMs, sessions, clientName) {
  let ok = true;
  ok &= check(!run.timedOut && run.signal === null,
              `${agent} exits by itself within ${timeoutMs / 1000}s (exit ${run.code}; non-zero expected: the model API says 401)`);
  ok &= check(sessions.length >= 1, `an MCP session from client "${clientName}" was recorded`);
  ok &= check(sessions.some((s) => s.toolLists >= 1), 'that session listed the tools (toolLists >= 1)');
  if (sessions[0]) {
    const s = sessions[0];
    log(`session: client ${s.client.name} ${s.client.version}, protocol ${s.protocolVersion}, toolLists ${s.toolLists}, calls ${s.calls}`);
  }
  ok &= check(sessions.every((s) => !s.attached), `the bridge detached when ${agent} exited`);
  return Boolean(ok);
}

export function describeSessions(ex) {
  return JSON.stringify(ex.mcpSessions || [], null, 1);
}

/// Standard diagnostics after a failed check.
export function dump(label, run, ex, api) {
  if (run) {
    log(`${label} stdout:\n${indent(tail(run.stdout))}`);
    log(`${label} stderr:\n${indent(tail(run.stderr))}`);
  }
  if (ex) log(`execution:\n${indent(JSON.stringify(ex, null, 1))}`);
  if (api) log(`model API requests:\n${indent(api.summary())}`);
}

export function failureCount() {
  return failures;
}

// The default catalog: the signals and tracking toolsets.
export const MISSION_TOOLS = [
  'blocked', 'completed_claim', 'failed_claim', 'message', 'needs_input', 'progress',
  'ready_for_verification',
  'complete_mission', 'complete_task', 'get_context', 'log_decision', 'log_issue', 'log_milestone',
  'start_mission', 'start_task',
];

/// The permission requests and questions `mission inbox` lists.
export function inboxPrompts(sb) {
  return JSON.parse(mission(sb, ['--json', 'inbox'])).prompts || [];
}

/// Polls `probe` every 100 ms until it returns something truthy, which it
/// returns; throws naming `what` after limitMs.
export async function until(what, limitMs, probe) {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
