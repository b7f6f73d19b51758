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
