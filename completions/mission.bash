# bash completion for mission(1), generated from the command table by
# `mission completion bash`: regenerate it rather than edit it.

# __mission_node PATH: the subcommands, options and positional arguments
# (their kinds) of the command PATH: '' is mission itself, then 'exec',
# 'exec list'.
__mission_node() {
  case $1 in
    '') subs='status daemon run adapters exec attach watch mcp missions tasks context report usage check export resolve inbox send answer agents workspaces workflows approve reject plan next progress templates board sandbox gc' opts='--help -h --version --json --socket --utc --no-autostart' args='' ;;
    'status') subs='' opts='' args='' ;;
    'daemon') subs='start stop status run' opts='' args='' ;;
    'daemon start') subs='' opts='' args='' ;;
    'daemon stop') subs='' opts='--force' args='' ;;
    'daemon status') subs='' opts='' args='' ;;
    'daemon run') subs='' opts='' args='' ;;
    'run') subs='' opts='--adapter --bin --delivery --toolsets --name --cwd --env --detach --tty --no-tty --keep-mcp-servers --stdin-answers --sandbox --network --allow-write --hide --prompt --keep-open --allow --deny --policy' args='command' ;;
    'adapters') subs='list' opts='' args='' ;;
    'adapters list') subs='' opts='' args='' ;;
    'exec') subs='list show create stop logs signals instructions' opts='' args='' ;;
    'exec list') subs='' opts='--state --limit --cursor' args='' ;;
    'exec show') subs='' opts='--follow -f' args='executions' ;;
    'exec create') subs='' opts='--adapter --delivery --cwd --toolsets --print-token' args='command' ;;
    'exec stop') subs='' opts='--force' args='executions' ;;
    'exec logs') subs='' opts='--follow -f --raw --after --cursor --limit' args='executions' ;;
    'exec signals') subs='' opts='' args='executions' ;;
    'exec instructions') subs='' opts='' args='executions' ;;
    'attach') subs='' opts='--read-only -r' args='executions' ;;
    'watch') subs='' opts='--execution --notify' args='' ;;
    'mcp') subs='connect config' opts='' args='' ;;
    'mcp connect') subs='' opts='--agent-execution --toolsets' args='' ;;
    'mcp config') subs='' opts='--adapter --agent-execution --http --add-json' args='' ;;
    'missions') subs='list show' opts='' args='' ;;
    'missions list') subs='' opts='--cwd --here --limit' args='' ;;
    'missions show') subs='' opts='' args='workflows' ;;
    'tasks') subs='' opts='--task' args='workflows' ;;
    'context') subs='' opts='--include --phase --agent --since' args='workflows' ;;
    'report') subs='' opts='--format' args='workflows' ;;
    'usage') subs='' opts='--since' args='workflows' ;;
    'check') subs='' opts='--mission --cwd --from --from-notes --allow-failed --allow-blockers --allow-scope --allow-unfinished' args='none' ;;
    'export') subs='' opts='--output -o --commit --cwd' args='workflows' ;;
    'resolve') subs='' opts='--note' args='none' ;;
    'inbox') subs='' opts='--all --limit' args='' ;;
    'send') subs='' opts='--priority --no-enter' args='executions none' ;;
    'answer') subs='' opts='--choice --no-enter' args='executions none' ;;
    'agents') subs='' opts='--status' args='' ;;
    'workspaces') subs='list conflicts clean' opts='' args='' ;;
    'workspaces list') subs='' opts='--workflow --status' args='' ;;
    'workspaces conflicts') subs='' opts='' args='workflows' ;;
    'workspaces clean') subs='' opts='--workflow' args='' ;;
    'workflows') subs='list show create rm run stop reset retry status budget diff land plan edit' opts='' args='' ;;
    'workflows list') subs='' opts='--limit' args='' ;;
    'workflows show') subs='' opts='--follow' args='workflows' ;;
    'workflows create') subs='' opts='--from --cwd' args='none' ;;
    'workflows rm') subs='' opts='' args='workflows' ;;
    'workflows run') subs='' opts='--adapter --parallel --check --gate --gate-parallel --max-attempts --task-timeout --budget-tokens --budget-usd --run-budget-tokens --run-budget-usd --base --env --detach --approve --sandbox --network --allow-write --hide --allow --deny --policy' args='workflows command' ;;
    'workflows stop') subs='' opts='' args='workflows' ;;
    'workflows reset') subs='' opts='' args='workflows none' ;;
    'workflows retry') subs='' opts='' args='workflows none' ;;
    'workflows status') subs='' opts='' args='workflows' ;;
    'workflows budget') subs='' opts='--task --tokens --usd' args='workflows' ;;
    'workflows diff') subs='' opts='--stat' args='workflows none' ;;
    'workflows land') subs='' opts='--into --merge --partial' args='workflows' ;;
    'workflows plan') subs='' opts='--from-issue --workflow --name --adapter --bin --delivery --cwd --env --sandbox --detach' args='none command' ;;
    'workflows edit') subs='' opts='--from' args='workflows' ;;
    'approve') subs='' opts='' args='none' ;;
    'reject') subs='' opts='' args='none none' ;;
    'plan') subs='' opts='--format' args='workflows' ;;
    'next') subs='' opts='--limit' args='workflows' ;;
    'progress') subs='' opts='' args='workflows' ;;
    'templates') subs='list show apply' opts='' args='' ;;
    'templates list') subs='' opts='--limit' args='' ;;
    'templates show') subs='' opts='' args='none' ;;
    'templates apply') subs='' opts='--var --name --repository --max-parallel --cwd' args='none' ;;
    'board') subs='' opts='--open' args='' ;;
    'sandbox') subs='check' opts='' args='' ;;
    'sandbox check') subs='' opts='--adapter --cwd' args='' ;;
    'gc') subs='' opts='--dry-run -n' args='' ;;
    *) subs='' opts='' args='' ;;
  esac
}
# __mission_value PATH OPTION: the kind of OPTION's value and its words;
# kind is empty when OPTION takes no value.
__mission_value() {
  kind='' values=''
  case "$1|$2" in
    '|--socket') kind=files ;;
    'run|--adapter') kind=words values='claude-code codex copilot opencode pi acp claude-code-acp codex-acp generic' ;;
    'run|--bin') kind=files ;;
    'run|--delivery') kind=words values='mcp-tool stdout-marker' ;;
    'run|--toolsets') kind=list values='signals tracking legacy inspect planning templates coordination workspaces control' ;;
    'run|--name') kind=none ;;
    'run|--cwd') kind=directories ;;
    'run|--env') kind=environment ;;
    'run|--sandbox') kind=words values='on off' ;;
    'run|--network') kind=words values='on none' ;;
    'run|--allow-write') kind=files ;;
    'run|--hide') kind=files ;;
    'run|--prompt') kind=none ;;
    'run|--allow') kind=none ;;
    'run|--deny') kind=none ;;
    'run|--policy') kind=files ;;
    'exec list|--state') kind=words values='created launching running awaiting_input awaiting_permission idle blocked completed failed cancelled lost' ;;
    'exec list|--limit') kind=none ;;
    'exec list|--cursor') kind=none ;;
    'exec create|--adapter') kind=words values='claude-code codex copilot opencode pi acp claude-code-acp codex-acp generic' ;;
    'exec create|--delivery') kind=words values='mcp-tool stdout-marker' ;;
    'exec create|--cwd') kind=directories ;;
    'exec create|--toolsets') kind=list values='signals tracking legacy inspect planning templates coordination workspaces control' ;;
    'exec logs|--after') kind=none ;;
    'exec logs|--cursor') kind=none ;;
    'exec logs|--limit') kind=none ;;
    'watch|--execution') kind=executions ;;
    'watch|--notify') kind=none ;;
    'mcp connect|--agent-execution') kind=executions ;;
    'mcp connect|--toolsets') kind=list values='signals tracking legacy inspect planning templates coordination workspaces control' ;;
    'mcp config|--adapter') kind=words values='claude-code codex copilot opencode pi acp claude-code-acp codex-acp generic' ;;
    'mcp config|--agent-execution') kind=executions ;;
    'mcp config|--http') kind=none ;;
    'missions list|--cwd') kind=directories ;;
    'missions list|--limit') kind=none ;;
    'tasks|--task') kind=none ;;
    'context|--include') kind=list values='phase_summary tasks decisions milestones blockers' ;;
    'context|--phase') kind=none ;;
    'context|--agent') kind=none ;;
    'context|--since') kind=none ;;
    'report|--format') kind=words values='markdown json' ;;
    'usage|--since') kind=none ;;
    'check|--mission') kind=none ;;
    'check|--cwd') kind=directories ;;
    'check|--from') kind=files ;;
    'check|--from-notes') kind=none ;;
    'export|--output') kind=files ;;
    'export|-o') kind=files ;;
    'export|--commit') kind=none ;;
    'export|--cwd') kind=directories ;;
    'resolve|--note') kind=none ;;
    'inbox|--limit') kind=none ;;
    'send|--priority') kind=words values='low normal high urgent' ;;
    'answer|--choice') kind=none ;;
    'agents|--status') kind=list values='online busy offline' ;;
    'workspaces list|--workflow') kind=workflows ;;
    'workspaces list|--status') kind=list values='active merged abandoned removed' ;;
    'workspaces clean|--workflow') kind=workflows ;;
    'workflows list|--limit') kind=none ;;
    'workflows create|--from') kind=files ;;
    'workflows create|--cwd') kind=directories ;;
    'workflows run|--adapter') kind=words values='claude-code codex copilot opencode pi acp claude-code-acp codex-acp generic' ;;
    'workflows run|--parallel') kind=none ;;
    'workflows run|--check') kind=none ;;
    'workflows run|--gate') kind=none ;;
    'workflows run|--gate-parallel') kind=none ;;
    'workflows run|--max-attempts') kind=none ;;
    'workflows run|--task-timeout') kind=none ;;
    'workflows run|--budget-tokens') kind=none ;;
    'workflows run|--budget-usd') kind=none ;;
    'workflows run|--run-budget-tokens') kind=none ;;
    'workflows run|--run-budget-usd') kind=none ;;
    'workflows run|--base') kind=none ;;
    'workflows run|--env') kind=environment ;;
    'workflows run|--sandbox') kind=words values='on off' ;;
    'workflows run|--network') kind=words values='on none' ;;
    'workflows run|--allow-write') kind=files ;;
    'workflows run|--hide') kind=files ;;
    'workflows run|--allow') kind=none ;;
    'workflows run|--deny') kind=none ;;
    'workflows run|--policy') kind=files ;;
    'workflows budget|--task') kind=none ;;
    'workflows budget|--tokens') kind=none ;;
    'workflows budget|--usd') kind=none ;;
    'workflows land|--into') kind=none ;;
    'workflows plan|--from-issue') kind=files ;;
    'workflows plan|--workflow') kind=workflows ;;
    'workflows plan|--name') kind=none ;;
    'workflows plan|--adapter') kind=words values='claude-code codex copilot opencode pi acp claude-code-acp codex-acp generic' ;;
    'workflows plan|--bin') kind=files ;;
    'workflows plan|--delivery') kind=words values='mcp-tool stdout-marker' ;;
    'workflows plan|--cwd') kind=directories ;;
    'workflows plan|--env') kind=environment ;;
    'workflows plan|--sandbox') kind=words values='on off' ;;
    'workflows edit|--from') kind=files ;;
    'plan|--format') kind=words values='text dot mermaid' ;;
    'next|--limit') kind=none ;;
    'templates list|--limit') kind=none ;;
    'templates apply|--var') kind=none ;;
    'templates apply|--name') kind=none ;;
    'templates apply|--repository') kind=directories ;;
    'templates apply|--max-parallel') kind=none ;;
    'templates apply|--cwd') kind=directories ;;
    'sandbox check|--adapter') kind=none ;;
    'sandbox check|--cwd') kind=directories ;;
  esac
}
# __mission_known KIND: the executions or workflows the daemon knows, ids
# then names; nothing, at once, when no daemon runs (mission __complete
# never starts one).
__mission_known() {
  local listed
  listed=$("${words[0]}" ${socket:+--socket "$socket"} __complete "$1" 2>/dev/null) || true
  COMPREPLY=($(compgen -W "$listed" -- "$cur"))
}
# __mission_offer KIND WORDS: the completions of a value of that kind.
__mission_offer() {
  case $1 in
    words) COMPREPLY=($(compgen -W "$2" -- "$cur")) ;;
    list)
      # Items separated by commas: complete the one after the last comma,
      # among those not typed yet.
      local items=" $2 " head="" item
      [[ $cur == *,* ]] && head=${cur%,*},
      for item in ${head//,/ }; do items=${items/ $item / }; done
      COMPREPLY=($(compgen -P "$head" -W "$items" -- "${cur##*,}")) ;;
    files) compopt -o filenames 2>/dev/null || true; COMPREPLY=($(compgen -f -- "$cur")) ;;
    directories) compopt -o filenames 2>/dev/null || true; COMPREPLY=($(compgen -d -- "$cur")) ;;
    environment)
      # K=V: the names of the environment, then the value is free.
      if [[ $cur != *=* ]]; then
        COMPREPLY=($(compgen -e -S = -- "$cur"))
        compopt -o nospace 2>/dev/null || true
      fi ;;
    executions | workflows) __mission_known "$1" ;;
  esac
}
# __mission_command_line N: words from N on are a command line of their own
# (after `mission run --`): its command as bash completes a command word,
# commands on PATH or a path with a slash, then its arguments.
__mission_command_line() {
  if declare -F _command_offset >/dev/null; then
    _command_offset "$1"
    return
  fi
  if (($1 == cword)); then
    [[ -z $cur ]] && shopt -q no_empty_cmd_completion && return
    if [[ $cur == */* ]]; then
      compopt -o filenames 2>/dev/null || true
      COMPREPLY=($(compgen -f -- "$cur"))
    else
      COMPREPLY=($(compgen -c -- "$cur"))
    fi
  else
    compopt -o filenames 2>/dev/null || true
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
_mission() {
  local cur prev words cword
  _init_completion 2>/dev/null || {
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
  }
  local node='' subs opts args kind values globals word i positional=0
  local value_kind='' value_words='' socket=''
  __mission_node ''
  globals=$opts
  # A value split at "=" by readline (--env K=V): the value is free.
  [[ $cur == = || $prev == = ]] && return
  for ((i = 1; i < cword; i++)); do
    word=${words[i]}
    case $word in
      --)
        if [[ " $args " == *" command "* ]]; then
          __mission_command_line $((i + 1))
          return
        fi ;;
      =) i=$((i + 1)) ;;
      -*)
        __mission_value "$node" "$word"
        [[ -n $kind ]] || __mission_value '' "$word"
        if [[ -n $kind ]]; then
          [[ $word == --socket ]] && socket=${words[i + 1]}
          ((i + 1 == cword)) && value_kind=$kind value_words=$values
          i=$((i + 1))
        fi ;;
      *)
        if [[ " $subs " == *" $word "* ]]; then
          node=${node:+$node }$word
          positional=0
          __mission_node "$node"
        else
          positional=$((positional + 1))
        fi ;;
    esac
  done
  if [[ -n $value_kind ]]; then
    __mission_offer "$value_kind" "$value_words"
    return
  fi
  [[ -n $node ]] && opts="$opts $globals"
  local -a kinds=($args)
  local arg_kind=${kinds[positional]-}
  if [[ $cur != -* && -z $subs && ($arg_kind == executions || $arg_kind == workflows) ]]; then
    __mission_known "$arg_kind"
  else
    COMPREPLY=($(compgen -W "$subs $opts" -- "$cur"))
  fi
}
complete -F _mission mission
