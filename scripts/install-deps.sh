#!/bin/sh
# Installs the Debian packages mission builds and tests with, only those that
# are missing, so it is cheap to run again. Needs root or sudo when it must
# install something.
set -eu

packages="g++ cmake ninja-build pkg-config git ccache
libcli11-dev nlohmann-json3-dev libuv1-dev libgit2-dev libsqlite3-dev libseccomp-dev
libvalijson-dev libutf8proc-dev libvterm-dev libhttp-parser-dev libtomlplusplus-dev catch2 groff-base clang-format"
# The store's PostgreSQL engine links libpq; its tests start a private
# PostgreSQL 15 server (tests/support/postgresql_server.hpp, docs/adr/0052).
packages="$packages libpq-dev postgresql-15"
# The board's browser test drives Debian's chromium (tests/board).
packages="$packages chromium"
# The MCP client and agent tests run on Node (tests/clients, tests/agents).
command -v node >/dev/null 2>&1 || packages="$packages nodejs"
command -v npm >/dev/null 2>&1 || packages="$packages npm"
# Benchmarks also need hyperfine (tests/bench/); tests do not.
if [ "${1:-}" = "--with-bench-tools" ]; then
  packages="$packages hyperfine"
fi
# The fuzz targets (tests/fuzz, scripts/fuzz.sh) need clang and libFuzzer.
if [ "${1:-}" = "--with-fuzz" ]; then
  packages="$packages clang libclang-rt-dev"
fi

missing=""
for package in $packages; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $package"
  fi
done
missing=$(echo $missing)
[ -z "$missing" ] && exit 0

echo "installing:$missing" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# No recommends: libvalijson-dev would otherwise pull in Qt and GTK.
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
