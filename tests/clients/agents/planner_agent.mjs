// An MCP agent that plans, as `mission workflows plan -- node planner_agent.mjs`
// launches it: the official SDK v1 over `mission mcp connect`, with the
// execution's id, token and socket from its environment; the workflow to
// plan read from its prompt (MISSION_TASK_PROMPT). With OTHER_WORKFLOW set it
// first tries to set that workflow's plan too and prints what it was told.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const prompt = process.env.MISSION_TASK_PROMPT ?? '';
const id = /\(workflow id (wf-[a-z0-9]+)\)/.exec(prompt)?.[1];
if (!id) {
  console.error(`no workflow id in the prompt: ${prompt.slice(0, 200)}`);
  process.exit(2);
}
const goal = prompt.split('## Goal\n\n')[1]?.trim() ?? '';
console.log(`planning ${id} for: ${goal}`);

const transport = new StdioClientTransport({
  command: process.env.MISSION_PATH ?? 'mission',
  args: ['mcp', 'connect', '--agent-execution', process.env.MISSION_AGENT_EXECUTION_ID],
  env: process.env,
});
const client = new Client({ name: 'planner-agent', version: '1.0.0' });
await client.connect(transport);

const plan = {
  summary: `Plan for: ${goal}`,
  approach: 'the table first, then the endpoint',
  tasks: [
    { name: 'db', description: 'add the status table', sequence: 0, files_likely_affected: ['db.sql'] },
    { name: 'api', description: 'serve GET /health', sequence: 0, depends_on: ['db'], estimated_complexity: 'low' },
  ],
};
if (process.env.OTHER_WORKFLOW) {
  const refused = await client.callTool({ name: 'workflow_set_plan', arguments: { id: process.env.OTHER_WORKFLOW, plan } });
  console.log(`other workflow: ${refused.isError ? refused.structuredContent?.code : 'planned'}`);
}
const result = await client.callTool({ name: 'workflow_set_plan', arguments: { id, plan } });
if (result.isError) {
  console.error(`workflow_set_plan refused: ${JSON.stringify(result.structuredContent)}`);
  process.exit(1);
}
console.log(`planned ${id}: ${result.structuredContent.tasks_created} tasks`);
await client.close();
