// `mission run --detach --adapter pi`: Pi has no MCP client, so the adapter
// selects stdout-marker delivery, runs it in print mode and appends the
// marker instructions (with this execution's id) to its system prompt. The
// real `pi --print`, pointed at the stub API (its models.json overrides the
// anthropic provider's baseUrl), sends those instructions to the model and
// fails on the stub's 401; its execution ends failed.
//
// Then once more with a stub that answers like a model following those
// instructions (two marker lines, streamed): Pi prints them on stdout, the
// daemon records them, and the execution completes with its claim promoted.

import fs from 'node:fs';
import path from 'node:path';
import {
  agentBinary, check, dump, fakeModelApi, main, mission, sandbox, writePrivate,
} from './lib/harness.mjs';
import { checkLaunch, launchThroughMission } from './lib/launch.mjs';

const RUN_TIMEOUT_MS = 45000;

await main('mission run --adapter pi gives Pi the marker instructions', 100000, async () => {
  const pi = agentBinary('pi');
  const sb = sandbox('run-pi');
  const api = await fakeModelApi();
  const agentDir = path.join(sb.home, '.pi', 'agent');
  fs.mkdirSync(agentDir, { recursive: true });
  writePrivate(path.join(agentDir, 'models.json'),
               JSON.stringify({ providers: { anthropic: { baseUrl: api.url } } }, null, 2));

  const result = await launchThroughMission(sb, 'mission run pi', {
    adapter: 'pi',
    bin: pi,
    detach: true,
    args: ['--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--no-session',
           '--no-extensions', '--no-skills', '--no-context-files', 'say hi'],
    timeoutMs: RUN_TIMEOUT_MS,
    env: {
      ...sb.env,
      PI_CODING_AGENT_DIR: agentDir,
      PI_OFFLINE: '1',
      PI_TELEMETRY: '0',
      ANTHROPIC_API_KEY: 'sk-ant-mission-test-dummy',
    },
  });

  let ok = checkLaunch('pi', sb, result, {
    adapter: 'pi', delivery: 'stdout-marker', clientName: null,
    error: /invalid x-api-key|API key|401|authentication/i, timeoutMs: RUN_TIMEOUT_MS,
  });
  const sent = api.requests.find((r) => r.body.includes('@agent-execution::'));
  ok &= check(Boolean(sent), 'its model request carries the marker instructions');
  ok &= check(Boolean(sent && sent.body.includes(`agentExecutionId is always ${result.id}`)),
              `...naming this execution (${result.id})`);
  if (!ok) dump('mission run pi', result.run, result.ex, api);

  // 2. A model that reports through markers.
  const marker = (id, eventId, signal) =>
    `@agent-execution::${JSON.stringify({ version: 1, agentExecutionId: id, eventId, signal })}`;
  const following = await fakeModelApi({
    respond: (request) => {
      const named = /agentExecutionId is always (ae-[a-z0-9]+)/.exec(request.body);
      if (!named) return undefined;
      const text = `${marker(named[1], 'p1', { type: 'progress', summary: 'said hi' })}\n` +
                   `${marker(named[1], 'c1', { type: 'completed_claim', summary: 'greeted' })}\n`;
      return { status: 200, headers: { 'content-type': 'text/event-stream' }, body: anthropicStream(text) };
    },
  });
  writePrivate(path.join(agentDir, 'models.json'),
               JSON.stringify({ providers: { anthropic: { baseUrl: following.url } } }, null, 2));
  const second = await launchThroughMission(sb, 'mission run pi (markers)', {
    adapter: 'pi', bin: pi, detach: true, timeoutMs: RUN_TIMEOUT_MS,
    args: ['--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--no-session',
           '--no-extensions', '--no-skills', '--no-context-files', 'say hi'],
    env: { ...sb.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1', PI_TELEMETRY: '0',
           ANTHROPIC_API_KEY: 'sk-ant-mission-test-dummy' },
  });
  const signals = JSON.parse(mission(sb, ['--json', 'exec', 'signals', second.id])).observations;
  let ok2 = true;
  ok2 &= check(!second.timedOut && second.ex.state === 'completed',
               `with a model that prints markers, pi exits 0 and the execution completes (state ${second.ex.state})`);
  ok2 &= check(signals.length === 2 && signals.every((o) => o.origin === 'stdout-marker') &&
               signals[0].kind === 'progress' && signals[1].kind === 'completed_claim' &&
               signals[1].status === 'promoted',
               'both markers pi printed were recorded, and the claim promoted',
               JSON.stringify(signals, null, 1));
  if (!ok2) dump('mission run pi (markers)', second.run, second.ex, following);
});

// An Anthropic Messages stream (server-sent events) whose one text block is
// `text`.
function anthropicStream(text) {
  const events = [
    ['message_start', { type: 'message_start', message: { id: 'msg_mission_test', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 20 } }],
    ['message_stop', { type: 'message_stop' }],
  ];
  return events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}
