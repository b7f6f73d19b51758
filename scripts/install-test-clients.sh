#!/bin/sh
# Installs the npm packages the tests drive: the official MCP client SDKs
# (tests/clients), the real agents (tests/agents) and puppeteer-core for the
# board's browser test (tests/board), exactly as their lock files pin them.
# Needs node and npm (scripts/install-deps.sh installs them).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
for suite in clients agents board; do
  dir="$root/tests/$suite"
  [ -f "$dir/package-lock.json" ] || continue
  # Skip when node_modules already matches the lock file.
  if [ -f "$dir/node_modules/.package-lock.json" ] &&
     cmp -s "$dir/package-lock.json" "$dir/node_modules/.mission-lock-copy" 2>/dev/null; then
    continue
  fi
  echo "== npm ci in tests/$suite" >&2
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2)
  cp "$dir/package-lock.json" "$dir/node_modules/.mission-lock-copy"
done
