#!/bin/sh
# The main job: install what is missing, build, start the daemon and show it
# working on a real example: an agent's MCP session through the stdio bridge,
# recorded in the ledger and visible to people; then a task tracked in a
# temporary git repository, its exact change set, report and CI check. Safe
# to run again.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build="${MISSION_BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target mission missiond

mission="$build/bin/mission"
show() { echo; echo "\$ $*"; }

show mission status "            # starts missiond on first use"
"$mission" status

show mission --json exec create --delivery mcp-tool --print-token
created=$("$mission" --json exec create --delivery mcp-tool --print-token)
echo "$created" | sed 's/"token": "[0-9a-f]*"/"token": "(64 hex digits, shown once)"/'
id=$(echo "$created" | sed -n 's/.*"id": "\(ae-[a-z0-9]*\)".*/\1/p' | head -n 1)
token=$(echo "$created" | sed -n 's/.*"token": "\([0-9a-f]*\)".*/\1/p')

# What an agent's MCP client does: start the bridge, initialize, list the
# tools, report progress, ask a question, and send the same event again.
show "printf '<initialize, tools/list, 3 tools/call>' | MISSION_MCP_TOKEN=... mission mcp connect --agent-execution $id"
{
  echo '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"demo-agent","version":"1.0"}}}'
  echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  echo '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
  echo '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"progress","arguments":{"summary":"parser rewritten","eventId":"demo-1"}}}'
  echo '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"needs_input","arguments":{"question":"Keep the old API?","choices":["yes","no"],"eventId":"demo-2"}}}'
  echo '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"progress","arguments":{"summary":"parser rewritten","eventId":"demo-1"}}}'
} | MISSION_MCP_TOKEN="$token" "$mission" mcp connect --agent-execution "$id" |
  while IFS= read -r line; do
    case "$line" in
      *'"id":1,'*) echo "initialize -> $(echo "$line" | grep -o '"protocolVersion":"[0-9-]*"')" ;;
      *'"id":2,'*) echo "tools/list -> $(echo "$line" | grep -o '"name":"[a-z_]*"' | cut -d'"' -f4 | tr '\n' ' ')" ;;
      *) echo "tools/call -> $(echo "$line" | grep -o '"structuredContent":{[^}]*}')" ;;
    esac
  done

show mission exec show "$id"
"$mission" exec show "$id"

show mission exec list
"$mission" exec list

show "mission mcp connect --agent-execution $id   # wrong token: refused, exit 1"
set +e
MISSION_MCP_TOKEN=0000 "$mission" mcp connect --agent-execution "$id" </dev/null
echo "exit status: $?"
set -e

# Tracking: an agent records a mission and a task in a real git repository,
# edits files between start_task and complete_task, and mission reports the
# exact change set and whether the task stayed in its areas.
repo=$(mktemp -d)
trap 'rm -rf "$repo"' EXIT
git -C "$repo" init -q
mkdir -p "$repo/src/parser" "$repo/docs"
echo 'parse()' >"$repo/src/parser/parse.c"
echo 'old notes' >"$repo/docs/notes.md"
echo 'unrelated, dirty before the task' >"$repo/docs/draft.md"
git -C "$repo" add src docs/notes.md
git -C "$repo" -c user.name=demo -c user.email=demo@example.com commit -qm start
echo 'edited before the task starts' >>"$repo/docs/draft.md"

tracked=$(cd "$repo" && "$mission" --json exec create --delivery mcp-tool --print-token)
tracked_id=$(echo "$tracked" | sed -n 's/.*"id": "\(ae-[a-z0-9]*\)".*/\1/p' | head -n 1)
tracked_token=$(echo "$tracked" | sed -n 's/.*"token": "\([0-9a-f]*\)".*/\1/p')
# One MCP session: the JSON-RPC lines in, the tool results out.
session() {
  {
    echo '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"demo-agent","version":"1.0"}}}'
    echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
    cat
  } | MISSION_MCP_TOKEN="$tracked_token" "$mission" mcp connect --agent-execution "$tracked_id" | sed 1d
}
show "(MCP) start_mission, then start_task with areas [\"src/parser\"]"
started=$(printf '%s\n' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"start_mission","arguments":{"name":"Faster parser","objective":"Halve parse time"}}}' | session)
mission_id=$(echo "$started" | grep -o '"mission_id":"[a-z0-9-]*"' | head -n 1 | cut -d'"' -f4)
task=$(printf '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"start_task","arguments":{"mission_id":"%s","phase":1,"phase_name":"Rewrite","name":"Rewrite the tokenizer","goal":"One pass","areas":["src/parser"]}}}\n' "$mission_id" | session)
task_id=$(echo "$task" | grep -o '"task_id":"[a-z0-9-]*"' | head -n 1 | cut -d'"' -f4)
echo "mission $mission_id, task $task_id"

show "(the agent works) edit src/parser/parse.c, add src/parser/lexer.c, touch README.md"
echo 'parse() { lex(); }' >"$repo/src/parser/parse.c"
echo 'lex()' >"$repo/src/parser/lexer.c"
echo 'readme' >"$repo/README.md"

show "(MCP) complete_task"
printf '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"complete_task","arguments":{"task_id":"%s","status":"success","outcome":{"summary":"tokenizer in one pass"},"phase_complete":true}}}\n' "$task_id" |
  session | grep -o "\"files_changed\":{[^}]*}\|\"verification\":{[^}]*}"

show mission tasks "$mission_id"
"$mission" tasks "$mission_id"

show mission report "$mission_id"
"$mission" report "$mission_id"

show "mission check --mission $mission_id   # README.md is outside the task's areas: exit 1"
set +e
"$mission" check --mission "$mission_id"
echo "exit status: $?"
set -e
"$mission" exec stop "$tracked_id" >/dev/null
"$mission" exec show "$tracked_id" --follow >/dev/null   # until it has ended

show mission daemon stop
"$mission" daemon stop
show mission daemon start "      # leave it running for what comes next"
"$mission" daemon start
