#!/usr/bin/env bash
# Tuning run for the GPU machine: builds like run_gpu.sh, then the variants table, a full
# ncu report (every section, text) of the default tensor-core and SIMT kernels at 4096^3 TN,
# and the SASS of both kernels' TN instantiations.
#
#   OUT=/tmp/out COMMIT=<sha> [STEPS="build variants"] tools/device/profile.sh
# STEPS: the run_gpu.sh steps to run first (e.g. "build test sanitize trace ncu bench").
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-gpu-out}
BUILD=${BUILD:-/tmp/tessera-gpu-build}
export OUT BUILD
bash tools/device/run_gpu.sh ${STEPS:-build variants} || true
"$BUILD/gemm_bench" --profile 4096 4096 4096 >/dev/null 2>&1 || echo "profile launch failed" >>"$OUT/summary.txt"
sec="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section LaunchStats --section Occupancy --section SchedulerStats --section WarpStateStats --section InstructionStats --section SourceCounters"
for k in gemm_tensorop_entry gemm_simt_entry; do
  ncu --clock-control none $sec -k regex:$k --launch-count 1 --print-details all \
    "$BUILD/gemm_bench" --profile 4096 4096 4096 >"$OUT/ncu_$k.txt" 2>&1
  echo "ncu $k: rc=$?" >>"$OUT/summary.txt"
done
cuobjdump -sass "$BUILD/k_tensorop_bf16.o" "$BUILD/k_simt.o" >"$OUT/sass.txt"
# At most 8 files come back: the reports travel as one archive, the traces stay (their
# verification is in summary.txt).
(cd "$OUT" && tar czf profile.tgz ncu_gemm_*.txt sass.txt && rm -f ncu_gemm_*.txt sass.txt traces.tgz)
ls -la "$OUT"
