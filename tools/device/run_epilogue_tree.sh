#!/usr/bin/env bash
# The epilogue trees on the GPU, in one call: build hopper_sm90_epilogue_tree_gpu_test in /tmp
# (its kernels, all clusters of 2: on the cooperative kernel's 128x128 tiles the example tree
# through TMA stores and from the registers, bias + GELU (erf, tanh) and bias + SiLU trees, the
# plain TMA-store kernel and the menu's fused GELU + bias; at 128x256 the plain kernel and the
# bias + GELU (erf) tree; on
# the ping-pong kernel (tiles per consumer) the plain kernel at 64x256, 128x128 and 64x128, the
# bias + activation trees at 64x256 and 128x128, the example tree at 64x128 and 128x128), its
# ptxas report and the spill check (LDL/STL per kernel and inside each k-loop), then the
# correctness cases (FP64 reference), compute-sanitizer on the small residue problems where
# installed, and --time at 8192^3 (every kernel and cuBLASLt's GELU_BIAS in turns in one
# process: TFLOP/s, the ratio to the cooperative 128x128 plain kernel and to the fastest plain
# kernel, cuBLASLt's time over each, each tree's over its own plain kernel (same kernel and
# tile: what the tree adds), and each tree's budget over the fastest plain kernel: 3%
# for bias + activation, 6% for the example + amax; "trees over their budget: N").
#   OUT=/tmp/out tools/device/run_epilogue_tree.sh        (SHAPE="M N K" for another --time shape)
# STEP=build (the build and its reports only) then STEP=check (the runs, from the same BUILD):
# so that another script's GPU runs can go between, on a build made beside its own.
# --time also runs two probes on ping-pong 128x128 (the bias + GELU tree's halves alone: GELU
# without the bias, the bias without an activation), each over its own plain kernel.
# KS="4096 16384": after --time, --time again at 8192 x 8192 x K for each K (time_K.txt): how a
# tree's added time per tile moves with the mainloop's length.
# NCU=1: after --time, ncu (one launch each, clocks not fixed) of the ping-pong 128x128 plain
# kernel and its bias + GELU (erf) tree: SM clock, pipes, warp states and stall sampling per
# instruction (ncu_pp128_plain.txt, ncu_pp128_gelu_tree.txt; a summary line each).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-epilogue-tree}
B=${BUILD:-/tmp/tessera-epilogue-tree-build}
SHAPE=${SHAPE:-"8192 8192 8192"}
STEP=${STEP:-all}
mkdir -p "$OUT" "$B"
log="$OUT/summary.txt"
[ "$STEP" = check ] || : >"$log"
note() { echo "$*" | tee -a "$log"; }
note "== epilogue trees $(date -u +%FT%TZ) commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
F=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 -O3 -lineinfo -Iinclude -Ikernels -diag-suppress 20012,177)
for cc in g++-14 g++-13 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
t0=$(date +%s)
exe="$B/epilogue_tree_gpu_test"
if [ "$STEP" != check ]; then
# (TESSERA_TREE_TIMING_KERNELS: the kernels only --time needs, not in the CMake build)
if ! nvcc "${F[@]}" -DTESSERA_TREE_TIMING_KERNELS -gencode=arch=compute_90a,code=sm_90a -Xptxas -v \
    tests/hopper/sm90_epilogue_tree_gpu_test.cu -lcublasLt -o "$exe" \
    >"$OUT/build.log" 2>&1; then
  note "build FAILED ($(($(date +%s) - t0)) s): $OUT/build.log"
  tail -30 "$OUT/build.log"
  exit 1
fi
note "build: $(($(date +%s) - t0)) s"
# ptxas: registers and spill bytes per kernel (a tree's registers and any spill)
grep -E "Compiling entry|registers|spill" "$OUT/build.log" | sed 's/ptxas info    : //' | c++filt >"$OUT/ptxas.txt"
grep -c "bytes spill" "$OUT/ptxas.txt" >/dev/null && grep -E "[1-9][0-9]* bytes spill (stores|loads)" "$OUT/ptxas.txt" | sed 's/^/ptxas spill: /' | tee -a "$log"
# local memory in the SASS: LDL/STL count per kernel (0 expected)
cuobjdump -sass "$exe" >"$OUT/sass.txt" 2>&1
awk '/Function : /{f=$3} /(LDL|STL)/{n[f]++} END{for (f in n) print n[f], f}' "$OUT/sass.txt" | c++filt | sed 's/tessera::kernels:://g' >"$OUT/spills.txt"
note "sass: LDL/STL in all kernels: $(grep -cE '(LDL|STL)' "$OUT/sass.txt") (per kernel: spills.txt)"
# ... and inside each kernel's k-loop (between its first and last HGMMA): 0 expected everywhere
bash tools/device/sass_spills.sh "$exe" "$OUT" HGMMA >"$OUT/loop_spills.txt"
note "sass: kernels with LDL/STL in the k-loop: $(grep -cv 'loop_spill_ldst=0 ' "$OUT/loop_spills.txt") of $(wc -l <"$OUT/loop_spills.txt") (loop_spills.txt)"
gzip -f "$OUT/sass.txt"
fi
[ "$STEP" = build ] && exit 0
status=0
run() {
  local name=$1 limit=$2
  shift 2
  timeout "$limit" "$@" >"$OUT/$name.txt" 2>&1
  local rc=$?
  note "$name: rc=$rc"
  tail -20 "$OUT/$name.txt" | tee -a "$log"
  [ $rc -eq 0 ] || status=1
}
run correctness 300 "$exe"
command -v compute-sanitizer >/dev/null && run memcheck 200 compute-sanitizer --tool memcheck --error-exitcode 9 "$exe" --small
# shellcheck disable=SC2086
run time 300 "$exe" --time $SHAPE
for kk in ${KS:-}; do
  run "time_$kk" 300 "$exe" --time 8192 8192 "$kk"
done
if [ -n "${NCU:-}" ] && command -v ncu >/dev/null; then
  # (mangled names: the kernel types' epilogue parts, as nvcc 13 mangles them)
  sec="--section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section InstructionStats --section SourceCounters"
  for probe in "pp128_plain:Sm90TmaStoreISC_Li128ELi128ELi1ELNS0_10ActivationE0ELi2EE" \
               "pp128_gelu_tree:Sm90TreeTmaStoreISC_Li128ELi128ELi1ENS0_4tree7ComputeINSH_13activation_opILNS0_10ActivationE2EEEJNSI_INSH_12multiply_add"; do
    f="$OUT/ncu_${probe%%:*}.txt"
    # shellcheck disable=SC2086
    timeout 280 ncu --clock-control none $sec --metrics sm__cycles_elapsed.avg.per_second --kernel-name-base mangled \
      -k "regex:${probe#*:}" --launch-skip 3 --launch-count 1 "$exe" --time $SHAPE >"$f" 2>&1
    note "ncu ${probe%%:*}: rc=$? $(grep -E 'Duration|SM Frequency|sm__cycles_elapsed.avg.per_second|Compute \(SM\) Throughput|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Tensor|Stall' "$f" | tr -s ' ' | tr '\n' ';' | head -c 1500)"
  done
fi
note "== done: status $status ($(($(date +%s) - t0)) s)"
exit $status
