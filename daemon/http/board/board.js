// The board's page: reads the daemon's state from /api/, follows /events
// (server-sent events from the daemon's event bus) and re-reads what an
// event may have changed. Agent text is only ever set with textContent,
// after clean(); nothing here builds HTML from strings.
'use strict';

const state = { csrf: null, selected: null, refreshing: false, again: false, drawn: null, approvals: [], openTask: null, report: null };

// Drops control characters and bidirectional overrides, as the CLI's
// sanitiser does for a terminal: agent text must not disguise itself.
function clean(value) {
  return String(value ?? '').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
}

function element(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = clean(value);
    else if (key === 'data') for (const [k, v] of Object.entries(value)) node.dataset[k] = clean(v);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, clean(value));
  }
  for (const child of children) node.append(child);
  return node;
}

function showError(text) {
  document.getElementById('error').textContent = clean(text);
}

async function getJson(path) {
  const response = await fetch(path, { credentials: 'same-origin', cache: 'no-store' });
  if (response.status === 401) throw Object.assign(new Error('signed out'), { signedOut: true });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ? `${body.error.message} (${body.error.hint})` : response.statusText);
  return body;
}

async function act(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-Mission-CSRF': state.csrf },
    body: JSON.stringify(body ?? {}),
  });
  const reply = await response.json().catch(() => ({}));
  if (!response.ok) {
    showError(reply.error ? `${reply.error.message}: ${reply.error.hint}` : response.statusText);
    return false;
  }
  showError('');
  refresh();
  return true;
}

// The first array among a page's fields: its items, whatever the method names them.
function items(page) {
  if (Array.isArray(page)) return page;
  for (const value of Object.values(page ?? {})) if (Array.isArray(value)) return value;
  return [];
}

function renderInbox(inbox, approvals) {
  const list = document.getElementById('inbox');
  list.replaceChildren();
  for (const question of inbox.questions ?? []) {
    const input = element('input', { type: 'text', placeholder: 'your answer', 'aria-label': 'answer' });
    const send = (body) => act(`/api/executions/${encodeURIComponent(question.agentExecutionId)}/answer`, body);
    const choices = (question.choices ?? []).map((choice, i) =>
      element('button', { text: clean(choice), data: { action: 'choose' }, onclick: () => send({ choice: i + 1 }) }));
    list.append(element('li', { data: { kind: 'question', execution: question.agentExecutionId } },
      element('div', { text: `${question.agentExecutionId} asks:` }),
      element('div', { class: 'text', text: question.question }),
      ...choices,
      element('form', { onsubmit: (event) => { event.preventDefault(); if (input.value) send({ text: input.value }); } },
        input, element('button', { type: 'submit', text: 'Answer', data: { action: 'answer' } }))));
  }
  // A permission an agent asks for (over ACP) or shows on its terminal:
  // each option is a button, the same choice mission answer --choice makes.
  for (const prompt of inbox.prompts ?? []) {
    const id = prompt.agentExecutionId;
    const options = (prompt.options ?? []).map((option, i) => element('button', {
      text: clean(option), data: { action: 'permit', choice: String(i + 1) },
      onclick: () => act(`/api/executions/${encodeURIComponent(id)}/answer`, { choice: i + 1 }) }));
    list.append(element('li', { data: { kind: 'prompt', execution: id } },
      element('div', { text: `${id} asks permission (${prompt.detected ? 'detected from its screen' : 'reported by the agent'}):` }),
      element('div', { class: 'text', text: prompt.question }), ...options));
  }
  for (const task of inbox.conflicts ?? []) {
    list.append(element('li', { data: { kind: 'conflict', task: task.id } },
      element('div', { text: `Task ${task.name} (${task.id}) conflicted at its merge: merge its branch by hand, or reset it and run the workflow again.` })));
  }
  // Found while the agents work (ADR 0050): gone from the inbox once it clears.
  for (const live of inbox.liveConflicts ?? []) {
    const [first, second] = live.tasks ?? [];
    const other = second ? `${second.name} (${second.id})` : `the integration branch ${live.withIntegrationBranch ?? ''}`;
    list.append(element('li', { data: { kind: 'live-conflict', task: first?.id ?? '' } },
      element('div', { text: `conflict: tasks ${first?.name} (${first?.id}) and ${other} both change ${live.path}; both agents were told.` })));
  }
  for (const blocked of inbox.blocked ?? []) {
    list.append(element('li', { data: { kind: 'blocked', execution: blocked.agentExecutionId ?? blocked.id } },
      element('div', { text: `${blocked.agentExecutionId ?? blocked.id} is blocked:` }),
      element('div', { class: 'text', text: blocked.reason ?? '' })));
  }
  for (const task of approvals) {
    list.append(element('li', { data: { kind: 'approval', task: task.id } },
      element('div', { text: `Task ${task.name} (${task.id}) passed and waits for approval.` }),
      ...approvalButtons(task)));
  }
  document.getElementById('inbox-empty').hidden = list.childElementCount > 0;
}

