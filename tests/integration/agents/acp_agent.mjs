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
//   confined FOLDER: tries to write FOLDER (say, the main checkout), HOME
//     and its own state folder (XDG_CONFIG_HOME), notes each outcome in
//     outcomes.txt in its working directory (NAME: written or refused),
//     then end_turn.
// Node's own modules only: it runs wherever the test suite's node does.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'permission';
const cwd = process.cwd();
let promptId = null;
let sessionId = 's-1';

function send(message) {
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
}
function update(body) {
  send({ method: 'session/update', params: { sessionId, update: body } });
}
function endTurn(stopReason) {
  send({ id: promptId, result: { stopReason } });
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
    promptId = message.id;
    writeFileSync(join(cwd, 'prompt.txt'), message.params.prompt.map((b) => b.text).join(''));
    if (mode === 'error') {
      send({ id: message.id, error: { code: -32603, message: 'the model is unreachable' } });
    } else if (mode === 'confined') {
      playConfined();
    } else if (mode === 'hostile') {
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'done' } });
      endTurn('end_turn');
    } else {
      playPermission();
    }
  } else if (message.id === 'perm-1') {
    afterPermission(message.result?.outcome);
  }
});
// The client tells it to finish with SIGTERM once the turn has ended.
process.on('SIGTERM', () => process.exit(0));
