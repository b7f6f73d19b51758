// `mission run --detach --adapter copilot`: the adapter writes Copilot CLI's
// MCP config (--additional-mcp-config @FILE) and allows mission's tools
// (--allow-tool=mission), and the real `copilot -p`, pointed offline at the
// stub API as a BYOK provider (COPILOT_OFFLINE, COPILOT_PROVIDER_BASE_URL:
// no GitHub sign-in), connects through the bridge, lists mission's tools,
// offers them to the model, and fails on the stub's 401; its execution ends
// failed. Then `mission mcp config --adapter copilot` pasted as
// $COPILOT_HOME/mcp-config.json, with the token in copilot's environment.

import fs from 'node:fs';
import path from 'node:path';
import {
  agentBinary, check, dump, fakeModelApi, main, runAgent, sandbox, MISSION_TOOLS,
} from './lib/harness.mjs';
import { checkLaunch, checkPastedConfig, launchThroughMission } from './lib/launch.mjs';

const CLIENT_NAME = 'copilot-cli'; // clientInfo.name Copilot CLI 1.0.x sends
const RUN_TIMEOUT_MS = 50000;

await main('mission run --adapter copilot connects Copilot CLI through the bridge', 110000, async () => {
  const copilot = agentBinary('copilot');
  const sb = sandbox('run-copilot');
  const api = await fakeModelApi();

  const copilotHome = path.join(sb.home, '.copilot');
  const env = {
    ...sb.env,
    COPILOT_HOME: copilotHome,
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_BASE_URL: `${api.url}/v1`,
    COPILOT_PROVIDER_API_KEY: 'sk-mission-test-dummy',
    COPILOT_MODEL: 'gpt-4o',
  };
  const args = ['-p', 'say hi', '--no-auto-update', '--no-custom-instructions', '--disable-builtin-mcps',
                '--log-dir', path.join(sb.root, 'copilot-logs')];
  const result = await launchThroughMission(sb, 'mission run copilot', {
    adapter: 'copilot',
    bin: copilot,
    detach: true,
    args,
    timeoutMs: RUN_TIMEOUT_MS,
    env,
  });

  let ok = checkLaunch('copilot', sb, result, {
    adapter: 'copilot', delivery: 'mcp-tool', clientName: CLIENT_NAME,
    error: /Authentication failed|401/i, timeoutMs: RUN_TIMEOUT_MS,
  });
  const sent = api.requests.find((r) => r.url.startsWith('/v1/chat/completions'));
  const missing = MISSION_TOOLS.filter((t) => !(sent && new RegExp(`"mission[-_]+${t}"`).test(sent.body)));
  ok &= check(Boolean(sent) && missing.length === 0,
              `its model request offers all ${MISSION_TOOLS.length} mission tools`,
              missing.length ? `missing: ${missing.join(', ')}` : undefined);
  if (!ok) dump('mission run copilot', result.run, result.ex, api);

  fs.mkdirSync(copilotHome, { recursive: true });
  await checkPastedConfig('copilot', sb, 'copilot', CLIENT_NAME, 'mcp-config.json', (file, token) => {
    fs.copyFileSync(file, path.join(copilotHome, 'mcp-config.json'));
    return runAgent('copilot (pasted config)', copilot, args,
                    { cwd: sb.work, timeoutMs: RUN_TIMEOUT_MS, env: { ...env, MISSION_MCP_TOKEN: token } });
  });
});
