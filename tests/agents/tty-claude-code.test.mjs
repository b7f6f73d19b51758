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

import { check, dump, main, mission, sandbox, tail } from './lib/harness.mjs';
import { scriptedModelApi } from './lib/scripted_model.mjs';
import { interactiveSession, skipClaudeFirstRun } from './lib/tty.mjs';
import { agentSetup } from './lib/workflow.mjs';

const ANSWER = 'Hello from the scripted model, on the daemon terminal.';

await main("Claude Code runs interactively on mission's terminal", 120000, async () => {
  const sb = sandbox('tty-claude');
  const api = await scriptedModelApi(() => ({ text: ANSWER }));
  const setup = agentSetup('claude-code', sb, api.url);
  skipClaudeFirstRun(sb, setup.env.ANTHROPIC_API_KEY);

  const run = await interactiveSession(sb, {
    agent: 'Claude Code', adapter: 'claude-code', env: setup.env,
    headless: ['-p', '--print', '--output-format='],
    banner: /Claude Code v\d/, bannerWhat: '"Claude Code vX"', firstScreenMs: 40000,
    answer: ANSWER,
    quit: { type: '/exit' },
    ended: (ex) => ex.state === 'completed' && ex.exitCode === 0, endedWhat: 'completes with exit 0',
  });
  let ok = run.ok;
  ok &= check(/❯/.test(run.first.text), "...with Claude Code's prompt", tail(run.first.text, 2500));

  // The log is the terminal stream made text: the cursor moves Claude Code
  // draws gaps with are spaces again, so its words read as on the screen.
  const logs = mission(sb, ['exec', 'logs', run.id, '--limit', '10000']);
  ok &= check(logs.includes('Claude Code') && logs.includes(ANSWER) && logs.includes('/exit') &&
              !logs.includes('\x1b'),
              'mission exec logs gives the session (the banner, the answer, /exit) as text, escape sequences gone',
              tail(JSON.stringify(logs), 2000));
  if (!ok) dump('claude on the daemon terminal', null, run.ex, api);
});
