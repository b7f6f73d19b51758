#!/bin/bash
# The bash completion offers the commands and the daemon actions.
set -eu
source "$1/completions/mission.bash"
complete_words() {
  COMP_WORDS=("$@")
  COMP_CWORD=$(($# - 1))
  COMPREPLY=()
  _mission
  echo "${COMPREPLY[*]}"
}
[[ $(complete_words mission st) == "status" ]] || { echo "mission st -> $(complete_words mission st)"; exit 1; }
[[ $(complete_words mission daemon s) == "start stop status" ]] || { echo "daemon s -> $(complete_words mission daemon s)"; exit 1; }
[[ $(complete_words mission --no-autostart daemon r) == "run" ]] || { echo "daemon r failed"; exit 1; }
# The commands of mission(1) beyond the daemon: exec and mcp, with their
# actions and the values of their options.
subcommands() { complete_words "$@" | tr ' ' '\n' | grep -v '^-' | tr '\n' ' ' | sed 's/ $//'; }
expect() {
  local want=$1; shift
  local got; got=$(complete_words "$@")
  [[ $got == "$want" ]] || { echo "$* -> '$got', expected '$want'"; exit 1; }
}
[[ $(subcommands mission '') == "status daemon run exec watch mcp" ]] || { echo "mission '' -> $(subcommands mission '')"; exit 1; }
[[ $(subcommands mission exec '') == "list show create stop logs signals instructions" ]] || { echo "exec '' -> $(subcommands mission exec '')"; exit 1; }
[[ $(subcommands mission mcp '') == "connect" ]] || { echo "mcp '' -> $(subcommands mission mcp '')"; exit 1; }
expect "exec" mission e
expect "list" mission --socket /tmp/s exec li
expect "connect" mission --json mcp c
expect "--state" mission exec list --st
expect "awaiting_input" mission exec list --state aw
expect "--print-token" mission exec create --p
expect "mcp-tool stdout-marker" mission exec create --delivery ''
expect "signals" mission exec create --delivery mcp-tool --toolsets s
expect "--agent-execution" mission mcp connect --ag
expect "signals" mission mcp connect --toolsets ''
expect "" mission mcp connect --agent-execution ''
[[ " $(complete_words mission exec create --cwd /tmp -- bas) " == *" bash "* ]] || { echo "command after -- not completed"; exit 1; }
# mission run and the exec actions that came with it: stop, logs, signals,
# instructions.
offers() {  # offers WORD COMMAND-LINE...: WORD is among the completions
  local want=$1; shift
  [[ " $(complete_words "$@") " == *" $want "* ]] || { echo "$* -> '$(complete_words "$@")', missing '$want'"; exit 1; }
}
for action in stop logs signals instructions; do offers "$action" mission exec ''; done
offers --detach mission run --
expect "run" mission r
expect "--detach" mission run --det
expect "mcp-tool stdout-marker" mission run --delivery ''
expect "signals" mission run --toolsets ''
expect "--env" mission run --detach --e
expect "" mission run --adapter ''
offers bash mission run --env A=b -- bas
offers bash mission --json run --cwd /tmp --detach -- bas
expect "stop" mission exec st
expect "--force" mission exec stop --f
expect "--cursor" mission exec logs --c
expect "--follow" mission exec logs ae-1 --fo
expect "--limit" mission exec logs ae-1 --after 3 --l
expect "" mission exec logs ae-1 --cursor ''
