// The live view of a headless agent: `mission run --adapter A -- ONE-SHOT`
// off a terminal, where the adapter (claude-code, codex, opencode) asks the
// agent for its streaming JSON, and mission renders it as steps. The model
// is the scripted stub (lib/scripted_model.mjs): its first answer is the
// agent's own file-writing tool on hello.txt, its second a final text. The
// adapter named by MISSION_AGENT_ADAPTER (or argv[2]).
//
// Checks: the agent really wrote the file; the execution's command carries
// the streaming flag and `mission --json exec logs` names the format;
// `mission run` and `mission exec logs ID` show the tool call by name and
// the final text as readable steps, with no JSON line left; `mission exec
// logs ID --raw` gives the JSON lines as the agent printed them.

import fs from 'node:fs';
import path from 'node:path';
import {
  check, dump, log, main, mission, runAgent, missionPath, sandbox, showExecution, tail,
} from './lib/harness.mjs';
import { scriptedModelApi } from './lib/scripted_model.mjs';
import { agentSetup, warmUp } from './lib/workflow.mjs';

const adapter = process.env.MISSION_AGENT_ADAPTER || process.argv[2];
const RUN_TIMEOUT_MS = 90000;
const FINAL_TEXT = 'hello.txt is written: the stream view test is done.';
const CONTENT = 'hello from the stream view test';

// Per adapter: the one-shot words (after the set-up's own), the streaming
// flag the adapter adds, the format mission names, and the writing tool as
// the rendered call starts (Claude Code `Write`, OpenCode `write`, Codex's
// command execution shown as `shell`). COLUMNS is wide, so a step's line
// keeps the file's path.
const AGENTS = {
  'claude-code': {
    args: (prompt) => ['--permission-mode', 'acceptEdits', '-p', prompt],
    flag: '--output-format=stream-json',
    format: 'claude-stream-json',
    call: '→ Write(',
  },
  codex: {
    // No sandbox option: confined, mission turns codex's own sandbox off.
    args: (prompt) => ['exec', '--skip-git-repo-check', '--ephemeral', prompt],
    flag: '--json',
    format: 'codex-json',
    call: '→ shell(printf ',  // the script the model wrote, out of codex's bash -lc
  },
  opencode: {
    args: (prompt) => ['run', prompt],
    flag: '--format',
    format: 'opencode-json',
    call: '→ write(',
  },
};

// The agent's own writing tool, by the names each offers.
function writeCall(conversation, file) {
  const tools = conversation.tools;
  const tool = tools.find((t) => /^(Write|write)$/.test(t)) || tools.find((t) => /^(exec_command|shell)$/.test(t));
  if (!tool) return null;
  if (tool === 'exec_command') return { tool, input: { cmd: `printf '%s\\n' '${CONTENT}' > '${file}'` } };
  if (tool === 'shell') return { tool, input: { command: ['sh', '-c', `printf '%s\\n' '${CONTENT}' > '${file}'`] } };
  const schema = (conversation.body.tools || []).find((t) => t.name === tool);
  const props = Object.keys((schema && (schema.input_schema || schema.parameters || {}).properties) || {});
  const pathKey = props.find((p) => /path/i.test(p)) || 'file_path';
  const contentKey = props.find((p) => /content/i.test(p)) || 'content';
  return { tool, input: { [pathKey]: file, [contentKey]: `${CONTENT}\n` } };
}

const isJsonObject = (line) => {
  if (!line.trim().startsWith('{')) return false;
  try { return typeof JSON.parse(line) === 'object'; } catch { return false; }
};

