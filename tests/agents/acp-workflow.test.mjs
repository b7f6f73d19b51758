// A real agent driven over the Agent Client Protocol doing the task of a
// real, confined `mission workflows run`: Claude Code through its ACP
// adapter (@zed-industries/claude-agent-acp, `--adapter claude-code-acp`),
// Codex through its (@zed-industries/codex-acp, `--adapter codex-acp`), or
// OpenCode natively (`--adapter acp -- opencode acp`), as
// MISSION_AGENT_ADAPTER (or argv[2]) names. The model API is the scripted
// stub (lib/scripted_model.mjs). The script has the model run a shell
// command that writes the task's file; the agent asks permission for it
// over ACP, the request is listed in `mission inbox` as reported by the
// agent, `mission answer --choice 1` allows it, the command runs in the
// task's worktree, the turn ends, and the run judges, commits and merges
// the file onto the integration branch.

import fs from 'node:fs';
import path from 'node:path';
import {
  agentBinary, check, inboxPrompts, log, main, mission, sandbox, showExecution, tail, until,
} from './lib/harness.mjs';
import { logText } from './lib/launch.mjs';
import { scriptedModelApi } from './lib/scripted_model.mjs';
import {
  agentSetup, checkRunCompleted, git, makeRepo, planWorkflow, runStatus, runWorkflow, stopRun, warmUp,
} from './lib/workflow.mjs';

const agent = process.env.MISSION_AGENT_ADAPTER || process.argv[2];
const LIMIT_MS = 120000;
const FILE = 'over-acp.txt';
const CONTENT = `made by ${agent} over ACP`;

// How each agent is started over ACP (the run's words after `workflows
// run ID`, and the variable naming its adapter's binary), and the name its
// shell tool has.
const OVER_ACP = {
  'claude-code': {
    args: () => ['--adapter', 'claude-code-acp'],
    bin: { MISSION_CLAUDE_CODE_ACP_BIN: () => agentBinary('claude-agent-acp') },
    shell: /^Bash$/,
  },
  codex: {
    args: () => ['--adapter', 'codex-acp'],
    bin: { MISSION_CODEX_ACP_BIN: () => agentBinary('codex-acp') },
    shell: /^(shell|exec_command|local_shell)$/,
  },
  // The acp adapter knows no CLI: confined, it gives the agent XDG folders
  // of the daemon's, where the stub's provider config is not; this one
  // runs with the person's own folders.
  opencode: {
    args: () => ['--adapter', 'acp', '--sandbox', 'off', '--', agentBinary('opencode'), 'acp'],
    bin: {},
    shell: /^bash$/,
  },
};

// The shell tool's arguments, by the names its schema gives them.
function shellInput(conversation, tool, cmd) {
  if (tool === 'exec_command') return { cmd };
  if (tool === 'shell' || tool === 'local_shell') return { command: ['sh', '-c', cmd] };
  return { command: cmd, description: 'Write the task file' };  // Bash, bash
}

