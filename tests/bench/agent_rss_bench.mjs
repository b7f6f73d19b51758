// The most daemon memory one agent can make missiond hold, one way at a
// time, each on a fresh isolated daemon: the peak resident size (VmHWM of
// /proc/<pid>/status), the resident size a second after the last reply
// (VmRSS, the agents still running) and the idle one before (VmRSS once
// the scenario's agents are up).
//   input     terminal.input of 64 KiB at a terminal agent that never reads
//             (a raw terminal, then `sleep`), until refused with
//             agent_not_reading, then 200 more;
//   keys      a typing viewer sends the same agent 64 MiB of keys;
//   messages  an agent pipelines 4,000 message_send of 16,000 characters to
//             an agent that never reads: one reached over MCP (kept in the
//             database), one on a terminal (refused past 1 MiB);
//   templates template_apply filled in to the 1 MiB limit (131 tasks of
//             8,000-character descriptions; 1,000 chained tasks of 1,000),
//             each applied and its plan loaded 20 times, and one that would
//             fill in 3.2 MB, refused 20 times;
//   resizes   a typing viewer resizes between 300 x 1000 and 299 x 999
//             100 times; another sends 1,000 frames of 65535 x 65535, which
//             must each be refused. How long the daemon took over them,
//             and the longest a daemon.status waited meanwhile, are shown
//             beside them.
// The agents speak the control protocol and MCP on the daemon's socket
// itself, as the bridge (`mission mcp connect`) relays them.
// Usage: nice -n 10 node tests/bench/agent_rss_bench.mjs [BUILD_DIR]  (default: build)
// Knobs: BENCH_SCENARIOS (all: input,keys,messages,templates,resizes),
// BENCH_MESSAGES (4000), BENCH_TEMPLATE_APPLIES (20), BENCH_RESIZES (100),
// BENCH_REFUSED_RESIZES (1000).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const build = path.resolve(process.argv[2] ?? path.join(root, "build"));
const mission = path.join(build, "bin/mission");
const scenarios = (process.env.BENCH_SCENARIOS ?? "input,keys,messages,templates,resizes").split(",");
const messageCount = Number(process.env.BENCH_MESSAGES ?? 4000);
const templateApplies = Number(process.env.BENCH_TEMPLATE_APPLIES ?? 20);
const resizeCount = Number(process.env.BENCH_RESIZES ?? 100);
const refusedResizeCount = Number(process.env.BENCH_REFUSED_RESIZES ?? 1000);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (kib) => (kib / 1024).toFixed(1);

function memory(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const pick = (key) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))[1]);
  return { rssKiB: pick("VmRSS"), peakKiB: pick("VmHWM") };
}

