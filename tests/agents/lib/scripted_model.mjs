// A scripted stand-in for the model APIs, streaming as the real ones do:
// Anthropic Messages (server-sent events message_start, content_block_*,
// input_json_delta for a tool_use, message_delta with stop_reason,
// message_stop), OpenAI Responses (response.created,
// response.output_item.added/done, response.completed) and OpenAI Chat
// Completions (chunks whose delta carries tool_calls, finish_reason
// tool_calls, [DONE]). It keeps no state between requests: each request's
// own conversation says which turn it is (the tool calls the model has made
// in it), so agents running in parallel each get their own script.
//
// `script(conversation)` returns the turn's answer: {tool, input} (a tool the
// request offers, by name; a Responses tool offered inside a `namespace`
// tool is called with it) or {text}. `conversation` = {api, body, tools
// (names offered), calls (the tool calls so far), results (their outputs as
// text), text (the whole request body, to find the task's prompt in)}.

import http from 'node:http';
import { log } from './harness.mjs';

let serial = 0;
const nextId = (prefix) => `${prefix}_mission_${Date.now().toString(36)}_${++serial}`;

function sse(events) {
  return events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

// --- Anthropic Messages -----------------------------------------------

function anthropicConversation(body) {
  const calls = [];
  const results = [];
  for (const message of body.messages || []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (message.role === 'assistant' && block.type === 'tool_use') calls.push({ name: block.name, input: block.input });
      if (message.role === 'user' && block.type === 'tool_result') {
        const c = block.content;
        results.push(typeof c === 'string' ? c : JSON.stringify(c));
      }
    }
  }
  return { api: 'anthropic', body, tools: (body.tools || []).map((t) => t.name).filter(Boolean), calls, results };
}

function anthropicStream(body, answer) {
  const model = body.model || 'claude-sonnet-4-5';
  const start = ['message_start', { type: 'message_start', message: {
    id: nextId('msg'), type: 'message', role: 'assistant', model, content: [], stop_reason: null,
    stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } }];
  const end = (reason) => [
    ['message_delta', { type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null },
                        usage: { output_tokens: 20 } }],
    ['message_stop', { type: 'message_stop' }],
  ];
  if (answer.tool) {
    const json = JSON.stringify(answer.input);
    const half = Math.floor(json.length / 2);
    return sse([
      start,
      ['content_block_start', { type: 'content_block_start', index: 0,
                                content_block: { type: 'tool_use', id: nextId('toolu'), name: answer.tool, input: {} } }],
      // The arguments in two pieces, as the API streams them.
      ['content_block_delta', { type: 'content_block_delta', index: 0,
                                delta: { type: 'input_json_delta', partial_json: json.slice(0, half) } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0,
                                delta: { type: 'input_json_delta', partial_json: json.slice(half) } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ...end('tool_use'),
    ]);
  }
  return sse([
    start,
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: answer.text } }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ...end('end_turn'),
  ]);
}

// --- OpenAI Responses --------------------------------------------------

// Tool names a Responses request offers; a `namespace` tool's own tools as
// {name, namespace}.
function responsesTools(body) {
  const names = [];
  const namespaces = {};
  for (const tool of body.tools || []) {
    if (tool.type === 'namespace' && Array.isArray(tool.tools)) {
      for (const inner of tool.tools) {
        const name = inner.name || (inner.function && inner.function.name);
        if (name) { names.push(name); namespaces[name] = tool.name; }
      }
    } else if (tool.name) {
      names.push(tool.name);
    } else if (tool.function && tool.function.name) {
      names.push(tool.function.name);
    }
  }
  return { names, namespaces };
}

function responsesConversation(body) {
  const calls = [];
  const results = [];
  for (const item of Array.isArray(body.input) ? body.input : []) {
    if (item.type === 'function_call' || item.type === 'custom_tool_call' || item.type === 'local_shell_call') {
      calls.push({ name: item.name, namespace: item.namespace, input: item.arguments ?? item.input });
    }
    if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
      results.push(typeof item.output === 'string' ? item.output : JSON.stringify(item.output));
    }
  }
  const { names, namespaces } = responsesTools(body);
  return { api: 'responses', body, tools: names, namespaces, calls, results };
}

function responsesStream(body, answer) {
  const id = nextId('resp');
  const base = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model: body.model || 'gpt-4.1' };
  let item;
  const events = [['response.created', { type: 'response.created', sequence_number: 0,
                                         response: { ...base, status: 'in_progress', output: [] } }]];
  if (answer.tool) {
    item = { type: 'function_call', id: nextId('fc'), call_id: nextId('call'), name: answer.tool,
             arguments: JSON.stringify(answer.input), status: 'completed' };
    if (answer.namespace) item.namespace = answer.namespace;
    events.push(['response.output_item.added', { type: 'response.output_item.added', output_index: 0,
                                                 item: { ...item, arguments: '', status: 'in_progress' } }]);
    events.push(['response.function_call_arguments.delta', { type: 'response.function_call_arguments.delta',
                                                             output_index: 0, item_id: item.id, delta: item.arguments }]);
    events.push(['response.function_call_arguments.done', { type: 'response.function_call_arguments.done',
                                                            output_index: 0, item_id: item.id, arguments: item.arguments }]);
  } else {
    item = { type: 'message', id: nextId('msg'), role: 'assistant', status: 'completed',
             content: [{ type: 'output_text', text: answer.text, annotations: [] }] };
    events.push(['response.output_item.added', { type: 'response.output_item.added', output_index: 0,
                                                 item: { ...item, content: [], status: 'in_progress' } }]);
    events.push(['response.output_text.delta', { type: 'response.output_text.delta', output_index: 0,
                                                 content_index: 0, item_id: item.id, delta: answer.text }]);
  }
  events.push(['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }]);
  events.push(['response.completed', { type: 'response.completed', response: {
    ...base, status: 'completed', output: [item],
    usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20,
             output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 30 } } }]);
  return sse(events.map(([name, data], i) => [name, { sequence_number: i, ...data }]));
}

