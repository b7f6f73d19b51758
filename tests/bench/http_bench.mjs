// MCP over Streamable HTTP against the Unix-socket bridge, same daemon, same
// run (docs/adr/0035): a durable signal's tools/call (`progress`) round
// trip through `mission mcp connect` and through POST /mcp/ID on loopback
// (one kept-alive connection), in alternating rounds so both see the same
// machine; then missiond's idle RSS with the listener on, beside a daemon
// without it. The target: HTTP p50 <= 1.5x the bridge's.
// Usage: MISSION_PATH=build/bin/mission node tests/bench/http_bench.mjs
// Knobs: BENCH_CALLS (2000 per transport), BENCH_ROUNDS (10).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const mission = path.resolve(process.env.MISSION_PATH ?? 'build/bin/mission');
const calls = Number(process.env.BENCH_CALLS ?? 2000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 10);

function isolatedEnv(base, extra = {}) {
  const env = { ...process.env, ...extra };
  delete env.MISSION_SOCKET;
  delete env.MISSION_MCP_TOKEN;
  return { ...env, MISSION_RUNTIME_DIR: path.join(base, 'run'), MISSION_STATE_DIR: path.join(base, 'state') };
}

function missionJson(env, args) {
  return JSON.parse(execFileSync(mission, ['--json', ...args], { env, encoding: 'utf8' }));
}

