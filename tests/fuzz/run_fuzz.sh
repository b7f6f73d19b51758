#!/bin/sh
# run_fuzz.sh TARGET SEED_DIR SECONDS [DICT]: fuzzes TARGET from the seeds
# for SECONDS (with the dictionary DICT if given), new inputs going to a
# scratch dir; prints the executions done.
# Exits non-zero on any crash, leak, timeout or sanitizer report.
set -eu
target=$1 seeds=$2 seconds=$3 dict=${4:-}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
log="$scratch/log"
status=0
"$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
  -artifact_prefix="$scratch/" ${dict:+-dict="$dict"} "$scratch" "$seeds" >"$log" 2>&1 || status=$?
grep -E "^(Done|#[0-9]+ +DONE)" "$log" || true
if [ "$status" -ne 0 ]; then
  tail -n 60 "$log"
  for artifact in "$scratch"/crash-* "$scratch"/leak-* "$scratch"/timeout-* "$scratch"/oom-*; do
    [ -e "$artifact" ] && echo "input: $(od -An -c "$artifact" | head -c 2000)"
  done
  exit 1
fi
