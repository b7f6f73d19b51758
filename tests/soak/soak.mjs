// Soak test (not in CI): an isolated missiond under mixed load for a set
// time, its resident memory and open descriptors sampled as it goes.
//
//   node tests/soak/soak.mjs [BUILD_DIR]          (default: build)
//
// Knobs (environment):
//   SOAK_SECONDS         how long the load runs (default 3600)
//   SOAK_SAMPLE_SECONDS  seconds between samples of RSS and fds (default 30)
//   SOAK_AGENTS          MCP sessions sending tracking calls and signals (default 4)
//   SOAK_PAUSE_MS        pause of each agent between two calls (default 20: about
//                        150 calls/s in all, a busy day's rate, not a benchmark)
//
// The load, all at once and each bounded by SOAK_SECONDS:
//   - SOAK_AGENTS MCP sessions on the control socket (hello, mcp.attach,
//     initialize), each starting a mission and tasks, logging milestones
//     and sending progress signals, then closing and coming back as a new
//     session every 200 calls;
//   - executions launched with `mission run --detach` (a shell that prints
//     lines and a signal marker, then ends), one every 2 s, and messages
//     sent to the running ones with `mission send`;
//   - `mission status` and daemon.status on a fresh connection, every 1 s;
//   - hostile clients every 5 s: one that never says hello, one that sends
//     garbage and JSON nested far too deep, one that pipelines 200
//     execution.list requests without reading for 2 s, one that leaves an
//     unfinished 200 KiB line and goes.
// Every sample prints the daemon's RSS, its fd count and what the load has
// done; the end prints the start (the first sample after a minute of
// warm-up), end and largest RSS and fd count, and whether memory is flat:
// the mean RSS of the last quarter of the run is within 10% (or 2 MiB) of
// the mean of the second quarter, and the fd count ends where it started.
// Exits 1 when it is not.
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const build = path.resolve(process.argv[2] ?? path.join(root, "build"));
const mission = path.join(build, "bin/mission");
const seconds = Number(process.env.SOAK_SECONDS ?? 3600);
const sampleSeconds = Number(process.env.SOAK_SAMPLE_SECONDS ?? 30);
const agents = Number(process.env.SOAK_AGENTS ?? 4);
const pauseMs = Number(process.env.SOAK_PAUSE_MS ?? 20);
const warmupMs = Math.min(60_000, (seconds * 1000) / 10);

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "mission-soak-"));
const work = path.join(scratch, "work");
fs.mkdirSync(path.join(work, "src"), { recursive: true });
fs.writeFileSync(path.join(work, "src", "main.c"), "int main(void) { return 0; }\n");
const env = { ...process.env, MISSION_RUNTIME_DIR: path.join(scratch, "run"), MISSION_STATE_DIR: path.join(scratch, "state"), NO_COLOR: "1" };
delete env.MISSION_SOCKET;
const socketPath = path.join(env.MISSION_RUNTIME_DIR, "daemon.sock");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const started = Date.now();
const deadline = started + seconds * 1000;
const running = () => Date.now() < deadline;

const counts = { tracking: 0, sessions: 0, launched: 0, messages: 0, status: 0, hostile: 0, errors: 0 };
const errorSamples = new Set();
function noteError(what, error) {
  counts.errors++;
  if (errorSamples.size < 20) errorSamples.add(`${what}: ${String(error?.message ?? error).slice(0, 200)}`);
}

