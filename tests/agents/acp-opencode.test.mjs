// `mission run --adapter acp -- opencode acp`: the real OpenCode driven over
// the Agent Client Protocol, its model API the scripted stub
// (lib/scripted_model.mjs). The daemon opens the session with mission's
// bridge in mcpServers and sends the prompt; the script has the model call
// mission's progress tool, then OpenCode's bash tool, which OpenCode's
// config makes it ask permission for: the request is listed in `mission
// inbox` as reported by the agent, `mission answer --choice 1` allows it,
// the command runs, and the turn's end completes the execution.

import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import {
  agentBinary, check, inboxPrompts, log, main, mission, missionPath, sandbox, showExecution, tail, until,
} from './lib/harness.mjs';
import { logText } from './lib/launch.mjs';
import { scriptedModelApi } from './lib/scripted_model.mjs';
import { agentSetup, warmUp } from './lib/workflow.mjs';
import { FINAL } from './lib/tty.mjs';

const LIMIT_MS = 90000;
const PROMPT = 'Make the file named made, then say done.';

await main('mission run --adapter acp drives opencode acp through a permission', 120000, async () => {
  const sb = sandbox('acp-opencode');
  const api = await scriptedModelApi((conversation) => {
    if (!conversation.text.includes('Make the file named made')) return { text: 'ok' };
    const called = (re) => conversation.calls.some((c) => re.test(c.name));
    const progress = conversation.tools.find((t) => /mission_progress$/.test(t));
    if (progress && !called(/mission_progress$/)) {
      return { tool: progress, input: { message: 'making the file' } };
    }
    if (!called(/^bash$/)) {
      return { tool: 'bash', input: { command: 'touch made', description: 'Make the file' } };
    }
    return { text: 'done' };
  });
  const setup = agentSetup('opencode', sb, api.url);
  // Ask before any shell command: OpenCode sends the request over ACP.
  const globalConfig = path.join(sb.env.XDG_CONFIG_HOME, 'opencode', 'opencode.json');
  const config = JSON.parse(fs.readFileSync(globalConfig, 'utf8'));
  config.permission = { bash: 'ask' };
  fs.writeFileSync(globalConfig, JSON.stringify(config, null, 2));
  await warmUp('opencode', sb, setup);

  const env = { ...sb.env, ...setup.env };
  const started = Date.now();
  const launched = spawnSync(missionPath(), [
    'run', '--detach', '--adapter', 'acp', '--prompt', PROMPT, '--sandbox', 'off', '--cwd', sb.work,
    '--', agentBinary('opencode'), 'acp',
  ], { env, cwd: sb.work, encoding: 'utf8', timeout: 30000 });
  if (launched.status !== 0) throw new Error(`mission run failed: ${launched.stderr}`);
  const id = launched.stdout.trim();
  log(`execution ${id} launched`);

  let ok = true;
  let prompt = null;
  try {
    prompt = await until('the permission request in the inbox', LIMIT_MS,
                         () => inboxPrompts(sb).find((p) => p.agentExecutionId === id));
  } catch (err) {
    log(String(err));
  }
  ok &= check(prompt && prompt.detected === false && prompt.options.length >= 2,
              `mission inbox lists its permission request as reported (${JSON.stringify(prompt)})`);
  if (prompt) {
    const asked = Date.now();
    mission(sb, ['answer', id, '--choice', '1']);
    await until('the command to run', 30000, () => fs.existsSync(path.join(sb.work, 'made'))).catch(() => {});
    log(`answer to the command run: ${Date.now() - asked} ms`);
  }
  const ex = await until('the execution to end', LIMIT_MS, () => {
    const shown = showExecution(sb, id);
    return FINAL.includes(shown.state) ? shown : null;
  }).catch(() => showExecution(sb, id));
  log(`launch to ${ex.state}: ${Date.now() - started} ms`);
  ok &= check(fs.existsSync(path.join(sb.work, 'made')), 'the allowed command ran (made exists)');
  ok &= check(ex.state === 'completed', `the execution completed (${ex.state})`);
  ok &= check((ex.mcpSessions || []).some((s) => s.calls >= 1),
              'its mission tool call came over the bridge named in session/new',
              JSON.stringify(ex.mcpSessions));
  const signals = mission(sb, ['--json', 'exec', 'signals', id]);
  ok &= check(/"tool_call"/.test(signals) && /"permission_answer"/.test(signals),
              'its tool calls and the answer are observations');
  const logs = mission(sb, ['exec', 'logs', id]);
  ok &= check(/end_turn/.test(logs), 'exec logs shows the turn end');
  if (!ok) {
    log(`its log:\n${tail(logText(sb, id), 4000)}`);
    fs.writeFileSync(path.join(sb.root, 'model-exchanges.json'), JSON.stringify(api.exchanges, null, 1));
  }
});
