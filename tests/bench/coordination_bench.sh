#!/bin/sh
# Benchmark for the coordination targets (ADR 17), one isolated daemon, one
# raw socket client (tests/bench/coordination_bench.cpp):
#   - message_wait answers <= 5 ms after the message is committed;
#   - 100 agents heartbeating once a second each move the p99 of a signal
#     call (`progress`) by less than 10%, idle and loaded blocks
#     alternating in one run;
#   - task_claim p50 <= 200 us through the bridge with 50 agents racing
#     (docs/adr/0019), and workspace_create <= 1.5x `git worktree add` on
#     the same repository in the same run.
# Usage: tests/bench/coordination_bench.sh [BUILD_DIR]   (default: build)
# Knobs: BENCH_ROUNDS (200), BENCH_AGENTS (100), BENCH_BLOCKS (10),
#        BENCH_BLOCK_MS (3000), BENCH_CLAIM_AGENTS (50), BENCH_CLAIM_ROUNDS (40),
#        BENCH_CLAIM_GAP_US (1000: the staggered race's gap between claims),
#        BENCH_REPO_FILES (2000), BENCH_WORKTREE_ROUNDS (20),
#        BENCH_PARTS ("wait heartbeats claims worktrees").
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
mission="$build/bin/mission"
driver="$build/bin/mission_coordination_bench"
scratch=$(mktemp -d)
export MISSION_RUNTIME_DIR="$scratch/run" MISSION_STATE_DIR="$scratch/state"
unset MISSION_SOCKET MISSION_MCP_TOKEN
cleanup() {
  [ -x "$mission" ] && "$mission" daemon stop --force >/dev/null 2>&1 || true
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== building mission, missiond, mission_coordination_bench in $build" >&2
if ! cmake --build "$build" --target mission missiond mission_coordination_bench >"$scratch/build.log" 2>&1; then
  cat "$scratch/build.log" >&2
  echo "the build failed" >&2
  exit 1
fi
"$mission" daemon start >/dev/null
socket="$MISSION_RUNTIME_DIR/daemon.sock"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
parts=${BENCH_PARTS:-wait heartbeats claims worktrees}
case " $parts " in *" wait "*)
  "$driver" wait --socket "$socket" --rounds "${BENCH_ROUNDS:-200}" ;; esac
case " $parts " in *" heartbeats "*)
  "$driver" heartbeats --socket "$socket" --agents "${BENCH_AGENTS:-100}" \
    --blocks "${BENCH_BLOCKS:-10}" --block-ms "${BENCH_BLOCK_MS:-3000}" ;; esac
case " $parts " in *" claims "*)
  "$driver" claims --socket "$socket" --mission "$mission" --agents "${BENCH_CLAIM_AGENTS:-50}" \
    --rounds "${BENCH_CLAIM_ROUNDS:-40}" --gap-us "${BENCH_CLAIM_GAP_US:-1000}" ;; esac
case " $parts " in *" worktrees "*)
  repo="$scratch/repo"
  mkdir -p "$repo"
  git -C "$repo" init -q -b main
  files=${BENCH_REPO_FILES:-2000}
  i=0
  while [ "$i" -lt "$files" ]; do
    mkdir -p "$repo/src/d$((i % 50))"
    printf 'line %s\n' "$i" >"$repo/src/d$((i % 50))/f$i.txt"
    i=$((i + 1))
  done
  git -C "$repo" add -A
  git -C "$repo" -c user.name=bench -c user.email=bench@example.com commit -q -m first
  echo "repository: $files files"
  "$driver" worktrees --socket "$socket" --mission "$mission" --repo "$repo" \
    --rounds "${BENCH_WORKTREE_ROUNDS:-20}" ;; esac
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
