#!/usr/bin/env bash
# A GPU test of one SM90 trace configuration: gemm_trace --sm90 --config CONFIG writes the
# trace, `tessera verify` checks it, and each expected line (e.g. "map mma.C: 131072/131072
# records match") must be in verify's report. Exit 77 (ctest's SKIP_RETURN_CODE) where
# gemm_trace finds no compute capability 9.0 device (its exit status 3).
#   gemm_trace_config_test.sh GEMM_TRACE TESSERA CONFIG WORKDIR EXPECTED_LINE...
set -u
gemm_trace=$1 tessera=$2 config=$3 dir=$4
shift 4
mkdir -p "$dir"
trace="$dir/sm90_$config.trace"
"$gemm_trace" --sm90 --config "$config" -o "$trace" 2>"$dir/sm90_$config.err"
rc=$?
if [ $rc -eq 3 ]; then
  echo "skipped: $(cat "$dir/sm90_$config.err")"
  exit 77
fi
cat "$dir/sm90_$config.err"
if [ $rc -ne 0 ]; then
  echo "FAIL: gemm_trace --sm90 --config $config exited $rc"
  exit 1
fi
report=$("$tessera" verify "$trace")
rc=$?
echo "$report"
if [ $rc -ne 0 ]; then
  echo "FAIL: tessera verify exited $rc"
  exit 1
fi
for line in "$@"; do
  if ! grep -qxF -- "$line" <<<"$report"; then
    echo "FAIL: expected the line '$line'"
    exit 1
  fi
done
