# bash completion for mission(1)
_mission() {
  local cur prev words cword
  _init_completion 2>/dev/null || {
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
  }
  local globals="--json --socket --no-autostart --help --version"
  local states="created launching running awaiting_input blocked completed failed cancelled lost"
  # Options that take a value: the next word is that value, not a command.
  local valued="--socket --state --limit --adapter --delivery --cwd --toolsets --agent-execution"
  case $prev in
    --socket) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --cwd) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --state) COMPREPLY=($(compgen -W "$states" -- "$cur")); return ;;
    --delivery) COMPREPLY=($(compgen -W "mcp-tool stdout-marker" -- "$cur")); return ;;
    --toolsets) COMPREPLY=($(compgen -W "signals" -- "$cur")); return ;;
    --limit | --adapter | --agent-execution) return ;;
  esac
  local i command="" action="" dashdash=0
  for ((i = 1; i < cword; i++)); do
    if ((dashdash)); then ((dashdash++)); continue; fi
    case ${words[i]} in
      --) [[ $command == exec && $action == create ]] && dashdash=1 ;;
      -*) [[ " $valued " == *" ${words[i]} "* ]] && ((i++)) ;;
      *) if [[ -z $command ]]; then command=${words[i]}; elif [[ -z $action ]]; then action=${words[i]}; fi ;;
    esac
  done
  # After `mission exec create ... --`: the agent's command, then its arguments.
  if ((dashdash == 1)); then
    COMPREPLY=($(compgen -c -- "$cur"))
    return
  elif ((dashdash > 1)); then
    COMPREPLY=($(compgen -f -- "$cur"))
    return
  fi
  case $command in
    "") COMPREPLY=($(compgen -W "status daemon exec mcp $globals" -- "$cur")) ;;
    daemon)
      if [[ -z $action ]]; then
        COMPREPLY=($(compgen -W "start stop status run $globals" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "$globals" -- "$cur"))
      fi ;;
    exec)
      case $action in
        "") COMPREPLY=($(compgen -W "list show create $globals" -- "$cur")) ;;
        list) COMPREPLY=($(compgen -W "--state --limit $globals" -- "$cur")) ;;
        create)
          COMPREPLY=($(compgen -W "--adapter --delivery --cwd --toolsets --print-token -- $globals" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "$globals" -- "$cur")) ;;
      esac ;;
    mcp)
      case $action in
        "") COMPREPLY=($(compgen -W "connect $globals" -- "$cur")) ;;
        connect) COMPREPLY=($(compgen -W "--agent-execution --toolsets $globals" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "$globals" -- "$cur")) ;;
      esac ;;
    *) COMPREPLY=($(compgen -W "$globals" -- "$cur")) ;;
  esac
}
complete -F _mission mission