function rssKib(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

// The bridge: JSON lines over the child's stdin and stdout.
function openBridge(env, id, token) {
  const child = spawn(mission, ['mcp', 'connect', '--agent-execution', id],
                      { env: { ...env, MISSION_MCP_TOKEN: token }, stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  readline.createInterface({ input: child.stdout }).on('line', line => {
    const message = JSON.parse(line);
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  const request = (message) => new Promise(resolve => {
    waiting.set(message.id, resolve);
    child.stdin.write(JSON.stringify(message) + '\n');
  });
  return { request, notify: message => child.stdin.write(JSON.stringify(message) + '\n'), close: () => child.stdin.end() };
}

// HTTP: one kept-alive connection, JSON replies. Written and read by hand
// on a socket, as the bridge's lines are: node's http client would add its
// own cost to one side only.
function openHttp(address, id, token) {
  const [host, port] = [address.slice(0, address.lastIndexOf(':')), Number(address.slice(address.lastIndexOf(':') + 1))];
  const socket = net.connect({ host, port, noDelay: true });
  let session;
  let buffer = Buffer.alloc(0);
  let pending;
  socket.on('data', chunk => {
    buffer = Buffer.concat([buffer, chunk]);
    const end = buffer.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = buffer.subarray(0, end).toString('latin1');
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
    if (buffer.length < end + 4 + length) return;
    const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    buffer = buffer.subarray(end + 4 + length);
    session ??= /mcp-session-id: (\S+)/i.exec(head)?.[1];
    const resolve = pending;
    pending = undefined;
    resolve(body ? JSON.parse(body) : null);
  });
  const post = (message) => new Promise(resolve => {
    pending = resolve;
    const body = Buffer.from(JSON.stringify(message));
    socket.write(`POST /mcp/${id} HTTP/1.1\r\nHost: ${address}\r\nContent-Type: application/json\r\n` +
                 `Accept: application/json, text/event-stream\r\nAuthorization: Bearer ${token}\r\n` +
                 (session ? `Mcp-Session-Id: ${session}\r\n` : '') +
                 `Content-Length: ${body.length}\r\n\r\n`);
    socket.write(body);
  });
  return { request: post, notify: post, close: () => socket.end() };
}

async function initialize(transport) {
  await transport.request({ jsonrpc: '2.0', id: 0, method: 'initialize',
                            params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '0' } } });
  await transport.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

let nextId = 1;
async function timeCalls(transport, count, tag, samples) {
  for (let i = 0; i < count; ++i) {
    const id = nextId++;
    const started = process.hrtime.bigint();
    const reply = await transport.request({ jsonrpc: '2.0', id, method: 'tools/call',
                                            params: { name: 'progress', arguments: { summary: 'bench', eventId: `${tag}-${id}` } } });
    samples.push(Number(process.hrtime.bigint() - started) / 1000);
    if (reply?.result?.structuredContent?.status !== 'accepted') throw new Error(`${tag}: ${JSON.stringify(reply)}`);
  }
}

function report(name, samples) {
  const sorted = samples.slice().sort((a, b) => a - b);
  const line = `${name.padEnd(8)} p50 ${percentile(sorted, 0.5).toFixed(0)} us, p90 ${percentile(sorted, 0.9).toFixed(0)} us, ` +
               `p99 ${percentile(sorted, 0.99).toFixed(0)} us (${sorted.length} calls)`;
  console.log(line);
  return percentile(sorted, 0.5);
}

const tmp = os.tmpdir().length > 60 ? '/tmp' : os.tmpdir();
const withHttp = fs.mkdtempSync(path.join(tmp, 'mission-http-bench-'));
const without = fs.mkdtempSync(path.join(tmp, 'mission-http-bench-off-'));
const envOn = isolatedEnv(withHttp, { MISSION_HTTP: '127.0.0.1:0' });
const envOff = isolatedEnv(without);
try {
  const { execution: { id }, token } = missionJson(envOn, ['exec', 'create', '--delivery', 'mcp-tool', '--print-token']);
  const status = missionJson(envOn, ['daemon', 'status']);
  const bridge = openBridge(envOn, id, token);
  const viaHttp = openHttp(status.http, id, token);
  await initialize(bridge);
  await initialize(viaHttp);
  await timeCalls(bridge, 200, 'warm-bridge', []);
  await timeCalls(viaHttp, 200, 'warm-http', []);
  const bridgeSamples = [];
  const httpSamples = [];
  const perRound = Math.ceil(calls / rounds);
  for (let round = 0; round < rounds; ++round) {
    await timeCalls(bridge, perRound, 'bridge', bridgeSamples);
    await timeCalls(viaHttp, perRound, 'http', httpSamples);
  }
  console.log(`tools/call progress, ${rounds} alternating rounds on one daemon (${os.cpus().length} cores):`);
  const bridgeP50 = report('bridge', bridgeSamples);
  const httpP50 = report('http', httpSamples);
  console.log(`http/bridge p50: ${(httpP50 / bridgeP50).toFixed(2)}x (target <= 1.5x)`);
  bridge.close();
  viaHttp.close();

  // Idle RSS: both daemons started, nothing connected, settled.
  missionJson(envOff, ['exec', 'list']);
  const pidOff = missionJson(envOff, ['daemon', 'status']).pid;
  const idleBase = fs.mkdtempSync(path.join(tmp, 'mission-http-bench-idle-'));
  const restarted = isolatedEnv(idleBase, { MISSION_HTTP: '127.0.0.1:0' });
  missionJson(restarted, ['exec', 'list']);
  const pidOn = missionJson(restarted, ['daemon', 'status']).pid;
  await new Promise(resolve => setTimeout(resolve, 2000));
  const idleOn = rssKib(pidOn);
  console.log(`idle RSS: ${(idleOn / 1024).toFixed(1)} MiB with --http, ${(rssKib(pidOff) / 1024).toFixed(1)} MiB without`);
  // What an idle HTTP connection costs the daemon (the thread-per-connection
  // model pays a thread's stack for each; ADR 0035).
  const held = 100;
  const idleAddress = missionJson(restarted, ['daemon', 'status']).http;
  const [idleHost, idlePort] = [idleAddress.slice(0, idleAddress.lastIndexOf(':')), Number(idleAddress.slice(idleAddress.lastIndexOf(':') + 1))];
  const sockets = await Promise.all(Array.from({ length: held }, () => new Promise((resolve, reject) => {
    const socket = net.connect({ host: idleHost, port: idlePort }, () => resolve(socket));
    socket.on('error', reject);
  })));
  // One request on each, so each connection has parsed and answered once.
  await Promise.all(sockets.map(socket => new Promise(resolve => {
    socket.once('data', resolve);
    socket.write(`GET /nothing HTTP/1.1\r\nHost: ${idleAddress}\r\n\r\n`);
  })));
  const heldRss = rssKib(pidOn);
  console.log(`${held} idle kept-alive HTTP connections: +${((heldRss - idleOn) / held).toFixed(1)} KiB each`);
  for (const socket of sockets) socket.destroy();
  execFileSync(mission, ['daemon', 'stop', '--force'], { env: restarted });
  fs.rmSync(idleBase, { recursive: true, force: true });
} finally {
  for (const env of [envOn, envOff]) {
    try { execFileSync(mission, ['daemon', 'stop', '--force'], { env, stdio: 'ignore' }); } catch {}
  }
  fs.rmSync(withHttp, { recursive: true, force: true });
  fs.rmSync(without, { recursive: true, force: true });
}
