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
daemon/tasks 5
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

# One pass: every file and each of its includes go through one awk program,
# so the check costs a few milliseconds, not a process per include.
files=$(find shared daemon cli -name '*.cpp' -o -name '*.hpp' | sort)
# shellcheck disable=SC2086
{
  for file in $files; do echo "file $file"; done
  grep -H '^#include "\(shared\|daemon\|cli\)/' $files |
    sed -n 's/^\([^:]*\):#include "\([^"]*\)".*/include \1 \2/p'
} | awk -v layers="$layers" '
  function folder_of(path,   dir) {
    dir = path
    sub(/\/[^\/]*$/, "", dir)
    if (dir == path) dir = "."
    if (dir ~ /^cli\//) return "cli"
    return dir
  }
  BEGIN {
    n = split(layers, lines, "\n")
    for (i = 1; i <= n; i++) {
      if (split(lines[i], f, " ") == 2) layer[f[1]] = f[2]
    }
    status = 0
  }
  $1 == "file" {
    from = folder_of($2)
    if (!(from in layer)) {
      printf "%s: folder %s has no layer; add it to tests/layering/check_layers.sh and docs/adr/0008\n", $2, from > "/dev/stderr"
      status = 1
      unlayered[$2] = 1
    }
    next
  }
  $1 == "include" {
    file = $2; included = $3
    if (file in unlayered) next
    from = folder_of(file); to = folder_of(included)
    if (to == from) next
    if (from == "cli" && to == "shared") next
    if (from == "cli") { printf "%s includes %s: the CLI may include shared/ only\n", file, included > "/dev/stderr"; status = 1; next }
    if (to == "cli") { printf "%s includes %s: nothing includes the CLI\n", file, included > "/dev/stderr"; status = 1; next }
    if (!(to in layer) || layer[to] + 0 >= layer[from] + 0) {
      printf "%s (%s, layer %s) includes %s (%s, layer %s): an include may only go down\n", file, from, layer[from], included, to, ((to in layer) ? layer[to] : "?") > "/dev/stderr"
      status = 1
    }
  }
  END {
    if (status == 0) print "layering holds"
    exit status
  }
'
