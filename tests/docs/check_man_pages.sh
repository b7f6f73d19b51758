#!/bin/sh
# Every man page renders without groff warnings, and fits 80 columns.
set -eu
status=0
for page in "$1"/man/*.[0-9]; do
  warnings=$(groff -ww -man -Tutf8 -z "$page" 2>&1)
  if [ -n "$warnings" ]; then echo "$page: $warnings"; status=1; fi
  wide=$(groff -man -Tascii -rLL=80n "$page" 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g; s/.\x08//g' |
         awk 'length($0) > 80' | head -3)
  if [ -n "$wide" ]; then echo "$page: lines over 80 columns: $wide"; status=1; fi
done
exit $status
