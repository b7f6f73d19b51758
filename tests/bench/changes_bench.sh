#!/bin/sh
# Benchmark for the change-set targets (mission_changes_bench does the
# timing; see tests/bench/changes_bench.cpp), on generated trees of each
# size in BENCH_SIZES (default "50000 500000"; DIRS directories of 100
# files):
#   - git: the repository committed, `git status` run once to refresh the
#     index, then 20 files changed again before every timed call (10
#     modified, 5 added, 5 deleted). Without watching, take_snapshot and
#     compute_change_set each at most 1.0x `git status --porcelain`; with
#     the tree watched (missiond --watch-trees), each at most 10 ms after
#     the first snapshot. The first snapshot of each kind is shown apart.
#   - then the daemon itself, `missiond --watch-trees`, on the same
#     repository: start_task and complete_task through its socket, and its
#     resident memory with the tree watched (target: under 64 MiB).
#   - non-git (50,000 files only): the checksum take_snapshot and its
#     compute_change_set faster than `find . -type f -print0 | xargs -0
#     sha1sum`.
# All in one run, interleaved, medians of BENCH_RUNS (default 15) runs after
# a warm-up: the page cache is warm for every contender (no cold-cache
# figures). The library calls are timed in-process; the git CLI and sha1sum
# are processes, their start-up included.
# Usage: tests/bench/changes_bench.sh [BUILD_DIR]   (default: build)
# Knobs: BENCH_RUNS (15), BENCH_SIZES ("50000 500000"), BENCH_FILES (100 a
# directory). A 500,000-file repository takes a few minutes and ~4 GB of
# disk to prepare.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
runs=${BENCH_RUNS:-15}
sizes=${BENCH_SIZES:-50000 500000}
files=${BENCH_FILES:-100}
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
echo "== fs.inotify.max_user_watches $(cat /proc/sys/fs/inotify/max_user_watches)" >&2
failed=0
for total in $sizes; do
  dirs=$((total / files))
  echo "== preparing a git repository of $total files ($dirs directories)" >&2
  repo="$scratch/repo-$total"
  mkdir "$repo"
  "$driver" make-tree "$repo" "$dirs" "$files"
  git -C "$repo" init -q -b main
  # No gc --auto packing objects in the background while the timings run.
  git -C "$repo" config gc.auto 0
  git -C "$repo" config maintenance.auto false
  git -C "$repo" -c user.name=bench -c user.email=bench@example.com add -A
  git -C "$repo" -c user.name=bench -c user.email=bench@example.com commit -q -m tree
  sleep 1  # nothing racily clean after the refresh below
  git -C "$repo" status >/dev/null  # refreshes the index, fair to both sides

  echo
  echo "git: $total files, 20 changed before each call; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "targets: each call <= 1.0x git status --porcelain; watched, each call <= 10 ms"
  "$driver" measure --dir "$repo" --runs "$runs" --changes 20 --target 1.0 --watched-target 10 \
    --label "git status --porcelain" -- git status --porcelain || failed=1
  echo
  echo "missiond --watch-trees, $total files; load average $(cut -d' ' -f1-3 /proc/loadavg); target: VmRSS < 64 MiB watched"
  "$driver" daemon-rss --missiond "$build/bin/missiond" --dir "$repo" --changes 20 || failed=1
  rm -rf "$repo"
done

echo
echo "== preparing a plain tree of 50000 files" >&2
plain="$scratch/plain"
mkdir "$plain"
"$driver" make-tree "$plain" 500 100
echo "non-git: 50000 files, 20 changed before each call; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "target: each call faster than sha1sum of every file"
"$driver" measure --dir "$plain" --runs "$runs" --changes 20 --target 1.0 \
  --label "find | xargs sha1sum" -- sh -c 'find . -type f -print0 | xargs -0 sha1sum >/dev/null' || failed=1
if [ "$failed" = 1 ]; then
  echo "!! a target was missed or a run failed" >&2
fi
exit "$failed"
