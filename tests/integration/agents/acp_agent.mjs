// A scripted agent that speaks the Agent Client Protocol on its stdio, as
// OpenCode (`opencode acp`) does, for the tests of mission's ACP client.
// It writes what the client sent into its working directory (session.json,
// prompt.txt, chosen.txt) for the test to read, and plays one turn:
//   permission (default): two message chunks, a tool call that asks
//     permission to run `touch made`, makes the file when allowed, a plan,
//     then end_turn.
//   hostile: before answering session/new, a line past mission's limit, a
//     line that is not JSON and a response to a request never made; then a
//     turn with one message and end_turn.
//   error: answers session/prompt with a JSON-RPC error.
//   steer: stays up across turns and writes each prompt it gets to
//     prompts.json (overlap.txt if one comes while a turn runs). Turn 1
//     asks permission to run `touch made`, then states its usage and ends
//     on a question; turn 2 asks permission again, then states more usage
//     and ends; any later turn says "Noted." and ends.
//   task: as a workflow run's agent, writes the prompt it got to
//     $MISSION_TASK_NAME.txt, says done and ends its turn with its usage.
//   spend: as a workflow run's agent that keeps working: its turn states a
//     cost $0.10 higher every 20 ms and never ends by itself; on
//     session/cancel it notes it in order.txt and ends the turn cancelled.
//     Given a prompt that says its last attempt stopped at its budget, it
//     writes $MISSION_TASK_NAME.txt and ends its turn at once instead.
//   hang: starts its turn and never ends it by itself; it writes what it
//     hears to order.txt, a line for session/cancel (the turn then ends
//     cancelled) and one for SIGTERM.
//   policy: asks three permissions one after another, each once the last
//     is answered, and notes each answer in decisions.txt (NAME: optionId):
//     rm (execute `rm -rf scratch`, as rawInput.command), notes (edit
//     notes.md, written when allowed) and status (execute `git status`);
//     then, as a workflow run's agent, writes $MISSION_TASK_NAME.txt and
//     ends its turn.
//   confined FOLDER: tries to write FOLDER (say, the main checkout), HOME
//     and its own state folder (XDG_CONFIG_HOME), notes each outcome in
//     outcomes.txt in its working directory (NAME: written or refused),
//     then end_turn.
// Node's own modules only: it runs wherever the test suite's node does.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'permission';
const cwd = process.cwd();
let promptId = null;
let sessionId = 's-1';
const prompts = [];
let turns = 0;
let turnRunning = false;
let spending = null;

function send(message) {
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
}
function update(body) {
  send({ method: 'session/update', params: { sessionId, update: body } });
}
function endTurn(stopReason, usage) {
  turnRunning = false;
  send({ id: promptId, result: usage ? { stopReason, usage } : { stopReason } });
}
function say(text) {
  update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
}
function askPermission(id, title) {
  send({
    id, method: 'session/request_permission',
    params: {
      sessionId,
      toolCall: { toolCallId: id, title, kind: 'execute' },
      options: [
        { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
      ],
    },
  });
}
function cost(amount) {
  update({ sessionUpdate: 'usage_update', used: 1200, size: 200000, cost: { amount, currency: 'USD' } });
}

function playSteer() {
  turns += 1;
  if (turns === 1) askPermission('steer-1', 'touch made');
  else if (turns === 2) askPermission('steer-2', 'touch named');
  else {
    say('Noted.');
    endTurn('end_turn');
  }
}

function afterSteerPermission(id) {
  if (id === 'steer-1') {
    cost(0.25);
    say('Which name should the file have?');
    endTurn('end_turn', { totalTokens: 125, inputTokens: 100, outputTokens: 20, cachedReadTokens: 5 });
  } else {
    cost(0.4);
    say('Made it.');
    endTurn('end_turn', { totalTokens: 60, inputTokens: 50, outputTokens: 10 });
  }
}

function record(line) {
  appendFileSync(join(cwd, 'order.txt'), line + '\n');
}

function playPermission() {
  update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'I will ' } });
  update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'make a file.' } });
  update({
    sessionUpdate: 'tool_call', toolCallId: 't1', title: 'touch made', kind: 'execute',
    status: 'pending', locations: [{ path: join(cwd, 'made') }],
  });
  send({
    id: 'perm-1', method: 'session/request_permission',
    params: {
      sessionId,
      toolCall: { toolCallId: 't1', title: 'touch made', kind: 'execute' },
      options: [
        { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
      ],
    },
  });
}

const policyAsks = [
  { id: 'rm', title: 'rm -rf scratch', kind: 'execute', rawInput: { command: 'rm -rf scratch' } },
  { id: 'notes', title: 'Edit notes.md', kind: 'edit', locations: [{ path: join(cwd, 'notes.md') }] },
  { id: 'status', title: 'git status', kind: 'execute', rawInput: { command: 'git status' } },
];

