// `mission run --adapter opencode`: the adapter writes a config holding
// mission's server and names it with OPENCODE_CONFIG, and the real
// `opencode run` connects through the bridge, lists mission's tools, offers
// them to the model, and fails on the stub API's 401; its execution ends
// failed. The stub provider lives in the user's global config, which
// OpenCode merges with the adapter's. Then `mission mcp config --adapter
// opencode` pasted as the user's own config, with the token in opencode's
// environment ({env:MISSION_MCP_TOKEN}).

import {
  agentBinary, check, dump, fakeModelApi, main, runAgent, sandbox, MISSION_TOOLS,
} from './lib/harness.mjs';
import { checkLaunch, checkPastedConfig, launchThroughMission } from './lib/launch.mjs';
import { agentSetup } from './lib/workflow.mjs';

const CLIENT_NAME = 'opencode'; // clientInfo.name OpenCode 1.18.x sends
const RUN_TIMEOUT_MS = 50000;

await main('mission run --adapter opencode connects OpenCode through the bridge', 110000, async () => {
  const opencode = agentBinary('opencode');
  const sb = sandbox('run-opencode');
  const api = await fakeModelApi();
  // The stub provider in the user's global config, OpenCode kept offline.
  const { env } = agentSetup('opencode', sb, api.url);
  const result = await launchThroughMission(sb, 'mission run opencode', {
    adapter: 'opencode', bin: opencode, args: ['run', '--pure', 'say hi'], timeoutMs: RUN_TIMEOUT_MS, env,
  });

  let ok = checkLaunch('opencode', sb, result, {
    adapter: 'opencode', delivery: 'mcp-tool', clientName: CLIENT_NAME,
    error: /invalid x-api-key|API key|401|authentication|Unauthorized/i, timeoutMs: RUN_TIMEOUT_MS,
  });
  const sent = api.requests.filter((r) => r.url.startsWith('/v1/messages'));
  const withTools = sent.find((r) => r.body.includes('"mission_progress"'));
  const missing = MISSION_TOOLS.filter((t) => !(withTools && withTools.body.includes(`"mission_${t}"`)));
  ok &= check(sent.length >= 1 && missing.length === 0,
              `its model request offers all ${MISSION_TOOLS.length} mission tools (mission_*)`,
              missing.length ? `missing: ${missing.join(', ')}` : undefined);
  if (!ok) dump('mission run opencode', result.run, result.ex, api);

  await checkPastedConfig('opencode', sb, 'opencode', CLIENT_NAME, 'opencode.json', (file, token) =>
    runAgent('opencode (pasted config)', opencode, ['run', '--pure', 'say hi'],
             { cwd: sb.work, timeoutMs: RUN_TIMEOUT_MS,
               env: { ...env, OPENCODE_CONFIG: file, MISSION_MCP_TOKEN: token } }));
});
