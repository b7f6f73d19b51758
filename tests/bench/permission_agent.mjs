// The agent of permission_bench.mjs: an ACP agent whose one turn asks
// BENCH_ASKS permissions one after another (kind $2: execute or edit),
// each as soon as the last is answered. It tells the bench, over the Unix
// socket named by its first argument, when it asked and when it heard the
// answer (epoch milliseconds, performance.timeOrigin + now()), then ends
// its turn. Node's own modules only.
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

const [notifyPath, kind = 'execute'] = process.argv.slice(2);
const asks = Number(process.env.BENCH_ASKS ?? 200);
const bench = net.createConnection(notifyPath);
const now = () => performance.timeOrigin + performance.now();
let promptId = null;
let asked = 0;

function send(message) {
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
}

function ask() {
  const id = `ask-${asked}`;
  const at = now();
  send({
    id, method: 'session/request_permission',
    params: {
      sessionId: 's-1',
      toolCall: { toolCallId: id, title: `step ${asked}`, kind, rawInput: { command: `true ${asked}` } },
      options: [
        { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
      ],
    },
  });
  bench.write(JSON.stringify({ asked, at }) + '\n');
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'initialize') {
    send({ id: message.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
  } else if (message.method === 'session/new') {
    send({ id: message.id, result: { sessionId: 's-1' } });
  } else if (message.method === 'session/prompt') {
    promptId = message.id;
    ask();
  } else if (typeof message.id === 'string' && message.id.startsWith('ask-')) {
    bench.write(JSON.stringify({ heard: asked, at: now(), outcome: message.result?.outcome }) + '\n');
    asked += 1;
    if (asked < asks) {
      ask();
    } else {
      send({ id: promptId, result: { stopReason: 'end_turn' } });
    }
  }
});
process.on('SIGTERM', () => process.exit(0));
