#!/bin/sh
# The main job: install what is missing, build, start the daemon and show it
# working on a real example: an agent's MCP session through the stdio bridge,
# recorded in the ledger and visible to people. Safe to run again.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build="${MISSION_BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
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

show mission daemon stop
"$mission" daemon stop
show mission daemon start "      # leave it running for what comes next"
"$mission" daemon start
