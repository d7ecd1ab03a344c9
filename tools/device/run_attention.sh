#!/usr/bin/env bash
# tessera::attention on the GPU machine in one call: builds (nvcc, in /tmp) the attention
# kernels' TU, its GPU test and its benchmark, then runs
#   attention_gpu_test            every head dim, mask, GQA ratio, varlen batch and residue
#                                 against an FP64 reference, outputs poisoned with NaN (and
#                                 the two-consumer-warpgroup kernels at D 64, not shipped)
#   attention_drawn_gpu_test      problems drawn from a seed (lengths, strides and layouts, GQA,
#                                 varlen with empty sequences, every grid), each element of O and
#                                 LSE against an FP64 reference and its bound (DRAWN_SECONDS=90)
#   attention_gpu_test --trace    the traced kernel on one tile (kernels/collective/
#                                 sm90_attention_trace.hpp), bf16/f16 x D 64/128 and bf16 D 256: its S, P and
#                                 O records in $OUT/attention_<type>_d<D>.trace.gz, verified there
#                                 by .gpu/bin/tessera when that CLI runs on the machine (copy
#                                 build/bin/tessera there and carry .gpu), else verify them
#                                 after with `build/bin/tessera verify FILE`
#   compute-sanitizer memcheck    the test's small cases (--small) and one trace run; SAN=full
#                                 adds racecheck and synccheck on both
#   attention_bench               B4 H16 S 4096/8192/16384, D 128, 64 and 256, causal and not (TFLOP/s)
#   attention_torch.py            torch SDPA's cuDNN and flash backends at the same shapes, and
#                                 tessera's outputs (attention_bench --dump) against torch's
#   NCU=1                         adds ncu's report of one launch (B4 H16 S4096 D128, bf16, not
#                                 causal: the bench's first problem) in $OUT/ncu_attention.txt
#   CHECKS=0                      skips the GPU test, the traces and the sanitizers (speed only)
#   ORDER=1                       adds attention_tiles.cu's `order` mode: the shipped kernels
#                                 with the grid longest_first against tile_major, alternating
#                                 pairs in one process (kernels/kernel/sm90_attention_scheduler.hpp)
#   PERSIST=1                     adds attention_tiles.cu's `persistent` mode: the shipped kernels
#                                 on persistent CTAs (AttentionGrid::Persistent: strided, and
#                                 causal also on the tile counter) against a CTA per work tile
#                                 (PerTile), alternating pairs in one process, B4 H16
#                                 S 4096/8192/16384, D 64/128/256, full and causal
#                                 (bench/notes/attention.md sections 9 and 9.1)
#   STEP=build / STEP=run       the build alone into BUILD (a git-ignored folder inside the tree,
#                                 e.g. BUILD=build-att, which a warm machine keeps), then the runs
#                                 alone from it: two device calls where one would pass the limit
# Outputs and a summary under $OUT.
#   OUT=/tmp/out tools/device/run_attention.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-attention}
B=${BUILD:-/tmp/tessera-attention-build}
mkdir -p "$OUT" "$B"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
status=0
note "== tessera attention $(date -u +%FT%TZ) commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
F=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 -O3 -lineinfo -Iinclude -Ikernels -diag-suppress 20012,177)
for cc in g++-14 g++-13 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
SM90A=(-gencode=arch=compute_90a,code=sm_90a)

