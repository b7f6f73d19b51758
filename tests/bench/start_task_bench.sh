#!/bin/sh
# Benchmark for start_task on a watched tree (docs/adr/0013): tasks one
# after another on one git repository of BENCH_SIZE files (default 50,000,
# 100 a directory), through a real `missiond --watch-trees` and its socket.
# Each round: 20 files change, `git status --porcelain` runs (the reference,
# in the same run), 20 change again, start_task, 20 change again,
# complete_task. Medians of BENCH_RUNS (default 15) rounds after the tree's
# first task (watching starts; shown apart) and a warm-up round. Target:
# start_task, like complete_task, at most 10 ms (in proportion to what
# changed, not to the tree).
# With BEFORE_BUILD_DIR, the same rounds with that build's missiond too,
# the two alternating BENCH_ROUNDS (default 3) times on the same tree in
# the same run (an earlier build: the figure before a change).
# Usage: tests/bench/start_task_bench.sh [BUILD_DIR] [BEFORE_BUILD_DIR]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
runs=${BENCH_RUNS:-15}
rounds=${BENCH_ROUNDS:-3}
before=""
if [ -n "${2:-}" ]; then before=$(cd "$2" && pwd); fi
total=${BENCH_SIZE:-50000}
files=100
driver="$build/bin/mission_changes_bench"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM
# Neither git nor libgit2 may read the user's or the system's config.
export HOME="$scratch" GIT_CONFIG_NOSYSTEM=1
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE

echo "== building mission_changes_bench and missiond in $build" >&2
if ! cmake --build "$build" --target mission_changes_bench missiond >"$scratch/build.log" 2>&1; then
  cat "$scratch/build.log" >&2
  echo "the build failed" >&2
  exit 1
fi
echo "== machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $(git --version)" >&2
echo "== preparing a git repository of $total files" >&2
repo="$scratch/repo"
mkdir "$repo"
"$driver" make-tree "$repo" $((total / files)) "$files"
git -C "$repo" init -q -b main
# No gc --auto packing objects in the background while the timings run.
git -C "$repo" config gc.auto 0
git -C "$repo" config maintenance.auto false
git -C "$repo" -c user.name=bench -c user.email=bench@example.com add -A
git -C "$repo" -c user.name=bench -c user.email=bench@example.com commit -q -m tree
sleep 1  # nothing racily clean after the refresh below
git -C "$repo" status >/dev/null  # refreshes the index, fair to both sides
failed=0
round=1
while [ "$round" -le "$rounds" ]; do
  for missiond in "$build/bin/missiond" ${before:+"$before/bin/missiond"}; do
    echo
    echo "round $round, $missiond; load average $(cut -d' ' -f1-3 /proc/loadavg)"
    "$driver" daemon-tasks --missiond "$missiond" --dir "$repo" --runs "$runs" --changes 20 ||
      failed=1
  done
  [ -n "$before" ] || break
  round=$((round + 1))
done
exit "$failed"
