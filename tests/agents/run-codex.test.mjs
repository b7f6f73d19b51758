// `mission run --adapter codex`: the adapter adds one
// `-c mcp_servers.mission={...}` override (no file; the token reaches the
// bridge through codex's environment and `env_vars`), and the real
// `codex exec` connects through the bridge, lists mission's tools, and fails
// on the stub API's 401; its execution ends failed. Then the TOML table
// `mission mcp config --adapter codex` prints, pasted into
// $CODEX_HOME/config.toml, with the token in codex's environment.

import fs from 'node:fs';
import path from 'node:path';
import {
  agentBinary, check, dump, fakeModelApi, main, runAgent, sandbox,
} from './lib/harness.mjs';
import { checkLaunch, checkPastedConfig, launchThroughMission } from './lib/launch.mjs';

const CLIENT_NAME = 'codex-mcp-client'; // clientInfo.name Codex 0.169.x sends
const RUN_TIMEOUT_MS = 45000;

await main('mission run --adapter codex connects Codex through the bridge', 100000, async () => {
  const codex = agentBinary('codex');
  const sb = sandbox('run-codex');
  const api = await fakeModelApi();
  const codexHome = path.join(sb.home, '.codex');
  fs.mkdirSync(codexHome, { recursive: true });
  const provider = `model_providers.mission_stub={name="mission test stub",base_url="${api.url}/v1",` +
                   'env_key="OPENAI_API_KEY",wire_api="responses",request_max_retries=0,stream_max_retries=0}';

  const args = ['exec', '--skip-git-repo-check', '--ephemeral', '--color', 'never',
                '-c', 'model_provider="mission_stub"', '-c', provider, 'say hi'];
  const env = { ...sb.env, CODEX_HOME: codexHome, OPENAI_API_KEY: 'sk-mission-test-dummy' };
  const result = await launchThroughMission(sb, 'mission run codex', {
    adapter: 'codex', bin: codex, args, timeoutMs: RUN_TIMEOUT_MS, env,
  });

  let ok = checkLaunch('codex', sb, result, {
    adapter: 'codex', delivery: 'mcp-tool', clientName: CLIENT_NAME,
    error: /401|unauthorized|invalid_api_key|API key/i, timeoutMs: RUN_TIMEOUT_MS,
  });
  const sent = api.requests.find((r) => r.url.startsWith('/v1/responses'));
  ok &= check(Boolean(sent && sent.body.includes('mcp__mission')),
              'its model request names the mcp__mission tools');
  if (!ok) dump('mission run codex', result.run, result.ex, api);

  await checkPastedConfig('codex', sb, 'codex', CLIENT_NAME, 'config.toml', (file, token) => {
    fs.copyFileSync(file, path.join(codexHome, 'config.toml'));
    return runAgent('codex (pasted config)', codex, args,
                    { cwd: sb.work, timeoutMs: RUN_TIMEOUT_MS, env: { ...env, MISSION_MCP_TOKEN: token } });
  });
});