t0=$(date +%s)
STEP=${STEP:-all}
if [ "$STEP" != run ]; then
{
  nvcc "${F[@]}" "${SM90A[@]}" -Xptxas -v -c kernels/device/sm90_attention_instances.cu -o "$B/attention_kernels.o" 2>"$OUT/ptxas.txt" &
  p1=$!
  nvcc "${F[@]}" "${SM90A[@]}" -c tests/hopper/attention_gpu_test.cu -o "$B/attention_gpu_test.o" & p2=$!
  nvcc "${F[@]}" "${SM90A[@]}" -c tests/hopper/attention_drawn_gpu_test.cu -o "$B/attention_drawn_gpu_test.o" & p8=$!
  nvcc "${F[@]}" "${SM90A[@]}" -c bench/attention_bench.cu -o "$B/attention_bench.o" & p3=$!
  nvcc "${F[@]}" "${SM90A[@]}" -c tests/hopper/attention_trace_gpu.cu -o "$B/attention_trace_gpu.o" & p4=$!
  nvcc "${F[@]}" -x c++ -c tests/hopper/sm90_attention_trace_file.cpp -o "$B/attention_trace_file.o" & p5=$!
  # (the two-consumer-warpgroup kernels at D 64, not shipped, the GPU test checks too; their ptxas report apart)
  nvcc "${F[@]}" "${SM90A[@]}" -Xptxas -v -c tests/hopper/attention_consumers_gpu.cu -o "$B/attention_consumers_gpu.o" \
    2>"$OUT/ptxas_consumers2.txt" & p6=$!
  p7=
  [ "${ORDER:-}" = 1 ] || [ "${PERSIST:-}" = 1 ] && { nvcc "${F[@]}" "${SM90A[@]}" -DTESSERA_TILES_ORDER_ONLY tools/device/attention_tiles.cu -lcuda -o "$B/attention_order" & p7=$!; }
  wait $p1 && wait $p2 && wait $p3 && wait $p4 && wait $p5 && wait $p6 && wait $p8 && { [ -z "$p7" ] || wait $p7; } &&
    nvcc "${F[@]}" -o "$B/attention_drawn_gpu_test" "$B/attention_drawn_gpu_test.o" "$B/attention_kernels.o" &&
    nvcc "${F[@]}" -o "$B/attention_gpu_test" "$B/attention_gpu_test.o" "$B/attention_trace_gpu.o" "$B/attention_trace_file.o" \
      "$B/attention_consumers_gpu.o" "$B/attention_kernels.o" &&
    nvcc "${F[@]}" -o "$B/attention_bench" "$B/attention_bench.o" "$B/attention_kernels.o"
} >"$OUT/build.log" 2>&1
rc=$?
note "build: rc=$rc in $(( $(date +%s) - t0 )) s"
grep -aE "Used|spill" "$OUT/ptxas.txt" | sed 's/^/ptxas: /' | tee -a "$log"
grep -aE "Used|spill" "$OUT/ptxas_consumers2.txt" | sed 's/^/ptxas (D 64, 2 consumer warpgroups): /' | tee -a "$log"
[ $rc -ne 0 ] && { grep -a "error" "$OUT/build.log" "$OUT/ptxas.txt" | head -20 | tee -a "$log"; exit 1; }
# Where the spills ptxas reports lie: inside the mainloop (between the first and last HGMMA) or not.
command -v cuobjdump >/dev/null && bash tools/device/sass_spills.sh "$B/attention_kernels.o" "$OUT" HGMMA | tee -a "$log"
[ "$STEP" = build ] && { note "== build only ($(( $(date +%s) - t0 )) s)"; exit 0; }
else
  [ -x "$B/attention_gpu_test" ] && [ -x "$B/attention_bench" ] || { note "STEP=run: no build in $B (run STEP=build first)"; exit 1; }
fi

run() {  # name timeout command...
  local name=$1 limit=$2
  shift 2
  local t=$(date +%s)
  timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
  local r=$?
  note "$name: rc=$r in $(( $(date +%s) - t )) s"
  [ $r -ne 0 ] && { status=1; grep -aE "FAIL|error|ERROR" "$OUT/$name.log" | head -10 | tee -a "$log"; }
  return 0
}
if [ "${CHECKS:-1}" != 0 ]; then
run attention_gpu_test 300 "$B/attention_gpu_test"
tail -1 "$OUT/attention_gpu_test.log" | tee -a "$log"
# Problems drawn from a seed (strides, layouts, lengths, grids): every element against its bound.
TESSERA_DRAWN_SECONDS=${DRAWN_SECONDS:-90} run attention_drawn_gpu_test 150 "$B/attention_drawn_gpu_test"
tail -1 "$OUT/attention_drawn_gpu_test.log" | tee -a "$log"
# The traced kernel's records: one trace per (type, head dim), verified where a CLI runs.
for t in bf16 f16; do
  for d in 128 64 256; do
    [ $t = f16 ] && [ $d = 256 ] && continue  # (D 256 traces in bf16 on the GPU, both types on the host)
    tr="$OUT/attention_${t}_d${d}.trace"
    run "trace_${t}_d${d}" 60 "$B/attention_gpu_test" --trace "$tr" $t $d
    if [ -f "$tr" ] && [ -x .gpu/bin/tessera ]; then
      run "verify_${t}_d${d}" 60 .gpu/bin/tessera verify "$tr"
      tail -4 "$OUT/verify_${t}_d${d}.log" | tee -a "$log"
    fi
  done
