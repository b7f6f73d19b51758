// The board in a real browser (Debian's chromium, driven by puppeteer-core,
// ADR 0037), through a real daemon: the link `mission board` prints signs
// the browser in; a workflow's task changes state on the page as its shell
// agent works, without a reload; a page of another origin cannot answer an
// agent's question, a click on the board can, and the agent gets it; a
// click approves the task the run waits on and the run merges it; the
// run's report, opened by a click, follows it live and shows the merged
// task as `mission report` does; a click
// retries a failed run, which then merges, and opens its diff; a terminal
// agent's screen shows live, and a line typed on the board reaches it; an
// ACP agent's permission request is allowed by a click; two agents that
// change the same line show as a live conflict in the inbox. A
// screenshot of each step goes to $MISSION_TEST_OUTPUT_DIR (ctest: the
// build's tests/board/screenshots).
// By hand: MISSION_PATH=build/bin/mission node tests/board/board_browser.test.mjs
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

import { checkPrerequisites, runTest, within } from '../clients/harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// ctest's SKIP_RETURN_CODE: CI installs chromium (scripts/install-deps.sh).
if (!fs.existsSync(chromium)) {
  console.log(`SKIP: no chromium at ${chromium}: install Debian's chromium (scripts/install-deps.sh) or set CHROMIUM_PATH`);
  process.exit(77);
}
if (!fs.existsSync(path.join(here, 'node_modules', 'puppeteer-core', 'package.json'))) {
  console.error('FAIL: puppeteer-core is not installed in tests/board/node_modules: run scripts/install-test-clients.sh');
  process.exit(1);
}
const missionPath = checkPrerequisites([]);
const { default: puppeteer } = await import('puppeteer-core');

// Every bound below is how long the slowest build may take: the sanitized
// build runs several times slower, and ctest says by how much
// (MISSION_TEST_WAIT_SCALE, tests/board/CMakeLists.txt).
const scale = Number(process.env.MISSION_TEST_WAIT_SCALE) || 1;
const bound = ms => ms * scale;

const shots = process.env.MISSION_TEST_OUTPUT_DIR ?? path.join(os.tmpdir(), 'mission-board-screenshots');
fs.mkdirSync(shots, { recursive: true });