function runMission(args, timeout = 30_000) {
  return new Promise((resolve, reject) => {
    execFile(mission, args, { env, encoding: "utf8", timeout }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
  });
}

// One line-oriented JSON-RPC client on the control socket.
class Client {
  static open() {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection(socketPath, () => resolve(new Client(socket)));
      socket.once("error", reject);
    });
  }
  constructor(socket) {
    this.socket = socket;
    this.buffer = "";
    this.waiting = new Map();
    this.nextId = 1;
    socket.on("data", (chunk) => {
      this.buffer += chunk.toString("utf8");
      for (let at; (at = this.buffer.indexOf("\n")) >= 0; ) {
        const line = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + 1);
        let message;
        try { message = JSON.parse(line); } catch { continue; }
        const entry = this.waiting.get(message.id);
        if (entry) {
          this.waiting.delete(message.id);
          entry(message);
        }
      }
    });
    const fail = () => {
      for (const entry of this.waiting.values()) entry({ error: { message: "connection closed" } });
      this.waiting.clear();
    };
    socket.on("close", fail);
    socket.on("error", fail);
  }
  request(method, params = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { this.waiting.delete(id); reject(new Error(`${method}: no answer in 30 s`)); }, 30_000);
      this.waiting.set(id, (message) => {
        clearTimeout(timer);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result);
      });
      this.socket.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  }
  notify(method, params = {}) {
    this.socket.write(JSON.stringify({ jsonrpc: "2.0", method, params }) + "\n");
  }
  close() { this.socket.destroy(); }
}

async function hello() {
  const client = await Client.open();
  await client.request("hello", { protocol: 1, client: { name: "soak" } });
  return client;
}

