#!/bin/sh
# Benchmark for the --gate overhead (docs/adr/0041): what gating a merge
# costs beyond the gate command itself, on a small repository (200 files)
# and a large one (BENCH_FILES, default 50,000). Each sample is a workflow
# of one task (a one-line edit) run to its end, timed by the daemon (the
# run's durationMs); BENCH_RUNS (default 5) runs with `--gate true` and as
# many without, interleaved; the overhead is the difference of the medians.
# Usage: tests/bench/gate_overhead_bench.sh [BUILD_DIR]   (default: build)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
files=${BENCH_FILES:-50000}
runs=${BENCH_RUNS:-5}
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
. "$root/tests/bench/bench_daemon.sh"
start_bench_daemon

# make_repo DIR N: a repository of N files in folders of 500.
make_repo() {
  mkdir -p "$1"
  git -C "$1" init -q -b main
  (cd "$1" && seq 0 $((($2 - 1) / 500)) | sed 's/^/d/' | xargs mkdir -p &&
    awk -v n="$2" 'BEGIN { for (i = 0; i < n; i++) {
      f = sprintf("d%d/f%d.txt", int(i / 500), i); printf "line %d\n", i > f; close(f) } }')
  git -C "$1" add -A
  git -C "$1" commit -qm first
  git -C "$1" config gc.auto 0
}

plan="$scratch/plan.toml"
printf 'summary = "s"\napproach = "a"\n\n[[tasks]]\nname = "edit"\ndescription = "one edit"\n' >"$plan"

# one_run REPO [GATE ARGS...]: the run's durationMs.
one_run() {
  repo=$1
  shift
  id=$("$mission" --json workflows create "bench-$(date +%s%N)" --from "$plan" --cwd "$repo" |
    sed -n 's/.*"workflowId": *"\(wf-[^"]*\)".*/\1/p' | head -n 1)
  (cd "$repo" && "$mission" workflows run "$id" --sandbox off "$@" -- /bin/sh -c 'echo x >> edit.txt' >/dev/null)
  "$mission" --json workflows status "$id" | sed -n 's/^  "durationMs": *\([0-9]*\).*/\1/p' | head -n 1
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for size in 200 "$files"; do
  repo="$scratch/repo-$size"
  make_repo "$repo" "$size"
  : >"$scratch/with" && : >"$scratch/without"
  i=0
  while [ "$i" -lt "$runs" ]; do
    one_run "$repo" --gate true >>"$scratch/with"
    one_run "$repo" >>"$scratch/without"
    i=$((i + 1))
  done
  with=$(median <"$scratch/with")
  without=$(median <"$scratch/without")
  echo "$size files: one-task run $without ms without --gate, $with ms with --gate true: overhead $((with - without)) ms (medians of $runs)"
done
