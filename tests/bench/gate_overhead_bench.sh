#!/bin/sh
# Benchmark for the --gate overhead (docs/adr/0041): what gating a merge
# costs beyond the gate command itself (`true`), on a small repository
# (200 files) and a large one (BENCH_FILES, default 50,000). Each sample is
# a workflow of BENCH_TASKS tasks (default 3) chained by depends_on, each a
# one-line edit, run to its end and timed by the daemon (the run's
# durationMs), so each task is gated alone; BENCH_RUNS (default 3) runs
# with `--gate true` and as many without, interleaved. The overhead of one
# gate is the difference of the medians divided by the tasks.
#
# Given a second build (BEFORE_DIR: a directory with bin/mission,
# bin/missiond and lib/mission/libmission_git.so, an earlier build of the
# tree), the same samples are taken with it, each daemon on a state of its
# own, alternating sample by sample, and both are printed side by side.
# Usage: tests/bench/gate_overhead_bench.sh [BUILD_DIR [BEFORE_DIR]]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
before=${2:+$(cd "$2" && pwd)}
files=${BENCH_FILES:-50000}
runs=${BENCH_RUNS:-3}
tasks=${BENCH_TASKS:-3}
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
cmake --build "$build" --target mission missiond mission_git >/dev/null
scratch=$(mktemp -d)
export NO_COLOR=1
unset MISSION_SOCKET

# Each build ("after", "before") has its own daemon, runtime and state.
builds="after"
[ -n "$before" ] && builds="before after"
dir_of() { if [ "$1" = before ]; then echo "$before"; else echo "$build"; fi; }
# as BUILD CMD...: CMD with BUILD's mission and daemon.
as() {
  name=$1
  shift
  MISSION_RUNTIME_DIR="$scratch/$name/run" MISSION_STATE_DIR="$scratch/$name/state" \
    mission="$(dir_of "$name")/bin/mission" "$@"
}
stop_all() {
  for b in $builds; do as "$b" sh -c '"$mission" daemon stop --force' >/dev/null 2>&1 || true; done
  rm -rf "$scratch"
}
trap stop_all EXIT
for b in $builds; do as "$b" sh -c '"$mission" daemon start' >/dev/null; done

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
printf 'summary = "s"\napproach = "a"\n' >"$plan"
i=1
while [ "$i" -le "$tasks" ]; do
  printf '\n[[tasks]]\nname = "t%d"\ndescription = "edit t%d.txt"\n' "$i" "$i" >>"$plan"
  [ "$i" -gt 1 ] && printf 'depends_on = ["t%d"]\n' $((i - 1)) >>"$plan"
  i=$((i + 1))
done

# one_run BUILD REPO [GATE ARGS...]: the run's durationMs.
one_run() {
  b=$1
  repo=$2
  shift 2
  as "$b" sh -c '
    repo=$1; shift
    id=$("$mission" --json workflows create "bench-$(date +%s%N)" --from "$0" --cwd "$repo" |
      sed -n "s/.*\"workflowId\": *\"\(wf-[^\"]*\)\".*/\1/p" | head -n 1)
    (cd "$repo" && "$mission" workflows run "$id" --sandbox off "$@" \
      -- /bin/sh -c "echo x >> \$MISSION_TASK_NAME.txt" >/dev/null)
    "$mission" --json workflows status "$id" | sed -n "s/^  \"durationMs\": *\([0-9]*\).*/\1/p" | head -n 1
  ' "$plan" "$repo" "$@"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $tasks chained tasks a run, medians of $runs"
for size in 200 "$files"; do
  for b in $builds; do
    make_repo "$scratch/repo-$b-$size" "$size"
    : >"$scratch/$b-with" && : >"$scratch/$b-without"
  done
  i=0
  while [ "$i" -lt "$runs" ]; do
    for b in $builds; do
      one_run "$b" "$scratch/repo-$b-$size" --gate true >>"$scratch/$b-with"
      one_run "$b" "$scratch/repo-$b-$size" >>"$scratch/$b-without"
    done
    i=$((i + 1))
  done
  for b in $builds; do
    with=$(median <"$scratch/$b-with")
    without=$(median <"$scratch/$b-without")
    echo "$size files, $b: run $without ms without --gate, $with ms with --gate true:" \
      "$(((with - without) / tasks)) ms a gate (samples with: $(tr '\n' ' ' <"$scratch/$b-with"))"
  done
done