// --- OpenAI Chat Completions (Copilot CLI's BYOK provider) ----------------

function chatConversation(body) {
  const calls = [];
  const results = [];
  for (const message of body.messages || []) {
    if (message.role === 'assistant') {
      for (const call of message.tool_calls || []) {
        calls.push({ name: call.function && call.function.name, input: call.function && call.function.arguments });
      }
    }
    if (message.role === 'tool') {
      results.push(typeof message.content === 'string' ? message.content : JSON.stringify(message.content));
    }
  }
  const custom = new Set((body.tools || []).filter((t) => t.type === 'custom' && t.custom).map((t) => t.custom.name));
  for (const message of body.messages || []) {
    for (const call of message.tool_calls || []) {
      if (call.custom) calls.push({ name: call.custom.name, input: call.custom.input });
    }
  }
  const tools = (body.tools || []).map((t) => (t.function ? t.function.name : t.custom ? t.custom.name : t.name))
    .filter(Boolean);
  return { api: 'chat', body, tools, custom, calls, results };
}

function chatStream(body, answer) {
  const base = { id: nextId('chatcmpl'), object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000),
                 model: body.model || 'gpt-4o' };
  const chunk = (delta, finish) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish ?? null }] });
  const chunks = [];
  if (answer.tool && answer.custom) {
    // A freeform tool (Copilot CLI's apply_patch): its input is the text.
    chunks.push(chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: nextId('call'), type: 'custom',
                                                                         custom: { name: answer.tool, input: answer.input.input } }] }));
    chunks.push(chunk({}, 'tool_calls'));
  } else if (answer.tool) {
    const args = JSON.stringify(answer.input);
    const half = Math.floor(args.length / 2);
    chunks.push(chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: nextId('call'), type: 'function',
                                                                         function: { name: answer.tool, arguments: '' } }] }));
    chunks.push(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, half) } }] }));
    chunks.push(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }));
    chunks.push(chunk({}, 'tool_calls'));
  } else {
    chunks.push(chunk({ role: 'assistant', content: answer.text }));
    chunks.push(chunk({}, 'stop'));
  }
  chunks.push({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 } });
  return `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
}

// --- the server ----------------------------------------------------------

/// Starts the stub. Requests without tools (a title, a summary, a quota
/// check) get a short text; others get script(conversation). Every request
/// and answer is recorded in `exchanges`. Register `close` as a cleanup.
export async function scriptedModelApi(script) {
  const exchanges = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const exchange = { method: req.method, url: req.url, body: raw, answer: null };
      exchanges.push(exchange);
      let body = {};
      try { body = raw ? JSON.parse(raw) : {}; } catch { /* not JSON */ }
      const url = req.url.split('?')[0];
      try {
        if (req.method === 'POST' && url.endsWith('/messages/count_tokens')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ input_tokens: 100 }));
          return;
        }
        if (req.method === 'POST' && (url.endsWith('/messages') || url.endsWith('/responses') ||
                                      url.endsWith('/chat/completions'))) {
          const anthropic = url.endsWith('/messages');
          const chat = url.endsWith('/chat/completions');
          const conversation = anthropic ? anthropicConversation(body)
                                         : chat ? chatConversation(body) : responsesConversation(body);
          conversation.text = raw;
          exchange.results = conversation.results;
          const answer = conversation.tools.length ? script(conversation) : { text: 'ok' };
          if (answer.tool && conversation.custom && conversation.custom.has(answer.tool)) answer.custom = true;
          // A tool offered inside a `namespace` tool is called with it.
          if (answer.tool && conversation.namespaces && conversation.namespaces[answer.tool] && !answer.namespace) {
            answer.namespace = conversation.namespaces[answer.tool];
          }
          exchange.answer = answer;
          const stream = body.stream !== false;
          if (!stream) {
            // A non-streaming side request: answer plainly.
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify(anthropic
              ? { id: nextId('msg'), type: 'message', role: 'assistant', model: body.model, stop_reason: 'end_turn',
                  content: [{ type: 'text', text: answer.text || 'ok' }], usage: { input_tokens: 1, output_tokens: 1 } }
              : chat
                ? { id: nextId('chatcmpl'), object: 'chat.completion', model: body.model,
                    choices: [{ index: 0, message: { role: 'assistant', content: answer.text || 'ok' }, finish_reason: 'stop' }],
                    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }
                : { id: nextId('resp'), object: 'response', status: 'completed', output: [] }));
            return;
          }
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          res.end(anthropic ? anthropicStream(body, answer) : chat ? chatStream(body, answer) : responsesStream(body, answer));
          return;
        }
        if (req.method === 'GET' && url.endsWith('/models')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ object: 'list', data: [], models: [] }));
          return;
        }
      } catch (err) {
        exchange.answer = { error: String(err && err.stack ? err.stack : err) };
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(err) } }));
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no ${req.method} ${url} here` } }));
    });
  });
  server.on('upgrade', (_req, socket) => socket.destroy()); // no websockets: the agents fall back to HTTP
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  log(`scripted model API at ${url}`);
  return {
    url,
    exchanges,
    close: () => server.close(),
    summary: () => exchanges.map((e) => `${e.method} ${e.url} (${e.body.length} bytes) -> ${JSON.stringify(e.answer)}`)
      .join('\n') || '(none)',
  };
}