done
[ -x .gpu/bin/tessera ] || note "trace: no .gpu/bin/tessera here; verify with: for f in OUT/attention_*.trace.gz; do zcat \$f | build/bin/tessera verify -; done"
gzip -f "$OUT"/attention_*.trace 2>/dev/null  # (about 1.2 MB each as text)
if command -v compute-sanitizer >/dev/null; then
  run memcheck 240 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/attention_gpu_test" --small
  run memcheck_trace 120 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/attention_gpu_test" --trace "$B/sanitized.trace"
  if [ "${SAN:-}" = full ]; then
    run racecheck 300 compute-sanitizer --tool racecheck --error-exitcode 9 "$B/attention_gpu_test" --small
    run synccheck 300 compute-sanitizer --tool synccheck --error-exitcode 9 "$B/attention_gpu_test" --small
    run racecheck_trace 120 compute-sanitizer --tool racecheck --error-exitcode 9 "$B/attention_gpu_test" --trace "$B/sanitized.trace"
    run synccheck_trace 120 compute-sanitizer --tool synccheck --error-exitcode 9 "$B/attention_gpu_test" --trace "$B/sanitized.trace"
  fi
else
  note "compute-sanitizer: not found"
fi
fi
if [ "${ORDER:-}" = 1 ]; then
  run attention_order 300 "$B/attention_order" order
  cat "$OUT/attention_order.log" | tee -a "$log"
fi
if [ "${PERSIST:-}" = 1 ]; then
  run attention_persistent 400 "$B/attention_order" persistent
  cat "$OUT/attention_persistent.log" | tee -a "$log"
fi
run attention_bench 300 "$B/attention_bench" 20
cat "$OUT/attention_bench.log" | tee -a "$log"
mkdir -p "$OUT/dump"
run attention_dump 120 "$B/attention_bench" --dump "$OUT/dump"
if python3 -c "import torch" 2>/dev/null; then
  run attention_torch 400 python3 tools/device/attention_torch.py --compare "$OUT/dump"
  cat "$OUT/attention_torch.log" | tee -a "$log"
else
  note "attention_torch: torch not installed, skipped"
fi
if [ "${NCU:-}" = 1 ] && command -v ncu >/dev/null; then
  sec="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section SchedulerStats --section WarpStateStats --section InstructionStats --section Occupancy"
  # (launch 6 of the bench's first problem: past its warm-up launches)
  # (the tensor pipe's metric by its Hopper name; the sections alone where this ncu lacks it)
  run ncu 300 ncu --clock-control none $sec --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active \
    -k regex:attention_kernel --launch-skip 6 --launch-count 1 "$B/attention_bench" 1 ||
    true
  grep -q "pipe_tensor_op_gmma" "$OUT/ncu.log" ||
    run ncu 300 ncu --clock-control none $sec -k regex:attention_kernel --launch-skip 6 --launch-count 1 "$B/attention_bench" 1
  mv "$OUT/ncu.log" "$OUT/ncu_attention.txt"
  grep -aE "Duration|Compute \(SM\) Throughput|Memory Throughput|L2 Cache Throughput|Issue Slots Busy|No Eligible|Stall|Warp Cycles Per Issued|Registers Per|gmma" "$OUT/ncu_attention.txt" | head -30 | tee -a "$log"
fi
rm -rf "$OUT/dump"  # (inputs and outputs of the comparison: large, and in the logs already)
note "== status $status"
exit $status
