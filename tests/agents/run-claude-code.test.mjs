// `mission run --adapter claude-code`: the adapter writes Claude Code's MCP
// config (--mcp-config FILE --strict-mcp-config), and the real `claude -p`
// connects through the bridge, lists mission's tools, offers them to the
// model, and fails on the stub API's 401; its execution ends failed.
// Then the config `mission mcp config --adapter claude-code` prints, pasted
// as is, with the token in claude's environment (${MISSION_MCP_TOKEN}).

import {
  agentBinary, check, dump, fakeModelApi, main, runAgent, sandbox, MISSION_TOOLS,
} from './lib/harness.mjs';
import { checkLaunch, checkPastedConfig, launchThroughMission } from './lib/launch.mjs';

const CLIENT_NAME = 'claude-code'; // clientInfo.name Claude Code 2.1.x sends
const RUN_TIMEOUT_MS = 45000;

await main('mission run --adapter claude-code connects Claude Code through the bridge', 100000, async () => {
  const claude = agentBinary('claude');
  const sb = sandbox('run-claude');
  const api = await fakeModelApi();

  // Nothing about MCP here: the adapter provides it (MCP_CONNECTION_NONBLOCKING
  // included).
  const env = {
    ...sb.env,
    ANTHROPIC_API_KEY: 'sk-ant-mission-test-dummy',
    ANTHROPIC_BASE_URL: api.url,
    CLAUDE_CODE_MAX_RETRIES: '0',
    MCP_TIMEOUT: '30000',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  const result = await launchThroughMission(sb, 'mission run claude', {
    adapter: 'claude-code',
    bin: claude,
    args: ['-p', 'say hi', '--bare', '--no-session-persistence'],
    timeoutMs: RUN_TIMEOUT_MS,
    env,
  });

  let ok = checkLaunch('claude', sb, result, {
    adapter: 'claude-code', delivery: 'mcp-tool', clientName: CLIENT_NAME,
    error: /invalid x-api-key|API key|401|authentication/i, timeoutMs: RUN_TIMEOUT_MS,
  });
  const sent = api.requests.find((r) => r.url.startsWith('/v1/messages'));
  const missing = MISSION_TOOLS.filter((t) => !(sent && sent.body.includes(`"mcp__mission__${t}"`)));
  ok &= check(Boolean(sent) && missing.length === 0,
              `its model request offers all ${MISSION_TOOLS.length} mission tools (mcp__mission__*)`,
              missing.length ? `missing: ${missing.join(', ')}` : undefined);
  if (!ok) dump('mission run claude', result.run, result.ex, api);

  await checkPastedConfig('claude', sb, 'claude-code', CLIENT_NAME, 'pasted.mcp.json', (file, token) =>
    runAgent('claude (pasted config)', claude,
             ['-p', 'say hi', '--bare', '--no-session-persistence', '--mcp-config', file, '--strict-mcp-config'],
             { cwd: sb.work, timeoutMs: RUN_TIMEOUT_MS,
               env: { ...env, MCP_CONNECTION_NONBLOCKING: 'false', MISSION_MCP_TOKEN: token } }));
});
