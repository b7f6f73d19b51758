// Codex (@openai/codex) reaches mission's MCP server through
// `mission mcp connect --agent-execution ID` and lists its tools.
//
// No config file: the server comes from `-c mcp_servers.mission={...}` (a
// TOML inline table) and the model provider from `-c model_providers.stub=...`,
// a local stub that answers 401, so `codex exec` fails after its first model
// request: expected. codex starts its MCP servers and waits for their tool
// lists before that request.

import fs from 'node:fs';
import path from 'node:path';
import {
  agentBinary, checkAgentRun, bridgeServer, check, createExecution, dump, fakeModelApi, log, main,
  runAgent, sandbox, sessionsOf, waitDetached,
} from './lib/harness.mjs';

const CLIENT_NAME = 'codex-mcp-client'; // clientInfo.name Codex 0.169.x sends
const RUN_TIMEOUT_MS = 60000;

// TOML basic strings accept JSON string escapes.
const tomlString = (s) => JSON.stringify(String(s));
const tomlInline = (obj) => `{${Object.entries(obj).map(([k, v]) => `${k}=${tomlValue(v)}`).join(',')}}`;
function tomlValue(v) {
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(',')}]`;
  if (v && typeof v === 'object') return tomlInline(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return tomlString(v);
}

await main('Codex lists mission\'s tools through the bridge', 150000, async () => {
  const codex = agentBinary('codex');
  const sb = sandbox('codex');
  const api = await fakeModelApi();
  const exec = createExecution(sb);

  const codexHome = path.join(sb.home, '.codex');
  fs.mkdirSync(codexHome, { recursive: true });
  const server = bridgeServer(sb, exec);
  const mcpOverride = `mcp_servers.mission=${tomlInline(server)}`;
  const providerOverride = `model_providers.mission_stub=${tomlInline({
    name: 'mission test stub',
    base_url: `${api.url}/v1`,
    env_key: 'OPENAI_API_KEY',
    wire_api: 'responses',
    request_max_retries: 0,
    stream_max_retries: 0,
  })}`;

  const run = await runAgent('codex', codex, [
    'exec',
    '--skip-git-repo-check',   // the work dir is not a git repository
    '--ephemeral',             // no session files
    '--color', 'never',
    '-c', mcpOverride,
    '-c', 'model_provider="mission_stub"',
    '-c', providerOverride,
    'say hi',
  ], {
    cwd: sb.work,
    timeoutMs: RUN_TIMEOUT_MS,
    env: {
      ...sb.env,
      CODEX_HOME: codexHome,
      OPENAI_API_KEY: 'sk-mission-test-dummy',
    },
  });

  const ex = await waitDetached(sb, exec.id);
  const sessions = sessionsOf(ex, CLIENT_NAME);
  let ok = checkAgentRun('codex', run, RUN_TIMEOUT_MS, sessions, CLIENT_NAME);
  // Codex 0.169 defers MCP tools behind tool search: the request names the
  // mcp__mission namespace with the instructions from our initialize result.
  const sent = api.requests.find((r) => r.url.startsWith('/v1/responses'));
  ok &= check(Boolean(sent), 'codex went on to call the model API after connecting');
  ok &= check(Boolean(sent && sent.body.includes('mcp__mission') && sent.body.includes('mission tracks this agent execution')),
              'its model request names the mcp__mission tools with mission\'s instructions');
  if (!ok) dump('codex', run, ex, api);
});
