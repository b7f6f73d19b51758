#!/bin/sh
# The main job: install what is missing, build, start the daemon and show it
# working on a real example. Safe to run again.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build="${MISSION_BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target mission missiond

mission="$build/bin/mission"
echo
echo "\$ mission status            # starts missiond on first use"
"$mission" status
echo
echo "\$ mission --json daemon status"
"$mission" --json daemon status
echo
echo "\$ mission daemon stop && mission --no-autostart status   # exit 3: not running"
"$mission" daemon stop
set +e
"$mission" --no-autostart status
echo "exit status: $?"
set -e
echo
echo "\$ mission daemon start      # leave it running for what comes next"
"$mission" daemon start
