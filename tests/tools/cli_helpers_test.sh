#!/bin/sh
# tests/cli_helpers.sh, shared by the CLI test scripts: every check passes on what it
# expects and records a failure otherwise, and `finish` exits 1 after any failure.
#   cli_helpers_test.sh SOURCE_DIR
src=$1
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
problems=0
problem() { echo "FAIL: $*"; problems=$((problems + 1)); }

# run_checks NAME WANT-FAILS WANT-STATUS BODY: BODY runs after sourcing the helpers, then finish.
run_checks() {
  name=$1; want_fails=$2; want_status=$3; body=$4
  sh -c ". \"$src/tests/cli_helpers.sh\"; $body; finish helper" >"$out/log" 2>&1; rc=$?
  got=$(grep -c '^FAIL: ' "$out/log")
  [ "$got" -eq "$want_fails" ] || problem "$name: $got failed checks, want $want_fails ($(cat "$out/log"))"
  [ "$rc" -eq "$want_status" ] || problem "$name: exit $rc, want $want_status"
}
err() { printf '%s\n' "$@" >&2; return 1; }

# Each helper on what it expects: no failure, exit 0.
run_checks pass 0 0 '
  expect_ok ok true
  expect_err err "bad input" sh -c "printf \"error: bad input\n  8:x\n    ^\n\" >&2; exit 1"
  has_caret caret; has_caret_at caret-at 2
  err_has err-has "bad input"
  expect_ok out echo hello; has_line line hello'
# Each helper on what it does not expect: one failure each, exit 1.
run_checks ok-fails 1 1 'expect_ok ok false'
run_checks err-exit0 1 1 'expect_err err "x" sh -c "echo error: x >&2; exit 0"'
run_checks err-status2 1 1 'expect_err err "x" sh -c "echo error: x >&2; exit 2"'
run_checks err-no-prefix 1 1 'expect_err err "x" sh -c "echo x >&2; exit 1"'
run_checks err-wrong-text 1 1 'expect_err err "wanted" sh -c "echo error: other >&2; exit 1"'
run_checks no-caret 1 1 'expect_err err "x" sh -c "echo error: x >&2; exit 1"; has_caret c'
run_checks caret-column 1 1 'expect_err err "x" sh -c "printf \"error: x\n  8:x\n    ^\n\" >&2; exit 1"; has_caret_at c 1'
run_checks no-line 1 1 'expect_ok out echo hello; has_line line goodbye'
run_checks bad 2 1 'bad one; bad two'
# The scratch folder exists while the script runs and is gone after it.
sh -c ". \"$src/tests/cli_helpers.sh\"; [ -d \"\$W\" ] && echo \"\$W\"" >"$out/w" || problem "no scratch folder"
[ -e "$(cat "$out/w")" ] && problem "scratch folder $(cat "$out/w") left behind"

[ $problems -eq 0 ] || { echo "$problems problem(s)"; exit 1; }
echo "cli_helpers: each check passes on what it expects and fails otherwise"
