#!/bin/sh
# Benchmark for the foundation targets:
#   - `mission status --json` against a running daemon: median wall time
#     (target: at most 3 ms), measured with hyperfine;
#   - missiond idle RSS (target: at most 8 MiB), read from /proc after the
#     timed runs, so the daemon has served a few hundred clients first.
# Usage: tests/bench/status_bench.sh [BUILD_DIR]   (default: build)
# Knobs: BENCH_RUNS (300 a command a round), BENCH_ROUNDS (5).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
runs=${BENCH_RUNS:-300}

. "$root/tests/bench/bench_daemon.sh"
start_bench_daemon

# /bin/true in the same run shows what merely starting a process costs
# here. Rounds alternate which goes first, and the figures are medians
# over the rounds: on a shared machine one run's median swings by a third.
rounds=${BENCH_ROUNDS:-5}
: >"$scratch/rounds"
round=1
while [ "$round" -le "$rounds" ]; do
  if [ $((round % 2)) -eq 1 ]; then
    hyperfine --style none -N --warmup 20 --runs "$runs" --export-json "$scratch/status.json" \
      "$mission --no-autostart status --json" /bin/true >/dev/null 2>"$scratch/hyperfine.err" ||
      { cat "$scratch/hyperfine.err" >&2; exit 1; }
    ours=$(median_ms "$scratch/status.json" 1 3) floor=$(median_ms "$scratch/status.json" 2 3)
  else
    hyperfine --style none -N --warmup 20 --runs "$runs" --export-json "$scratch/status.json" \
      /bin/true "$mission --no-autostart status --json" >/dev/null 2>"$scratch/hyperfine.err" ||
      { cat "$scratch/hyperfine.err" >&2; exit 1; }
    floor=$(median_ms "$scratch/status.json" 1 3) ours=$(median_ms "$scratch/status.json" 2 3)
  fi
  echo "$ours $floor" >>"$scratch/rounds"
  round=$((round + 1))
done

sleep 1
rss_kib=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status")
hwm_kib=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")

# The middle value of a column (of an odd count; the upper middle else).
middle() { sort -n | awk '{ v[NR] = $1 } END { print v[int(NR / 2) + 1] }'; }
ours=$(cut -d' ' -f1 "$scratch/rounds" | middle)
floor=$(cut -d' ' -f2 "$scratch/rounds" | middle)
ratios=$(awk '{ printf "%.2f\n", $1 / $2 }' "$scratch/rounds" | sort -n)
echo "mission status --json median: $ours ms (target <= 3 ms; median of $rounds rounds of $runs runs)"
echo "/bin/true median (process start floor): $floor ms"
echo "status over /bin/true: $(echo "$ratios" | middle)x (rounds: $(echo "$ratios" | tr '\n' ' '); target <= 1.6x)"
echo "missiond idle RSS: $((rss_kib / 1024)).$(( (rss_kib % 1024) * 10 / 1024 )) MiB (${rss_kib} KiB; peak ${hwm_kib} KiB; target <= 8 MiB)"