await main(`workflows run --adapter acp drives ${agent} through a permission`, 170000, async () => {
  const over = OVER_ACP[agent];
  if (!over) throw new Error(`name the agent: MISSION_AGENT_ADAPTER=${Object.keys(OVER_ACP).join('|')}`);
  const sb = sandbox(`acp-wf-${agent}`);
  const api = await scriptedModelApi((conversation) => {
    if (!/Your task is/.test(conversation.text)) return { text: 'ok' };
    const shell = conversation.tools.find((t) => over.shell.test(t));
    if (!shell) return { text: `no shell tool among ${conversation.tools.join(', ')}` };
    if (!conversation.calls.some((c) => c.name === shell)) {
      return { tool: shell, input: shellInput(conversation, shell, `printf '%s\\n' '${CONTENT}' > ${FILE}`) };
    }
    return { text: `${FILE} is written.` };
  });
  const repo = makeRepo(sb);
  const setup = agentSetup(agent, sb, api.url);
  if (agent === 'opencode') {
    // Ask before any shell command: OpenCode sends the request over ACP.
    const globalConfig = path.join(sb.env.XDG_CONFIG_HOME, 'opencode', 'opencode.json');
    const config = JSON.parse(fs.readFileSync(globalConfig, 'utf8'));
    config.permission = { bash: 'ask' };
    fs.writeFileSync(globalConfig, JSON.stringify(config, null, 2));
  }
  if (agent === 'claude-code') setup.env.ENABLE_TOOL_SEARCH = 'false';
  if (agent === 'codex') {
    // Ask before every command, and no sandbox of its own: bubblewrap is
    // not on a fresh machine, and a confined Codex runs with it off.
    // Top-level keys: before the file's first table.
    const config = path.join(setup.env.CODEX_HOME, 'config.toml');
    fs.writeFileSync(config, 'approval_policy = "untrusted"\nsandbox_mode = "danger-full-access"\n' +
                     fs.readFileSync(config, 'utf8'));
  }
  await warmUp(agent, sb, setup);
  const id = await planWorkflow(sb, repo, `over acp ${agent}`,
                                [{ name: 'acp', description: `write ${FILE}` }]);

  // The run waits on the person's answer: it goes on in the background.
  // Confined, as every agent is by default: its worktree, TMPDIR and its
  // CLI's state folders writable, the rest read-only.
  for (const [name, bin] of Object.entries(over.bin)) setup.env[name] = bin();
  const running = runWorkflow(sb, id, ['--max-attempts', '1', '--task-timeout', '100s', ...over.args()],
                              { env: setup.env, timeoutMs: LIMIT_MS });
  let ok = true;
  let prompt = null;
  try {
    prompt = await until('the permission request in the inbox', LIMIT_MS, () => inboxPrompts(sb)[0]);
  } catch (err) {
    log(String(err));
  }
  ok &= check(prompt && prompt.detected === false && prompt.options.length >= 2,
              `mission inbox lists its permission request as reported (${JSON.stringify(prompt)})`);
  if (prompt) {
    const asked = Date.now();
    mission(sb, ['answer', prompt.agentExecutionId, '--choice', '1']);
    log(`answered in ${Date.now() - asked} ms`);
  }
  const run = await running;
  if (run.timedOut) stopRun(sb, id);
  const status = runStatus(sb, id);
  fs.writeFileSync(path.join(sb.root, 'model-exchanges.json'), JSON.stringify(api.exchanges, null, 1));

  ok &= checkRunCompleted(run, status);
  const task = status.tasks.find((t) => t.name === 'acp') || { attempts: [] };
  const attempt = task.attempts[0] || {};
  ok &= check(task.status === 'merged', `the task merged (${task.status}: ${attempt.reason ?? ''})`);
  const landed = git(sb, repo, 'show', `${status.integrationBranch}:${FILE}`);
  ok &= check(landed.trim() === CONTENT, `the allowed command's file landed on ${status.integrationBranch}`, landed);
  const ex = attempt.agentExecutionId ? showExecution(sb, attempt.agentExecutionId) : {};
  const confined = !over.args().includes('--sandbox');
  ok &= check(ex.delivery === 'mcp-tool' && /^acp|-acp$/.test(ex.adapter) &&
              /^confined/.test(ex.sandbox || '') === confined,
              `its execution was driven over ACP${confined ? ', confined' : ''} (${ex.adapter}, ${ex.delivery}, ${ex.sandbox})`);
  if (attempt.agentExecutionId) {
    const signals = mission(sb, ['--json', 'exec', 'signals', attempt.agentExecutionId]);
    ok &= check(/"permission_answer"/.test(signals), 'the answer is an observation of the execution');
  }
  ok &= check(inboxPrompts(sb).length === 0, 'nothing waits in the inbox afterwards');
  if (!ok && attempt.agentExecutionId) log(`its log:\n${tail(logText(sb, attempt.agentExecutionId), 4000)}`);
});
