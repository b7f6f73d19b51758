// A real agent CLI doing a task of a real `mission workflows run`: the
// adapter named by MISSION_AGENT_ADAPTER (or argv[2]) takes the two tasks of
// a planned workflow, two agents at once (--parallel 2), and the model API
// is a local scripted stub streaming as the real one does
// (lib/scripted_model.mjs): Anthropic Messages for Claude Code and
// OpenCode, OpenAI Responses for Codex, OpenAI Chat Completions for
// Copilot CLI. The script, turn by
// turn: mission's start_task over the bridge; the agent's own file-writing
// tool writing TASK.txt in its worktree; mission's complete_task; a final
// text. The agent runs its tools for real, so the run judges the attempt
// (exit 0, not reported failed), commits and merges each file, and ends
// completed with both files on mission/run/<workflow>.

import fs from 'node:fs';
import path from 'node:path';
import {
  check, dump, log, main, mission, sandbox, showExecution, tail,
} from './lib/harness.mjs';
import { logText } from './lib/launch.mjs';
import { scriptedModelApi } from './lib/scripted_model.mjs';
import {
  agentSetup, checkRunCompleted, warmUp, git, makeRepo, planWorkflow, runStatus, runWorkflow, stopRun, taskOf,
  workDirOf,
} from './lib/workflow.mjs';

const adapter = process.env.MISSION_AGENT_ADAPTER || process.argv[2];
const RUN_TIMEOUT_MS = 120000;
const TASKS = ['greeting', 'farewell'];
// clientInfo.name each agent's MCP client sends.
const CLIENT_NAMES = { 'claude-code': 'claude-code', codex: 'codex-mcp-client', opencode: 'opencode', copilot: 'copilot-cli' };
const content = (task) => `${task} from ${adapter}\n`;

// Which offered tool does what, by the names each agent gives them.
function toolNames(conversation) {
  const find = (re) => conversation.tools.find((t) => re.test(t));
  return {
    start: find(/(^|[-_.])start_task$/),
    complete: find(/(^|[-_.])complete_task$/),
    // Claude Code Write, OpenCode write, Copilot CLI apply_patch (freeform),
    // Codex (gpt-4.1) exec_command.
    write: find(/^(Write|write)$/) || find(/^apply_patch$/) || find(/^(shell|exec_command|local_shell)$/),
  };
}

// The arguments of the agent's own writing tool, from its schema's names.
function writeInput(conversation, tool, file, content) {
  if (tool === 'apply_patch') {
    return { input: `*** Begin Patch\n*** Add File: ${file}\n+${content.trimEnd()}\n*** End Patch\n` };
  }
  if (/shell|exec_command/.test(tool)) {
    const cmd = `printf '%s\\n' '${content.trimEnd()}' > '${file}'`;
    return tool === 'exec_command' ? { cmd } : { command: ['sh', '-c', cmd] };
  }
  const schema = (conversation.body.tools || []).find((t) => t.name === tool);
  const props = Object.keys((schema && (schema.input_schema || schema.parameters || {}).properties) || {});
  const pathKey = props.find((p) => /path/i.test(p)) || 'file_path';
  const contentKey = props.find((p) => /content/i.test(p)) || 'content';
  return { [pathKey]: file, [contentKey]: content };
}

// The script: the turn follows from the calls already in the conversation.
function nextTurn(conversation, task) {
  const names = toolNames(conversation);
  const called = (name) => conversation.calls.some((c) => c.name === name);
  if (names.start && !called(names.start)) return { tool: names.start, input: { task_id: task.id } };
  if (names.write && !called(names.write)) {
    const dir = workDirOf(conversation.text);
    const file = dir ? path.join(dir, `${task.name}.txt`) : `${task.name}.txt`;
    return { tool: names.write, input: writeInput(conversation, names.write, file, content(task.name)) };
  }
  if (names.complete && !called(names.complete)) {
    return { tool: names.complete, input: { task_id: task.id, status: 'success',
                                            outcome: { summary: `wrote ${task.name}.txt` } } };
  }
  return { text: `${task.name}.txt is written and the task is complete.` };
}

