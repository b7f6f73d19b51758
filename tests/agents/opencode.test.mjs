// OpenCode (opencode-ai) reaches mission's MCP server through
// `mission mcp connect --agent-execution ID` and lists its tools, both in
// `opencode mcp list` and in `opencode run`.
//
// The config comes only from OPENCODE_CONFIG (project config is disabled);
// its anthropic provider points at a local stub that answers 401, so
// `opencode run` fails after its first model request: expected.

import path from 'node:path';
import {
  agentBinary, bridgeServer, check, createExecution, dump, fakeModelApi, log, main,
  runAgent, sandbox, sessionsOf, showExecution, MISSION_TOOLS, stripAnsi, waitDetached,
  writePrivate,
} from './lib/harness.mjs';

const CLIENT_NAME = 'opencode'; // clientInfo.name OpenCode 1.18.x sends
const LIST_TIMEOUT_MS = 50000;
const RUN_TIMEOUT_MS = 80000;

await main('OpenCode lists mission\'s tools through the bridge', 170000, async () => {
  const opencode = agentBinary('opencode');
  const sb = sandbox('opencode');
  const api = await fakeModelApi();
  const exec = createExecution(sb);

  const server = bridgeServer(sb, exec);
  const configFile = writePrivate(path.join(sb.cfg, 'opencode-mission.json'), JSON.stringify({
    $schema: 'https://opencode.ai/config.json',
    mcp: {
      mission: {
        type: 'local',
        command: [server.command, ...server.args],
        environment: server.env,
        enabled: true,
      },
    },
    provider: { anthropic: { options: { baseURL: `${api.url}/v1` } } },
    autoupdate: false,
    share: 'disabled',
  }, null, 2));

  const env = {
    ...sb.env,
    OPENCODE_CONFIG: configFile,
    OPENCODE_DISABLE_PROJECT_CONFIG: '1',
    OPENCODE_DISABLE_CLAUDE_CODE: '1',      // do not read ~/.claude or CLAUDE.md
    OPENCODE_DISABLE_MODELS_FETCH: '1',     // use the bundled models list, offline
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
    ANTHROPIC_API_KEY: 'sk-ant-mission-test-dummy',
  };
  let ok = true;

  // 1. opencode mcp list: connects, lists tools, prints the status.
  const list = await runAgent('opencode mcp list', opencode, ['mcp', 'list', '--pure'],
                              { env, cwd: sb.work, timeoutMs: LIST_TIMEOUT_MS });
  let ex = await waitDetached(sb, exec.id);
  const listOut = stripAnsi(list.stdout);
  ok &= check(!list.timedOut && list.code === 0, `opencode mcp list exits 0 within ${LIST_TIMEOUT_MS / 1000}s (exit ${list.code ?? list.signal})`);
  ok &= check(/✓\s*mission\s+connected/.test(listOut), 'it shows mission as connected',
              listOut.trim());
  const first = sessionsOf(ex, CLIENT_NAME);
  ok &= check(first.length === 1 && first[0].toolLists >= 1,
              `one MCP session from client "${CLIENT_NAME}" that listed the tools (toolLists >= 1)`);
  if (first[0]) {
    const s = first[0];
    log(`session: client ${s.client.name} ${s.client.version}, protocol ${s.protocolVersion}, toolLists ${s.toolLists}`);
  }
  if (!ok) dump('opencode mcp list', list, ex);

  // 2. opencode run: connects again, lists tools, offers them to the model.
  const before = first.length;
  const run = await runAgent('opencode run', opencode, ['run', '--pure', 'say hi'],
                             { env, cwd: sb.work, timeoutMs: RUN_TIMEOUT_MS });
  ex = await waitDetached(sb, exec.id);
  const all = sessionsOf(showExecution(sb, exec.id), CLIENT_NAME);
  const fresh = all.slice(before);
  let ok2 = true;
  ok2 &= check(!run.timedOut && run.signal === null,
               `opencode run exits by itself within ${RUN_TIMEOUT_MS / 1000}s (exit ${run.code}; non-zero expected: the model API says 401)`);
  ok2 &= check(fresh.length >= 1 && fresh.every((s) => s.toolLists >= 1),
               `opencode run opened a new MCP session from "${CLIENT_NAME}" that listed the tools`);
  ok2 &= check(ex.mcpSessions.every((s) => !s.attached), 'the bridge detached when opencode exited');
  const sent = api.requests.filter((r) => r.url.startsWith('/v1/messages'));
  const withTools = sent.find((r) => r.body.includes('"mission_progress"'));
  const missing = MISSION_TOOLS.filter((t) => !(withTools && withTools.body.includes(`"mission_${t}"`)));
  ok2 &= check(sent.length >= 1 && missing.length === 0,
               `its model request offers all ${MISSION_TOOLS.length} mission tools (mission_*)`,
               missing.length ? `missing: ${missing.join(', ')}` : undefined);
  if (!ok2) dump('opencode run', run, ex, api);
});