// One isolated daemon in a scratch directory of its own.
class Daemon {
  constructor() {
    this.scratch = fs.mkdtempSync(path.join(os.tmpdir(), "mission-agent-rss-"));
    this.env = { ...process.env, MISSION_RUNTIME_DIR: path.join(this.scratch, "run"),
                 MISSION_STATE_DIR: path.join(this.scratch, "state"),
                 GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "bench@example.com",
                 GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "bench@example.com" };
    delete this.env.MISSION_SOCKET;
    this.socketPath = path.join(this.env.MISSION_RUNTIME_DIR, "daemon.sock");
    this.cwd = path.join(this.scratch, "work");
    fs.mkdirSync(this.cwd);
    execFileSync("git", ["init", "-q", this.cwd]);
    this.agents = [];
    this.run(["daemon", "start"]);
    this.pid = JSON.parse(this.run(["--json", "daemon", "status"])).pid;
  }
  run(args) {
    return execFileSync(mission, args, { env: this.env, cwd: this.cwd, encoding: "utf8" });
  }
  // An agent on a terminal of the daemon's that never reads its input. Its
  // terminal is raw, as a full-screen agent's is: in line mode the kernel
  // would take and drop keys past its 4 KiB line without anyone reading.
  async terminalAgent() {
    // It says its pid (sleep's, after exec), to be ended whatever becomes of
    // the daemon: a daemon that stops leaves its agents running.
    const id = this.run(["run", "--detach", "--tty", "--", "sh", "-c", "stty raw -echo; echo ready $$; exec sleep 600"])
      .split("\n")[0].trim();
    for (let i = 0; i < 3000; i++) {
      const ready = this.run(["exec", "logs", id]).match(/ready (\d+)/);
      if (ready) {
        this.agents.push(Number(ready[1]));
        return id;
      }
      await sleep(10);
    }
    throw new Error(`agent ${id} did not start`);
  }
  memory() { return memory(this.pid); }
  // Seconds of CPU the daemon has used, user and system.
  cpuSeconds() {
    const fields = fs.readFileSync(`/proc/${this.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  }
  stop() {
    for (const pid of this.agents) {
      try { process.kill(pid, "SIGKILL"); } catch {}
    }
    try {
      this.run(["daemon", "stop", "--force"]);
    } catch {
      try { process.kill(this.pid, "SIGKILL"); } catch {}
    }
    fs.rmSync(this.scratch, { recursive: true, force: true });
  }
}

function connect(socketPath) {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath, () => resolve(socket));
    socket.on("error", reject);
  });
}

// JSON lines with replies matched by id; requests may be pipelined.
class LineClient {
  static async open(daemon, name) {
    const client = new LineClient(await connect(daemon.socketPath));
    await client.call("hello", { protocol: 1, client: { name } });
    return client;
  }
  constructor(socket) {
    this.socket = socket;
    this.next = 1;
    this.waiting = new Map();
    let buffered = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      buffered += chunk;
      let end;
      while ((end = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        const message = JSON.parse(line);
        const replies = Array.isArray(message) ? message : [message];
        for (const reply of replies) {
          const resolve = this.waiting.get(reply.id);
          if (resolve) {
            this.waiting.delete(reply.id);
            resolve(reply);
          }
        }
      }
    });
  }
  call(method, params) {
    const id = this.next++;
    const reply = new Promise((resolve) => this.waiting.set(id, resolve));
    this.socket.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    return reply;
  }
  close() { this.socket.destroy(); }
}

// An MCP session on the daemon's socket: an attached execution with these
// toolsets, made by its first tool call.
async function mcpAgent(daemon, toolsets) {
  const client = await LineClient.open(daemon, "bench-agent");
  const attached = await client.call("mcp.attach", { cwd: daemon.cwd, toolsets });
  if (attached.error) throw new Error(`mcp.attach: ${JSON.stringify(attached.error)}`);
  await client.call("initialize", { protocolVersion: "2025-06-18", capabilities: {},
                                    clientInfo: { name: "bench", version: "1" } });
  client.socket.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
  client.tool = async (name, args) => {
    const reply = await client.call("tools/call", { name, arguments: args });
    if (reply.error) return { isError: true, code: reply.error.data?.code ?? String(reply.error.code) };
    const result = reply.result;
    return result.isError ? { isError: true, code: result.structuredContent?.code } : result.structuredContent;
  };
  return client;
}

// A viewer on the control socket speaking terminal frames, as `mission
// attach` does. Collects notices; output is read and dropped.
async function viewer(daemon, id) {
  const socket = await connect(daemon.socketPath);
  const state = { socket, notices: [], lines: 0, pending: Buffer.alloc(0) };
  const attached = new Promise((resolve) => { state.attached = resolve; });
  socket.on("data", (chunk) => {
    let bytes = Buffer.concat([state.pending, chunk]);
    while (state.lines < 2) {  // the hello and terminal.attach replies
      const end = bytes.indexOf(10);
      if (end < 0) break;
      const reply = JSON.parse(bytes.subarray(0, end).toString("utf8"));
      bytes = bytes.subarray(end + 1);
      if (++state.lines === 2) state.attached(reply);
    }
    if (state.lines === 2) {
      while (bytes.length >= 5 && bytes.length >= 5 + bytes.readUInt32BE(1)) {
        const length = bytes.readUInt32BE(1);
        if (bytes[0] === "n".charCodeAt(0)) state.notices.push(bytes.subarray(5, 5 + length).toString("utf8"));
        bytes = bytes.subarray(5 + length);
      }
    }
    state.pending = Buffer.from(bytes);
  });
  socket.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "hello", params: { protocol: 1, client: { name: "viewer" } } }) + "\n" +
               JSON.stringify({ jsonrpc: "2.0", id: 2, method: "terminal.attach", params: { id } }) + "\n");
  const reply = await attached;
  if (reply.error) throw new Error(`terminal.attach: ${JSON.stringify(reply.error)}`);
  state.frame = (type, payload) => {
    const head = Buffer.alloc(5);
    head.write(type, 0, "latin1");
    head.writeUInt32BE(payload.length, 1);
    return Buffer.concat([head, payload]);
  };
  state.resize = (rows, columns) => {
    const payload = Buffer.alloc(4);
    payload.writeUInt16BE(rows, 0);
    payload.writeUInt16BE(columns, 2);
    return state.frame("r", payload);
  };
  state.waitNotices = async (test, count, what) => {
    for (let i = 0; i < 60000; i++) {
      if (state.notices.filter(test).length >= count) return;
      await sleep(10);
    }
    throw new Error(`timed out waiting for ${count} notices: ${what}`);
  };
  return state;
}

const drained = (socket) => new Promise((resolve) => {
  if (socket.writableLength === 0) resolve(); else socket.once("drain", resolve);
});

const count = (n) => n.toLocaleString("en-US");

