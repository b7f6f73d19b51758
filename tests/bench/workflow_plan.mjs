// Creates a planned workflow of --tasks independent tasks (t0, t1, ...)
// through the bridge, for tests/bench/workflow_run_bench.sh, with the
// official MCP SDK v1 client (tests/clients/node_modules). Prints its id.
// Usage: node workflow_plan.mjs MISSION [--tasks N]   (run in the repository)
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const sdk = path.join(here, '..', 'clients', 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'client');
const { Client } = await import(path.join(sdk, 'index.js'));
const { StdioClientTransport } = await import(path.join(sdk, 'stdio.js'));

const [missionPath, ...rest] = process.argv.slice(2);
let tasks = 100;
for (let i = 0; i < rest.length; i += 2) {
  if (rest[i] === '--tasks') tasks = Number(rest[i + 1]);
}
const transport = new StdioClientTransport({
  command: missionPath,
  args: ['mcp', 'connect', '--toolsets', 'planning'],
  env: process.env,
  cwd: process.cwd(),
});
const client = new Client({ name: 'workflow-run-bench', version: '1' });
await client.connect(transport);
const call = async (name, args) => {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent;
};
const workflow = await call('workflow_create', {
  name: 'bench', source_type: 'prompt', source_content: 'one-line edits', max_parallel_tasks: 32,
});
const plan = [];
for (let i = 0; i < tasks; i++) plan.push({ name: `t${i}`, description: `write t${i}.txt`, sequence: 1 });
await call('workflow_set_plan', { id: workflow.id, plan: { summary: 's', approach: 'a', tasks: plan } });
console.log(workflow.id);
await client.close();
