// Verified landing with a real agent (docs/adr/0041): Claude Code, under
// the scripted model stub, does the two tasks of a `mission workflows run
// --check --gate` that each pass alone and break the build together. One
// renames a definition (defs.txt: old_name → new_name); the other writes
// a caller of the name defs.txt holds when it starts. The gate runs on the
// tree that would land, so whichever lands second fails it, goes back to
// its agent with the gate's output, and its second attempt, on the new
// tip, writes what that tip needs. The integration branch never holds a
// tree the gate fails: every commit it ever pointed at is built again.

import fs from 'node:fs';
import path from 'node:path';
import { check, dump, log, main, sandbox, tail } from './lib/harness.mjs';
import { logText } from './lib/launch.mjs';
import { scriptedModelApi } from './lib/scripted_model.mjs';
import {
  agentSetup, checkRunCompleted, git, makeRepo, planWorkflow, runStatus, runWorkflow, stopRun, taskOf, workDirOf,
} from './lib/workflow.mjs';

const RUN_TIMEOUT_MS = 150000;

// Every NAME a *.call file calls must be defined in defs.txt.
const LINK = [
  'for f in *.call; do',
  '  [ -f "$f" ] || continue',
  '  name=$(cat "$f")',
  '  grep -qx "$name" defs.txt || { echo "undefined: $name in $f"; exit 1; }',
  'done',
  '',
].join('\n');

// The files each task writes, from what its worktree holds when the
// model is first asked: the stub reads the tree as the agent would have.
// rename renames the definition and every caller it sees (there is one
// when it is sent back after caller landed); caller calls the name
// defs.txt defines.
function edits(task, dir) {
  const defs = fs.readFileSync(path.join(dir, 'defs.txt'), 'utf8');
  if (task.name === 'caller') {
    return [{ file: 'caller.call', content: /^new_name$/m.test(defs) ? 'new_name\n' : 'old_name\n' }];
  }
  const out = [{ file: 'defs.txt', content: defs.replace(/^old_name$/m, 'new_name') }];
  if (fs.existsSync(path.join(dir, 'caller.call'))) out.push({ file: 'caller.call', content: 'new_name\n' });
  return out;
}

await main('workflows run --adapter claude-code --gate sends the second of two clashing tasks back', 200000, async () => {
  const sb = sandbox('wf-gate-claude-code');
  const api = await scriptedModelApi((conversation) => {
    const task = taskOf(conversation.text);
    const dir = workDirOf(conversation.text);
    if (!task || !dir) return { text: 'no task here' };
    const write = conversation.tools.find((t) => t === 'Write');
    if (!write) return { text: `no Write tool among ${conversation.tools.join(', ')}` };
    const done = conversation.calls.filter((c) => c.name === write).length;
    const todo = edits(task, dir);
    if (done < todo.length) {
      const { file, content } = todo[done];
      return { tool: write, input: { file_path: path.join(dir, file), content }, task: task.name };
    }
    return { text: `${task.name} is done.`, task: task.name };
  });
  const repo = makeRepo(sb);
  fs.writeFileSync(path.join(repo, 'defs.txt'), 'old_name\n');
  git(sb, repo, 'add', 'defs.txt');
  git(sb, repo, 'commit', '-q', '-m', 'defs');
  const link = path.join(sb.cfg, 'link.sh');
  fs.writeFileSync(link, LINK);

  const setup = agentSetup('claude-code', sb, api.url);
  // Without --bare Claude Code offers its Write tool (see workflow-real-work).
  setup.args = setup.args.filter((a) => a !== '--bare');
  setup.env.ENABLE_TOOL_SEARCH = 'false';
  const id = await planWorkflow(sb, repo, 'rename and call', [
    { name: 'rename', description: 'rename old_name to new_name in defs.txt' },
    { name: 'caller', description: 'add caller.call, calling the name defs.txt defines' },
  ]);
  const run = await runWorkflow(sb, id, ['--adapter', 'claude-code', '--parallel', '2', '--max-attempts', '2',
                                         '--task-timeout', '90s', '--check', `sh '${link}'`,
                                         '--gate', `sh '${link}'`, '--', ...setup.args],
                                { env: setup.env, timeoutMs: RUN_TIMEOUT_MS });
  if (run.timedOut) stopRun(sb, id);
  const status = runStatus(sb, id);
  fs.writeFileSync(path.join(sb.root, 'model-exchanges.json'), JSON.stringify(api.exchanges, null, 1));

  let ok = checkRunCompleted(run, status);
  const sentBack = [];
  for (const name of ['rename', 'caller']) {
    const task = status.tasks.find((t) => t.name === name) || { attempts: [] };
    const last = task.attempts[task.attempts.length - 1] || {};
    ok &= check(task.status === 'merged' && last.gate && last.gate.passed === true,
                `task ${name} merged through the gate (${task.status}: ${last.reason ?? ''})`);
    if (task.attempts.length < 2) continue;
    sentBack.push(name);
    const failed = task.attempts[0];
    ok &= check(failed.status === 'failed' && failed.gate && failed.gate.passed === false &&
                /undefined: old_name/.test(failed.gate.output || ''),
                `its first attempt failed the gate on the merged tree (${failed.reason})`);
    // The second attempt's prompt, as the model received it, carries the gate's output.
    const second = api.exchanges.find((e) => {
      const t = taskOf(e.body || '');
      return t && t.name === name && t.attempt === 2;
    });
    ok &= check(second && /undefined: old_name/.test(second.body),
                'the second attempt was told what the gate said');
  }
  ok &= check(sentBack.length === 1, `exactly one task was sent back (${sentBack.join(', ')})`);
  // Every commit the integration branch ever pointed at passes the link.
  const branch = status.integrationBranch;
  let verified = 0;
  for (const commit of git(sb, repo, 'rev-list', branch).trim().split('\n')) {
    const tree = path.join(sb.root, `tree-${commit}`);
    fs.mkdirSync(tree, { recursive: true });
    for (const file of git(sb, repo, 'ls-tree', '--name-only', commit).trim().split('\n')) {
      fs.writeFileSync(path.join(tree, file), git(sb, repo, 'show', `${commit}:${file}`));
    }
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync('sh', [link], { cwd: tree, encoding: 'utf8' });
    ok &= check(r.status === 0, `commit ${commit.slice(0, 12)} of ${branch} builds`, r.stdout + r.stderr);
    verified += 1;
  }
  ok &= check(verified >= 3, `every commit of ${branch} was built (${verified})`);
  if (!ok) {
    dump('workflows run --adapter claude-code --gate', run, null, api);
    for (const task of status.tasks || []) {
      for (const attempt of task.attempts || []) {
        if (attempt.agentExecutionId) log(`${task.name}/${attempt.attempt}:\n${tail(logText(sb, attempt.agentExecutionId), 2000)}`);
      }
    }
  }
});
