// OpenCode interactive on the daemon's terminal: `mission run --tty
// --detach --adapter opencode -- --pure` (its TUI, not `opencode run`), the
// scripted model stub as its Anthropic API. `mission attach --read-only`
// repaints OpenCode's own first screen (its logo and the "Ask anything"
// prompt), `mission send` types a prompt and Enter, the model's answer
// appears on the screen, `mission send ID /exit` makes OpenCode exit, and
// the execution completes with it.
//
// The global opencode.json (lib/workflow.mjs) names the stub as the
// Anthropic provider's baseURL; `--pure` and the OPENCODE_DISABLE_* variables
// keep it from fetching plugins, models or updates. Its first start builds
// its database and asks the terminal for its capabilities: the first screen
// takes 10-20 s.

import { dump, main, sandbox } from './lib/harness.mjs';
import { scriptedModelApi } from './lib/scripted_model.mjs';
import { interactiveSession } from './lib/tty.mjs';
import { agentSetup } from './lib/workflow.mjs';

const ANSWER = 'Hello from the scripted model, on the daemon terminal.';

await main("OpenCode runs interactively on mission's terminal", 170000, async () => {
  const sb = sandbox('tty-opencode');
  const api = await scriptedModelApi(() => ({ text: ANSWER }));
  const setup = agentSetup('opencode', sb, api.url);

  const run = await interactiveSession(sb, {
    agent: 'OpenCode', adapter: 'opencode', env: setup.env, args: setup.args,
    headless: ['run', '--format', '--format='],
    banner: /Ask anything/, bannerWhat: 'its "Ask anything" prompt', firstScreenMs: 90000,
    answer: ANSWER,
    quit: { type: '/exit' },
    ended: (ex) => ex.state === 'completed' && ex.exitCode === 0, endedWhat: 'completes with exit 0',
  });
  if (!run.ok) dump('opencode on the daemon terminal', null, run.ex, api);
});
