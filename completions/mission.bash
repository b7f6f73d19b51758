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
  if [[ $prev == --socket ]]; then
    COMPREPLY=($(compgen -f -- "$cur"))
    return
  fi
  local i command="" action=""
  for ((i = 1; i < cword; i++)); do
    case ${words[i]} in
      --socket) ((i++)) ;;
      -*) ;;
      *) if [[ -z $command ]]; then command=${words[i]}; elif [[ -z $action ]]; then action=${words[i]}; fi ;;
    esac
  done
  case $command in
    "") COMPREPLY=($(compgen -W "status daemon $globals" -- "$cur")) ;;
    daemon)
      if [[ -z $action ]]; then
        COMPREPLY=($(compgen -W "start stop status run $globals" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "$globals" -- "$cur"))
      fi ;;
    *) COMPREPLY=($(compgen -W "$globals" -- "$cur")) ;;
  esac
}
complete -F _mission mission
