#!/bin/sh
# Benchmark for the launched-execution targets:
#   - marker scanning over output without markers (target >= 1 GB/s), with
#     mission_marker_bench (the MarkerReader alone, 64 KiB chunks);
#   - valid stdout markers validated, committed and acknowledged end to end
#     (target >= 50,000 a second): an agent prints N markers as fast as it
#     can, timed from `mission run` to the execution's end, all recorded;
#   - `mission exec logs ID --limit 100` on a 1 GiB log (target <= 10 ms),
#     with hyperfine, /bin/true in the same run as the process-start floor;
#   - missiond RSS with 1,000 finished executions (target <= 32 MiB).
# Usage: tests/bench/executions_bench.sh [BUILD_DIR]   (default: build)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
markers=${BENCH_MARKERS:-200000}
executions=${BENCH_EXECUTIONS:-1000}

. "$root/tests/bench/bench_daemon.sh"
start_bench_daemon mission_marker_bench
now_ms() { date +%s%3N; }
field() { sed -n "s/.*\"$1\": \\([0-9]*\\).*/\\1/p" | head -n 1; }

echo "== marker scanning (MarkerReader alone)" >&2
scan=$("$build/bin/mission_marker_bench" 256 5 | tee /dev/stderr | grep -i 'no markers' | grep -o '[0-9.]* GB/s' | head -n 1)

echo "== $markers valid markers through the daemon" >&2
agent="awk -v id=\"\$MISSION_AGENT_EXECUTION_ID\" -v n=$markers 'BEGIN { for (i = 0; i < n; i++) printf \"@agent-execution::{\\\"version\\\":1,\\\"agentExecutionId\\\":\\\"%s\\\",\\\"eventId\\\":\\\"e%d\\\",\\\"signal\\\":{\\\"type\\\":\\\"progress\\\",\\\"summary\\\":\\\"step %d\\\"}}\\n\", id, i, i }'"
# Detached, so no client reads the output while it is recorded; the clock
# stops when the daemon has seen the agent exit (after its last marker).
start=$(now_ms)
id=$("$mission" run --detach -- sh -c "$agent")
until "$mission" --json exec show "$id" | grep -q '"endedAt"'; do sleep 0.01; done
elapsed=$(( $(now_ms) - start ))
recorded=$("$mission" --json exec show "$id" | field observations)
rate=$(( recorded * 1000 / (elapsed > 0 ? elapsed : 1) ))

echo "== a 1 GiB log" >&2
"$mission" run -- sh -c "head -c 1073741824 /dev/zero | tr '\\0' 'x' | fold -w 99" >/dev/null
log_id=$("$mission" --json exec list --limit 1 | sed -n 's/.*"id": "\(ae-[a-z0-9]*\)".*/\1/p' | head -n 1)
log_lines=$("$mission" --json exec logs "$log_id" --limit 1 | field lastLine)
hyperfine --style basic -N --warmup 10 --runs 200 --export-json "$scratch/logs.json" \
  "$mission --no-autostart exec logs $log_id --limit 100" /bin/true >/dev/null 2>&1

echo "== $executions finished executions" >&2
i=0
while [ "$i" -lt "$executions" ]; do
  "$mission" run --detach -- true >/dev/null
  i=$((i + 1))
done
sleep 2
rss_kib=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status")
total=$("$mission" --json status | field total)

cat <<REPORT

| what | target | measured |
|------|--------|----------|
| marker scanning, output without markers (MarkerReader, 64 KiB chunks) | >= 1 GB/s | $scan |
| valid markers validated, committed and acknowledged, end to end | >= 50,000/s | $rate/s ($recorded markers in $elapsed ms, from mission run --detach to the end) |
| mission exec logs ID --limit 100 on a 1 GiB log ($log_lines lines), median of 200 | <= 10 ms | $(median_ms "$scratch/logs.json" 1) ms (/bin/true: $(median_ms "$scratch/logs.json" 2) ms) |
| missiond RSS with $total executions, $executions of them finished just now | <= 32 MiB | $((rss_kib / 1024)).$(( (rss_kib % 1024) * 10 / 1024 )) MiB |
REPORT