// Each scenario, on a fresh daemon: sets up its agents, then returns
// { before, sent, after }, `before` the idle memory once its agents are up.
const scenarioTable = {
  async input(daemon) {
    const id = await daemon.terminalAgent();
    const client = await LineClient.open(daemon, "typist");
    const before = daemon.memory();
    const text = "t".repeat(64 * 1024);
    let accepted = 0;
    let refusal = null;
    while (accepted < 1000) {
      const reply = await client.call("terminal.input", { id, text, enter: false });
      if (reply.error) { refusal = reply.error.data?.code; break; }
      accepted++;
    }
    let refusedMore = 0;
    for (let i = 0; i < 200; i++) {
      const reply = await client.call("terminal.input", { id, text, enter: false });
      if (reply.error?.data?.code === "agent_not_reading") refusedMore++;
    }
    await sleep(1000);
    const after = daemon.memory();
    client.close();
    return { before, after, sent: `terminal.input of 64 KiB: ${accepted} accepted (${mib(accepted * 64)} MiB), then ${refusal}; ${refusedMore} of 200 more refused` };
  },

  async keys(daemon) {
    const id = await daemon.terminalAgent();
    const typist = await viewer(daemon, id);
    const before = daemon.memory();
    const keys = typist.frame("i", Buffer.alloc(64 * 1024, "k"));
    for (let i = 0; i < 1024; i++) {
      if (!typist.socket.write(keys)) await drained(typist.socket);
    }
    // A refused resize after the keys: its notice says they were all read.
    typist.socket.write(typist.resize(0, 0));
    await typist.waitNotices((n) => n.includes("0x0"), 1, "the resize after the keys");
    await sleep(1000);
    const after = daemon.memory();
    const told = typist.notices.filter((n) => n.includes("not reading")).length;
    typist.socket.destroy();
    return { before, after, sent: `a viewer typed 1,024 frames of 64 KiB of keys (64 MiB); told ${told}x it is not reading` };
  },

  "messages (to an MCP agent)": (daemon) => sendMessages(daemon, "mcp"),
  "messages (to a terminal agent)": (daemon) => sendMessages(daemon, "terminal"),
  "templates (wide)": (daemon) => applyTemplates(daemon, "wide"),
  "templates (many)": (daemon) => applyTemplates(daemon, "many"),
  "templates (refused)": (daemon) => applyTemplates(daemon, "refused"),
  "resizes (allowed)": (daemon) => resize(daemon, "allowed"),
  "resizes (refused)": (daemon) => resize(daemon, "refused"),
};

// The longest a daemon.status on `client`'s connection waited for its
// answer, asked one after the other until `done` resolves.
async function longestStatusWait(client, done) {
  let finished = false;
  done.then(() => { finished = true; }, () => { finished = true; });
  let longest = 0;
  while (!finished) {
    const start = process.hrtime.bigint();
    await client.call("daemon.status", {});
    longest = Math.max(longest, Number(process.hrtime.bigint() - start) / 1e6);
    await sleep(20);
  }
  client.close();
  return longest;
}

