// Claude Code's permission menu on the daemon's terminal, in the inbox:
// interactive Claude Code without skip-permissions (`mission run --tty
// --detach --adapter claude-code`), the scripted model asks for a Bash call
// (`touch made-by-claude`), Claude Code draws its "Do you want to proceed?"
// menu, `mission inbox --json` lists it as detected from the screen with
// its options, `mission answer ID --choice 1` picks "Yes", the file appears
// in the work dir and the inbox is empty again.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { check, dump, log, main, mission, missionPath, sandbox, showExecution, tail } from './lib/harness.mjs';
import { scriptedModelApi } from './lib/scripted_model.mjs';
import { screen, skipClaudeFirstRun, terminalEnv, waitScreen } from './lib/tty.mjs';
import { agentSetup } from './lib/workflow.mjs';

const FILE = 'made-by-claude';
const DONE = 'The file is made.';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The inbox's permission prompts are `prompts` (none before mission read them).
function inbox(sb) {
  const box = JSON.parse(mission(sb, ['--json', 'inbox']));
  return { ...box, prompts: box.prompts || [] };
}

// Polls until `pred(inbox)` holds or limitMs passes; the last inbox read.
async function waitInbox(sb, pred, limitMs) {
  const end = Date.now() + limitMs;
  let box = inbox(sb);
  while (!pred(box) && Date.now() < end) {
    await sleep(300);
    box = inbox(sb);
  }
  return box;
}

await main("Claude Code's permission menu on mission's terminal is answered from the inbox", 150000, async () => {
  const sb = sandbox('tty-permission');
  const api = await scriptedModelApi((c) => (c.calls.length === 0
    ? { tool: 'Bash', input: { command: `touch ${FILE}`, description: 'Make the file' } }
    : { text: DONE }));
  const setup = agentSetup('claude-code', sb, api.url);
  skipClaudeFirstRun(sb, setup.env.ANTHROPIC_API_KEY);

  // Claude Code's default mode is auto, which answers such prompts itself:
  // the mode that asks is asked for.
  const id = mission(sb, ['run', '--tty', '--detach', '--adapter', 'claude-code', '--',
                          '--permission-mode', 'default'],
                     { env: terminalEnv(setup.env) }).trim();
  log(`execution ${id} launched on a terminal`);
  let ok = true;
  const first = await waitScreen(sb, id, /Claude Code v\d/, 40000);
  ok &= check(first.ok, "Claude Code's first screen is drawn", tail(first.text, 2500));
  if (!first.ok) return;
  ok &= check(inbox(sb).prompts.length === 0, 'before the model asks, no prompt is in the inbox');

  mission(sb, ['send', id, `make the file ${FILE}`]);
  const menu = await waitScreen(sb, id, /Do you want to proceed\?/, 45000);
  ok &= check(menu.ok, "the model's Bash call brings up Claude Code's permission menu", tail(menu.text, 2500));
  if (process.env.MISSION_CAPTURE_SCREEN) {
    // The screen's rows, as the repaint draws them one by one.
    const raw = spawnSync(missionPath(), ['attach', '--read-only', id], {
      env: sb.env, cwd: sb.work, encoding: 'utf8', timeout: 2000, killSignal: 'SIGTERM' }).stdout;
    fs.writeFileSync(process.env.MISSION_CAPTURE_SCREEN, raw);
  }

  let box = await waitInbox(sb, (b) => b.prompts.some((p) => p.agentExecutionId === id), 20000);
  const prompt = box.prompts.find((p) => p.agentExecutionId === id);
  ok &= check(prompt && prompt.detected === true && /Do you want to proceed\?/.test(prompt.question) &&
              prompt.options.length >= 2 && /^Yes/.test(prompt.options[0]),
              'mission inbox --json lists the menu, detected from the screen, with its question and options',
              JSON.stringify(box));
  const ex = showExecution(sb, id);
  ok &= check(ex.awaitingPermission && ex.awaitingPermission.detected === true,
              'mission exec show says it awaits permission (detected from its screen)', JSON.stringify(ex));
  const text = mission(sb, ['inbox']);
  ok &= check(/detected/.test(text) && text.includes(`mission answer ${id} --choice`),
              'mission inbox shows it as detected, with the command that answers it', text);
  if (!prompt) return;

  mission(sb, ['answer', id, '--choice', '1']);
  const made = path.join(sb.work, FILE);
  const end = Date.now() + 45000;
  while (!fs.existsSync(made) && Date.now() < end) await sleep(300);
  ok &= check(fs.existsSync(made), `mission answer --choice 1 lets the command run: ${FILE} is in the work dir`,
              tail(screen(sb, id), 2500));
  box = await waitInbox(sb, (b) => b.prompts.length === 0, 20000);
  ok &= check(box.prompts.length === 0, 'the inbox is empty again once the menu has left the screen', JSON.stringify(box));

  const again = (() => {
    try { mission(sb, ['answer', id, '--choice', '1']); return null; } catch (e) { return String(e.message); }
  })();
  ok &= check(again !== null && /no permission prompt|not waiting/.test(again),
              'answering again is refused: no prompt is on the screen any more', again);
  if (!ok) dump('claude permission menu', null, showExecution(sb, id), api);
});