function askPolicy(index) {
  const ask = policyAsks[index];
  send({
    id: `policy-${index}`, method: 'session/request_permission',
    params: {
      sessionId,
      toolCall: { toolCallId: ask.id, ...ask, id: undefined },
      options: [
        { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'allow-always', name: 'Always allow', kind: 'allow_always' },
        { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
      ],
    },
  });
}

function afterPolicy(index, outcome) {
  const chosen = outcome?.outcome === 'selected' ? outcome.optionId : 'cancelled';
  appendFileSync(join(cwd, 'decisions.txt'), `${policyAsks[index].id}: ${chosen}\n`);
  if (policyAsks[index].id === 'notes' && chosen === 'allow-once') {
    writeFileSync(join(cwd, 'notes.md'), 'noted\n');
  }
  if (index + 1 < policyAsks.length) {
    askPolicy(index + 1);
    return;
  }
  if (process.env.MISSION_TASK_NAME) {
    writeFileSync(join(cwd, `${process.env.MISSION_TASK_NAME}.txt`), 'done\n');
  }
  say('done');
  endTurn('end_turn');
}

function playConfined() {
  const places = {
    'main-checkout': join(process.argv[3], 'escaped.txt'),
    home: join(process.env.HOME ?? '/', 'escaped.txt'),
    'state-folder': join(process.env.XDG_CONFIG_HOME ?? join(process.env.HOME ?? '/', '.config'), 'acp-agent', 'settings.json'),
  };
  const outcomes = [];
  for (const [name, file] of Object.entries(places)) {
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, 'x');
      outcomes.push(`${name}: written`);
    } catch {
      outcomes.push(`${name}: refused`);
    }
  }
  writeFileSync(join(cwd, 'outcomes.txt'), `${outcomes.join('\n')}\n`);
  endTurn('end_turn');
}

function afterPermission(outcome) {
  const chosen = outcome?.outcome === 'selected' ? outcome.optionId : 'cancelled';
  writeFileSync(join(cwd, 'chosen.txt'), chosen);
  if (chosen === 'allow-once') {
    writeFileSync(join(cwd, 'made'), '');
    update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
  } else {
    update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed' });
  }
  update({
    sessionUpdate: 'plan',
    entries: [{ content: 'make the file', priority: 'high', status: 'completed' }],
  });
  endTurn('end_turn');
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'initialize') {
    send({ id: message.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
  } else if (message.method === 'session/new') {
    writeFileSync(join(cwd, 'session.json'), JSON.stringify(message.params));
    if (mode === 'hostile') {
      process.stdout.write('x'.repeat(4 * 1024 * 1024 + 16) + '\n');
      process.stdout.write('not json at all\n');
      send({ id: 999, result: {} });
    }
    send({ id: message.id, result: { sessionId } });
  } else if (message.method === 'session/prompt') {
    if (turnRunning) writeFileSync(join(cwd, 'overlap.txt'), JSON.stringify(message.params));
    turnRunning = true;
    promptId = message.id;
    prompts.push(message.params.prompt.map((b) => b.text).join(''));
    writeFileSync(join(cwd, 'prompts.json'), JSON.stringify(prompts));
    writeFileSync(join(cwd, 'prompt.txt'), message.params.prompt.map((b) => b.text).join(''));
    if (mode === 'error') {
      send({ id: message.id, error: { code: -32603, message: 'the model is unreachable' } });
    } else if (mode === 'steer') {
      playSteer();
    } else if (mode === 'task') {
      writeFileSync(join(cwd, `${process.env.MISSION_TASK_NAME}.txt`), prompts[0]);
      say('done');
      endTurn('end_turn', { totalTokens: 10, inputTokens: 7, outputTokens: 3 });
    } else if (mode === 'spend') {
      if (prompts[0].includes('stopped at its budget')) {
        writeFileSync(join(cwd, `${process.env.MISSION_TASK_NAME}.txt`), 'done\n');
        say('done');
        endTurn('end_turn', { totalTokens: 12, inputTokens: 10, outputTokens: 2 });
      } else {
        let spent = 0;
        spending = setInterval(() => {
          spent += 0.1;
          cost(Math.round(spent * 10) / 10);
        }, 20);
      }
    } else if (mode === 'hang') {
      say('Working on it');
    } else if (mode === 'confined') {
      playConfined();
    } else if (mode === 'policy') {
      askPolicy(0);
    } else if (mode === 'hostile') {
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'done' } });
      endTurn('end_turn');
    } else {
      playPermission();
    }
  } else if (typeof message.id === 'string' && message.id.startsWith('policy-')) {
    afterPolicy(Number(message.id.slice('policy-'.length)), message.result?.outcome);
  } else if (message.id === 'perm-1') {
    afterPermission(message.result?.outcome);
  } else if (message.id === 'steer-1' || message.id === 'steer-2') {
    afterSteerPermission(message.id);
  } else if (message.method === 'session/cancel') {
    record('session/cancel');
    if (mode === 'hang') endTurn('cancelled');
    if (mode === 'spend') {
      clearInterval(spending);
      endTurn('cancelled');
    }
  }
});
// The client tells it to finish with SIGTERM once the session is over.
process.on('SIGTERM', () => {
  if (mode === 'hang') record('SIGTERM');
  process.exit(0);
});
