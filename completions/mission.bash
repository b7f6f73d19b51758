# bash completion for mission(1)
_mission() {
  local cur prev words cword
  _init_completion 2>/dev/null || {
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
  }
  local globals="--json --socket --no-autostart --utc --help --version"
  local states="created launching running awaiting_input blocked completed failed cancelled lost"
  local adapters="claude-code codex copilot opencode pi generic"
  # Options that take a value: the next word is that value, not a command.
  local valued="--socket --state --limit --adapter --bin --delivery --cwd --toolsets --agent-execution --env --after --cursor --include --phase --agent --since --format --mission --note --task"
  # The value of --env K=V, split at "=" by readline (COMP_WORDBREAKS): free.
  if [[ $cur == = && ${words[cword-2]} == --env ]] ||
     [[ $prev == = && ${words[cword-3]} == --env ]]; then
    return
  fi
  case $prev in
    --socket) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --cwd) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --state) COMPREPLY=($(compgen -W "$states" -- "$cur")); return ;;
    --delivery) COMPREPLY=($(compgen -W "mcp-tool stdout-marker" -- "$cur")); return ;;
    --toolsets | --include)
      # A list separated by commas: complete the item after the last comma,
      # among those not typed yet.
      local items="signals tracking legacy inspect planning templates coordination workspaces" head="" item
      [[ $prev == --include ]] && items="phase_summary tasks decisions milestones blockers"
      [[ $cur == *,* ]] && head=${cur%,*},
      for item in ${head//,/ }; do items=" $items "; items=${items/ $item / }; done
      COMPREPLY=($(compgen -P "$head" -W "$items" -- "${cur##*,}"))
      return ;;
    --format)
      if [[ " ${words[*]} " == *" plan "* ]]; then COMPREPLY=($(compgen -W "text dot mermaid" -- "$cur"))
      else COMPREPLY=($(compgen -W "markdown json" -- "$cur")); fi
      return ;;
    --adapter) COMPREPLY=($(compgen -W "$adapters" -- "$cur")); return ;;
    --bin) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --env)
      # K=V: offer the names of the current environment, then the value is free.
      if [[ $cur != *=* ]]; then
        COMPREPLY=($(compgen -e -S = -- "$cur"))
        compopt -o nospace 2>/dev/null || true
      fi
      return ;;
    --limit | --agent-execution | --execution | --after | --cursor | --phase | --agent | --since | --mission | --note) return ;;
  esac
  local i command="" action="" dashdash=0
  for ((i = 1; i < cword; i++)); do
    if ((dashdash)); then ((dashdash++)); continue; fi
    case ${words[i]} in
      --) [[ $command == run || ($command == exec && $action == create) ]] && dashdash=1 ;;
      -*) [[ " $valued " == *" ${words[i]} "* ]] && ((i++)) ;;
      *) if [[ -z $command ]]; then command=${words[i]}; elif [[ -z $action ]]; then action=${words[i]}; fi ;;
    esac
  done
  # After `mission run ... --` or `mission exec create ... --`: the agent's
  # command, then its arguments.
  # Not every command on PATH for an empty word: a few thousand names help
  # nobody.
  if ((dashdash == 1)); then
    [[ -n $cur ]] && COMPREPLY=($(compgen -c -- "$cur"))
    return
  elif ((dashdash > 1)); then
    COMPREPLY=($(compgen -f -- "$cur"))
    return
  fi
  case $command in
    "") COMPREPLY=($(compgen -W "status daemon run adapters exec attach watch mcp missions tasks context report check export resolve inbox send answer agents workspaces workflows plan next progress templates gc $globals" -- "$cur")) ;;
    watch) COMPREPLY=($(compgen -W "--execution $globals" -- "$cur")) ;;
    attach) COMPREPLY=($(compgen -W "--read-only -r $globals" -- "$cur")) ;;
    daemon)
      if [[ -z $action ]]; then
        COMPREPLY=($(compgen -W "start stop status run $globals" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "$globals" -- "$cur"))
      fi ;;
    run)
      COMPREPLY=($(compgen -W "--adapter --bin --delivery --toolsets --cwd --env --detach --tty --no-tty --keep-mcp-servers --stdin-answers -- $globals" -- "$cur")) ;;
    adapters)
      if [[ -z $action ]]; then
        COMPREPLY=($(compgen -W "list $globals" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "$globals" -- "$cur"))
      fi ;;
    exec)
      case $action in
        "") COMPREPLY=($(compgen -W "list show create stop logs signals instructions $globals" -- "$cur")) ;;
        list) COMPREPLY=($(compgen -W "--state --limit --cursor $globals" -- "$cur")) ;;
        create)
          COMPREPLY=($(compgen -W "--adapter --delivery --cwd --toolsets --print-token -- $globals" -- "$cur")) ;;
        stop) COMPREPLY=($(compgen -W "--force $globals" -- "$cur")) ;;
        show) COMPREPLY=($(compgen -W "--follow -f $globals" -- "$cur")) ;;
        logs) COMPREPLY=($(compgen -W "--follow -f --raw --after --cursor --limit $globals" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "$globals" -- "$cur")) ;;
      esac ;;
    mcp)
      case $action in
        "") COMPREPLY=($(compgen -W "connect config $globals" -- "$cur")) ;;
        connect) COMPREPLY=($(compgen -W "--agent-execution --toolsets $globals" -- "$cur")) ;;
        config) COMPREPLY=($(compgen -W "--adapter --agent-execution $globals" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "$globals" -- "$cur")) ;;
      esac ;;
    missions)
      case $action in
        "") COMPREPLY=($(compgen -W "list show $globals" -- "$cur")) ;;
        list) COMPREPLY=($(compgen -W "--cwd --here --limit $globals" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "$globals" -- "$cur")) ;;
      esac ;;
    context) COMPREPLY=($(compgen -W "--include --phase --agent --since $globals" -- "$cur")) ;;
    report) COMPREPLY=($(compgen -W "--format $globals" -- "$cur")) ;;
    check) COMPREPLY=($(compgen -W "--mission --cwd --from-notes --from --allow-failed --allow-blockers --allow-scope $globals" -- "$cur")) ;;
    export) COMPREPLY=($(compgen -W "--output --commit --cwd $globals" -- "$cur")) ;;
    resolve) COMPREPLY=($(compgen -W "--note $globals" -- "$cur")) ;;
    inbox) COMPREPLY=($(compgen -W "--all --limit $globals" -- "$cur")) ;;
    send) COMPREPLY=($(compgen -W "--priority $globals" -- "$cur")) ;;
    answer) COMPREPLY=($(compgen -W "--choice $globals" -- "$cur")) ;;
    agents) COMPREPLY=($(compgen -W "--status $globals" -- "$cur")) ;;
    workspaces)
      case $action in
        "") COMPREPLY=($(compgen -W "list conflicts clean $globals" -- "$cur")) ;;
        list) COMPREPLY=($(compgen -W "--workflow --status $globals" -- "$cur")) ;;
        clean) COMPREPLY=($(compgen -W "--workflow $globals" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "$globals" -- "$cur")) ;;
      esac ;;
    workflows)
      case $action in
        "") COMPREPLY=($(compgen -W "list show $globals" -- "$cur")) ;;
        list) COMPREPLY=($(compgen -W "--limit $globals" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "$globals" -- "$cur")) ;;
      esac ;;
    templates)
      case $action in
        "") COMPREPLY=($(compgen -W "list show apply $globals" -- "$cur")) ;;
        list) COMPREPLY=($(compgen -W "--limit $globals" -- "$cur")) ;;
        apply) COMPREPLY=($(compgen -W "--var --name --repository --max-parallel --cwd $globals" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "$globals" -- "$cur")) ;;
      esac ;;
    plan) COMPREPLY=($(compgen -W "--format $globals" -- "$cur")) ;;
    next) COMPREPLY=($(compgen -W "--limit $globals" -- "$cur")) ;;
    tasks) COMPREPLY=($(compgen -W "--task $globals" -- "$cur")) ;;
    gc) COMPREPLY=($(compgen -W "--dry-run $globals" -- "$cur")) ;;
    *) COMPREPLY=($(compgen -W "$globals" -- "$cur")) ;;
  esac
}
complete -F _mission mission