function approvalButtons(task) {
  const reason = element('input', { type: 'text', placeholder: 'reason to reject', 'aria-label': 'reason' });
  return [
    element('button', { text: 'Approve', data: { action: 'approve', task: task.id },
      onclick: () => act(`/api/tasks/${encodeURIComponent(task.id)}/approve`) }),
    reason,
    element('button', { text: 'Reject', data: { action: 'reject', task: task.id },
      onclick: () => act(`/api/tasks/${encodeURIComponent(task.id)}/reject`, { reason: reason.value || 'rejected on the board' }) }),
  ];
}

// Columns by depth: a task sits one column right of its deepest prerequisite.
function depths(nodes, edges) {
  const before = new Map(nodes.map((node) => [node.id, []]));
  for (const edge of edges) before.get(edge.to)?.push(edge.from);
  const depth = new Map();
  const visit = (id, path = new Set()) => {
    if (depth.has(id)) return depth.get(id);
    if (path.has(id)) return 0;
    path.add(id);
    let d = 0;
    for (const from of before.get(id) ?? []) d = Math.max(d, visit(from, path) + 1);
    path.delete(id);
    depth.set(id, d);
    return d;
  };
  for (const node of nodes) visit(node.id);
  return { depth, before };
}

const DONE = new Set(['completed', 'merged']);
// A run in one of these has ended: what failed in it may be tried again.
const ENDED = new Set(['stopped', 'completed', 'failed', 'partial']);

// Runs the workflow again with its last run's options, on what failed or
// on the one task named.
function retryButton(workflowId, task) {
  return element('button', {
    text: task ? 'Retry' : 'Retry what failed',
    data: { action: 'retry', ...(task ? { task: task.id } : {}) },
    onclick: () => act(`/api/workflows/${encodeURIComponent(workflowId)}/retry`, task ? { task: task.id } : {}),
  });
}

// The critical path: the longest chain of tasks not yet done, the one that
// decides when the workflow can end (the run schedules it first too).
function criticalPath(nodes, edges, statusOf) {
  const after = new Map(nodes.map((node) => [node.id, []]));
  for (const edge of edges) after.get(edge.from)?.push(edge.to);
  const length = new Map();
  const visit = (id, path = new Set()) => {
    if (length.has(id)) return length.get(id);
    if (path.has(id) || DONE.has(statusOf(id))) return 0;
    path.add(id);
    let longest = 0;
    for (const next of after.get(id) ?? []) longest = Math.max(longest, visit(next, path));
    path.delete(id);
    length.set(id, longest + 1);
    return longest + 1;
  };
  let start = null;
  for (const node of nodes) if (visit(node.id) > (start ? length.get(start) : 0)) start = node.id;
  const critical = new Set();
  for (let id = start; id;) {
    critical.add(id);
    const rest = length.get(id) - 1;
    id = rest > 0 ? (after.get(id) ?? []).find((next) => length.get(next) === rest) : null;
  }
  return critical;
}

