#!/bin/bash
# The bash completion offers the commands and the daemon actions.
# Usage: check_bash_completion.sh SOURCE_DIR [MISSION MISSIOND]: with the
# binaries, completions of execution ids and names are checked against a
# real daemon.
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
[[ $(subcommands mission '') == "status daemon run adapters exec attach watch mcp missions tasks context report usage check export resolve inbox send answer agents workspaces workflows approve reject plan next progress templates board sandbox gc" ]] || { echo "mission '' -> $(subcommands mission '')"; exit 1; }
expect "--choice" mission answer --ch
expect "--stdin-answers" mission run --stdin
[[ $(subcommands mission exec '') == "list show create stop logs signals instructions" ]] || { echo "exec '' -> $(subcommands mission exec '')"; exit 1; }
[[ $(subcommands mission mcp '') == "connect config" ]] || { echo "mcp '' -> $(subcommands mission mcp '')"; exit 1; }
[[ $(subcommands mission workflows '') == "list show create rm run stop reset retry status budget diff land plan edit" ]] || { echo "workflows '' -> $(subcommands mission workflows '')"; exit 1; }
expect "mermaid" mission plan wf-1 --format m
expect "--merge" mission workflows land wf-1 --me
expect "--partial" mission workflows land wf-1 --pa
expect "--into" mission workflows land wf-1 --in
expect "--stat" mission workflows diff wf-1 --st
expect "exec" mission exe
expect "list" mission --socket /tmp/s exec li
expect "connect" mission --json mcp conn
expect "--state" mission exec list --st
expect "awaiting_input awaiting_permission" mission exec list --state aw
expect "--print-token" mission exec create --p
expect "mcp-tool stdout-marker" mission exec create --delivery ''
expect "signals" mission exec create --delivery mcp-tool --toolsets s
expect "--agent-execution" mission mcp connect --ag
expect "signals tracking legacy inspect planning templates coordination workspaces control" mission mcp connect --toolsets ''
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
expect "run report resolve reject" mission r
expect "--detach" mission run --det
expect "mcp-tool stdout-marker" mission run --delivery ''
expect "signals tracking legacy inspect planning templates coordination workspaces control" mission run --toolsets ''
expect "--env" mission run --detach --e
expect "claude-code codex copilot opencode pi acp claude-code-acp codex-acp generic" mission run --adapter ''
offers bash mission run --env A=b -- bas
offers bash mission --json run --cwd /tmp --detach -- bas
expect "stop" mission exec st
expect "--force" mission exec stop --f
expect "--cursor" mission exec logs --c
expect "--follow" mission exec logs ae-1 --fo
expect "--limit" mission exec logs ae-1 --after 3 --l
expect "" mission exec logs ae-1 --cursor ''
# Agent adapters: mission run --adapter/--bin, mission adapters list,
# mission mcp config.
expect "codex copilot codex-acp" mission run --adapter co
expect "--bin" mission run --bi
expect "--keep-mcp-servers --keep-open" mission run --adapter claude-code --k
offers bash mission run --adapter claude-code --bin /usr/bin/claude -- bas
expect "adapters" mission ad
[[ $(subcommands mission adapters '') == "list" ]] || { echo "adapters '' -> $(subcommands mission adapters '')"; exit 1; }
expect "config" mission mcp conf
expect "--adapter --agent-execution --add-json" mission mcp config --a
expect "opencode" mission mcp config --adapter op
# The tracking commands: missions list|show, tasks, context, report, check,
# resolve, with their options and values.
[[ $(subcommands mission missions '') == "list show" ]] || { echo "missions '' -> $(subcommands mission missions '')"; exit 1; }
expect "--cwd" mission missions list --c
expect "--limit" mission missions list --here --l
expect "context check" mission c
expect "--include" mission context ms-1 --inc
expect "decisions" mission context ms-1 --include d
expect "tasks,milestones" mission context --include tasks,m
expect "--phase" mission context --include tasks --ph
expect "markdown json" mission report ms-1 --format ''
expect "--allow-failed --allow-blockers --allow-scope --allow-unfinished" mission check --allow
expect "--mission" mission check --m
expect "--note" mission resolve is-1 --not
expect "signals,tracking" mission exec create --toolsets signals,tr
expect "tasks,milestones,phase_summary tasks,milestones,decisions tasks,milestones,blockers" mission context --include tasks,milestones,
# An option that takes an execution id offers no options in its place (and
# nothing at all when no daemon runs); after -- comes a command, as bash
# completes a command word, then its arguments, files.
expect "" mission watch --execution ''
expect "" mission --socket /nonexistent/s watch --execution ''
offers bash mission run -- ''
offers bash mission run --name x -- ''
[[ " $(complete_words mission run -- '') " != *" --detach "* ]] || { echo "run -- '' offers options"; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
touch "$scratch/notes.txt"
(cd "$scratch" && offers notes.txt mission run -- bash '') || exit 1
(cd "$scratch" && offers notes.txt mission exec create -- bash -x n) || exit 1
(cd "$scratch" && offers "$scratch/notes.txt" mission run -- "$scratch/n") || exit 1
(shopt -s no_empty_cmd_completion && expect "" mission run -- '') || exit 1
expect "--read-only" mission attach --re
expect "--raw" mission exec logs --ra
# mission workspaces and its actions.
[[ $(subcommands mission workspaces '') == "list conflicts clean" ]] || { echo "workspaces '' -> $(subcommands mission workspaces '')"; exit 1; }
expect "--workflow" mission workspaces list --w

# With a daemon: ids and names of executions where an execution is wanted.
if [[ $# -ge 3 ]]; then
  export MISSION_RUNTIME_DIR=$scratch/run MISSION_STATE_DIR=$scratch/state MISSION_DAEMON_BIN=$3
  PATH=$(dirname "$2"):$PATH
  trap 'mission daemon stop --force >/dev/null 2>&1 || true; rm -rf "$scratch"' EXIT
  id=$(mission run --detach --name fix-auth -- sleep 60)
  [[ $id == ae-* ]] || { echo "mission run --detach printed '$id'"; exit 1; }
  for line in "mission watch --execution" "mission attach" "mission exec logs" "mission exec stop --force" \
              "mission mcp connect --agent-execution" "mission send" "mission answer"; do
    # shellcheck disable=SC2086
    offers "$id" $line ''
    # shellcheck disable=SC2086
    offers fix-auth $line ''
  done
  expect "fix-auth" mission watch --execution fix
  expect "$id" mission exec show "${id:0:6}"
  expect "--follow" mission exec logs "$id" --fol
  expect "" mission exec logs "$id" --after ''
  offers "@last" mission attach ''
  # Ids and names of workflows where a workflow is wanted.
  printf 'summary = "s"\napproach = "a"\n[[tasks]]\nname = "one"\ndescription = "d"\n' \
    > "$scratch/plan.toml"
  wf=$(mission workflows create health-endpoint --from "$scratch/plan.toml" --cwd "$scratch" |
       sed -n 's/^Workflow \(wf-[a-z0-9]*\) .*/\1/p')
  [[ $wf == wf-* ]] || { echo "mission workflows create printed no id"; exit 1; }
  for line in "mission plan" "mission workflows status" "mission workflows run" "mission report" \
              "mission usage" "mission tasks" "mission workspaces list --workflow"; do
    # shellcheck disable=SC2086
    offers "$wf" $line ''
    # shellcheck disable=SC2086
    offers health-endpoint $line ''
  done
  expect "health-endpoint" mission workflows show heal
  offers "@last" mission plan ''
fi