await main(`workflows run --adapter ${adapter} does tasks through a scripted model`, 170000, async () => {
  if (!adapter) throw new Error('name the adapter: MISSION_AGENT_ADAPTER=claude-code (or argv[2])');
  const sb = sandbox(`wf-work-${adapter}`);
  const api = await scriptedModelApi((conversation) => {
    const task = taskOf(conversation.text);
    if (!task) return { text: 'no task here' };
    return { ...nextTurn(conversation, task), task: task.name };  // the task is recorded with the exchange
  });
  const repo = makeRepo(sb);
  const setup = agentSetup(adapter, sb, api.url);
  // Claude Code's --bare offers Bash, Edit and Read only: its Write tool
  // comes without it, and without it mission's tools wait behind
  // ToolSearch, which this script does not drive: ENABLE_TOOL_SEARCH=false
  // offers them up front.
  if (adapter === 'claude-code') {
    setup.args = setup.args.filter((a) => a !== '--bare');
    setup.env.ENABLE_TOOL_SEARCH = 'false';
  }
  await warmUp(adapter, sb, setup);
  const id = await planWorkflow(sb, repo, `real work ${adapter}`,
                                TASKS.map((name) => ({ name, description: `write ${name}.txt` })));

  // Two agents at once: the stub follows each one's own conversation.
  const run = await runWorkflow(sb, id, ['--adapter', adapter, '--parallel', '2', '--max-attempts', '1',
                                         '--task-timeout', '90s', '--', ...setup.args],
                                { env: setup.env, timeoutMs: RUN_TIMEOUT_MS });
  if (run.timedOut) stopRun(sb, id);
  const status = runStatus(sb, id);
  // Every request and answer, for a failure (the tree is kept then).
  fs.writeFileSync(path.join(sb.root, 'model-exchanges.json'), JSON.stringify(api.exchanges, null, 1));

  let ok = checkRunCompleted(run, status);
  const planned = JSON.parse(mission(sb, ['--json', 'workflows', 'show', id])).tasks;
  const results = api.exchanges.flatMap((e) => e.results || []);
  const client = CLIENT_NAMES[adapter];
  const executions = [];
  for (const name of TASKS) {
    const task = status.tasks.find((t) => t.name === name) || { attempts: [] };
    const attempt = task.attempts[0] || {};
    const ex = attempt.agentExecutionId ? showExecution(sb, attempt.agentExecutionId) : null;
    if (ex) executions.push(ex);
    ok &= check(task.status === 'merged' && task.attempts.length === 1,
                `task ${name} merged at its first attempt (${task.status}: ${attempt.reason ?? ''})`);
    const written = api.exchanges.filter((e) => e.answer && e.answer.tool && e.answer.task === name);
    const named = (e) => (e.answer.namespace ? `${e.answer.namespace}/${e.answer.tool}` : e.answer.tool);
    ok &= check(written.length === 3, `its agent made the scripted tool calls (${written.map(named).join(', ')})`);
    if (adapter === 'codex') {
      // Codex offers mission's tools inside a `namespace` tool, and routes a
      // call by the function_call's `namespace`.
      ok &= check(written.some((e) => e.answer.namespace === 'mcp__mission' && e.answer.tool === 'complete_task'),
                  '...complete_task offered in the mcp__mission namespace, and called there');
    }
    // The tools really ran: mission saw the task started and completed by
    // this agent over the bridge, and the file is on the integration branch.
    ok &= check(Boolean(ex) && ex.state === 'completed' &&
                (ex.mcpSessions || []).some((s) => s.client && s.client.name === client && s.calls >= 2),
                `its execution completed, with its mission calls over the bridge from client "${client}"`,
                ex && JSON.stringify(ex.mcpSessions, null, 1));
    const record = planned.find((t) => t.name === name);
    ok &= check(record && record.outcome === `wrote ${name}.txt`,
                `mission recorded its complete_task (outcome "${record && record.outcome}")`);
    // complete_task answered the agent with the task's exact change set.
    ok &= check(results.some((r) => new RegExp(`"added\\\\*"\\s*:\\s*\\[\\\\*"${name}\\.txt`).test(r)),
                `complete_task's answer to it lists ${name}.txt as added`);
    let shown = '';
    try { shown = git(sb, repo, 'show', `${status.integrationBranch}:${name}.txt`); } catch (err) { shown = String(err); }
    ok &= check(shown === content(name), `${name}.txt on ${status.integrationBranch} holds what the agent wrote`,
                shown);
  }
  if (!ok) {
    dump(`workflows run --adapter ${adapter}`, run, null, api);
    for (const ex of executions.filter((e) => e.state !== 'completed')) {
      log(`${ex.id} ended ${ex.state}; its log:\n${tail(logText(sb, ex.id), 3000)}`);
    }
    log(`status:\n${tail(JSON.stringify(status, null, 1), 4000)}`);
  }
});
