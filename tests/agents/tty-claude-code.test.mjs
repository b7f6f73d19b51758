// Claude Code interactive on the daemon's terminal: `mission run --tty
// --detach --adapter claude-code` (no -p), the scripted model stub as its
// API. `mission attach --read-only` repaints its screen (Claude Code's own
// UI), `mission send` types a prompt and Enter, the model's answer appears
// on the screen, `mission send ID /exit` makes Claude Code exit, and the
// execution ends with it. `mission exec logs` gives the output as text
// without escape sequences.
//
// The sandbox's ~/.claude.json says onboarding is done, the work dir is
// trusted and the dummy key is approved, so no first-run dialog waits.

import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import {
  check, dump, log, main, mission, missionPath, sandbox, showExecution, stripAnsi, tail,
} from './lib/harness.mjs';
import { scriptedModelApi } from './lib/scripted_model.mjs';
import { agentSetup } from './lib/workflow.mjs';

const ANSWER = 'Hello from the scripted model, on the daemon terminal.';
const FINAL = ['completed', 'failed', 'cancelled', 'lost'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The screen as `mission attach --read-only` repaints it, escape sequences
// dropped. Read-only attach runs until stopped: it gets 2 s.
function screen(sb, id) {
  const r = spawnSync(missionPath(), ['attach', '--read-only', id], {
    env: sb.env, cwd: sb.work, encoding: 'utf8', timeout: 2000, killSignal: 'SIGTERM',
  });
  // eslint-disable-next-line no-control-regex
  return stripAnsi(r.stdout || '').replace(/\x1b[\]P^_][^\x07\x1b]*(\x07|\x1b\\)?|\x1b[()][A-Z0-9]|\x1b[=>78]/g, '');
}

async function waitScreen(sb, id, re, limitMs) {
  const end = Date.now() + limitMs;
  let text = '';
  while (Date.now() < end) {
    text = screen(sb, id);
    if (re.test(text)) return { ok: true, text };
    await sleep(500);
  }
  return { ok: false, text };
}

await main("Claude Code runs interactively on mission's terminal", 120000, async () => {
  const sb = sandbox('tty-claude');
  const api = await scriptedModelApi(() => ({ text: ANSWER }));
  const setup = agentSetup('claude-code', sb, api.url);
  const key = setup.env.ANTHROPIC_API_KEY;
  fs.writeFileSync(path.join(sb.home, '.claude.json'), JSON.stringify({
    hasCompletedOnboarding: true,
    theme: 'dark',
    customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] },
    projects: { [sb.work]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  }));
  const env = { ...setup.env, TERM: 'xterm-256color' };
  delete env.NO_COLOR;

  const id = mission(sb, ['run', '--tty', '--detach', '--adapter', 'claude-code'], { env }).trim();
  if (!/^ae-[a-z0-9]+$/.test(id)) throw new Error(`no execution from mission run (got ${id})`);
  log(`execution ${id} launched on a terminal`);
  let ex = showExecution(sb, id);
  let ok = true;
  const command = Array.isArray(ex.command) ? ex.command : [];
  ok &= check(command.length > 0 && !command.some((w) => w === '-p' || w.startsWith('--output-format')),
              'on a terminal the adapter launches Claude Code interactively (no -p, no stream-json)',
              JSON.stringify(command));

  const first = await waitScreen(sb, id, /Claude Code v\d/, 40000);
  ok &= check(first.ok, 'mission attach --read-only repaints Claude Code\'s own screen ("Claude Code vX")',
              tail(first.text, 2500));
  ok &= check(/❯/.test(first.text), '...with its prompt', tail(first.text, 2500));

  mission(sb, ['send', id, 'say hello']);
  const answered = await waitScreen(sb, id, new RegExp(ANSWER.slice(0, 30)), 30000);
  ok &= check(answered.ok, 'a prompt typed with mission send reaches the model, and its answer is on the screen',
              tail(answered.text, 2500));

  ex = showExecution(sb, id);
  ok &= check(ex.state === 'running', `Claude Code waits for more, its execution running (state ${ex.state})`);

  mission(sb, ['send', id, '/exit']);
  const end = Date.now() + 20000;
  while (!FINAL.includes((ex = showExecution(sb, id)).state) && Date.now() < end) await sleep(300);
  ok &= check(ex.state === 'completed' && ex.exitCode === 0,
              `/exit typed with mission send ends Claude Code, and the execution with it (state ${ex.state}, ` +
              `exit ${ex.exitCode ?? ex.exitSignal})`);

  // The log is the terminal stream made text: the cursor moves Claude Code
  // draws gaps with are spaces again, so its words read as on the screen.
  const logs = mission(sb, ['exec', 'logs', id, '--limit', '10000']);
  ok &= check(logs.includes('Claude Code') && logs.includes(ANSWER) && logs.includes('/exit') &&
              !logs.includes('\x1b'),
              'mission exec logs gives the session (the banner, the answer, /exit) as text, escape sequences gone',
              tail(JSON.stringify(logs), 2000));
  if (!ok) dump('claude on the daemon terminal', null, ex, api);
});
