#!/usr/bin/env bash
# Which cuBLASLt FP8 configuration runs here (tools/device/cublaslt_fp8_probe.cu; bench/notes/fp8.md
# "cuBLASLt's FP8 in the bench's own process" reads the outcome). One device call, ~30 s:
#   1. build the probe alone (nvcc, -lcublasLt -lcublas, ~5 s);
#   2. run it against the toolkit's cuBLASLt (the library sm90_gemm_bench links);
#   3. where torch's own cuBLASLt (the pip wheel's libcublasLt.so.13, which torch._scaled_mm runs)
#      is installed, run it again with that library first on LD_LIBRARY_PATH: the same calls
#      against the other library version;
#   4. BENCH=<sm90_bench binary> (e.g. build-gpu/sm90_bench from run_check.sh's build): its FP8
#      lines at 8192^3 (bf16 D and e4m3 D), which now name the configuration that ran.
#   OUT=$OUT bash tools/device/run_cublaslt_fp8_probe.sh [M N K ...]
# $OUT: summary.txt (both probes' verdicts and the bench lines), probe_toolkit.txt, probe_torch.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-cublaslt-fp8-probe}
B=${BUILD:-/tmp/tessera-cublaslt-fp8-probe-build}
mkdir -p "$OUT" "$B"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
note "nvcc: $(nvcc --version | tail -1)"
if ! nvcc -std=c++17 -O2 -gencode=arch=compute_90a,code=sm_90a tools/device/cublaslt_fp8_probe.cu -lcublasLt -lcublas \
     -o "$B/cublaslt_fp8_probe" >"$OUT/build.txt" 2>&1; then
  note "build FAILED"; cat "$OUT/build.txt" | tee -a "$log"; exit 1
fi
note "links: $(ldd "$B/cublaslt_fp8_probe" | grep -o 'libcublasLt[^ ]* => [^ ]*' | head -1)"

note "== probe, the toolkit's cuBLASLt"
timeout 120 "$B/cublaslt_fp8_probe" "$@" >"$OUT/probe_toolkit.txt" 2>&1
note "exit $?"
sed -n '1p;/^VERDICT/,$p' "$OUT/probe_toolkit.txt" | tee -a "$log"

# torch's cuBLASLt: the wheel's library directory (nvidia/cu13/lib or nvidia/cublas/lib)
tdir=$(python3 -c 'import os, torch; print(os.path.dirname(os.path.dirname(torch.__file__)))' 2>/dev/null)
tlib=$( [ -n "$tdir" ] && find "$tdir/nvidia" -name 'libcublasLt.so.13*' 2>/dev/null | head -1)
if [ -n "$tlib" ]; then
  note "== probe, torch's cuBLASLt: $tlib"
  LD_LIBRARY_PATH="$(dirname "$tlib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" timeout 120 "$B/cublaslt_fp8_probe" "$@" \
    >"$OUT/probe_torch.txt" 2>&1
  note "exit $?"
  sed -n '1p;/^VERDICT/,$p' "$OUT/probe_torch.txt" | tee -a "$log"
else
  note "== no torch cuBLASLt (libcublasLt.so.13 under torch's site-packages/nvidia) found: one library probed"
fi

if [ -n "${BENCH:-}" ] && [ -x "$BENCH" ]; then
  note "== $BENCH --fp8 (bf16 D and e4m3 D, 8192^3)"
  timeout 90 "$BENCH" --fp8 8192 8192 8192 2>&1 | grep -v '^device' | tee -a "$log"
  timeout 90 "$BENCH" --fp8 --out-e4m3 8192 8192 8192 2>&1 | grep -v '^device' | tee -a "$log"
fi
