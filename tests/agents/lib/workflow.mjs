// Real agents under a workflow run (docs/adr/0023, 0027): a git repository
// in the sandbox, a workflow planned through mission's planning tools over
// the bridge (a minimal MCP client on stdio, no SDK), `mission workflows run`
// under a hard timeout, and how each adapter's CLI is pointed at a local
// model API stub with a dummy credential.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  agentBinary, check, log, mission, missionPath, runAgent, writePrivate,
} from './harness.mjs';

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: 'Mission Test', GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Mission Test', GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

export function git(sb, repo, ...args) {
  const r = spawnSync('git', ['-C', repo, ...args], {
    env: { ...sb.env, ...GIT_IDENTITY }, encoding: 'utf8', timeout: 15000, killSignal: 'SIGKILL',
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/// A repository with one commit on main, in the sandbox's work dir.
export function makeRepo(sb) {
  const repo = path.join(sb.work, 'repo');
  fs.mkdirSync(repo, { recursive: true });
  git(sb, repo, 'init', '-q', '-b', 'main');
  git(sb, repo, 'config', 'user.name', 'Mission Test');
  git(sb, repo, 'config', 'user.email', 'test@example.com');
  fs.writeFileSync(path.join(repo, 'README.md'), 'a repository for a workflow run\n');
  git(sb, repo, 'add', '-A');
  git(sb, repo, 'commit', '-q', '-m', 'first');
  log(`repository ${repo}`);
  return repo;
}

/// A minimal MCP client over `mission mcp connect` (newline-delimited
/// JSON-RPC on stdio), for the planner's tool calls.
class Bridge {
  constructor(sb, id, token, cwd) {
    this.child = spawn(missionPath(), ['mcp', 'connect', '--agent-execution', id], {
      env: { ...sb.env, MISSION_MCP_TOKEN: token }, cwd, stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.pending = new Map();
    this.nextId = 1;
    this.stderr = '';
    let buffer = '';
    this.child.stderr.on('data', (d) => { this.stderr += d; });
    this.child.stdout.on('data', (d) => {
      buffer += d;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line) continue;
        const msg = JSON.parse(line);
        const waiter = this.pending.get(msg.id);
        if (waiter) {
          this.pending.delete(msg.id);
          waiter(msg);
        }
      }
    });
  }

  request(method, params, timeoutMs = 15000) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`MCP ${method}: no answer in ${timeoutMs / 1000}s (${this.stderr})`));
      }, timeoutMs);
      this.pending.set(id, (msg) => {
        clearTimeout(timer);
        if (msg.error) reject(new Error(`MCP ${method}: ${JSON.stringify(msg.error)}`));
        else resolve(msg.result);
      });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  async open() {
    await this.request('initialize', {
      protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'mission-agents-planner', version: '1' },
    });
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  }

  async call(name, args) {
    const result = await this.request('tools/call', { name, arguments: args });
    if (result.isError) throw new Error(`${name} refused: ${JSON.stringify(result.structuredContent ?? result.content)}`);
    return result.structuredContent;
  }

  close() {
    this.child.stdin.end();
    setTimeout(() => { try { this.child.kill('SIGKILL'); } catch { /* gone */ } }, 2000).unref();
  }
}

/// Plans a workflow in `repo` through the planning tools: workflow_create,
/// then workflow_set_plan with `tasks` ({name, description, depends_on?}).
/// Returns the workflow id.
export async function planWorkflow(sb, repo, name, tasks) {
  const out = JSON.parse(mission(sb, ['--json', 'exec', 'create', '--delivery', 'mcp-tool', '--print-token',
                                       '--cwd', repo, '--toolsets', 'planning']));
  const bridge = new Bridge(sb, out.execution.id, out.token, repo);
  try {
    await bridge.open();
    const workflow = await bridge.call('workflow_create', {
      name, source_type: 'prompt', source_content: `${name}: one file per task`, repository_path: repo,
      max_parallel_tasks: tasks.length,
    });
    await bridge.call('workflow_set_plan', {
      id: workflow.id,
      plan: {
        summary: name, approach: 'each task writes one file',
        tasks: tasks.map((t) => ({ sequence: 1, depends_on: [], ...t })),
      },
    });
    log(`workflow ${workflow.id} planned: ${tasks.map((t) => t.name).join(', ')}`);
    return workflow.id;
  } finally {
    bridge.close();
    mission(sb, ['exec', 'stop', out.execution.id]);
  }
}

