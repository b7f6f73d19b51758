#!/bin/sh
# Benchmark for the --gate's queue (docs/adr/0041, "The queue"): 16 tasks,
# one of which (t07) breaks the gate at its first attempt, landed through
# the queue (all 16 independent, --parallel 16: those waiting are gated
# together and a failure is bisected) against one at a time (the same 16
# chained by depends_on, so each lands, gated alone, before the next
# starts). The gate sleeps BENCH_GATE_MS (default 200) to stand for a test
# suite, and counts its runs. BENCH_RUNS (default 3) runs of each,
# alternating; medians of the gate runs and of the wall time (the run's
# durationMs).
# Usage: tests/bench/gate_queue_bench.sh [BUILD_DIR]   (default: build)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
runs=${BENCH_RUNS:-3}
gate_ms=${BENCH_GATE_MS:-200}
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
. "$root/tests/bench/bench_daemon.sh"
start_bench_daemon

repo="$scratch/repo"
mkdir -p "$repo"
git -C "$repo" init -q -b main
echo demo >"$repo/README.md"
git -C "$repo" add -A
git -C "$repo" commit -qm first

# plan FILE CHAINED: 16 tasks t01..t16, each after the one before when CHAINED is 1.
plan() {
  printf 'summary = "s"\napproach = "a"\n' >"$1"
  i=1
  while [ "$i" -le 16 ]; do
    name=$(printf 't%02d' "$i")
    printf '\n[[tasks]]\nname = "%s"\ndescription = "write %s.txt"\n' "$name" "$name" >>"$1"
    if [ "$2" = 1 ] && [ "$i" -gt 1 ]; then printf 'depends_on = ["%s"]\n' "$(printf 't%02d' $((i - 1)))" >>"$1"; fi
    i=$((i + 1))
  done
}
plan "$scratch/queue.toml" 0
plan "$scratch/chain.toml" 1

seconds=$(awk -v ms="$gate_ms" 'BEGIN { printf "%.3f", ms / 1000 }')
gate="echo run >> '$scratch/gate-runs'; sleep $seconds; [ ! -f broken.txt ] || { echo broken.txt; exit 1; }"
agent='echo "$MISSION_TASK_NAME" > "$MISSION_TASK_NAME.txt"
if [ "$MISSION_TASK_NAME" = t07 ] && [ "$MISSION_TASK_ATTEMPT" = 1 ]; then echo broken > broken.txt; fi'

# one_run PLAN: "GATE_RUNS DURATION_MS" of a run of the plan.
one_run() {
  : >"$scratch/gate-runs"
  id=$("$mission" --json workflows create "bench-$(date +%s%N)" --from "$1" --cwd "$repo" |
    sed -n 's/.*"workflowId": *"\(wf-[^"]*\)".*/\1/p' | head -n 1)
  (cd "$repo" && "$mission" workflows run "$id" --parallel 16 --gate "$gate" --sandbox off -- /bin/sh -c "$agent" >/dev/null) || true
  status=$("$mission" --json workflows status "$id")
  echo "$status" | grep -q '"status": "completed"' || { echo "run $id did not complete" >&2; exit 1; }
  echo "$(wc -l <"$scratch/gate-runs") $(echo "$status" | sed -n 's/^  "durationMs": *\([0-9]*\).*/\1/p' | head -n 1)"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$scratch/queue" && : >"$scratch/chain"
i=0
while [ "$i" -lt "$runs" ]; do
  one_run "$scratch/queue.toml" >>"$scratch/queue"
  one_run "$scratch/chain.toml" >>"$scratch/chain"
  i=$((i + 1))
done
for arm in queue chain; do
  gates=$(cut -d' ' -f1 <"$scratch/$arm" | median)
  wall=$(cut -d' ' -f2 <"$scratch/$arm" | median)
  label=$([ "$arm" = queue ] && echo "queue       " || echo "one at a time")
  echo "$label: $gates gate runs, $wall ms (medians of $runs, gate of $gate_ms ms, 16 tasks, one culprit)"
done
