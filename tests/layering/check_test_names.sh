#!/bin/sh
# A Catch2 test whose name holds ';' breaks ctest: catch_discover_tests
# splits it in two, and each half runs nothing and passes. Refuse such
# names, and names that differ only by that split.
set -eu
root=${1:?usage: check_test_names.sh SOURCE_ROOT}
bad=$(grep -rn 'TEST_CASE("[^"]*;' "$root/tests" --include='*.cpp' || true)
if [ -n "$bad" ]; then
  echo "test names with ';' (ctest cannot run them by name):" >&2
  echo "$bad" >&2
  exit 1
fi
# A name that starts with '-' reaches Catch2 as an option and the test
# fails without running (clang-format may put it on the next line).
bad=$(grep -rn -A1 'TEST_CASE($' "$root/tests" --include='*.cpp' | grep -E '^[^:]*-[0-9]+- *"-' || true)
bad="$bad$(grep -rn 'TEST_CASE("-' "$root/tests" --include='*.cpp' || true)"
if [ -n "$bad" ]; then
  echo "test names that start with '-' (Catch2 reads them as options):" >&2
  echo "$bad" >&2
  exit 1
fi
echo "every test name is runnable"