/// `mission --json workflows run ID ARGS...` attached, under runAgent's hard
/// timeout (its process group is killed then; the run itself stays with the
/// daemon, which the sandbox's cleanup stops). `env` is the agents'
/// environment: the CLI passes its own on.
export function runWorkflow(sb, id, args, { env, timeoutMs }) {
  return runAgent(`workflows run ${id}`, missionPath(), ['--json', 'workflows', 'run', id, ...args],
                  { env, cwd: sb.work, timeoutMs });
}

export function runStatus(sb, id) {
  return JSON.parse(mission(sb, ['--json', 'workflows', 'status', id]));
}

/// Stops the workflow's run if it is still live (the test's bound passed).
export function stopRun(sb, id) {
  const run = runStatus(sb, id);
  if (['running', 'stopping'].includes(run.status)) {
    log(`run of ${id} still ${run.status}: stopping it`);
    mission(sb, ['workflows', 'stop', id]);
  }
}

/// How each adapter's CLI reaches the stub model API at `url` with a dummy
/// credential, offline, and its words before the one-shot prompt (the run
/// adds `-p PROMPT`, `exec PROMPT`, `run PROMPT`). Files go under sb.cfg and
/// sb.home. Returns { env, args, modelPath } (the stub's endpoint path).
export function agentSetup(adapter, sb, url) {
  const env = { ...sb.env };
  switch (adapter) {
    case 'claude-code':
      Object.assign(env, {
        MISSION_CLAUDE_CODE_BIN: agentBinary('claude'),
        ANTHROPIC_API_KEY: 'sk-ant-mission-test-dummy',
        ANTHROPIC_BASE_URL: url,
        CLAUDE_CODE_MAX_RETRIES: '0',
        MCP_TIMEOUT: '30000',
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      });
      return { env, args: ['--bare', '--no-session-persistence'], modelPath: '/v1/messages' };
    case 'codex': {
      const codexHome = path.join(sb.home, '.codex');
      fs.mkdirSync(codexHome, { recursive: true });
      // The stub provider in CODEX_HOME's config: the run puts `exec PROMPT`
      // after the words given, and `-c` works before `exec` too, but a file
      // keeps the command line short.
      writePrivate(path.join(codexHome, 'config.toml'), [
        'model_provider = "mission_stub"',
        'model = "gpt-4.1"',
        '[model_providers.mission_stub]',
        'name = "mission test stub"',
        `base_url = "${url}/v1"`,
        'env_key = "OPENAI_API_KEY"',
        'wire_api = "responses"',
        'request_max_retries = 0',
        'stream_max_retries = 0',
        '',
      ].join('\n'));
      Object.assign(env, {
        MISSION_CODEX_BIN: agentBinary('codex'), CODEX_HOME: codexHome, OPENAI_API_KEY: 'sk-mission-test-dummy',
      });
      return { env, args: [], modelPath: '/v1/responses' };
    }
    case 'opencode': {
      const globalDir = path.join(sb.env.XDG_CONFIG_HOME, 'opencode');
      fs.mkdirSync(globalDir, { recursive: true });
      writePrivate(path.join(globalDir, 'opencode.json'), JSON.stringify({
        $schema: 'https://opencode.ai/config.json',
        provider: { anthropic: { options: { baseURL: `${url}/v1` } } },
        model: 'anthropic/claude-sonnet-4-5',
        autoupdate: false,
        share: 'disabled',
      }, null, 2));
      Object.assign(env, {
        MISSION_OPENCODE_BIN: agentBinary('opencode'),
        OPENCODE_DISABLE_PROJECT_CONFIG: '1',
        OPENCODE_DISABLE_CLAUDE_CODE: '1',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_SHARE: '1',
        ANTHROPIC_API_KEY: 'sk-ant-mission-test-dummy',
      });
      return { env, args: ['--pure'], modelPath: '/v1/messages' };
    }
    case 'copilot':
      Object.assign(env, {
        MISSION_COPILOT_BIN: agentBinary('copilot'),
        COPILOT_HOME: path.join(sb.home, '.copilot'),
        COPILOT_OFFLINE: 'true',
        COPILOT_AUTO_UPDATE: 'false',
        COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
        COPILOT_PROVIDER_API_KEY: 'sk-mission-test-dummy',
        COPILOT_MODEL: 'gpt-4o',
      });
      return {
        env,
        args: ['--no-auto-update', '--no-custom-instructions', '--disable-builtin-mcps',
               '--log-dir', path.join(sb.root, 'copilot-logs')],
        modelPath: '/v1/chat/completions',
      };
    case 'pi': {
      const agentDir = path.join(sb.home, '.pi', 'agent');
      fs.mkdirSync(agentDir, { recursive: true });
      writePrivate(path.join(agentDir, 'models.json'),
                   JSON.stringify({ providers: { anthropic: { baseUrl: url } } }, null, 2));
      Object.assign(env, {
        MISSION_PI_BIN: agentBinary('pi'),
        PI_CODING_AGENT_DIR: agentDir,
        PI_OFFLINE: '1',
        PI_TELEMETRY: '0',
        ANTHROPIC_API_KEY: 'sk-ant-mission-test-dummy',
      });
      return {
        env,
        args: ['--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--no-session', '--no-extensions',
               '--no-skills', '--no-context-files'],
        modelPath: '/v1/messages',
      };
    }
    default:
      throw new Error(`no set-up for adapter ${adapter}`);
  }
}

