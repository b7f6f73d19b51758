// Figures for the board (ADR 0037), not a test: a real daemon with one
// planned workflow of 1,000 tasks (ten chains of a hundred: a hundred
// columns), the board in headless chromium.
// - first paint: from navigating to / until the first frame drawn with all
//   1,000 task cards (the page reads /api/board, then renders), over five
//   loads;
// - an event to the page: from the daemon stamping an event ("at") until
//   the page's EventSource has it, and until the page has re-read the
//   board (drawing again only what changed), over twenty progress signals.
// Run: MISSION_PATH=build/bin/mission node tests/board/first_paint.mjs
import { spawn } from 'node:child_process';
import readline from 'node:readline';

import { checkPrerequisites, runTest } from '../clients/harness.mjs';

const missionPath = checkPrerequisites([]);
const { default: puppeteer } = await import('puppeteer-core');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
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
  const workflow = await call('workflow_create', { name: 'thousand', source_type: 'prompt', source_content: 'x' });
  const tasks = [];
  for (let i = 0; i < 1000; ++i) {
    tasks.push({ name: `t${i}`, description: `task ${i}`, sequence: 1, depends_on: i >= 10 ? [`t${i - 10}`] : [] });
  }
  await call('workflow_set_plan', { id: workflow.id, plan: { summary: 's', approach: 'a', tasks } });

  const link = (await h.missionJson(['board'])).url;
  const origin = new URL(link).origin;
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox'] });
  h.onCleanup(() => browser.close());
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 900 });
  // Noted in the page, so the figure holds no round trip to puppeteer: the
  // first frame after all 1,000 cards are in the page (a frame callback,
  // then a task, runs once that frame's layout and paint are done).
  await page.evaluateOnNewDocument(() => {
    new MutationObserver((changes, observer) => {
      if (document.querySelectorAll('.task').length !== 1000) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => { window.firstPaint = performance.now(); }));
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(link);
  const paints = [];
  for (let i = 0; i < 5; ++i) {
    await page.goto(`${origin}/`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => window.firstPaint !== undefined, { timeout: 30000 });
    paints.push(await page.evaluate(() => window.firstPaint));
  }
  console.log(`first paint of 1,000 tasks: p50 ${percentile(paints, 0.5).toFixed(0)} ms, ` +
              `max ${Math.max(...paints).toFixed(0)} ms (${paints.map(p => p.toFixed(0)).join(', ')})`);

  // An EventSource beside the page's own, noting when each event arrives.
  await page.evaluate(() => {
    window.arrivals = [];
    new EventSource('/events').onmessage = message => {
      const event = JSON.parse(message.data);
      if (event.at) window.arrivals.push({ at: Date.parse(event.at), seen: Date.now() });
    };
  });
  await new Promise(resolve => setTimeout(resolve, 500));
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
}, { timeoutMs: 300000 });
