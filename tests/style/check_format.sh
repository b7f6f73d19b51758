#!/bin/sh
# Every C++ source in the repository is as clang-format writes it with the
# repository's .clang-format, so a diff shows what changed and never how it
# was laid out. Fails when clang-format is missing: CI installs it
# (scripts/install-deps.sh), and a check that cannot judge must not pass.
set -eu
root=${1:?usage: check_format.sh SOURCE_ROOT}
format=$(command -v clang-format || true)
if [ -z "$format" ]; then
  echo "clang-format is not installed: run scripts/install-deps.sh" >&2
  exit 1
fi
cd "$root"
files=$(git ls-files '*.cpp' '*.hpp' '*.h' '*.c')
if [ -z "$files" ]; then
  echo "no C++ sources found under $root: is it a git checkout?" >&2
  exit 1
fi
# shellcheck disable=SC2086
if ! out=$(echo "$files" | xargs "$format" --dry-run --Werror 2>&1); then
  echo "$out" | grep 'warning:\|error:' | cut -d: -f1 | sort -u | sed 's/^/not formatted: /' >&2
  echo "run: git ls-files '*.cpp' '*.hpp' '*.h' '*.c' | xargs clang-format -i" >&2
  exit 1
fi
echo "$(echo "$files" | wc -l) files formatted"