/// What an agent needs once before a run starts several of it at once.
/// OpenCode creates its database (migrations) on its first start, and two
/// first starts at the same moment race ("Failed query: CREATE TABLE
/// `workspace`"): one `opencode session list` creates it first.
export async function warmUp(adapter, sb, setup) {
  if (adapter !== 'opencode') return;
  const r = await runAgent('opencode session list (creates its database)', setup.env.MISSION_OPENCODE_BIN,
                           ['session', 'list'], { env: setup.env, cwd: sb.work, timeoutMs: 30000 });
  if (r.code !== 0) throw new Error(`opencode session list exited ${r.code ?? r.signal}: ${r.stderr}`);
}

/// The task a run's prompt names ("Your task is "NAME" (task id ID,
/// attempt N"), from a model request's text; null when there is none.
export function taskOf(text) {
  const m = /Your task is (?:\\+)"([^"\\]+)(?:\\+)" \(task id (tk-[a-z0-9]+), attempt (\d+)/.exec(text);
  return m ? { name: m[1], id: m[2], attempt: Number(m[3]) } : null;
}

/// The agent's working directory, as the agents tell their model.
export function workDirOf(text) {
  const m = /(?:working directory|cwd)[^/\n]{0,40}?(\/[^\s"<\\]+)/i.exec(text);
  return m ? m[1] : null;
}

/// Checks that an attached `workflows run` (runWorkflow's result) ended by
/// itself with exit 0 and that its run (runStatus's) completed.
export function checkRunCompleted(run, status) {
  const ended = check(!run.timedOut && run.code === 0,
                      `mission workflows run ended by itself, exit 0 (exit ${run.code ?? run.signal}, ${(run.ms / 1000).toFixed(1)}s)`);
  const completed = check(status.status === 'completed',
                          `the run completed (status ${status.status}, reason ${status.reason})`);
  return ended && completed;
}
