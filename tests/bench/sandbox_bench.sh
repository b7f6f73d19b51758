#!/bin/sh
# Benchmark for the confinement targets (docs/adr/0036): a confined
# `mission run -- true` takes at most 3 ms (median) more than the same
# launch with --sandbox off, and `mission run --sandbox off -- true` comes
# back within 3 ms of `true` itself. The three run in one hyperfine session
# (-N, no shell) against one warm daemon; hyperfine runs each command's
# runs in a block, so the session is repeated with the order reversed and
# the medians of both orders are reported, to show any drift.
# BENCH_HOME_ENTRIES=N gives the agents a HOME of N files beside .ssh: the
# confined launch then makes a read rule for each (docs/adr/0051).
# Usage: tests/bench/sandbox_bench.sh [BUILD_DIR]   (default: build)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
runs=${BENCH_RUNS:-200}

. "$root/tests/bench/bench_daemon.sh"
start_bench_daemon
if [ -n "${BENCH_HOME_ENTRIES:-}" ]; then
  mkdir -p "$scratch/home/.ssh"
  echo key >"$scratch/home/.ssh/id_ed25519"
  i=0
  while [ "$i" -lt "$BENCH_HOME_ENTRIES" ]; do
    : >"$scratch/home/file-$i"
    i=$((i + 1))
  done
  export HOME="$scratch/home"
fi

confined="$mission --no-autostart run --no-tty -- true"
unconfined="$mission --no-autostart run --no-tty --sandbox off -- true"

hyperfine --style basic -N --warmup 20 --runs "$runs" --export-json "$scratch/forward.json" \
  "$confined" "$unconfined" true >&2
hyperfine --style basic -N --warmup 20 --runs "$runs" --export-json "$scratch/reverse.json" \
  true "$unconfined" "$confined" >&2

# The mean of a command's two medians (forward order and reverse order).
both() {
  echo "$(median_ms "$scratch/forward.json" "$1") $(median_ms "$scratch/reverse.json" "$2")" |
    awk '{printf "%.2f", ($1 + $2) / 2}'
}
on=$(both 1 3)
off=$(both 2 2)
direct=$(both 3 1)
cost=$(echo "$on $off" | awk '{printf "%.2f", $1 - $2}')
gap=$(echo "$off $direct" | awk '{printf "%.2f", $1 - $2}')
verdict() { echo "$1" | awk '{print ($1 <= 3) ? "met" : "MISSED"}'; }

cat <<REPORT

| what | target | measured |
|------|--------|----------|
| mission run -- true (confined), median of $runs, both orders | | $on ms |
| mission run --sandbox off -- true, median of $runs, both orders | | $off ms |
| true, run directly | | $direct ms |
| cost of confinement (confined - off) | <= 3 ms | $cost ms ($(verdict "$cost")) |
| launch overhead unconfined (off - true) | <= 3 ms | $gap ms ($(verdict "$gap")) |
REPORT
