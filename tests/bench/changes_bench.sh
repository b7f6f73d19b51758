#!/bin/sh
# Benchmark for the change-set targets (mission_changes_bench does the
# timing; see tests/bench/changes_bench.cpp):
#   - git: a repository of 50,000 files (500 directories x 100 files),
#     committed, `git status` run once to refresh the index, then 20 files
#     changed (10 modified, 5 added, 5 deleted): take_snapshot and
#     compute_change_set each at most 1.5x `git status --porcelain`;
#   - non-git: a tree of 50,000 files: the checksum take_snapshot and its
#     compute_change_set (after the same 20 changes) faster than
#     `find . -type f -print0 | xargs -0 sha1sum`.
# All in one run, interleaved, medians of BENCH_RUNS (default 15) runs after
# a warm-up: the page cache is warm for every contender (no cold-cache
# figures). The library calls are timed in-process; the git CLI and sha1sum
# are processes, their start-up included.
# Usage: tests/bench/changes_bench.sh [BUILD_DIR]   (default: build)
# Knobs: BENCH_RUNS (15), BENCH_DIRS (500), BENCH_FILES (100).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
runs=${BENCH_RUNS:-15}
dirs=${BENCH_DIRS:-500}
files=${BENCH_FILES:-100}
driver="$build/bin/mission_changes_bench"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM
# Neither git nor libgit2 may read the user's or the system's config.
export HOME="$scratch" GIT_CONFIG_NOSYSTEM=1
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE

echo "== building mission_changes_bench in $build" >&2
if ! cmake --build "$build" --target mission_changes_bench >"$scratch/build.log" 2>&1; then
  cat "$scratch/build.log" >&2
  echo "the build failed" >&2
  exit 1
fi

total=$((dirs * files))
echo "== machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg); $(git --version)" >&2
echo "== preparing a git repository of $total files" >&2
repo="$scratch/repo"
mkdir "$repo"
"$driver" make-tree "$repo" "$dirs" "$files"
git -C "$repo" init -q -b main
git -C "$repo" -c user.name=bench -c user.email=bench@example.com add -A
git -C "$repo" -c user.name=bench -c user.email=bench@example.com commit -q -m tree
git -C "$repo" status >/dev/null  # refreshes the index, fair to both sides

echo "== preparing a plain tree of $total files" >&2
plain="$scratch/plain"
mkdir "$plain"
"$driver" make-tree "$plain" "$dirs" "$files"

failed=0
echo
echo "git: $total files, 20 changed; target: each call <= 1.5x git status --porcelain"
"$driver" measure --dir "$repo" --runs "$runs" --changes 20 --target 1.5 \
  --label "git status --porcelain" -- git status --porcelain || failed=1
echo
echo "non-git: $total files, 20 changed; target: each call faster than sha1sum of every file"
"$driver" measure --dir "$plain" --runs "$runs" --changes 20 --target 1.0 \
  --label "find | xargs sha1sum" -- sh -c 'find . -type f -print0 | xargs -0 sha1sum >/dev/null' || failed=1
if [ "$failed" = 1 ]; then
  echo "!! a target was missed or a run failed" >&2
fi
exit "$failed"