const tool = async (client, name, args) => {
  const result = await client.request("tools/call", { name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content).slice(0, 200)}`);
  counts.tracking++;
  if (pauseMs > 0) await sleep(pauseMs);
  return result.structuredContent ?? JSON.parse(result.content[0].text);
};

// An agent over MCP: missions, tasks, milestones, signals; a new session
// every 200 calls.
async function agentLoop(n) {
  while (running()) {
    let client;
    try {
      client = await hello();
      await client.request("mcp.attach", { cwd: work, toolsets: ["signals", "tracking"] });
      await client.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: `soak-agent-${n}`, version: "1" } });
      client.notify("notifications/initialized");
      counts.sessions++;
      for (let calls = 0; calls < 200 && running(); ) {
        const started = await tool(client, "start_mission", { name: `soak ${n}`, objective: "stay flat" });
        const task = await tool(client, "start_task", { mission_id: started.mission_id, name: "t", goal: "g" });
        calls += 2;
        for (let i = 0; i < 8 && running(); ++i, ++calls) {
          await tool(client, "log_milestone", { task_id: task.task_id, message: `step ${i}`, progress: i * 10, metadata: { i } });
          await tool(client, "progress", { summary: `step ${i}` });
        }
        await tool(client, "complete_task", { task_id: task.task_id, status: "success", outcome: { summary: "done" } });
        await tool(client, "complete_mission", { mission_id: started.mission_id, status: "completed", summary: "done" });
        calls += 2;
      }
    } catch (error) {
      noteError(`agent ${n}`, error);
      await sleep(500);
    } finally {
      client?.close();
    }
  }
}

// Executions launched and ended, and messages to the ones still running.
async function executionLoop() {
  const script = 'echo "@@agent-execution::{\\"signal\\":{\\"type\\":\\"progress\\",\\"message\\":\\"soak\\"}}"; for i in 1 2 3 4 5; do echo "line $i"; sleep 0.3; done';
  while (running()) {
    try {
      const out = await runMission(["run", "--detach", "--cwd", work, "--", "sh", "-c", script]);
      counts.launched++;
      const id = out.trim().split(/\s+/).find((word) => word.startsWith("ae-")) ?? out.trim();
      await sleep(300);
      try {
        await runMission(["send", id, `hello ${counts.launched}`]);
        counts.messages++;
      } catch (error) {
        // The execution may have ended already.
        if (!/ended|nobody would read/.test(String(error.message))) noteError("send", error);
      }
    } catch (error) {
      noteError("run", error);
    }
    await sleep(2000);
  }
}

async function statusLoop() {
  while (running()) {
    try {
      await runMission(["status"]);
      const client = await hello();
      await client.request("daemon.status");
      client.close();
      counts.status++;
    } catch (error) {
      noteError("status", error);
    }
    await sleep(1000);
  }
}

async function hostileLoop() {
  while (running()) {
    try {
      const silent = net.createConnection(socketPath);  // never says hello
      silent.on("error", () => {});
      const garbage = net.createConnection(socketPath);
      garbage.on("error", () => {});
      garbage.write("not json\n" + "[".repeat(100_000) + "\n" + "\x00\xff\n");
      const pipeliner = await hello();
      pipeliner.socket.pause();
      let lines = "";
      for (let i = 0; i < 200; ++i) lines += JSON.stringify({ jsonrpc: "2.0", id: 1000 + i, method: "execution.list", params: { limit: 100 } }) + "\n";
      pipeliner.socket.write(lines);
      const partial = await hello();
      partial.socket.write("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"daemon.status\",\"params\":{\"x\":\"" + "a".repeat(200 * 1024));
      await sleep(2000);
      pipeliner.socket.resume();
      for (const socket of [silent, garbage, pipeliner.socket, partial.socket]) socket.destroy();
      counts.hostile++;
    } catch (error) {
      noteError("hostile", error);
    }
    await sleep(3000);
  }
}

function sample(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (key) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))[1]);
  return { at: Date.now() - started, rssKiB: kib("VmRSS"), fds: fs.readdirSync(`/proc/${pid}/fd`).length };
}

const mib = (kib) => (kib / 1024).toFixed(1);
let pid;
let exitCode = 0;
try {
  execFileSync(mission, ["daemon", "start"], { env });
  pid = Number(JSON.parse(execFileSync(mission, ["--json", "daemon", "status"], { env, encoding: "utf8" })).pid);
  console.log(`soak: missiond ${pid} for ${seconds} s, a sample every ${sampleSeconds} s, ${agents} agents`);
  const samples = [];
  const sampler = (async () => {
    while (running()) {
      const s = sample(pid);
      samples.push(s);
      console.log(`${(s.at / 1000).toFixed(0).padStart(6)} s  rss ${mib(s.rssKiB).padStart(6)} MiB  fds ${String(s.fds).padStart(4)}  ` +
                  Object.entries(counts).map(([k, v]) => `${k} ${v}`).join("  "));
      await sleep(Math.min(sampleSeconds * 1000, Math.max(0, deadline - Date.now())));
    }
  })();
  await Promise.all([sampler, executionLoop(), statusLoop(), hostileLoop(),
                     ...Array.from({ length: agents }, (_, n) => agentLoop(n))]);
  await sleep(3000);  // let the last executions end and connections close
  const last = sample(pid);
  samples.push(last);
  const settled = samples.filter((s) => s.at >= warmupMs);
  const first = settled[0] ?? samples[0];
  const quarter = (from, to) => {
    const part = samples.filter((s) => s.at >= (seconds * 1000 * from) / 4 && s.at < (seconds * 1000 * to) / 4);
    return part.length ? part.reduce((sum, s) => sum + s.rssKiB, 0) / part.length : last.rssKiB;
  };
  const second = quarter(1, 2);
  const fourth = quarter(3, 5);
  const maxRss = Math.max(...samples.map((s) => s.rssKiB));
  const maxFds = Math.max(...samples.map((s) => s.fds));
  const rssFlat = fourth - second <= Math.max(second * 0.1, 2048);
  const fdsFlat = last.fds <= first.fds;
  console.log(`soak: ${seconds} s, ${samples.length} samples; ` + Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(", "));
  console.log(`soak: rss start ${mib(first.rssKiB)} MiB (after ${(first.at / 1000).toFixed(0)} s), end ${mib(last.rssKiB)} MiB, max ${mib(maxRss)} MiB; ` +
              `mean of the 2nd quarter ${mib(second)} MiB, of the 4th ${mib(fourth)} MiB`);
  console.log(`soak: fds start ${first.fds}, end ${last.fds}, max ${maxFds}`);
  for (const error of errorSamples) console.log(`soak: error seen: ${error}`);
  console.log(`soak: memory ${rssFlat ? "flat" : "GROWING"}, descriptors ${fdsFlat ? "flat" : "GROWING"}`);
  if (!rssFlat || !fdsFlat) exitCode = 1;
} catch (error) {
  console.error(`soak: ${error.stack ?? error}`);
  exitCode = 2;
} finally {
  try { execFileSync(mission, ["daemon", "stop", "--force"], { env, timeout: 20_000 }); } catch {}
  fs.rmSync(scratch, { recursive: true, force: true });
}
process.exit(exitCode);
