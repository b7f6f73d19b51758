// The planning targets through the bridge (tests/bench/planning_bench.sh):
// the official MCP SDK v1 client (tests/clients/node_modules) drives
// `mission mcp connect` over stdio against a running daemon, on a workflow
// of 10,000 tasks and 30,000 depends_on edges shaped like
// planning_bench.cpp's: 100 tasks a sequence, three (the last 300: four)
// dependencies on earlier sequences, but compact names and no
// files_likely_affected, so that the request fits the bridge's 1 MiB frame.
// Half the tasks are completed through task_update_status, then each
// query is timed as the client sees it (tools/call sent to result parsed),
// the median of --runs calls.
// Usage: node planning_bridge.mjs MISSION EXEC_ID [--runs N] [--done-stages S]
// (MISSION_MCP_TOKEN in the environment). Output: `key: value` lines.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const sdk = path.join(here, '..', 'clients', 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'client');
const { Client } = await import(path.join(sdk, 'index.js'));
const { StdioClientTransport } = await import(path.join(sdk, 'stdio.js'));

const [missionPath, executionId, ...rest] = process.argv.slice(2);
let runs = 50;
let doneStages = 50;
for (let i = 0; i < rest.length; i += 2) {
  if (rest[i] === '--runs') runs = Number(rest[i + 1]);
  if (rest[i] === '--done-stages') doneStages = Number(rest[i + 1]);
}
const kTasks = 10000;
const kStage = 100;
const kEdges = 30000;

// A small deterministic generator (the plan's shape, not its exact edges,
// matters).
let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed;
};

function plan() {
  const tasks = [];
  const fourFrom = kTasks - (kEdges - 3 * (kTasks - kStage));
  for (let i = 0; i < kTasks; i++) {
    // Compact names and no files: the whole request must stay under the
    // bridge's 1 MiB frame (limits::kMaxFrameBytes).
    const task = { name: `t${i}`, description: 'd', sequence: Math.floor(i / kStage) };
    if (i >= kStage) {
      const want = i >= fourFrom ? 4 : 3;
      const earlier = Math.floor(i / kStage) * kStage;
      const picked = new Set();
      while (picked.size < want) picked.add(random() % earlier);
      task.depends_on = [...picked].map(j => `t${j}`);
    }
    tasks.push(task);
  }
  return { summary: 'bench', approach: 'stages', tasks };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 600000 });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent;
}

async function timed(client, name, args) {
  const start = process.hrtime.bigint();
  const result = await call(client, name, args);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, result };
}

const transport = new StdioClientTransport({
  command: missionPath, args: ['mcp', 'connect', '--agent-execution', executionId], env: process.env, stderr: 'inherit' });
const client = new Client({ name: 'mission-planning-bench', version: '1.0.0' });
await client.connect(transport);
try {
  const workflow = await call(client, 'workflow_create', {
    name: 'bench', source_type: 'prompt', source_content: 'x'.repeat(20000), max_parallel_tasks: 4 });
  const id = workflow.id;
  const request = { id, plan: plan() };
  console.log(`bridge_workflow_set_plan_request_bytes: ${JSON.stringify(request).length}`);
  const setPlan = await timed(client, 'workflow_set_plan', request);
  console.log(`tasks: ${setPlan.result.tasks_created}`);
  console.log(`edges: ${setPlan.result.dependencies}`);
  console.log(`bridge_workflow_set_plan_ms: ${setPlan.ms.toFixed(1)}`);

  // Half the tasks done (doneStages x 100), through the tools as an agent
  // would, taking the ready tasks in the order next_tasks ranks them; then
  // every other ready task in progress.
  let completed = 0;
  while (completed < doneStages * kStage) {
    const page = await call(client, 'workflow_next_tasks', { workflow_id: id, limit: 50 });
    if (page.tasks.length === 0) break;
    for (const task of page.tasks.slice(0, doneStages * kStage - completed)) {
      await call(client, 'task_update_status', { id: task.id, status: 'completed', outcome: `${task.name} done` });
      completed++;
    }
  }
  console.log(`completed_through_the_bridge: ${completed}`);
  const next = await call(client, 'workflow_next_tasks', { workflow_id: id, limit: 50 });
  for (const [i, task] of next.tasks.entries()) {
    if (i % 2 === 0) await call(client, 'task_update_status', { id: task.id, status: 'in_progress' });
  }

  const times = { next: [], progress: [], context: [] };
  let ready = 0;
  let tokens = 0;
  await call(client, 'workflow_next_tasks', { workflow_id: id });  // the cache loads once
  for (let i = 0; i < runs; i++) {
    const n = await timed(client, 'workflow_next_tasks', { workflow_id: id });
    times.next.push(n.ms);
    ready = n.result.available_count;
    times.progress.push((await timed(client, 'workflow_progress', { workflow_id: id })).ms);
  }
  // A task past the done half (blocked, else ready): thousands of ancestors.
  const blocked = (await call(client, 'workflow_progress', { workflow_id: id })).blocked_tasks;
  const target = blocked.length > 0 ? blocked[blocked.length - 1] : next.tasks[next.tasks.length - 1];
  console.log(`context_task: ${target.name}`);
  for (let i = 0; i < runs; i++) {
    const c = await timed(client, 'task_load_context', { task_id: target.id, max_tokens: 8000 });
    times.context.push(c.ms);
    tokens = c.result.token_estimate;
  }
  console.log(`ready_tasks: ${ready}`);
  console.log(`bridge_workflow_next_tasks_ms: ${median(times.next).toFixed(3)}`);
  console.log(`bridge_workflow_progress_ms: ${median(times.progress).toFixed(3)}`);
  console.log(`bridge_task_load_context_8000_ms: ${median(times.context).toFixed(3)}`);
  console.log(`bridge_task_load_context_tokens: ${tokens}`);
  console.log(`bridge_runs: ${runs}`);
} finally {
  await client.close();
}