async function resize(daemon, kind) {
  const id = await daemon.terminalAgent();
  const typist = await viewer(daemon, id);
  const status = await LineClient.open(daemon, "status");
  const before = daemon.memory();
  const cpuBefore = daemon.cpuSeconds();
  const started = process.hrtime.bigint();
  let sent;
  let burstDone;
  const burst = new Promise((resolve) => { burstDone = resolve; });
  const waited = longestStatusWait(status, burst);
  if (kind === "allowed") {
    for (let i = 0; i < resizeCount; i++) {
      const frame = i % 2 === 0 ? typist.resize(300, 1000) : typist.resize(299, 999);
      if (!typist.socket.write(frame)) await drained(typist.socket);
    }
    typist.socket.write(typist.resize(300, 1000));
    // A refused resize after the others: its notice says they were all read.
    typist.socket.write(typist.resize(0, 0));
    await typist.waitNotices((n) => n.includes("0x0"), 1, "the resize after the others");
    sent = `${count(resizeCount)} resizes between 300x1000 and 299x999, ending at 300x1000`;
  } else {
    for (let i = 0; i < refusedResizeCount; i++) {
      if (!typist.socket.write(typist.resize(65535, 65535))) await drained(typist.socket);
    }
    await typist.waitNotices((n) => n.includes("65535x65535"), refusedResizeCount, "refusals");
    sent = `${count(refusedResizeCount)} resizes to 65535x65535: all refused`;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = daemon.cpuSeconds() - cpuBefore;
  burstDone();
  sent += `, handled in ${seconds.toFixed(1)} s (daemon CPU ${cpu.toFixed(1)} s); daemon.status meanwhile waited up to ${(await waited).toFixed(0)} ms`;
  await sleep(1000);
  const after = daemon.memory();
  typist.socket.destroy();
  return { before, after, sent };
}

async function sendMessages(daemon, kind) {
  const recipient = kind === "mcp"
    ? JSON.parse(daemon.run(["--json", "exec", "create", "--delivery", "mcp-tool", "--print-token"])).execution.id
    : await daemon.terminalAgent();
  const sender = await mcpAgent(daemon, ["coordination"]);
  const registered = await sender.tool("agent_register", { name: "sender", runtime: "custom" });
  if (registered.isError) throw new Error(`agent_register: ${registered.code}`);
  const before = daemon.memory();
  const body = "m".repeat(16000);
  const calls = [];
  for (let i = 0; i < messageCount; i++) {
    calls.push(sender.tool("message_send", { recipient_id: recipient, message_type: "notification", body }));
  }
  const results = await Promise.all(calls);
  const sent = results.filter((r) => !r.isError).length;
  const codes = {};
  for (const r of results) if (r.isError) codes[r.code] = (codes[r.code] ?? 0) + 1;
  await sleep(1000);
  const after = daemon.memory();
  sender.close();
  const refusals = Object.entries(codes).map(([code, n]) => `${count(n)} ${code}`).join(", ") || "none refused";
  return { before, after,
           sent: `${count(messageCount)} message_send of 16,000 chars, pipelined: ${count(sent)} sent (${mib(sent * 16000 / 1024)} MiB), ${refusals}` };
}

async function applyTemplates(daemon, kind) {
  const agent = await mcpAgent(daemon, ["planning", "templates"]);
  const tasks = [];
  let value;
  if (kind === "wide") {
    // 131 descriptions of 4 x 2,000 characters: 1,048,414 bytes with the names.
    for (let i = 0; i < 131; i++) tasks.push({ name: `t${i}`, description: "{{x}}".repeat(4), sequence: 0 });
    value = "w".repeat(2000);
  } else if (kind === "many") {
    // 1,000 tasks (a template's most), each waiting on the one before:
    // 1,007,781 bytes filled in.
    for (let i = 0; i < 1000; i++) {
      const task = { name: `t${i}`, description: "{{x}}", sequence: 0 };
      if (i > 0) task.depends_on = [`t${i - 1}`];
      tasks.push(task);
    }
    value = "m".repeat(1000);
  } else {
    // 1,600 placeholders: 3.2 MB once filled in, refused before it is built.
    tasks.push({ name: "t", description: "{{x}}".repeat(1600), sequence: 0 });
    value = "r".repeat(2000);
  }
  const created = await agent.tool("template_create", { name: kind, template: { tasks, variables: [{ name: "x", required: true }] } });
  if (created.isError) throw new Error(`template_create: ${created.code}`);
  const before = daemon.memory();
  let applied = 0;
  let nextTasks = "";
  const codes = {};
  for (let i = 0; i < templateApplies; i++) {
    const result = await agent.tool("template_apply", { template_id: created.id, workflow_name: `${kind} ${i}`, variables: { x: value } });
    if (result.isError) { codes[result.code] = (codes[result.code] ?? 0) + 1; continue; }
    applied++;
    // Loads the plan into the daemon's cache of plans; the first time also
    // asks for all the ready tasks it may list (50).
    if (applied === 1) {
      const all = await agent.tool("workflow_next_tasks", { workflow_id: result.workflow_id });
      nextTasks = all.isError ? `refused ${all.code}` : `${all.tasks.length} tasks`;
    }
    const next = await agent.tool("workflow_next_tasks", { workflow_id: result.workflow_id, limit: 1 });
    if (next.isError) throw new Error(`workflow_next_tasks: ${next.code}`);
  }
  await sleep(1000);
  const after = daemon.memory();
  agent.close();
  const refusals = Object.entries(codes).map(([code, n]) => `, ${n} refused ${code}`).join("");
  const what = { wide: "131 tasks x 8,000-char description (1 MiB)", many: "1,000 chained tasks x 1,000 chars (1 MiB)",
                 refused: "1 task x 1,600 {{x}} of 2,000 chars (3.2 MB)" }[kind];
  return { before, after,
           sent: `template_apply ${what} x ${templateApplies}: ${applied} applied${refusals}` +
                 (nextTasks ? `; workflow_next_tasks: ${nextTasks}` : "") };
}

console.log("| scenario | what one agent sent | peak RSS (VmHWM) | RSS after | idle RSS before |");
console.log("| --- | --- | --- | --- | --- |");
for (const [name, scenario] of Object.entries(scenarioTable)) {
  if (!scenarios.includes(name.split(" ")[0])) continue;
  const daemon = new Daemon();
  try {
    const row = await scenario(daemon);
    console.log(`| ${name} | ${row.sent} | ${mib(row.after.peakKiB)} MiB | ${mib(row.after.rssKiB)} MiB | ${mib(row.before.rssKiB)} MiB |`);
  } finally {
    daemon.stop();
  }
}
