// Launching a real agent the way a user does, through its adapter:
// `mission run [--detach] --adapter A --bin BIN -- ARGS`, and the checks
// every such launch must pass. The adapter, not the test, writes the
// agent's MCP config; the test only gives the agent a dummy credential and
// the stub model API.

import fs from 'node:fs';
import path from 'node:path';
import {
  check, createExecution, log, mission, missionPath, runAgent, sessionsOf, showExecution, tail,
  waitDetached, writePrivate,
} from './harness.mjs';

const FINAL = ['completed', 'failed', 'cancelled', 'lost'];

/// Polls exec show until the execution is final and its MCP sessions have
/// detached, or limitMs passes; then, if it still runs, stops it (SIGKILL)
/// so the test never hangs on it.
async function waitFinal(sb, id, limitMs) {
  const end = Date.now() + limitMs;
  for (;;) {
    const ex = showExecution(sb, id);
    const settled = FINAL.includes(ex.state) && (ex.mcpSessions || []).every((s) => !s.attached);
    if (settled) return { ex, timedOut: false };
    if (Date.now() > end) {
      if (!FINAL.includes(ex.state)) {
        log(`${id} still ${ex.state} after ${limitMs / 1000}s: stopping it`);
        mission(sb, ['exec', 'stop', '--force', id]);
      }
      return { ex: showExecution(sb, id), timedOut: !FINAL.includes(ex.state) };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/// The execution's whole output log, both streams, as text.
export function logText(sb, id) {
  const page = JSON.parse(mission(sb, ['--json', 'exec', 'logs', id, '--limit', '10000']));
  return page.lines.map((l) => `${l.stream === 'stderr' ? 'E' : 'O'} ${l.text}`).join('\n');
}

/// Launches through `mission run`. Attached, `mission run` itself runs under
/// runAgent's timeout and process-group kill (its Ctrl-C path stops the
/// execution); detached, the execution is polled and force-stopped at the
/// timeout. Returns { id, ex, run?, timedOut, logs }.
export async function launchThroughMission(sb, label, { adapter, bin, args, env, detach = false, timeoutMs }) {
  const runArgs = ['run', ...(detach ? ['--detach'] : []), '--adapter', adapter, '--bin', bin, '--', ...args];
  let run = null;
  let id;
  if (detach) {
    log(`mission ${runArgs.join(' ')}`);
    id = mission(sb, runArgs, { env }).trim();
  } else {
    run = await runAgent(label, missionPath(), runArgs, { env, cwd: sb.work, timeoutMs });
    const listed = JSON.parse(mission(sb, ['--json', 'exec', 'list', '--limit', '1']));
    id = listed.executions[0] && listed.executions[0].id;
  }
  if (!/^ae-[a-z0-9]+$/.test(id || '')) throw new Error(`no execution from mission run (got ${JSON.stringify(id)})`);
  log(`execution ${id} launched`);
  const waited = await waitFinal(sb, id, detach ? timeoutMs : 10000);
  const timedOut = waited.timedOut || Boolean(run && run.timedOut);
  return { id, ex: waited.ex, run, timedOut, logs: logText(sb, id) };
}

/// What every launch through an adapter proves: it ended by itself, failed
/// (the credential is a dummy), with the agent's error in its log; the
/// execution records the adapter and the selected delivery; its temporary
/// config is gone; and an MCP-capable agent's client attached by name,
/// listed the tools and detached.
export function checkLaunch(agent, sb, result, { adapter, delivery, clientName, error, timeoutMs }) {
  const { id, ex, run } = result;
  let ok = true;
  ok &= check(!result.timedOut, `${agent} ended by itself within ${timeoutMs / 1000}s`);
  if (run) {
    ok &= check(run.signal === null && run.code !== 0 && run.code !== null,
                `mission run exited with ${agent}'s failure status (${run.code ?? run.signal})`);
  }
  ok &= check(ex.adapter === adapter && ex.delivery === delivery,
              `the execution records adapter ${adapter} and delivery ${delivery} (got ${ex.adapter}, ${ex.delivery})`);
  ok &= check(ex.state === 'failed', `it ended failed, as the dummy credential makes it (state ${ex.state}, exit ${ex.exitCode ?? ex.exitSignal})`);
  ok &= check(error.test(result.logs), `the agent's error is in mission exec logs (${error})`,
              tail(result.logs, 1500));
  ok &= check(!fs.existsSync(path.join(sb.runtime, 'launch', id)),
              'the temporary config the adapter wrote is gone');
  if (clientName) {
    const sessions = sessionsOf(ex, clientName);
    ok &= check(sessions.length >= 1, `an MCP session from client "${clientName}" was recorded`);
    ok &= check(sessions.some((s) => s.toolLists >= 1), 'that session listed the tools (toolLists >= 1)');
    ok &= check(sessions.every((s) => !s.attached), `the bridge detached when ${agent} exited`);
    if (sessions[0]) {
      const s = sessions[0];
      log(`session: client ${s.client.name} ${s.client.version}, protocol ${s.protocolVersion}, toolLists ${s.toolLists}, calls ${s.calls}`);
    }
  } else {
    ok &= check((ex.mcpSessions || []).length === 0, `no MCP session (${delivery} delivery)`);
  }
  log(`command: ${JSON.stringify(ex.command).slice(0, 400)}`);
  return Boolean(ok);
}

/// The other way in: a user pastes `mission mcp config --adapter A
/// --agent-execution ID` into the agent's own config and gives the agent
/// MISSION_MCP_TOKEN. `run(configFile, token)` starts the agent with that
/// file; the check is that its MCP client reached the execution.
export async function checkPastedConfig(agent, sb, adapter, clientName, fileName, run) {
  const exec = createExecution(sb);
  const text = mission(sb, ['mcp', 'config', '--adapter', adapter, '--agent-execution', exec.id]);
  let ok = check(!text.includes(exec.token), `mission mcp config --adapter ${adapter} holds no token`);
  const file = writePrivate(path.join(sb.cfg, fileName), text);
  const result = await run(file, exec.token);
  const ex = await waitDetached(sb, exec.id);
  const sessions = sessionsOf(ex, clientName);
  ok &= check(sessions.some((s) => s.toolLists >= 1),
              `${agent} with the pasted config and MISSION_MCP_TOKEN in its environment attached and listed the tools`,
              `${tail(result.stdout, 800)}\n${tail(result.stderr, 800)}\n${JSON.stringify(ex.mcpSessions)}`);
  mission(sb, ['exec', 'stop', exec.id]);  // it was never launched: it just ends
  return Boolean(ok);
}
