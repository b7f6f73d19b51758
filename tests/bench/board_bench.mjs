// Figures for the board (ADR 0037), not a test: one real daemon with two
// planned workflows, one of 1,000 tasks (ten chains of a hundred: a hundred
// columns) and one of 10, and the board in headless chromium.
// - first paint: from navigating to the board until the first frame drawn
//   with the workflow's graph (every card of it), each load a new document;
//   the 1,000-task workflow and the 10-task one alternate, so both figures
//   come from the same minutes of the same machine, and beside them
//   `mission workflows show` of the 1,000-task workflow (the same graph
//   read by the CLI). Each paint is split into the page's reply from
//   /api/board (the daemon's part: its responseEnd) and the rest (the
//   browser's: script, layout, paint).
// - an event to the page: from the daemon stamping an event ("at") until
//   the page's EventSource has it, and until the page has read the board
//   again (drawing again only what changed), over twenty progress signals.
// Run (puppeteer-core from tests/board's lock, chromium from Debian):
//   MISSION_PATH=build/bin/mission nice -n 10 node tests/bench/board_bench.mjs
// BENCH_RUNS (default 9) loads of each workflow.
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { checkPrerequisites, runTest } from '../clients/harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const missionPath = checkPrerequisites([]);
// One pinned puppeteer-core for the board's test and its figures.
const boardPackages = createRequire(path.join(here, '..', 'board', 'package.json'));
const { default: puppeteer } = await import(pathToFileURL(boardPackages.resolve('puppeteer-core')).href);
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const runs = Number(process.env.BENCH_RUNS) || 9;

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}
const median = values => percentile(values, 0.5);
const ms = value => `${value.toFixed(0)} ms`;

function loadAverage() {
  return execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ')[0];
}

await runTest('board figures', missionPath, async h => {
  const created = await h.missionJson(['exec', 'create', '--toolsets', 'planning,signals', '--print-token']);
  const child = spawn(missionPath, ['mcp', 'connect', '--agent-execution', created.execution.id],
                      { env: { ...h.env, MISSION_MCP_TOKEN: created.token }, stdio: ['pipe', 'pipe', 'inherit'] });
  h.onCleanup(() => child.stdin.end());
  const pending = new Map();
  let next = 1;
  readline.createInterface({ input: child.stdout }).on('line', line => {
    const message = JSON.parse(line);
    pending.get(message.id)?.(message);
  });
  const request = (method, params) => new Promise(resolve => {
    const id = next++;
    pending.set(id, resolve);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });
  const call = async (name, args) => (await request('tools/call', { name, arguments: args })).result.structuredContent;
  await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'figures', version: '1' } });
  const planned = async (name, count) => {
    const workflow = await call('workflow_create', { name, source_type: 'prompt', source_content: 'x' });
    const tasks = [];
    for (let i = 0; i < count; ++i) {
      tasks.push({ name: `t${i}`, description: `task ${i}`, sequence: 1, depends_on: i >= 10 ? [`t${i - 10}`] : [] });
    }
    await call('workflow_set_plan', { id: workflow.id, plan: { summary: 's', approach: 'a', tasks } });
    return workflow.id;
  };
  const thousand = await planned('thousand', 1000);
  const ten = await planned('ten', 10);

  const link = (await h.missionJson(['board'])).url;
  const origin = new URL(link).origin;
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  h.onCleanup(() => browser.close());
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  // Noted in the page, so the figure holds no round trip to puppeteer: the
  // first frame after the graph is in the page (a frame callback, then a
  // task, runs once that frame's layout and paint are done). The page puts
  // the whole graph in at once (renderWorkflow).
  await page.evaluateOnNewDocument(() => {
    new MutationObserver((changes, observer) => {
      if (!document.querySelector('#workflow .dag')) return;
      observer.disconnect();
      const cards = document.querySelectorAll('.task').length;
      requestAnimationFrame(() => setTimeout(() => {
        const api = performance.getEntriesByType('resource').find(entry => new URL(entry.name).pathname === '/api/board');
        window.firstPaint = { at: performance.now(), cards, api: api ? api.responseEnd : NaN };
      }));
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(link);
  const load = async (id, cards) => {
    await page.goto('about:blank');
    await page.goto(`${origin}/#${id}`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => window.firstPaint !== undefined, { timeout: 60000 });
    const paint = await page.evaluate(() => window.firstPaint);
    if (paint.cards !== cards) throw new Error(`the board drew ${paint.cards} cards of ${cards}`);
    return paint;
  };
  const cli = () => {
    const started = process.hrtime.bigint();
    execFileSync(missionPath, ['workflows', 'show', thousand, '--json'], { env: h.env, stdio: ['ignore', 'ignore', 'inherit'] });
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  // A warm-up of each, not counted: chromium's first start of its renderer.
  await load(thousand, 1000);
  await load(ten, 10);
  const loadBefore = loadAverage();
  const big = [];
  const small = [];
  const shows = [];
  for (let i = 0; i < runs; ++i) {
    // Which goes first alternates, so neither always follows the other.
    if (i % 2 === 0) { big.push(await load(thousand, 1000)); small.push(await load(ten, 10)); }
    else { small.push(await load(ten, 10)); big.push(await load(thousand, 1000)); }
    shows.push(cli());
  }
  const line = (what, paints) => `${what}: p50 ${ms(median(paints.map(p => p.at)))}, max ${ms(Math.max(...paints.map(p => p.at)))} ` +
    `(/api/board answered at p50 ${ms(median(paints.map(p => p.api)))}; each: ${paints.map(p => p.at.toFixed(0)).join(', ')})`;
  console.log(`${runs} loads each, load average ${loadBefore} before and ${loadAverage()} after`);
  console.log(line('first paint of 1,000 tasks', big));
  console.log(line('first paint of 10 tasks', small));
  console.log(`mission workflows show of the 1,000 tasks --json: p50 ${ms(median(shows))}, max ${ms(Math.max(...shows))}`);

  // An EventSource beside the page's own, noting when each event arrives.
  await page.goto(`${origin}/#${thousand}`, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction(() => window.firstPaint !== undefined, { timeout: 60000 });
  await page.evaluate(() => {
    window.arrivals = [];
    const source = new EventSource('/events');
    source.onopen = () => { window.following = true; };
    source.onmessage = message => {
      const event = JSON.parse(message.data);
      if (event.at) window.arrivals.push({ at: Date.parse(event.at), seen: Date.now() });
    };
  });
  await page.waitForFunction(() => window.following === true && document.getElementById('live')?.textContent === 'live', { timeout: 30000 });
  const rendered = [];
  for (let i = 0; i < 20; ++i) {
    const before = Number(await page.evaluate(() => document.body.dataset.refreshed ?? 0));
    await call('progress', { summary: `figure ${i}`, eventId: `figure-${i}` });
    await page.waitForFunction(b => Number(document.body.dataset.refreshed) > b, { polling: 'mutation', timeout: 30000 }, before);
    const arrival = await page.evaluate(() => window.arrivals.at(-1));
    rendered.push({ arrival: arrival.seen - arrival.at, render: Number(await page.evaluate(() => document.body.dataset.refreshed)) - arrival.at });
  }
  const arrivals = rendered.map(r => r.arrival);
  const renders = rendered.map(r => r.render);
  console.log(`event to page (EventSource): p50 ${percentile(arrivals, 0.5)} ms, p90 ${percentile(arrivals, 0.9)} ms`);
  console.log(`event to re-read board (1,000 tasks): p50 ${percentile(renders, 0.5)} ms, p90 ${percentile(renders, 0.9)} ms`);
}, { timeoutMs: 600000 });