function renderWorkflow(detail) {
  const target = document.getElementById('workflow');
  const nodes = detail.nodes ?? [];
  const runTasks = new Map((detail.run?.tasks ?? []).map((task) => [task.id, task]));
  const { depth, before } = depths(nodes, detail.edges ?? []);
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const critical = criticalPath(nodes, detail.edges ?? [], (id) => runTasks.get(id)?.status ?? byId.get(id)?.status);
  const columns = [];
  for (const node of nodes) {
    const d = depth.get(node.id) ?? 0;
    (columns[d] ??= []).push(node);
  }
  const workflowId = detail.workflow?.id;
  const retryable = workflowId && (!detail.run || ENDED.has(detail.run.status));
  // One listener for every card (a click on a card opens its task), and
  // each card made with the DOM's calls straight: with a thousand cards,
  // a listener and a generic element() each were a third of the page's
  // first paint.
  const dag = element('div', { class: 'dag', onclick: (event) => {
    if (event.target.closest('button, input')) return;
    const card = event.target.closest('.task');
    if (card) openTask(workflowId, card.dataset.taskId, card.dataset.state);
  } });
  const text = (className, value) => {
    const node = document.createElement('div');
    node.className = className;
    node.textContent = clean(value);
    return node;
  };
  for (const column of columns) {
    const box = document.createElement('div');
    box.className = 'column';
    for (const node of column ?? []) {
      const run = runTasks.get(node.id);
      const status = run?.status ?? node.status;
      const card = document.createElement('div');
      card.className = 'task' + (critical.has(node.id) ? ' critical' : '') + (state.openTask?.taskId === node.id ? ' open' : '');
      card.dataset.taskId = clean(node.id);
      card.dataset.state = clean(status);
      card.append(text('name', node.name), text('state', status));
      const prerequisites = before.get(node.id) ?? [];
      if (prerequisites.length) card.append(text('after', `after ${prerequisites.length}`));
      if (status === 'awaiting_approval') card.append(...approvalButtons(node));
      if (status === 'failed' && retryable) card.append(retryButton(workflowId, node));
      box.append(card);
    }
    dag.append(box);
  }
  const title = detail.workflow?.name ?? detail.workflow?.id ?? '';
  const runText = (detail.run ? `run ${detail.run.id}: ${detail.run.status}` : 'not run yet') +
    (critical.size ? `; critical path: ${critical.size} task${critical.size === 1 ? '' : 's'} (outlined)` : '');
  const header = element('div', { text: `${title}: ${runText}` });
  if (workflowId) {
    header.append(' ', element('button', { text: 'Report', data: { action: 'report' }, onclick: () => openReport(workflowId) }));
  }
  if (detail.run && retryable && ['failed', 'partial', 'stopped'].includes(detail.run.status)) {
    header.append(' ', retryButton(workflowId, null));
  }
  target.replaceChildren(header, dag);
  const open = state.openTask;
  if (open && open.workflowId === workflowId) {
    const status = runTasks.get(open.taskId)?.status ?? byId.get(open.taskId)?.status;
    if (status !== open.status) { open.status = status; loadTask(); }
  } else if (open) {
    state.openTask = null;
    document.getElementById('task').hidden = true;
  }
  return nodes.filter((node) => (runTasks.get(node.id)?.status ?? node.status) === 'awaiting_approval');
}

// A task's attempts, with their check and gate output, and the diff of
// its work, read from the daemon (which asks git): under the graph until
// another task is opened, read again when the task's state changes.
function openTask(workflowId, taskId, status) {
  state.openTask = { workflowId, taskId, status };
  for (const card of document.querySelectorAll('.task')) card.classList.toggle('open', card.dataset.taskId === taskId);
  const panel = document.getElementById('task');
  panel.hidden = false;
  panel.dataset.taskId = taskId;
  panel.replaceChildren(element('div', { class: 'quiet', text: 'reading the task…' }));
  loadTask();
}

