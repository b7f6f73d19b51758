// A real agent CLI under `mission workflows run` with a dummy credential and
// no network: the adapter named by MISSION_AGENT_ADAPTER (or argv[2]) takes
// the two tasks of a planned workflow, --parallel 2 --max-attempts 2, with
// the stub model API answering 401. Each attempt must fail cleanly (the
// agent exits non-zero by itself, its execution ends failed), be retried
// once with the failure in its prompt, and the run must end failed, without
// hanging, within the bound.

import {
  check, dump, fakeModelApi, log, main, sandbox, showExecution, tail,
} from './lib/harness.mjs';
import {
  agentSetup, warmUp, makeRepo, planWorkflow, runStatus, runWorkflow, stopRun,
} from './lib/workflow.mjs';

const adapter = process.env.MISSION_AGENT_ADAPTER || process.argv[2];
const RUN_TIMEOUT_MS = 120000;
const TASKS = ['alpha', 'beta'];

await main(`workflows run --adapter ${adapter} with a dummy credential ends failed`, 160000, async () => {
  if (!adapter) throw new Error('name the adapter: MISSION_AGENT_ADAPTER=claude-code (or argv[2])');
  const sb = sandbox(`wf-401-${adapter}`);
  const api = await fakeModelApi();
  const repo = makeRepo(sb);
  const setup = agentSetup(adapter, sb, api.url);
  await warmUp(adapter, sb, setup);
  const id = await planWorkflow(sb, repo, `dummy credential ${adapter}`,
                                TASKS.map((name) => ({ name, description: `write ${name}.txt saying ${name}` })));

  const run = await runWorkflow(sb, id, ['--adapter', adapter, '--max-attempts', '2', '--parallel', '2',
                                         '--task-timeout', '90s', '--', ...setup.args],
                                { env: setup.env, timeoutMs: RUN_TIMEOUT_MS });
  if (run.timedOut) stopRun(sb, id);
  const status = runStatus(sb, id);

  let ok = true;
  ok &= check(!run.timedOut && run.code === 1,
              `mission workflows run ended by itself within ${RUN_TIMEOUT_MS / 1000}s, exit 1 (exit ${run.code ?? run.signal}, ${(run.ms / 1000).toFixed(1)}s)`);
  ok &= check(status.status === 'failed', `the run ended failed (status ${status.status}, reason ${status.reason})`);
  ok &= check(status.attemptsTotal === 4, `four attempts in all: each task tried twice (got ${status.attemptsTotal})`);
  const executions = [];
  for (const name of TASKS) {
    const task = status.tasks.find((t) => t.name === name);
    const attempts = task ? task.attempts : [];
    ok &= check(task && task.status === 'failed' && attempts.length === 2 &&
                attempts.every((a) => a.status === 'failed' && a.reason && a.agentExecutionId),
                `task ${name} failed after 2 failed attempts, each with a reason and its agent`,
                JSON.stringify(task, null, 1));
    for (const a of attempts) {
      log(`${name} attempt ${a.attempt}: ${a.status} after ${(a.durationMs / 1000).toFixed(1)}s: ${a.reason}`);
      if (a.agentExecutionId) executions.push(showExecution(sb, a.agentExecutionId));
    }
  }
  // Each agent failed by itself (its own non-zero exit): not stopped, not
  // timed out, not lost.
  ok &= check(executions.length === 4 &&
              executions.every((ex) => ex.adapter === adapter && ex.state === 'failed' &&
                               ex.exitSignal == null && ex.exitCode !== 0 && ex.exitCode != null),
              `every attempt's execution is ${adapter}'s, ended failed by a non-zero exit of its own`,
              JSON.stringify(executions.map((ex) => ({ id: ex.id, adapter: ex.adapter, state: ex.state,
                                                        exitCode: ex.exitCode, exitSignal: ex.exitSignal })), null, 1));
  // The agents reached the stub (the prompt went through), and the retry
  // carried the first failure.
  const prompts = api.requests.filter((r) => r.url.startsWith(setup.modelPath));
  ok &= check(TASKS.every((name) => prompts.some((r) => new RegExp(`Your task is (\\\\)+"${name}(\\\\)+"`).test(r.body))),
              `the model API got each task's prompt (${prompts.length} requests to ${setup.modelPath})`,
              api.summary());
  ok &= check(prompts.some((r) => r.body.includes('The previous attempt failed')),
              "a second attempt's prompt says the previous attempt failed");
  if (process.env.MISSION_AGENT_TEST_DEBUG) for (const r of prompts) log(`${r.url}: ${r.body.slice(0, 3000)}`);
  if (!ok) {
    dump(`workflows run --adapter ${adapter}`, run, null, api);
    log(`status:\n${tail(JSON.stringify(status, null, 1), 4000)}`);
  }
});
