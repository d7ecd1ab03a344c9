#!/bin/sh
# The attention kernel's host trace through the CLI: `tessera verify` accepts it (exit 0, every
# record matched), and refuses each planted error (exit 1) naming the thread, value and
# coordinates (the test program writes the same trace the GPU build writes, from host threads).
#   attention_trace_cli.sh TRACE_TEST TESSERA
set -u
gen=$1
tessera=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
"$gen" --trace "$dir/ok.trace" >/dev/null || { echo "FAIL: writing the trace"; exit 1; }
"$tessera" verify "$dir/ok.trace" >"$dir/ok.out" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: verify of the host trace: exit $rc"; cat "$dir/ok.out"; fail=1; }
for m in mmaS.C mmaO.A mmaO.C; do
  grep -q "map $m: [0-9]* */ *[0-9]* records match" "$dir/ok.out" ||
    { echo "FAIL: no full match for $m"; cat "$dir/ok.out"; fail=1; }
done
# planted: two P values of thread 37 swapped; an O value of thread 130 recorded as thread 131's
for plant in swap thread; do
  "$gen" --trace "$dir/$plant.trace" --plant $plant >/dev/null || { echo "FAIL: writing the $plant trace"; exit 1; }
  "$tessera" verify "$dir/$plant.trace" >"$dir/$plant.out" 2>&1
  rc=$?
  [ $rc -eq 1 ] || { echo "FAIL: verify of the $plant trace: exit $rc, expected 1"; cat "$dir/$plant.out"; fail=1; }
  case $plant in
    swap) want="mismatch thread 37 value 0: expected" ;;
    thread) want="missing thread 130 value 3: expected" ;;
  esac
  grep -q "$want" "$dir/$plant.out" || { echo "FAIL: the $plant report does not name '$want'"; cat "$dir/$plant.out"; fail=1; }
done
[ $fail -eq 0 ] && echo "OK"
exit $fail
