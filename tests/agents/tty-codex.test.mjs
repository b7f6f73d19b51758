// Codex interactive on the daemon's terminal: `mission run --tty --detach
// --adapter codex` (no `exec`), the scripted model stub as its Responses
// API. `mission attach --read-only` repaints Codex's own first screen (its
// ">_ OpenAI Codex (vX)" box and prompt), `mission send` types a prompt and
// Enter, the model's answer appears on the screen, `mission send ID /quit`
// makes Codex exit, and the execution completes with it.
//
// Codex reads keys that arrive together as a paste, and an Enter among them
// as a newline in it: `mission send` presses Enter a moment after the text
// (kTypedEnterPauseMs), or the prompt would never be sent. CODEX_HOME's
// config.toml (lib/workflow.mjs) names the stub provider; this test adds the
// work dir as trusted and no update check, so no first-run dialog waits.

import fs from 'node:fs';
import path from 'node:path';
import { dump, main, sandbox } from './lib/harness.mjs';
import { scriptedModelApi } from './lib/scripted_model.mjs';
import { interactiveSession } from './lib/tty.mjs';
import { agentSetup } from './lib/workflow.mjs';

const ANSWER = 'Hello from the scripted model, on the daemon terminal.';

await main("Codex runs interactively on mission's terminal", 150000, async () => {
  const sb = sandbox('tty-codex');
  const api = await scriptedModelApi(() => ({ text: ANSWER }));
  const setup = agentSetup('codex', sb, api.url);
  // Root keys before the file's tables, the trusted project after them.
  const config = path.join(setup.env.CODEX_HOME, 'config.toml');
  fs.writeFileSync(config, ['check_for_update_on_startup = false', fs.readFileSync(config, 'utf8'),
                            `[projects.${JSON.stringify(sb.work)}]`, 'trust_level = "trusted"', ''].join('\n'));

  const run = await interactiveSession(sb, {
    agent: 'Codex', adapter: 'codex', env: setup.env,
    headless: ['exec', 'e', '--json'],
    banner: /OpenAI Codex \(v\d/, bannerWhat: '">_ OpenAI Codex (vX)"',
    answer: ANSWER,
    quit: { type: '/quit' },
    ended: (ex) => ex.state === 'completed' && ex.exitCode === 0, endedWhat: 'completes with exit 0',
  });
  if (!run.ok) dump('codex on the daemon terminal', null, run.ex, api);
});
