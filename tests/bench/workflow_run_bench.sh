#!/bin/sh
# Benchmark for the workflow-run targets (docs/adr/0023), one isolated
# daemon, in one run:
#   - from a task picked (ready, a slot free) to its agent's process
#     running, worktree creation left out: p50 <= 20 ms with 8 agents
#     running (the attempts' dispatchUs, as the daemon measures them);
#   - a workflow of BENCH_TASKS (100) tasks whose agents each make a
#     one-line edit, commit it and sleep BENCH_SLEEP (1) s, run with
#     --parallel BENCH_PARALLEL (8), worktrees and merges included, within
#     1.2x the time of the same commands run with `xargs -P 8` in one
#     checkout (their git add+commit under flock, as one index allows).
# Usage: tests/bench/workflow_run_bench.sh [BUILD_DIR]   (default: build)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
tasks=${BENCH_TASKS:-100}
parallel=${BENCH_PARALLEL:-8}
pause=${BENCH_SLEEP:-1}
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
. "$root/tests/bench/bench_daemon.sh"
start_bench_daemon
now_ms() { date +%s%3N; }

make_repo() {
  mkdir -p "$1/src"
  git -C "$1" init -q -b main
  i=0
  while [ "$i" -lt 200 ]; do printf 'line %s\n' "$i" >"$1/src/f$i.txt"; i=$((i + 1)); done
  git -C "$1" add -A
  git -C "$1" commit -qm first
}
make_repo "$scratch/repo"
make_repo "$scratch/reference"

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
workflow=$(cd "$scratch/repo" && node "$root/tests/bench/workflow_plan.mjs" "$mission" --tasks "$tasks")

agent='printf "%s\n" "$MISSION_TASK_NAME" > "$MISSION_TASK_NAME.txt" && git add "$MISSION_TASK_NAME.txt" && git commit -qm "$MISSION_TASK_NAME" && sleep '"$pause"
started=$(now_ms)
(cd "$scratch/repo" && "$mission" workflows run "$workflow" --parallel "$parallel" -- /bin/sh -c "$agent" >"$scratch/run.log")
run_ms=$(($(now_ms) - started))

started=$(now_ms)
(cd "$scratch/reference" && seq 0 $((tasks - 1)) | xargs -P "$parallel" -I{} /bin/sh -c \
  'printf "%s\n" t{} > t{}.txt && flock .git/bench.lock sh -c "git add t{}.txt && git commit -qm t{}" && sleep '"$pause")
xargs_ms=$(($(now_ms) - started))

"$mission" --json workflows status "$workflow" >"$scratch/status.json"
node -e '
const run = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const d = [];
let merged = 0;
for (const t of run.tasks) {
  if (t.status === "merged") merged++;
  for (const a of t.attempts) if (a.dispatchUs !== undefined) d.push(a.dispatchUs / 1000);
}
d.sort((a, b) => a - b);
const q = (p) => d[Math.min(d.length - 1, Math.floor(p * d.length))].toFixed(2);
console.log(`run status: ${run.status}, ${merged}/${run.tasks.length} merged`);
console.log(`dispatch (picked to spawned, worktree left out): p50 ${q(0.5)} ms, p90 ${q(0.9)} ms, max ${q(1)} ms over ${d.length} attempts`);
' "$scratch/status.json"
echo "workflow run, $tasks tasks, --parallel $parallel: $run_ms ms"
echo "xargs -P $parallel, same commands, one checkout: $xargs_ms ms"
node -e 'console.log(`ratio: ${(process.argv[1] / process.argv[2]).toFixed(2)}x (target <= 1.2x)`)' "$run_ms" "$xargs_ms"
