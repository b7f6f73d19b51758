// Hostile clients against an isolated missiond (docs/adr/0011):
//   1. one client pipelines 600 execution.list requests (each reply a page
//      of 300 executions) and reads nothing for 3 s: missiond's RSS;
//   2. one MCP batch of 100 tools/list: missiond's RSS and the reply size;
//   3. 2,000 connections each holding an unfinished 200 KiB line, opened
//      while `mission status` runs 200 times: its p50/p99, how many
//      succeeded, and missiond's RSS.
// Usage: node tests/bench/hostile_clients_bench.mjs [BUILD_DIR]  (default: build)
// Knobs: BENCH_HOSTILE_CONNECTIONS (2000), BENCH_STATUS_RUNS (200).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const build = path.resolve(process.argv[2] ?? path.join(root, "build"));
const mission = path.join(build, "bin/mission");
const connections = Number(process.env.BENCH_HOSTILE_CONNECTIONS ?? 2000);
const statusRuns = Number(process.env.BENCH_STATUS_RUNS ?? 200);

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "mission-hostile-"));
const env = { ...process.env, MISSION_RUNTIME_DIR: path.join(scratch, "run"), MISSION_STATE_DIR: path.join(scratch, "state") };
delete env.MISSION_SOCKET;
const socketPath = path.join(env.MISSION_RUNTIME_DIR, "daemon.sock");
const run = (args) => execFileSync(mission, args, { env, encoding: "utf8" });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function rss(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const pick = (key) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))[1]);
  return { rssMiB: (pick("VmRSS") / 1024).toFixed(1), peakMiB: (pick("VmHWM") / 1024).toFixed(1) };
}

function connect() {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath, () => resolve(socket));
    socket.on("error", reject);
  });
}

function line(id, method, params = {}) {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n";
}

// Reads lines until `count` have come; resolves with the first one.
function readLines(socket, count) {
  return new Promise((resolve) => {
    let seen = 0;
    let first = "";
    socket.on("data", (chunk) => {
      for (const byte of chunk) {
        if (seen === 0) first += String.fromCharCode(byte);
        if (byte === 10 && ++seen === count) resolve(first);
      }
    });
  });
}

try {
  run(["daemon", "start"]);
  const pid = JSON.parse(run(["--json", "daemon", "status"])).pid;
  const cwd = path.join(scratch, "work");
  fs.mkdirSync(cwd);
  const baseline = rss(pid);
  console.log(`| idle daemon | RSS ${baseline.rssMiB} MiB |`);

  // 1. A pipelining client that does not read.
  const maker = await connect();
  const made = readLines(maker, 301);
  let batch = line(0, "hello", { protocol: 1, client: { name: "maker" } });
  for (let i = 1; i <= 300; i++) batch += line(i, "execution.create", { delivery: "mcp-tool", cwd });
  maker.write(batch);
  await made;
  maker.destroy();
  const hog = await connect();
  hog.pause();
  let requests = line(0, "hello", { protocol: 1, client: { name: "hog" } });
  for (let i = 1; i <= 600; i++) requests += line(i, "execution.list", { limit: 500 });
  hog.write(requests);
  await sleep(3000);
  const pipelined = rss(pid);
  const answered = readLines(hog, 601);
  hog.resume();
  await answered;
  hog.destroy();
  console.log(`| 600 pipelined execution.list, unread for 3 s | RSS ${pipelined.rssMiB} MiB (peak ${pipelined.peakMiB}) |`);

  // 2. A batch of 100 tools/list on an MCP session.
  const created = JSON.parse(run(["--json", "exec", "create", "--delivery", "mcp-tool", "--print-token"]));
  const session = await connect();
  const attached = readLines(session, 3);
  session.write(line(1, "hello", { protocol: 1, client: { name: "batch" } }) +
    line(2, "mcp.attach", { agentExecutionId: created.execution.id, token: created.token, cwd }) +
    line(3, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "b", version: "1" } }));
  await attached;
  session.removeAllListeners("data");
  session.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
  const items = [];
  for (let i = 0; i < 100; i++) items.push({ jsonrpc: "2.0", id: 100 + i, method: "tools/list" });
  let replyBytes = 0;
  const replied = new Promise((resolve) => session.on("data", (chunk) => {
    replyBytes += chunk.length;
    if (chunk.includes(10)) resolve();
  }));
  session.write(JSON.stringify(items) + "\n");
  await replied;
  session.destroy();
  const batched = rss(pid);
  console.log(`| one batch of 100 tools/list | reply ${(replyBytes / 1024).toFixed(0)} KiB, RSS ${batched.rssMiB} MiB (peak ${batched.peakMiB}) |`);

  const statusTimes = async (runs) => {
    const times = [];
    let failures = 0;
    for (let i = 0; i < runs; i++) {
      const start = process.hrtime.bigint();
      const code = await new Promise((resolve) => {
        const child = spawn(mission, ["status"], { env, stdio: "ignore" });
        child.on("exit", resolve);
      });
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (code !== 0) failures++;
    }
    times.sort((a, b) => a - b);
    return { times, failures };
  };
  const quiet = await statusTimes(statusRuns);
  const at = (times, p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(1);
  console.log(`| no hostile client | mission status p50 ${at(quiet.times, 50)} ms, p99 ${at(quiet.times, 99)} ms |`);
  // 3. A connection flood while `mission status` runs.
  const unfinished = Buffer.alloc(200 * 1024, "x");
  const flood = [];  // the daemon's closes are not read: these sockets never read
  let refusedOrClosed = 0;
  const opening = (async () => {
    for (let i = 0; i < connections; i++) {
      try {
        const socket = await connect();
        socket.on("error", () => {});
        socket.write(unfinished);
        flood.push(socket);
      } catch {
        refusedOrClosed++;
      }
    }
  })();
  const times = [];
  let failures = 0;
  for (let i = 0; i < statusRuns; i++) {
    const start = process.hrtime.bigint();
    // Asynchronous, so the flood goes on opening connections meanwhile.
    const code = await new Promise((resolve) => {
      const child = spawn(mission, ["status"], { env, stdio: "ignore" });
      child.on("exit", resolve);
    });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (code !== 0) failures++;
  }
  await opening;
  await sleep(1000);
  const flooded = rss(pid);
  const held = fs.readdirSync(`/proc/${pid}/fd`).length;
  times.sort((a, b) => a - b);
  const pct = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(1);
  console.log(`| ${connections} connections with unfinished 200 KiB lines | mission status p50 ${pct(50)} ms, p99 ${pct(99)} ms, ${failures} of ${statusRuns} failed; missiond holds ${held} fds (the rest were closed to make room); RSS ${flooded.rssMiB} MiB (peak ${flooded.peakMiB}) |`);
  for (const socket of flood) socket.destroy();
  const after = JSON.parse(run(["--json", "daemon", "status"]));
  console.log(`| afterwards | daemon running: ${after.running} |`);
} finally {
  try { run(["daemon", "stop", "--force"]); } catch {}
  fs.rmSync(scratch, { recursive: true, force: true });
}