async function loadTask() {
  const open = state.openTask;
  if (!open) return;
  const panel = document.getElementById('task');
  try {
    const task = await getJson(`/api/workflows/${encodeURIComponent(open.workflowId)}/tasks/${encodeURIComponent(open.taskId)}/diff`);
    if (state.openTask !== open) return;
    const attempts = (task.attempts ?? []).map((attempt) => {
      const row = element('div', { class: 'attempt', data: { attempt: attempt.attempt, state: attempt.status } },
        element('strong', { text: `attempt ${attempt.attempt}: ${attempt.status}` }),
        element('span', { text: attempt.reason ? ` — ${attempt.reason}` : '' }));
      if (attempt.checkOutput) row.append(element('div', { text: 'check output:' }), element('div', { class: 'output', text: attempt.checkOutput }));
      if (attempt.gate) {
        row.append(element('div', { text: `gate ${attempt.gate.passed ? 'passed' : 'failed'} on tree ${attempt.gate.tree ?? ''}` }));
        if (attempt.gate.output) row.append(element('div', { class: 'output', text: attempt.gate.output }));
      }
      return row;
    });
    const parts = [element('h3', { text: `${task.name} (${task.taskId}): ${task.status}` }), ...attempts];
    if (!attempts.length) parts.push(element('div', { class: 'quiet', text: 'no attempt yet' }));
    if (task.patch === null) {
      parts.push(element('div', { class: 'quiet', text: 'no work to show yet' }));
    } else {
      parts.push(element('div', { class: 'files', text: `${task.merged ? 'merged as' : 'on'} ${task.tip} (attempt ${task.attempt}): ` +
        task.files.map((f) => `${f.path} +${f.additions} −${f.deletions}`).join(', ') }), sideBySide(task.patch));
      if (task.patchTruncated) parts.push(element('div', { class: 'quiet', text: 'cut here: the rest is in mission workflows diff' }));
    }
    panel.replaceChildren(...parts);
  } catch (error) {
    if (state.openTask === open) panel.replaceChildren(element('div', { class: 'quiet', text: error.message }));
  }
}

// A unified diff as two columns, old on the left and new on the right;
// removed and added lines side by side where they pair up.
function sideBySide(patch) {
  const table = element('table', { class: 'diff' });
  let oldNo = 0, newNo = 0, removed = [], added = [];
  const cell = (cls, text) => element('td', { class: cls, text });
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      const l = removed[i], r = added[i];
      table.append(element('tr', {},
        cell('no', l ? l.no : ''), cell(l ? 'del' : '', l ? l.text : ''),
        cell('no', r ? r.no : ''), cell(r ? 'add' : '', r ? r.text : '')));
    }
    removed = []; added = [];
  };
  for (const line of String(patch ?? '').split('\n')) {
    if (line.startsWith('diff --git ')) {
      flush();
      table.append(element('tr', { class: 'file' }, element('td', { colspan: '4', text: line.slice(11) })));
    } else if (line.startsWith('@@')) {
      flush();
      const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(line);
      if (m) { oldNo = Number(m[1]); newNo = Number(m[2]); }
      table.append(element('tr', { class: 'hunk' }, element('td', { colspan: '4', text: line })));
    } else if (line.startsWith('---') || line.startsWith('+++') || line.startsWith('index ')) {
      continue;
    } else if (line.startsWith('-')) {
      removed.push({ no: oldNo++, text: line.slice(1) });
    } else if (line.startsWith('+')) {
      added.push({ no: newNo++, text: line.slice(1) });
    } else if (line.startsWith(' ')) {
      flush();
      table.append(element('tr', {}, cell('no', oldNo++), cell('', line.slice(1)), cell('no', newNo++), cell('', line.slice(1))));
    }
  }
  flush();
  return table;
}

// The report of the workflow's last run, as `mission report` gives it
// (the daemon gathers it with the same code from the same methods): the
// tasks and what waits, each attempt with its outcome, time and tokens,
// the gate's runs. Under the graph; read again as events arrive.
function openReport(workflowId) {
  state.report = { workflowId, loading: false, again: false };
  const panel = document.getElementById('report');
  panel.hidden = false;
  panel.dataset.workflowId = workflowId;
  panel.replaceChildren(element('div', { class: 'quiet', text: 'reading the report…' }));
  loadReport();
}

