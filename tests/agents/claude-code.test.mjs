// Claude Code (@anthropic-ai/claude-code) reaches mission's MCP server through
// `mission mcp connect --agent-execution ID` and lists its tools.
//
// claude -p connects the servers of --mcp-config before its first model
// request (MCP_CONNECTION_NONBLOCKING=false makes that wait explicit), lists
// their tools and sends them to the model. The model API here is a local stub
// that answers 401, so claude then exits non-zero: expected.

import fs from 'node:fs';
import path from 'node:path';
import {
  agentBinary, checkAgentRun, bridgeServer, check, createExecution, dump, fakeModelApi, log, main,
  runAgent, sandbox, sessionsOf, MISSION_TOOLS, waitDetached, writePrivate,
} from './lib/harness.mjs';

const CLIENT_NAME = 'claude-code'; // clientInfo.name Claude Code 2.1.x sends
const RUN_TIMEOUT_MS = 60000;

await main('Claude Code lists mission\'s tools through the bridge', 150000, async () => {
  const claude = agentBinary('claude');
  const sb = sandbox('claude');
  const api = await fakeModelApi();
  const exec = createExecution(sb);

  const mcpConfig = writePrivate(path.join(sb.cfg, 'mcp.json'),
    JSON.stringify({ mcpServers: { mission: bridgeServer(sb, exec) } }, null, 2));

  const debugLog = path.join(sb.root, 'claude-debug.log');
  const run = await runAgent('claude', claude, [
    '-p', 'say hi',
    '--mcp-config', mcpConfig,
    '--strict-mcp-config',       // only our server, nothing from user/project config
    '--bare',                    // no hooks, plugins sync, CLAUDE.md, keychain, prefetches
    '--no-session-persistence',
    '--debug-file', debugLog,    // kept for the notes below
  ], {
    cwd: sb.work,
    timeoutMs: RUN_TIMEOUT_MS,
    env: {
      ...sb.env,
      ANTHROPIC_API_KEY: 'sk-ant-mission-test-dummy',
      ANTHROPIC_BASE_URL: api.url,
      CLAUDE_CODE_MAX_RETRIES: '0',           // the 401 ends the run at once
      MCP_CONNECTION_NONBLOCKING: 'false',    // connect MCP servers before the first turn
      MCP_TIMEOUT: '30000',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    },
  });

  const ex = await waitDetached(sb, exec.id);
  const sessions = sessionsOf(ex, CLIENT_NAME);
  let ok = checkAgentRun('claude', run, RUN_TIMEOUT_MS, sessions, CLIENT_NAME);

  const sent = api.requests.find((r) => r.url.startsWith('/v1/messages'));
  ok &= check(Boolean(sent), 'claude went on to call the model API after connecting');
  const missing = MISSION_TOOLS.filter((t) => !(sent && sent.body.includes(`"mcp__mission__${t}"`)));
  ok &= check(missing.length === 0, `its model request offers all ${MISSION_TOOLS.length} mission tools (mcp__mission__*)`,
              missing.length ? `missing: ${missing.join(', ')}` : undefined);

  // Claude checks our answers against the protocol and logs what it had to
  // repair (it once filled in ttlMs/cacheScope missing from a 2026-07-28
  // tools/list): any such complaint about mission is a failure.
  let debug = '';
  try { debug = fs.readFileSync(debugLog, 'utf8'); } catch { /* no log */ }
  const complaints = debug.split('\n').filter((line) =>
    /MCP server "mission"/.test(line) && /omit|invalid|reject|fail|error|warn|filled in/i.test(line));
  ok &= check(complaints.length === 0, "claude's debug log has no complaint about mission's answers",
              complaints.map((line) => line.replace(/^\S+\s+/, '')).join('\n'));
  if (!ok) dump('claude', run, ex, api);
});
