// A permission request answered, to the agent going on (issue 31's target:
// <= 50 ms p50, the daemon's share), through the real daemon and a scripted
// ACP agent (permission_agent.mjs) in the same run, two ways:
//   person  the request is listed (inbox.list), then answered with
//           execution.answer on the control socket, as `mission answer
//           --choice 1` does without its process start: from the call
//           written to the agent hearing the option;
//   policy  `--allow execute` answers it in the daemon: from the agent
//           writing the request to it hearing the option;
//   cli     the reference, a person's whole command: `mission answer EXEC
//           --choice 1` started, to the agent hearing the option.
// Timestamps are epoch milliseconds from performance.timeOrigin in both
// processes, on one machine.
// Usage: node tests/bench/permission_bench.mjs [BUILD_DIR]  (default: build)
// Knobs: BENCH_ASKS (200 a way).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const build = path.resolve(process.argv[2] ?? path.join(root, 'build'));
const mission = path.join(build, 'bin/mission');
const agent = path.join(root, 'tests/bench/permission_agent.mjs');
const asks = Number(process.env.BENCH_ASKS ?? 200);
const now = () => performance.timeOrigin + performance.now();

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mission-permission-'));
const env = { ...process.env, MISSION_RUNTIME_DIR: path.join(scratch, 'run'),
              MISSION_STATE_DIR: path.join(scratch, 'state'), BENCH_ASKS: String(asks) };
delete env.MISSION_SOCKET;
const run = (args) => execFileSync(mission, args, { env, cwd: scratch, encoding: 'utf8' });

// JSON lines on a socket, each handed to `onLine`.
function lines(socket, onLine) {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    buffered += chunk;
    let end;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      onLine(JSON.parse(line));
    }
  });
}

// The control socket: requests answered by id.
async function control() {
  const socket = net.createConnection(path.join(env.MISSION_RUNTIME_DIR, 'daemon.sock'));
  await new Promise((resolve, reject) => { socket.on('connect', resolve); socket.on('error', reject); });
  const waiting = new Map();
  let next = 1;
  lines(socket, (reply) => { waiting.get(reply.id)?.(reply); waiting.delete(reply.id); });
  const call = (method, params) => {
    const id = next++;
    const reply = new Promise((resolve) => waiting.set(id, resolve));
    socket.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    return reply;
  };
  await call('hello', { protocol: 1, client: { name: 'permission-bench' } });
  return { call, close: () => socket.destroy() };
}

// What the agent tells: {asked, at} and {heard, at, outcome}, in order.
function listen(name) {
  const socketPath = path.join(scratch, `${name}.sock`);
  const events = [];
  let wake = null;
  const server = net.createServer((socket) => lines(socket, (event) => {
    events.push(event);
    wake?.();
  }));
  server.listen(socketPath);
  const next = async (index) => {
    while (events.length <= index) await new Promise((resolve) => { wake = resolve; });
    return events[index];
  };
  return { socketPath, next, close: () => server.close() };
}

function launch(notify, kind, extra) {
  return run(['run', '--detach', '--sandbox', 'off', '--adapter', 'acp', '--prompt', 'go', ...extra,
              '--', 'node', agent, notify, kind]).split('\n')[0].trim();
}

function summary(name, samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))].toFixed(2);
  return `${name}: p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${sorted.at(-1).toFixed(2)} ms (${sorted.length} answers)`;
}

async function person(client, viaCli = false) {
  const agentEvents = listen(viaCli ? 'cli' : 'person');
  const id = launch(agentEvents.socketPath, 'execute', []);
  const samples = [];
  for (let i = 0; i < asks; i++) {
    await agentEvents.next(2 * i);
    // Answered once the daemon lists it, as a person would see it first.
    for (;;) {
      const inbox = await client.call('inbox.list', {});
      if ((inbox.result?.prompts ?? []).some((p) => p.agentExecutionId === id)) break;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const sent = now();
    if (viaCli) {
      run(['answer', id, '--choice', '1']);
    } else {
      const answered = await client.call('execution.answer', { id, choice: 1 });
      if (answered.error) throw new Error(`execution.answer: ${JSON.stringify(answered.error)}`);
    }
    const heard = await agentEvents.next(2 * i + 1);
    if (heard.outcome?.optionId !== 'allow-once') throw new Error(`the answer was ${JSON.stringify(heard)}`);
    samples.push(heard.at - sent);
  }
  agentEvents.close();
  return samples;
}

async function policy() {
  const agentEvents = listen('policy');
  launch(agentEvents.socketPath, 'execute', ['--allow', 'execute']);
  const samples = [];
  for (let i = 0; i < asks; i++) {
    const asked = await agentEvents.next(2 * i);
    const heard = await agentEvents.next(2 * i + 1);
    if (heard.outcome?.optionId !== 'allow-once') throw new Error(`the policy answered ${JSON.stringify(heard)}`);
    samples.push(heard.at - asked.at);
  }
  agentEvents.close();
  return samples;
}

try {
  run(['daemon', 'start']);
  const client = await control();
  const load = os.loadavg()[0].toFixed(1);
  console.log(summary('answered by a person (execution.answer) -> agent', await person(client)));
  console.log(summary('answered by the policy (request -> agent)', await policy()));
  console.log(summary('reference: mission answer --choice 1 started -> agent', await person(client, true)));
  console.log(`load average ${load} at the start, ${os.loadavg()[0].toFixed(1)} at the end, ${os.cpus().length} cores`);
  client.close();
} finally {
  try { run(['daemon', 'stop', '--force']); } catch {}
  fs.rmSync(scratch, { recursive: true, force: true });
}
