// An agent CLI interactive on the daemon's terminal, as a person runs it:
// `mission run --tty --detach --adapter A` (no headless flags), its screen
// read with `mission attach --read-only`, a prompt typed with `mission
// send`, the scripted model's answer on the screen, then the CLI ended and
// the execution final. The tty-*.test.mjs scripts give what differs: the
// CLI's first-run settings, the string its first screen draws, how it quits.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { check, log, mission, missionPath, showExecution, tail } from './harness.mjs';

export const FINAL = ['completed', 'failed', 'cancelled', 'lost'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/// Claude Code's first run done in the sandbox's ~/.claude.json: onboarding
/// finished, the work dir trusted and the dummy key `key` approved, so no
/// first-run dialog waits on its terminal.
export function skipClaudeFirstRun(sb, key) {
  fs.writeFileSync(path.join(sb.home, '.claude.json'), JSON.stringify({
    hasCompletedOnboarding: true,
    theme: 'dark',
    customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] },
    projects: { [sb.work]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  }));
}

/// An agent's environment for a terminal: a TERM that draws, colours on.
export function terminalEnv(env) {
  const out = { ...env, TERM: 'xterm-256color' };
  delete out.NO_COLOR;
  return out;
}

/// The screen as `mission attach --read-only` repaints it, escape sequences
/// dropped. With stdin not a terminal the viewer watches until stopped: it
/// gets 2 s.
export function screen(sb, id) {
  const r = spawnSync(missionPath(), ['attach', '--read-only', id], {
    env: sb.env, cwd: sb.work, encoding: 'utf8', timeout: 2000, killSignal: 'SIGTERM',
  });
  return String(r.stdout || '')
    // eslint-disable-next-line no-control-regex
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]P^_][^\x07\x1b]*(\x07|\x1b\\)?|\x1b[()][A-Z0-9]|\x1b[=>78]/g, '');
}

/// Reads the screen until `re` is on it or limitMs passes.
export async function waitScreen(sb, id, re, limitMs) {
  const end = Date.now() + limitMs;
  let text = '';
  while (Date.now() < end) {
    text = screen(sb, id);
    if (re.test(text)) return { ok: true, text };
    await sleep(500);
  }
  return { ok: false, text };
}

/// Polls exec show until the execution is final or limitMs passes.
export async function waitFinal(sb, id, limitMs) {
  const end = Date.now() + limitMs;
  let ex = showExecution(sb, id);
  while (!FINAL.includes(ex.state) && Date.now() < end) {
    await sleep(300);
    ex = showExecution(sb, id);
  }
  return ex;
}

/// The whole course, checked step by step. `agent` names the CLI in the
/// checks; `headless` lists words (or prefixes, ending in '=') its
/// one-shot mode takes, none of which may be in the command; `banner` is a
/// string of the CLI's own first screen; `answer` the model's text, or null
/// where the CLI cannot reach the model; `quit` what ends it: words typed
/// with `mission send` ({ type }), or `mission exec stop` ({ stop: true });
/// `ended(ex)` says whether the execution ended as it should. Returns
/// { id, ex, ok, first, answered }.
export async function interactiveSession(sb, {
  agent, adapter, env, args = [], headless, banner, bannerWhat, firstScreenMs = 60000, prompt = 'say hello',
  answer, quit, ended, endedWhat,
}) {
  const words = ['run', '--tty', '--detach', '--adapter', adapter, ...(args.length ? ['--', ...args] : [])];
  const id = mission(sb, words, { env: terminalEnv(env) }).trim();
  if (!/^ae-[a-z0-9]+$/.test(id)) throw new Error(`no execution from mission run (got ${id})`);
  log(`execution ${id} launched on a terminal: mission ${words.join(' ')}`);
  let ex = showExecution(sb, id);
  let ok = true;
  const command = Array.isArray(ex.command) ? ex.command : [];
  const oneShot = command.filter((w) => headless.some((h) => (h.endsWith('=') ? w.startsWith(h) : w === h)));
  ok &= check(command.length > 0 && oneShot.length === 0,
              `on a terminal the adapter launches ${agent} interactively (none of ${headless.join(' ')})`,
              JSON.stringify(command));

  const first = await waitScreen(sb, id, banner, firstScreenMs);
  ok &= check(first.ok, `mission attach --read-only repaints ${agent}'s own first screen (${bannerWhat})`,
              tail(first.text, 2500));
  // Nothing further can pass; the sandbox's cleanup stops the execution.
  if (!first.ok) return { id, ex, ok: false, first, answered: null };

  let answered = null;
  if (answer !== null) {
    mission(sb, ['send', id, prompt]);
    answered = await waitScreen(sb, id, new RegExp(answer.slice(0, 30)), 45000);
    ok &= check(answered.ok, 'a prompt typed with mission send reaches the model, and its answer is on the screen',
                tail(answered.text, 2500));
  }
  ex = showExecution(sb, id);
  ok &= check(ex.state === 'running', `${agent} waits for more, its execution running (state ${ex.state})`);

  if (quit.stop) {
    mission(sb, ['exec', 'stop', id]);
  } else {
    mission(sb, ['send', id, quit.type]);
  }
  ex = await waitFinal(sb, id, 30000);
  ok &= check(ended(ex), `${quit.stop ? 'mission exec stop' : `${quit.type} typed with mission send`} ends ` +
              `${agent}, and the execution ${endedWhat} (state ${ex.state}, exit ${ex.exitCode ?? ex.exitSignal})`);
  return { id, ex, ok: Boolean(ok), first, answered };
}