// An MCP client through `mission mcp connect`, one JSON-RPC line at a time.
function bridge(h, { id, token, cwd }) {
  const child = spawn(missionPath, ['mcp', 'connect', '--agent-execution', id],
                      { cwd, env: { ...h.env, MISSION_MCP_TOKEN: token }, stdio: ['pipe', 'pipe', 'pipe'] });
  h.onCleanup(() => { child.stdin.end(); });
  const pending = new Map();
  let next = 1;
  readline.createInterface({ input: child.stdout }).on('line', line => {
    const message = JSON.parse(line);
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  });
  const request = (method, params) => new Promise(resolve => {
    const requestId = next++;
    pending.set(requestId, resolve);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: requestId, method, params })}\n`);
  });
  const call = async (name, args) => {
    const reply = await request('tools/call', { name, arguments: args });
    assert.ok(reply.result && !reply.result.isError, `${name}: ${JSON.stringify(reply)}`);
    return reply.result.structuredContent;
  };
  return {
    async open() {
      const reply = await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'board-test', version: '1' } });
      assert.ok(reply.result, `initialize: ${JSON.stringify(reply)}`);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    },
    call,
  };
}

async function agent(h, cwd, toolsets) {
  const created = await h.missionJson(['exec', 'create', '--cwd', cwd, '--toolsets', toolsets, '--print-token']);
  const client = bridge(h, { id: created.execution.id, token: created.token, cwd });
  await client.open();
  return { id: created.execution.id, ...client };
}

await runTest('board in a browser', missionPath, async h => {
  const gitEnv = { HOME: h.base, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 'test@example.com',
                   GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 'test@example.com' };
  Object.assign(h.env, gitEnv);
  const repo = h.tempDir('repo');
  for (const args of [['init', '-q', '-b', 'main'], ['commit', '-q', '--allow-empty', '-m', 'first']]) {
    const git = spawnSync('git', ['-C', repo, ...args], { env: h.env });
    assert.equal(git.status, 0, `git ${args.join(' ')}: ${git.stderr}`);
  }

  // A one-task workflow whose shell agent works until the test lets it go,
  // in a run that waits for a person's approval before it merges.
  const planner = await agent(h, repo, 'planning,coordination,workspaces,tracking');
  const workflow = await planner.call('workflow_create', {
    name: 'board-test', source_type: 'prompt', source_content: 'a run', max_parallel_tasks: 1 });
  await planner.call('workflow_set_plan', { id: workflow.id, plan: { summary: 's', approach: 'a', tasks: [
    { name: 'reviewed', description: 'make reviewed', sequence: 1, depends_on: [] }] } });
  const release = path.join(h.base, 'release');
  const work = `while [ ! -e '${release}' ]; do sleep 0.05; done; printf 'reviewed\\n' > "$MISSION_TASK_NAME.txt"`;
  const started = await h.mission(['workflows', 'run', workflow.id, '--approve', '--detach', '--sandbox', 'off',
                                   '--', '/bin/sh', '-c', work], { cwd: repo, timeoutMs: bound(60000) });
  assert.equal(started.code, 0, `workflows run: ${started.stderr}`);

  const link = (await h.missionJson(['board'])).url;
  const origin = new URL(link).origin;
  const browser = await h.step('launch chromium', () => puppeteer.launch({
    executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] }), bound(60000));
  h.onCleanup(() => browser.close());
  const page = await browser.newPage();
  page.setDefaultTimeout(bound(30000));
  // Everything the board asks its server for is there (its icon too).
  const missing = [];
  page.on('response', response => { if (response.status() === 404) missing.push(response.url()); });
  await page.setViewport({ width: 1200, height: 800 });
  const shot = name => page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });

  // Sign in: the link redirects to / and leaves no token in the address.
  await h.step('open the sign-in link', () => page.goto(link, { waitUntil: 'domcontentloaded', timeout: bound(20000) }), bound(20000));
  assert.equal(page.url(), `${origin}/`, 'the sign-in did not land on / (the token would stay in the URL)');
  await h.step('the board shows the workflow', () =>
    page.waitForSelector(`nav button[data-workflow-id="${workflow.id}"]`, { timeout: bound(20000) }), bound(20000));
  await shot('1-signed-in');

  // The task runs; the page follows it without a reload.
  await page.evaluate(() => { window.sameDocument = true; });
  await h.step('the task shows running', () =>
    page.waitForSelector('.task[data-state="running"]', { timeout: bound(30000) }), bound(40000));
  await shot('2-task-running');
  // The run's report, opened by a click, follows the run as it goes.
  await page.$eval('#workflow button[data-action="report"]', button => button.click());
  await h.step('the report shows the task running', () =>
    page.waitForSelector('#report .report-task[data-name="reviewed"][data-state="running"]', { timeout: bound(20000) }), bound(20000));
  fs.writeFileSync(release, '');
  await h.step('the task shows awaiting approval, live', () =>
    page.waitForSelector('.task[data-state="awaiting_approval"]', { timeout: bound(30000) }), bound(40000));
  await h.step('the report says the task waits for approval, live', () =>
    page.waitForSelector('#report li[data-waits="awaiting_approval"]', { timeout: bound(20000) }), bound(20000));
  assert.equal(await page.$eval('#report li[data-waits="awaiting_approval"]', li => li.textContent), 'awaiting_approval: reviewed');
  assert.equal(await page.evaluate(() => window.sameDocument), true, 'the page reloaded to show the change');
  await shot('3-task-awaiting-approval');

  // An agent asks; a page of another origin tries to answer and is refused.
  const asker = await agent(h, repo, 'signals,coordination');
  await asker.call('needs_input', { question: 'Which port?', choices: ['80', '8080'] });
  const other = http.createServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end(`<form id="f" method="POST" action="${origin}/api/executions/${asker.id}/answer">` +
                 '<input name="text" value="from another site"></form><script>f.submit()</script>');
  });
  await new Promise(resolve => other.listen(0, '127.0.0.1', resolve));
  // Chromium keeps its connection to the other page's server alive.
  h.onCleanup(() => new Promise(resolve => { other.close(resolve); other.closeAllConnections(); }));
  const attacker = await browser.newPage();
  attacker.setDefaultTimeout(bound(30000));
  const [refused] = await h.step('a page of another origin posts an answer', () => Promise.all([
    attacker.waitForNavigation({ timeout: bound(20000) }),
    attacker.goto(`http://127.0.0.1:${other.address().port}/`, { timeout: bound(20000) })]), bound(20000));
  assert.equal(refused.status(), 403, `the other origin's POST was not refused: ${refused.status()}`);
  await attacker.screenshot({ path: path.join(shots, '4-other-origin-refused.png') });
  assert.equal((await h.showExecution(asker.id)).state, 'awaiting_input', 'the other origin answered the question');
  // The other page took the front: a tab behind it draws no frames, so a
  // screenshot of the board would wait for one that never comes.
  await attacker.close();
  await page.bringToFront();

  // The question on the board, answered by a click, reaches the agent.
  await h.step('the question shows in the inbox', () =>
    page.waitForSelector(`li[data-kind="question"][data-execution="${asker.id}"]`, { timeout: bound(20000) }), bound(20000));
  await shot('5-question');
  const waiting = asker.call('message_wait', { timeout_ms: 50000 });
  const choices = await page.$$(`li[data-execution="${asker.id}"] button[data-action="choose"]`);
  assert.equal(choices.length, 2, 'the question\'s two choices are not buttons');
  await page.$eval(`li[data-execution="${asker.id}"] button[data-action="choose"]:nth-of-type(2)`, button => button.click());
  const woken = await h.step('the agent gets the answer', () => within(bound(30000), 'message_wait', waiting), bound(40000));
  assert.equal(woken.messages?.[0]?.body, '8080', `message_wait: ${JSON.stringify(woken)}`);
  await page.waitForFunction(id => !document.querySelector(`li[data-execution="${id}"]`), { timeout: bound(20000) }, asker.id);
  await shot('6-question-answered');

  // Approved by a click, the task merges and the run completes.
  await page.waitForSelector('.task button[data-action="approve"]');
  await page.$eval('.task button[data-action="approve"]', button => button.click());
  await h.step('the task shows merged', () =>
    page.waitForSelector('.task[data-state="merged"], .task[data-state="completed"]', { timeout: bound(30000) }), bound(40000));
  await shot('7-approved');
  // The report shows the finished task's outcome: the same facts as
  // `mission report`, which the test reads beside it.
  await h.step('the report shows the task merged', () =>
    page.waitForSelector('#report .report-task[data-name="reviewed"][data-state="merged"]', { timeout: bound(20000) }), bound(20000));
  const reported = JSON.parse((await h.mission(['report', workflow.id, '--format', 'json'])).stdout);
  const reportedTask = reported.run.tasks.find(task => task.name === 'reviewed');
  assert.equal(reportedTask.status, 'merged');
  await page.waitForFunction(() => !document.querySelector('#report li[data-waits]'), { timeout: bound(20000) });
  const attemptLine = await page.$eval('#report .report-task[data-name="reviewed"] .report-attempt', node => node.textContent);
  assert.match(attemptLine, new RegExp(`^attempt 1: merged, generic ${reportedTask.attempts[0].agentExecutionId}, `),
               `the report's attempt: ${attemptLine}`);
  assert.match(await page.$eval('#report', node => node.textContent), new RegExp(`run ${reported.run.id}: `),
               'the report does not name the run mission report names');
  await shot('7b-report');
  await h.waitFor('the run to complete', async () => {
    const run = await h.missionJson(['workflows', 'status', workflow.id]);
    return { ok: run.status === 'completed', value: run };
  }, { timeoutMs: bound(30000) });
  // Another workflow, opened by a click: its critical path (the longest
  // chain of tasks not done) is outlined, the task off it is not.
  const chain = await planner.call('workflow_create', {
    name: 'critical-path', source_type: 'prompt', source_content: 'a chain', max_parallel_tasks: 2 });
  await planner.call('workflow_set_plan', { id: chain.id, plan: { summary: 's', approach: 'a', tasks: [
    { name: 'first', description: 'd', sequence: 1, depends_on: [] },
    { name: 'second', description: 'd', sequence: 2, depends_on: ['first'] },
    { name: 'third', description: 'd', sequence: 3, depends_on: ['second'] },
    { name: 'aside', description: 'd', sequence: 1, depends_on: [] }] } });
  await h.step('the new workflow shows in the list', () =>
    page.waitForSelector(`nav button[data-workflow-id="${chain.id}"]`, { timeout: bound(20000) }), bound(20000));
  await page.click(`nav button[data-workflow-id="${chain.id}"]`);
  await page.waitForFunction(() => document.querySelectorAll('.task.critical').length > 0, { timeout: bound(20000) });
  const outlined = await page.$$eval('.task.critical .name', cards => cards.map(card => card.textContent));
  assert.deepEqual(outlined, ['first', 'second', 'third'], 'the critical path is not the chain of three');
  assert.match(page.url(), new RegExp(`#${chain.id}$`), 'the address does not name the workflow shown');
  await shot('8-critical-path');

  // A run that failed is tried again by a click, with its last run's
  // options (the agent's command among them): the retry answers once the
  // run's branch is made, so the board waits on a deferred reply.
  const fixed = path.join(h.base, 'fixed');
  const flaky = await planner.call('workflow_create', {
    name: 'retried', source_type: 'prompt', source_content: 'a retry', max_parallel_tasks: 1 });
  await planner.call('workflow_set_plan', { id: flaky.id, plan: { summary: 's', approach: 'a', tasks: [
    { name: 'flaky', description: 'd', sequence: 1, depends_on: [] }] } });
  const failUntilFixed = `[ -e '${fixed}' ] || exit 1; printf 'fixed\\n' > "$MISSION_TASK_NAME.txt"`;
  await h.mission(['workflows', 'run', flaky.id, '--max-attempts', '1', '--', '/bin/sh', '-c', failUntilFixed],
                  { cwd: repo, timeoutMs: bound(60000) });
  assert.equal((await h.missionJson(['workflows', 'status', flaky.id])).status, 'failed');
  await h.step('the failed workflow shows in the list', () =>
    page.waitForSelector(`nav button[data-workflow-id="${flaky.id}"]`, { timeout: bound(20000) }), bound(20000));
  await page.click(`nav button[data-workflow-id="${flaky.id}"]`);
  const retry = '.task[data-state="failed"] button[data-action="retry"]';
  await h.step('the failed task offers a retry', () => page.waitForSelector(retry, { timeout: bound(20000) }), bound(20000));
  await shot('9-failed');
  fs.writeFileSync(fixed, '');
  // Found and clicked in one step in the page: a refresh may draw the
  // card again between a lookup from here and the click.
  await page.$eval(retry, button => button.click());
  await h.step('the retried task shows merged', () =>
    page.waitForSelector('.task[data-state="merged"]', { timeout: bound(30000) }), bound(40000));
  await shot('10-retried');
  const retried = await h.missionJson(['workflows', 'status', flaky.id]);
  assert.equal(retried.status, 'completed', `the retried run: ${JSON.stringify(retried)}`);
  assert.equal(retried.options.maxAttempts, 1, 'the retry did not keep the last run\'s options');

  // The task opened by a click: its attempts and the diff of what it
  // merged, side by side, read from the daemon.
  await page.click(`.task[data-task-id] .name`);
  await h.step('the task\'s diff opens', () =>
    page.waitForSelector('#task .diff td.add', { timeout: bound(20000) }), bound(20000));
  const added = await page.$$eval('#task .diff td.add', cells => cells.map(cell => cell.textContent));
  assert.deepEqual(added, ['fixed'], `the diff's added lines: ${JSON.stringify(added)}`);
  assert.match(await page.$eval('#task .files', node => node.textContent), /flaky\.txt \+1/);
  assert.match(await page.$eval('#task .attempt', node => node.textContent), /attempt 1: merged/);
  await shot('11-diff');

  // A terminal agent's screen, live and read-only until the person
  // chooses to type; a line typed on the board reaches the agent.
  const tty = await h.mission(['run', '--detach', '--tty', '--', 'sh', '-c',
                               'echo ready; while IFS= read -r l; do echo "got: $l"; done'], { cwd: repo });
  assert.equal(tty.code, 0, `run --tty: ${tty.stderr}`);
  const ttyId = tty.stdout.trim().split('\n')[0];
  const screenButton = `tr[data-execution="${ttyId}"] button[data-action="screen"]`;
  await h.step('the terminal agent offers its screen', () =>
    page.waitForSelector(screenButton, { timeout: bound(20000) }), bound(20000));
  await page.$eval(screenButton, button => button.click());
  await h.step('the screen shows the agent\'s output', () =>
    page.waitForFunction(id => document.querySelector(`pre.screen[data-execution="${id}"]`)?.textContent.includes('ready'),
                         { timeout: bound(20000) }, ttyId), bound(20000));
  assert.equal(await page.$eval('#screen form', form => form.hidden), true, 'the screen is not read-only at first');
  await page.click('#screen button[data-action="type"]');
  await page.type('#screen input', 'hello from the board');
  await page.click('#screen button[data-action="send-keys"]');
  await h.step('the agent gets the typed line', () =>
    page.waitForFunction(id => document.querySelector(`pre.screen[data-execution="${id}"]`)?.textContent.includes('got: hello from the board'),
                         { timeout: bound(20000) }, ttyId), bound(20000));
  await shot('12-screen');
  await h.mission(['exec', 'stop', ttyId]);

  // An agent driven over ACP asks permission; the board lists it with its
  // options, and a click allows it: the agent runs what it asked to.
  const acpDir = h.tempDir('acp');
  const acp = await h.mission(['run', '--detach', '--sandbox', 'off', '--adapter', 'acp', '--prompt', 'Make the file named made.',
                               '--cwd', acpDir, '--', process.execPath, path.join(here, '..', 'integration', 'agents', 'acp_agent.mjs'), 'permission']);
  assert.equal(acp.code, 0, `run --adapter acp: ${acp.stderr}`);
  const acpId = acp.stdout.trim().split('\n')[0];
  const allow = `li[data-kind="prompt"][data-execution="${acpId}"] button[data-choice="1"]`;
  await h.step('the permission request shows in the inbox', () =>
    page.waitForSelector(allow, { timeout: bound(20000) }), bound(20000));
  assert.equal(await page.$eval(allow, button => button.textContent), 'Allow once');
  await shot('13-permission');
  await page.$eval(allow, button => button.click());
  await h.waitFor('the allowed command to run', async () =>
    ({ ok: fs.existsSync(path.join(acpDir, 'made')) }), { timeoutMs: bound(20000) });
  await page.waitForFunction(id => !document.querySelector(`li[data-kind="prompt"][data-execution="${id}"]`), { timeout: bound(20000) }, acpId);

  // Two running agents that change the same line: the conflict shows in
  // the inbox while they work, found by the daemon, not by a merge.
  const clash = await planner.call('workflow_create', {
    name: 'board-clash', source_type: 'prompt', source_content: 'two at once', max_parallel_tasks: 2 });
  await planner.call('workflow_set_plan', { id: clash.id, plan: { summary: 's', approach: 'a', tasks: [
    { name: 'left', description: 'make left', sequence: 1, depends_on: [] },
    { name: 'right', description: 'make right', sequence: 1, depends_on: [] }] } });
  const settled = path.join(h.base, 'settled');
  const clashing = `printf '%s\\n' "$MISSION_TASK_NAME" > shared.txt; while [ ! -e '${settled}' ]; do sleep 0.05; done`;
  const clashRun = await h.mission(['workflows', 'run', clash.id, '--parallel', '2', '--detach', '--sandbox', 'off',
                                    '--', '/bin/sh', '-c', clashing], { cwd: repo, timeoutMs: bound(60000) });
  assert.equal(clashRun.code, 0, `workflows run: ${clashRun.stderr}`);
  const liveItem = 'li[data-kind="live-conflict"]';
  await h.step('the live conflict shows in the inbox', () =>
    page.waitForSelector(liveItem, { timeout: bound(30000) }), bound(40000));
  assert.match(await page.$eval(liveItem, li => li.textContent), /both change shared\.txt/);
  await shot('14-live-conflict');
  fs.writeFileSync(settled, '');
  await h.mission(['workflows', 'stop', clash.id]);

  assert.deepEqual(missing, [], `the board asked for what its server does not have: ${missing.join(', ')}`);
  console.log(`screenshots in ${shots}`);
}, { timeoutMs: bound(200000) });