async function loadReport() {
  const open = state.report;
  if (!open) return;
  if (open.loading) { open.again = true; return; }
  open.loading = true;
  const panel = document.getElementById('report');
  try {
    do {
      open.again = false;
      const report = await getJson(`/api/workflows/${encodeURIComponent(open.workflowId)}/report`);
      if (state.report !== open) return;
      panel.replaceChildren(...reportParts(report));
    } while (open.again && state.report === open);
  } catch (error) {
    if (state.report === open) panel.replaceChildren(element('div', { class: 'quiet', text: error.message }));
  } finally {
    open.loading = false;
  }
}

function duration(ms) {
  const s = Math.floor((ms ?? 0) / 1000);
  if (s < 1) return '<1s';
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor(s / 60) % 60}m`;
}

function tokensText(tokens, costUsd) {
  if (!tokens) return '';
  const n = (v) => Number(v ?? 0).toLocaleString('en-US');
  const extras = [tokens.cacheRead && `${n(tokens.cacheRead)} cache read`, tokens.cacheWrite && `${n(tokens.cacheWrite)} cache write`].filter(Boolean);
  return `${n(tokens.total)} (${n(tokens.input)} in, ${n(tokens.output)} out${extras.map((e) => `, ${e}`).join('')})` +
    (typeof costUsd === 'number' ? `, $${costUsd.toFixed(4)}` : '');
}

// A task of a run in one of these waits on nothing more (run_report.cpp's
// task_run_status names them).
const FINISHED = new Set(['merged', 'done', 'failed', 'conflicted']);

function reportParts(report) {
  const mission = report.mission ?? {};
  const run = report.run;
  const counts = mission.tasks ?? {};
  const parts = [element('h3', { text: `Report: ${mission.name ?? ''} (${mission.status ?? ''})` }),
    element('div', { text: `${counts.total ?? 0} task${counts.total === 1 ? '' : 's'}, ${counts.failed ?? 0} failed` })];
  if (mission.summary) parts.push(element('div', { class: 'text', text: mission.summary }));
  if (!run) {
    parts.push(element('div', { class: 'quiet', text: 'not run yet' }));
  } else {
    const ended = run.status !== 'running' && run.status !== 'stopping';
    const facts = element('ul', { class: 'facts' },
      element('li', { text: `run ${run.id}: ${run.status}${run.reason ? `: ${run.reason}` : ''}` }),
      element('li', { text: `branch ${run.integrationBranch ?? ''}, adapter ${run.adapter ?? 'generic'}` }),
      element('li', { text: `agents ${run.sandbox ?? ''}` }),
      element('li', { text: `time ${duration(run.durationMs)}, ${run.attemptsTotal ?? 0} attempt${run.attemptsTotal === 1 ? '' : 's'} at ${run.taskCount ?? 0} tasks` }));
    if (run.gateRuns !== undefined) facts.append(element('li', { data: { fact: 'gate' }, text: `gate: ${run.gateRuns} run${run.gateRuns === 1 ? '' : 's'} on the merged trees` }));
    facts.append(element('li', { data: { fact: 'tokens' }, text: (run.tokens?.attemptsReporting ?? 0) === 0
      ? 'tokens: not reported by its agents'
      : `tokens: ${tokensText(run.tokens, run.costUsd)}, reported by ${run.tokens.attemptsReporting} of ${run.attemptsTotal} attempts` }));
    parts.push(facts);
    // What waits: the tasks not finished, by what they wait on, and the
    // blockers an agent raised for a person.
    const waiting = new Map();
    for (const task of run.tasks ?? []) {
      if (FINISHED.has(task.status)) continue;
      const why = task.attempts?.length ? task.status : (ended ? 'never started' : 'not started yet');
      (waiting.get(why) ?? waiting.set(why, []).get(why)).push(task.name);
    }
    const blockers = (report.issues ?? []).filter((issue) => issue.requiresHumanReview && !issue.resolvedAt);
    const waits = element('ul', { class: 'waits' });
    for (const [why, names] of waiting) waits.append(element('li', { data: { waits: why }, text: `${why}: ${names.join(', ')}` }));
    for (const issue of blockers) waits.append(element('li', { data: { waits: 'blocker' }, text: `blocker ${issue.id}: ${issue.description ?? ''}` }));
    parts.push(element('h4', { text: 'What waits' }),
      waits.childElementCount ? waits : element('div', { class: 'quiet', text: 'nothing' }));
    const outcomes = new Map((report.tasks ?? []).map((task) => [task.taskId, task.outcome]));
    const tasks = element('div', { class: 'report-tasks' });
    for (const task of run.tasks ?? []) {
      const attempts = task.attempts ?? [];
      const head = `${task.name} (${task.taskId}): ${task.status}` +
        (attempts.length ? `, ${attempts.length} attempt${attempts.length === 1 ? '' : 's'}, ${duration(task.durationMs)}` : (ended ? ', never started' : ', not started yet')) +
        (task.tokens ? `, tokens ${tokensText(task.tokens, task.costUsd)}` : '');
      const row = element('div', { class: 'report-task', data: { taskId: task.taskId, name: task.name, state: task.status } },
        element('strong', { text: head }));
      const outcome = outcomes.get(task.taskId);
      if (outcome?.summary) row.append(element('div', { class: 'outcome', text: `outcome: ${outcome.summary}` }));
      for (const limitation of outcome?.limitations ?? []) row.append(element('div', { text: `limitation: ${limitation}` }));
      for (const attempt of attempts) {
        const line = element('div', { class: 'report-attempt', data: { attempt: attempt.attempt, state: attempt.status },
          text: `attempt ${attempt.attempt}: ${attempt.status}, ${attempt.adapter ?? run.adapter ?? 'generic'}` +
            (attempt.agentExecutionId ? ` ${attempt.agentExecutionId}` : '') + `, ${duration(attempt.durationMs)}` +
            (attempt.tokens ? `, tokens ${tokensText(attempt.tokens, attempt.costUsd)}` : '') +
            (attempt.reason ? `: ${attempt.reason}` : '') + (attempt.scopeWarning ? ` (scope: ${attempt.scopeWarning})` : '') });
        row.append(line);
        if (attempt.gate) row.append(element('div', { class: 'quiet', text: `gate ${attempt.gate.passed ? 'passed' : 'failed'} on tree ${attempt.gate.tree ?? ''}` }));
        for (const refused of attempt.refusedWrites ?? []) {
          row.append(element('div', { class: 'refused', text: `refused: ${refused.operation ?? 'write'} ${refused.path ?? ''} (from ${refused.from ?? "the agent's output"})` }));
        }
      }
      tasks.append(row);
    }
    parts.push(element('h4', { text: 'Tasks' }), tasks);
  }
  const decisions = report.decisions ?? [];
  if (decisions.length) {
    parts.push(element('h4', { text: 'Decisions' }), element('ul', {}, ...decisions.map((d) =>
      element('li', { text: `${d.question ?? ''} ${d.chosen ?? ''}: ${d.reasoning ?? ''} (${d.category ?? ''})` }))));
  }
  parts.push(element('div', { class: 'quiet', text: `the same as mission report ${mission.missionId ?? ''}` }));
  return parts;
}

function renderWorkflows(list) {
  // Drawn again only when it changed: a button under the pointer stays put.
  const drawn = JSON.stringify([list, state.selected]);
  if (drawn === state.drawnList) return;
  state.drawnList = drawn;
  const nav = document.getElementById('workflows');
  nav.replaceChildren();
  for (const workflow of list) {
    nav.append(element('button', {
      text: `${workflow.name ?? workflow.id} (${workflow.status ?? ''})`,
      class: workflow.id === state.selected ? 'selected' : '',
      data: { workflowId: workflow.id },
      onclick: () => { state.selected = workflow.id; refresh(); },
    }));
  }
}

function renderAgents(list) {
  const body = document.querySelector('#agents tbody');
  body.replaceChildren(...list.map((execution) => element('tr', { data: { execution: execution.id, state: execution.state } },
    element('td', { text: execution.id }), element('td', { text: execution.adapter }),
    element('td', { text: execution.state }),
    element('td', {}, ...(execution.terminal ? [element('button', {
      text: 'Screen', data: { action: 'screen' }, onclick: () => watchScreen(execution.id) })] : [])))));
}

// An agent's terminal as the daemon's screen model holds it, live, as
// text: read-only until the person chooses to type (each line sent is
// typed into the agent's terminal, then Enter).
function watchScreen(id) {
  state.screen?.close();
  const panel = document.getElementById('screen');
  const screen = element('pre', { class: 'screen', data: { execution: id } });
  const input = element('input', { type: 'text', placeholder: 'type a line for the agent', 'aria-label': 'keys' });
  const form = element('form', { hidden: '', onsubmit: async (event) => {
    event.preventDefault();
    if (await act(`/api/executions/${encodeURIComponent(id)}/type`, { text: input.value })) input.value = '';
  } }, input, element('button', { type: 'submit', text: 'Send', data: { action: 'send-keys' } }));
  form.hidden = true;
  const type = element('button', { text: 'Type', data: { action: 'type' },
    onclick: () => { form.hidden = false; type.hidden = true; status.textContent = ' typing: each line goes to the agent'; input.focus(); } });
  const status = element('span', { class: 'quiet', text: ' read-only' });
  panel.replaceChildren(element('h3', { text: `Screen of ${id}` }, status), screen, type, form);
  panel.hidden = false;
  const source = new EventSource(`/api/executions/${encodeURIComponent(id)}/screen`);
  state.screen = source;
  source.onmessage = (event) => {
    const frame = JSON.parse(event.data);
    if (frame.ended) {
      status.textContent = ' ended';
      form.hidden = true;
      type.hidden = true;
      source.close();
      return;
    }
    screen.textContent = clean(frame.text);
    screen.dataset.size = `${frame.rows}x${frame.columns}`;
  };
  source.onerror = () => { if (source.readyState === EventSource.CLOSED) status.textContent = ' closed'; };
}

// The workflow the address names (#ID), so a reload shows the same one.
function wantedWorkflow() {
  return state.selected ?? (decodeURIComponent(location.hash.slice(1)) || null);
}

// Re-reads the state, all of it in one reply (/api/board); events that
// arrive meanwhile ask for one more pass. A workflow whose graph did not
// change is not drawn again: with a thousand tasks that is most of a pass.
async function refresh() {
  if (state.refreshing) { state.again = true; return; }
  state.refreshing = true;
  try {
    do {
      state.again = false;
      const wanted = wantedWorkflow();
      const board = await getJson(`/api/board${wanted ? `?workflow=${encodeURIComponent(wanted)}` : ''}`);
      // A click chose another workflow while this was read: read again for
      // it, rather than draw (and select) the one it left.
      if (state.selected !== null && state.selected !== wanted) { state.again = true; continue; }
      state.csrf = board.csrf;
      state.selected = board.selected;
      if (board.selected && location.hash !== `#${board.selected}`) history.replaceState(null, '', `#${board.selected}`);
      renderWorkflows(items(board.workflows));
      const drawn = JSON.stringify(board.workflow);
      if (drawn !== state.drawn) {
        state.approvals = board.workflow ? renderWorkflow(board.workflow) : [];
        if (!board.workflow) document.getElementById('workflow').replaceChildren();
        state.drawn = drawn;
      }
      renderInbox(board.inbox, state.approvals);
      renderAgents(items(board.agents));
      if (state.report && state.report.workflowId !== board.selected) {
        state.report = null;
        document.getElementById('report').hidden = true;
      } else if (state.report) {
        loadReport();
      }
      document.body.dataset.refreshed = String(Date.now());
    } while (state.again);
  } catch (error) {
    if (error.signedOut) signedOut(); else showError(error.message);
  } finally {
    state.refreshing = false;
  }
}

function signedOut() {
  document.getElementById('board').hidden = true;
  document.getElementById('signin').hidden = false;
}

function follow() {
  const live = document.getElementById('live');
  const source = new EventSource('/events');
  source.onopen = () => { live.textContent = 'live'; live.className = 'live on'; };
  source.onmessage = () => refresh();
  source.onerror = () => { live.textContent = 'reconnecting'; live.className = 'live off'; };
}

async function start() {
  await refresh();
  if (document.getElementById('signin').hidden === false) return;
  document.getElementById('board').hidden = false;
  follow();
}

start();
