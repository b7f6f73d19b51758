#!/bin/sh
# The completions in completions/ are those `mission completion SHELL`
# generates from the command table, and each shell that is installed reads
# its script without a syntax error.
# Usage: check_completions_generated.sh SOURCE_DIR MISSION
set -eu
src=$1
mission=$2
status=0
for pair in bash:mission.bash zsh:_mission fish:mission.fish; do
  shell=${pair%%:*}
  file=$src/completions/${pair#*:}
  generated=$(mktemp)
  "$mission" completion "$shell" >"$generated"
  if ! cmp -s "$generated" "$file"; then
    echo "completions/${pair#*:} differs from what the command table generates:"
    diff -u "$file" "$generated" | head -40
    echo "  hint: mission completion $shell > completions/${pair#*:}"
    status=1
  fi
  if command -v "$shell" >/dev/null 2>&1; then
    "$shell" -n "$generated" || { echo "$shell cannot read completions/${pair#*:}"; status=1; }
  fi
  rm -f "$generated"
done
exit $status
