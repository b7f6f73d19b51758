// Copilot CLI interactive on the daemon's terminal: `mission run --tty
// --detach --adapter copilot` (no -p), with no GitHub sign-in: COPILOT_OFFLINE
// and the scripted model stub as a BYOK provider (lib/workflow.mjs).
// `mission attach --read-only` repaints Copilot's own first screen (its
// "Copilot vX" banner and prompt), `mission send` types a prompt and Enter,
// the model's answer appears on the screen, `mission send ID /exit` makes
// Copilot exit, and the execution completes with it.
//
// The sandbox's $COPILOT_HOME/config.json lists the work dir among the
// trusted folders: without it the first screen asks "Do you trust the
// files in this folder?".

import fs from 'node:fs';
import path from 'node:path';
import { dump, main, sandbox } from './lib/harness.mjs';
import { scriptedModelApi } from './lib/scripted_model.mjs';
import { interactiveSession } from './lib/tty.mjs';
import { agentSetup } from './lib/workflow.mjs';

const ANSWER = 'Hello from the scripted model, on the daemon terminal.';

await main("Copilot CLI runs interactively on mission's terminal", 150000, async () => {
  const sb = sandbox('tty-copilot');
  const api = await scriptedModelApi(() => ({ text: ANSWER }));
  const setup = agentSetup('copilot', sb, api.url);
  fs.mkdirSync(setup.env.COPILOT_HOME, { recursive: true });
  fs.writeFileSync(path.join(setup.env.COPILOT_HOME, 'config.json'),
                   JSON.stringify({ trustedFolders: [sb.work] }));

  const run = await interactiveSession(sb, {
    agent: 'Copilot CLI', adapter: 'copilot', env: setup.env, args: setup.args,
    headless: ['-p', '--prompt', '--prompt='],
    banner: /Copilot v\d/, bannerWhat: '"Copilot vX"',
    answer: ANSWER,
    quit: { type: '/exit' },
    ended: (ex) => ex.state === 'completed' && ex.exitCode === 0, endedWhat: 'completes with exit 0',
  });
  if (!run.ok) dump('copilot on the daemon terminal', null, run.ex, api);
});
