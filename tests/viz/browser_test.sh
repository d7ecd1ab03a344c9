#!/bin/sh
# Runs a browser test script (html_browser_test.py, command_pages_browser_test.py, ...) with a
# Python that has Selenium (Debian's python3-selenium lives in /usr/bin/python3's path);
# exits 77 (skipped) when none has it.
# Usage: browser_test.sh SCRIPT TESSERA_CLI WORKDIR
here=$(dirname "$0")
script=$1
shift
for py in /usr/bin/python3 python3; do
  if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import selenium' 2>/dev/null; then
    exec "$py" "$here/$script" "$@"
  fi
done
echo "skip: no python3 with selenium (Debian: python3-selenium)"
exit 77
