#!/bin/sh
# Benchmark for conflicts caught while agents work (docs/adr/0050): the
# time from the second agent's write to the conflict reported to it, on a
# repository of BENCH_FILES files (default 50,000, in folders of 500) whose
# run worktrees the daemon watches (MISSION_WATCH_TREES). Each sample is a
# run of two tasks; once both worktrees are watched, the first agent
# rewrites line 1 of a file, the second waits for that and rewrites the
# same line, noting the time just before its write and when the message
# naming the conflict arrives on its stdin. BENCH_RUNS samples (default 5);
# the median and each sample in milliseconds. BENCH_SETTLE=0 measures a
# write made while the worktrees' first whole look may still run.
# Usage: tests/bench/live_conflict_bench.sh [BUILD_DIR]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
files=${BENCH_FILES:-50000}
runs=${BENCH_RUNS:-5}
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
cmake --build "$build" --target mission missiond mission_git >/dev/null
scratch=$(mktemp -d)
export NO_COLOR=1 MISSION_WATCH_TREES=1
unset MISSION_SOCKET
export MISSION_RUNTIME_DIR="$scratch/run" MISSION_STATE_DIR="$scratch/state"
mission="$build/bin/mission"
stop_all() {
  "$mission" daemon stop --force >/dev/null 2>&1 || true
  rm -rf "$scratch"
}
trap stop_all EXIT
"$mission" daemon start >/dev/null

repo="$scratch/repo"
mkdir -p "$repo"
git -C "$repo" init -q -b main
(cd "$repo" && seq 0 $(((files - 1) / 500)) | sed 's/^/d/' | xargs mkdir -p &&
  awk -v n="$files" 'BEGIN { for (i = 0; i < n; i++) {
    f = sprintf("d%d/f%d.txt", int(i / 500), i); printf "line %d\n", i > f; close(f) } }')
git -C "$repo" add -A
git -C "$repo" commit -qm first
git -C "$repo" config gc.auto 0

plan="$scratch/plan.toml"
printf 'summary = "s"\napproach = "a"\n\n[[tasks]]\nname = "first"\ndescription = "a"\n' >"$plan"
printf '\n[[tasks]]\nname = "second"\ndescription = "b"\n' >>"$plan"

# The agents: both wait for "go"; first writes, second waits for first's
# write, then writes and times the message's arrival.
notes="$scratch/notes"
agent="$scratch/agent.sh"
cat >"$agent" <<'AGENT'
notes=$1
while [ ! -f "$notes/go" ]; do sleep 0.01; done
if [ "$MISSION_TASK_NAME" = first ]; then
  sed -i '1s/.*/first/' d0/f0.txt
  : >"$notes/first-wrote"
  read heard
else
  while [ ! -f "$notes/first-wrote" ]; do sleep 0.001; done
  before=$(date +%s%N)
  sed -i '1s/.*/second/' d0/f0.txt
  read heard
  after=$(date +%s%N)
  echo $(((after - before) / 1000000)) >"$notes/latency"
fi
AGENT

watched() {
  "$mission" --json status | grep -c '"watched": true' || true
}

: >"$scratch/samples"
i=0
while [ "$i" -lt "$runs" ]; do
  rm -rf "$notes" && mkdir -p "$notes"
  # The last run's worktrees are no longer watched once its agents ended.
  until [ "$(watched)" -eq 0 ]; do sleep 0.1; done
  id=$("$mission" --json workflows create "live-$i" --from "$plan" --cwd "$repo" |
    sed -n 's/.*"workflowId": *"\(wf-[^"]*\)".*/\1/p' | head -n 1)
  (cd "$repo" && "$mission" workflows run "$id" --detach --parallel 2 --sandbox off \
    -- /bin/sh "$agent" "$notes" >/dev/null)
  # Both worktrees watched, so the write is what the check follows; then
  # their first look, whole (docs/adr/0050), is let end (BENCH_SETTLE
  # seconds, default 3): the figure is a write's, not an agent's launch.
  until [ "$(watched)" -ge 2 ]; do sleep 0.05; done
  sleep "${BENCH_SETTLE:-3}"
  : >"$notes/go"
  until [ -s "$notes/latency" ]; do sleep 0.05; done
  cat "$notes/latency" >>"$scratch/samples"
  "$mission" workflows stop "$id" >/dev/null 2>&1 || true
  until "$mission" --json workflows status "$id" | grep -q '"status": "stopped"'; do sleep 0.1; done
  i=$((i + 1))
done
median=$(sort -n "$scratch/samples" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $files files, $runs runs"
echo "second write to its conflict message: median $median ms (samples: $(tr '\n' ' ' <"$scratch/samples"))"
