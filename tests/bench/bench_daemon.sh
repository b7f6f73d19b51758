# Sourced by the benchmarks that time mission against a daemon of their own
# (status_bench.sh, executions_bench.sh, launch_bench.sh,
# workflow_run_bench.sh), once `root` and
# `build` are set.

# start_bench_daemon [TARGET...]: builds mission, missiond and the TARGETs,
# installs hyperfine if it is missing, and starts missiond on a scratch
# runtime and state dir; at exit the daemon is stopped and the dir removed.
# Sets `mission`, `scratch` and `pid` (the daemon's).
start_bench_daemon() {
  cmake --build "$build" --target mission missiond "$@" >/dev/null
  mission="$build/bin/mission"
  command -v hyperfine >/dev/null || "$root/scripts/install-deps.sh" --with-bench-tools
  scratch=$(mktemp -d)
  export MISSION_RUNTIME_DIR="$scratch/run" MISSION_STATE_DIR="$scratch/state" NO_COLOR=1
  unset MISSION_SOCKET
  trap '"$mission" daemon stop --force >/dev/null 2>&1 || true; rm -rf "$scratch"' EXIT
  "$mission" daemon start >/dev/null
  pid=$("$mission" --json daemon status | sed -n 's/.*"pid": \([0-9]*\).*/\1/p')
}

# median_ms FILE N [DECIMALS]: the median of the Nth command in hyperfine's
# --export-json FILE, in milliseconds (2 decimals unless told).
median_ms() {
  sed -n 's/.*"median": *\([0-9.e-]*\).*/\1/p' "$1" | sed -n "${2}p" |
    awk -v d="${3:-2}" '{printf "%.*f", d, $1 * 1000}'
}
