# Helpers shared by the CLI test scripts (POSIX sh). Source it first thing:
#   . "$(dirname "$0")/../cli_helpers.sh"
# It sets W (a scratch folder, removed on exit) and fails (the number of failed checks);
# each check records a failure with `bad` and goes on, and `finish` ends the script with
# status 1 when any check failed (tests/tools/cli_helpers_test.sh shows that each can fail).
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
fails=0

# bad MESSAGE: record a failed check.
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect_ok NAME CMD...: exit 0 (stdout in $W/out, stderr in $W/err).
expect_ok() { name=$1; shift; "$@" >"$W/out" 2>"$W/err" || { bad "$name: exit $? ($(cat "$W/err"))"; }; }

# expect_err NAME PATTERN CMD...: exit 1, stderr starts with error: and contains PATTERN.
expect_err() {
  name=$1; pat=$2; shift 2
  "$@" >"$W/out" 2>"$W/err"; rc=$?
  [ $rc -eq 1 ] || bad "$name: exit $rc, want 1"
  err_has "$name" "$pat"
}

# err_has NAME TEXT: $W/err starts with error: and contains TEXT.
err_has() {
  head -n1 "$W/err" | grep -q '^error: ' || bad "$1: stderr does not start with error: ($(cat "$W/err"))"
  grep -qF -- "$2" "$W/err" || bad "$1: stderr lacks '$2' ($(cat "$W/err"))"
}

# has_line NAME TEXT: $W/out contains TEXT.
has_line() { grep -qF -- "$2" "$W/out" || bad "$1: output lacks '$2' ($(cat "$W/out"))"; }

# has_caret NAME: $W/err has a caret line.
has_caret() { grep -q '^ *\^$' "$W/err" || bad "$1: no caret ($(cat "$W/err"))"; }

# has_caret_at NAME COLUMN: the caret sits under the 0-based COLUMN of the echoed input.
has_caret_at() {
  line=$(grep -n '^ *\^$' "$W/err" | head -1 | cut -d: -f2)
  [ -n "$line" ] || { bad "$1: no caret ($(cat "$W/err"))"; return; }
  [ "${#line}" -eq $(($2 + 3)) ] || bad "$1: caret at $((${#line} - 3)), want $2"
}

# finish WHAT: report, exit 1 when a check failed, else 0.
finish() {
  if [ "$fails" -ne 0 ]; then echo "$fails failure(s)"; exit 1; fi
  echo "all $1 checks passed"
  exit 0
}
