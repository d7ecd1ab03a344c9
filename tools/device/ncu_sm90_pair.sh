#!/usr/bin/env bash
# Two sm90_gemm_bench invocations' first SM90 GEMM kernel under ncu, side by side: what differs
# between two kernels of the dispatch (e.g. an e4m3 D against a bf16 D, or the grouped GEMM
# against a plain one). Each report (SpeedOfLight, WarpStateStats with the stall reasons,
# SchedulerStats, InstructionStats, SourceCounters: the SASS lines warps stall at) is kept whole
# in one archive; pair.txt lines up the headline metrics.
#   OUT=$OUT BUILD=build-gpu A="--fp8 8192 8192 8192" B="--fp8 --out-e4m3 8192 8192 8192" \
#     tools/device/ncu_sm90_pair.sh      (after run_check.sh STEP=build)
# KERNEL: the kernel-name regex (default the SM90 GEMM entry, which the grouped kernel's name
# matches too); KERNEL_A / KERNEL_B: one side's own (default KERNEL), e.g. the grouped kernel
# ('gemm_sm90_entry<tessera::kernels::sm90::GemmGrouped': its prepare kernel, launched first, also names
# GemmGrouped...) against the plain one of the same --grouped call's loop of tessera::gemm
# ('gemm_sm90_entry<tessera::kernels::sm90::GemmTmaWarpSpecialized<'). The first matching launch is
# profiled: the bench's checked call.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-ncu-pair}
B=${BUILD:-build-gpu}
KERNEL=${KERNEL:-gemm_sm90_entry}
mkdir -p "$OUT/pair"
sec=(--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section InstructionStats
     --section SourceCounters --section LaunchStats --section Occupancy)
status=0
for side in A B; do
  args=${!side:-}
  [ -n "$args" ] || { echo "$side: no arguments"; exit 1; }
  # (word splitting of the arguments is intended: they are the bench's options)
  # shellcheck disable=SC2086
  k=KERNEL_$side
  k=${!k:-$KERNEL}
  timeout 240 ncu --kernel-name-base demangled -k "regex:$k" --launch-count 1 "${sec[@]}" --print-details all \
    "$B/sm90_bench" $args >"$OUT/pair/$side.txt" 2>&1 || status=1
done
metric() {  # file, metric name: its value column
  grep -a -m1 -E "^ +$2 " "$1" | awk '{print $(NF)}'
}
{
  printf "%-52s %16s %16s\n" "metric" "A" "B"
  for m in "Duration" "Compute \\(SM\\) Throughput" "Memory Throughput" "DRAM Throughput" "Registers Per Thread" \
           "Warp Cycles Per Issued Instruction" "Issued Warp Per Scheduler" "No Eligible" "Executed Instructions" \
           "Dynamic Shared Memory Per Block"; do
    printf "%-52s %16s %16s\n" "$m" "$(metric "$OUT/pair/A.txt" "$m")" "$(metric "$OUT/pair/B.txt" "$m")"
  done
  # The stall reasons ncu's rules name, with their share of the cycles between issues.
  for side in A B; do
    k=KERNEL_$side
    echo "-- $side: ${!side} (kernel ${!k:-$KERNEL})"
    grep -a -E "^ +(void|tessera)" "$OUT/pair/$side.txt" | head -1 | cut -c1-200
    grep -a -E "Est\\. (Local )?Speedup|stalled|This stall type" "$OUT/pair/$side.txt" | head -20
  done
} | tee "$OUT/pair.txt"
(cd "$OUT" && { tar czf pair.tgz pair 2>/dev/null; true; } && rm -rf pair)
exit $status