await main(`mission run --adapter ${adapter} shows the agent's streaming steps`, 170000, async () => {
  const agent = AGENTS[adapter];
  if (!agent) throw new Error(`name the adapter: claude-code, codex or opencode (got ${adapter})`);
  const sb = sandbox(`stream-${adapter}`);
  const file = path.join(sb.work, 'hello.txt');
  const api = await scriptedModelApi((conversation) => {
    if (conversation.calls.length === 0) return writeCall(conversation, file) || { text: 'no writing tool offered' };
    return { text: FINAL_TEXT };
  });
  const setup = agentSetup(adapter, sb, api.url);
  // Claude Code's --bare offers no Write tool.
  setup.args = setup.args.filter((a) => a !== '--bare');
  await warmUp(adapter, sb, setup);

  const prompt = 'Write hello.txt in the working directory, then say so.';
  const runArgs = ['run', '--adapter', adapter, '--', ...setup.args, ...agent.args(prompt)];
  const wide = { COLUMNS: '400' };
  const run = await runAgent(`mission run --adapter ${adapter}`, missionPath(), runArgs,
                             { env: { ...setup.env, ...wide }, cwd: sb.work, timeoutMs: RUN_TIMEOUT_MS });
  const id = JSON.parse(mission(sb, ['--json', 'exec', 'list', '--limit', '1'])).executions[0]?.id;
  if (!/^ae-[a-z0-9]+$/.test(id || '')) throw new Error(`no execution from mission run (got ${id})`);
  const ex = showExecution(sb, id);
  fs.writeFileSync(path.join(sb.root, 'model-exchanges.json'), JSON.stringify(api.exchanges, null, 1));

  let ok = true;
  ok &= check(!run.timedOut && run.code === 0 && ex.state === 'completed',
              `mission run ended by itself, exit 0, the execution completed (exit ${run.code ?? run.signal}, ` +
              `${ex.state}, ${(run.ms / 1000).toFixed(1)}s)`);
  let written = '';
  try { written = fs.readFileSync(file, 'utf8'); } catch { /* not written */ }
  ok &= check(written === `${CONTENT}\n`, `${adapter} ran its own writing tool: hello.txt holds the scripted text`,
              JSON.stringify(written));
  const command = Array.isArray(ex.command) ? ex.command : JSON.parse(ex.command || '[]');
  ok &= check(command.some((w) => w === agent.flag || w.startsWith(`${agent.flag}=`)),
              `the adapter added ${agent.flag} to the agent's command (off a terminal)`,
              JSON.stringify(command).slice(0, 600));
  const page = JSON.parse(mission(sb, ['--json', 'exec', 'logs', id, '--limit', '10000']));
  ok &= check(page.outputFormat === agent.format,
              `mission --json exec logs names the output format ${agent.format} (got ${page.outputFormat})`);

  // The rendered views: `mission run` as it went, `mission exec logs` after.
  const logs = mission(sb, ['exec', 'logs', id, '--limit', '10000'], { env: { ...sb.env, ...wide } });
  const raw = mission(sb, ['exec', 'logs', id, '--raw', '--limit', '10000']);
  for (const [what, text] of [['mission run', run.stdout], [`mission exec logs ${id}`, logs]]) {
    const lines = text.split('\n');
    ok &= check(lines.some((l) => l === `● ${FINAL_TEXT}`), `${what} shows the final message as a step ("● ${FINAL_TEXT}")`,
                tail(text, 2000));
    ok &= check(lines.some((l) => l.startsWith(agent.call) && l.includes('hello.txt')),
                `${what} shows the tool call by name with its file ("${agent.call}...hello.txt...)")`, tail(text, 2000));
    const json = lines.filter(isJsonObject);
    ok &= check(json.length === 0, `${what} shows no raw JSON line`, json.slice(0, 3).join('\n'));
  }
  log(`mission exec logs ${id}:\n${logs.split('\n').map((l) => `         | ${l}`).join('\n')}`);

  const rawLines = raw.split('\n').filter((l) => l.length);
  const rawJson = rawLines.filter(isJsonObject);
  ok &= check(rawJson.length >= 3 && rawJson.length >= rawLines.length - 2,
              `mission exec logs --raw gives the agent's JSON lines (${rawJson.length} of ${rawLines.length})`,
              tail(raw, 2000));
  ok &= check(rawJson.some((l) => l.includes(FINAL_TEXT)) && rawJson.some((l) => l.includes('hello.txt')),
              '...among them the final text and the tool call', tail(raw, 2000));
  if (!ok) {
    dump(`mission run --adapter ${adapter}`, run, ex, null);
    log(`raw log:\n${tail(raw, 6000)}`);
  }
});
