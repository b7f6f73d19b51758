#!/bin/sh
# Holds the layering of DESIGN.md (and docs/adr/0008) against the code: a
# file may include its own folder and folders of lower layers only, never a
# layer above it or a sibling on its own layer. shared/ is below everything
# and includes nothing of the daemon or the CLI; the CLI includes shared/
# only (it must not link SQLite or libgit2).
# Usage: check_layers.sh SOURCE_ROOT
set -eu
root=${1:?usage: check_layers.sh SOURCE_ROOT}
cd "$root"

# folder layer: lower numbers are lower layers.
layers='
shared 0
daemon/loop 1
daemon/store 2
daemon/git 2
daemon/sandbox 2
daemon/events 3
daemon/adapters 3
daemon/terminal 4
daemon/execution 5
daemon/tracking 6
daemon/planning 6
daemon/coordination 7
daemon/workspaces 7
daemon/runs 8
daemon/mcp 9
daemon/rpc 10
daemon/http 11
daemon 12
cli 1
'

layer_of() {
  echo "$layers" | awk -v f="$1" '$1 == f { print $2 }'
}

# The folder a path belongs to: its directory, or "daemon" for the
# daemon's own top-level files.
folder_of() {
  dir=$(dirname "$1")
  case "$dir" in
    daemon) echo daemon ;;
    cli/*) echo cli ;;
    *) echo "$dir" ;;
  esac
}

status=0
for file in $(find shared daemon cli -name '*.cpp' -o -name '*.hpp' | sort); do
  from=$(folder_of "$file")
  from_layer=$(layer_of "$from")
  if [ -z "$from_layer" ]; then
    echo "$file: folder $from has no layer; add it to tests/layering/check_layers.sh and docs/adr/0008" >&2
    status=1
    continue
  fi
  for included in $(sed -n 's/^#include "\(\(shared\|daemon\|cli\)\/[^"]*\)".*/\1/p' "$file"); do
    to=$(folder_of "$included")
    [ "$to" = "$from" ] && continue
    case "$from:$to" in
      cli:shared) continue ;;
      cli:*) echo "$file includes $included: the CLI may include shared/ only" >&2; status=1; continue ;;
      *:cli) echo "$file includes $included: nothing includes the CLI" >&2; status=1; continue ;;
    esac
    to_layer=$(layer_of "$to")
    if [ -z "$to_layer" ] || [ "$to_layer" -ge "$from_layer" ]; then
      echo "$file ($from, layer $from_layer) includes $included ($to, layer ${to_layer:-?}): an include may only go down" >&2
      status=1
    fi
  done
done
[ "$status" -eq 0 ] && echo "layering holds"
exit "$status"
