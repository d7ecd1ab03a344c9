#!/usr/bin/env bash
# FP8's scale modes on the GPU in one call: builds the library's kernels (as run_check.sh, with
# its nvcc flags), gemm_gpu_test and sm90_gemm_bench, then
#   - gemm_gpu_test TESSERA_CASES=fp8: the per-tensor FP8 cases and the scale modes' (rowwise:
#     every D type, both D majors, residues, batches, decode's shapes; block: residues, M = 1 / 17 /
#     64 / 128, a padded ld_scale_a, beta, the decode kernel (128x64 Stream-K) where the rule takes
#     it and forced; the error with and without the promotion; refusals),
#   - compute-sanitizer memcheck of the scale modes' small cases (TESSERA_CASES=fp8_scales
#     TESSERA_SMALL=1: M N K <= 2^30),
#   - ptxas registers and spills of the FP8 kernels, k-loop spills from the SASS,
#   - sm90_gemm_bench --fp8 at the scale modes' shapes, per-tensor, --scales rowwise and
#     --scales block (against cuBLASLt's per-tensor GEMM on the same data), and the block-scaled
#     whole-tile kernels forced one by one at many tokens (--config),
#   - tools/device/scaled_mm_torch.py --scales tensor|rowwise|block where torch is installed.
#   OUT=/tmp/out tools/device/run_fp8_scales.sh
# STEP=build (build only, into BUILD, e.g. BUILD=build-gpu inside the tree) then STEP=check when
# the build and the runs do not fit one call.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-fp8-scales}
B=${BUILD:-/tmp/tessera-fp8-scales-build}
mkdir -p "$OUT" "$B"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
status=0
note "== tessera FP8 scale modes $(date -u +%FT%TZ) commit=${COMMIT:-unknown}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
F=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 -O3 -lineinfo -Iinclude -Ikernels -diag-suppress 20012,177)
for cc in g++-14 g++-13 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
SM90=(-gencode=arch=compute_90,code=sm_90)
SM90A=(-gencode=arch=compute_90a,code=sm_90a)
SHAPES=(4096 7168 16384 128 7168 16384 64 7168 16384 8192 8192 8192)

STEP=${STEP:-all}
t0=$(date +%s)
if [ "$STEP" != check ]; then
(
  pids=() sm80_objs=() sm90_objs=() host_objs=()
  # (the dispatch, and the library's host code it calls: gemm_tune, the tuning cache)
  source tools/device/host_objects.sh
  dispatch_objects "$B" "${F[@]}"
  host_objects "$B" "${F[@]}"
  kobjs=("${sm80_objs[@]}" "${sm90_objs[@]}" "${host_objs[@]}")
  nvcc "${F[@]}" "${SM90[@]}" -c tests/kernels/gemm_gpu_test.cu -o "$B/gemm_gpu_test.o" & pids+=($!)
  nvcc "${F[@]}" "${SM90A[@]}" -c bench/sm90_gemm_bench.cu -o "$B/sm90_bench.o" & pids+=($!)
  rc=0
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  [ $rc -eq 0 ] &&
    nvcc "${F[@]}" -o "$B/gemm_gpu_test" "$B/gemm_gpu_test.o" "${kobjs[@]}" &&
    nvcc "${F[@]}" -o "$B/sm90_bench" "$B/sm90_bench.o" "${kobjs[@]}" -lcublas -lcublasLt
  exit $?
) >"$OUT/build.log" 2>&1
rc=$?
note "build: rc=$rc ($(( $(date +%s) - t0 )) s)"
[ $rc -ne 0 ] && { grep -a "error" "$OUT/build.log" | head -20 | tee -a "$log"; status=1; }
# The FP8 kernels' registers and spills (the per-tensor unit, the block-scaled one, its decode
# tile, its 128 x 192 tile, the tokens-along-M tile).
for u in fp8 fp8_block fp8_block_decode fp8_block_wide fp8_block_rows; do
  f="$B/k_sm90_instances_$u.o.ptxas"
  [ -f "$f" ] && note "ptxas $u: $(grep -ac 'Used' "$f") kernels, registers $(grep -aoE 'Used [0-9]+ registers' "$f" | awk '{print $2}' | sort -n | uniq | tr '\n' ' '), spill stores: $(grep -aoE '[0-9]+ bytes spill stores' "$f" | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
  [ -f "$B/k_sm90_instances_$u.o" ] && mkdir -p "$OUT/sass_$u" && bash tools/device/sass_spills.sh "$B/k_sm90_instances_$u.o" "$OUT/sass_$u" 'HGMMA|QGMMA' |
    sed 's/\(.\{220\}\).*/\1.../' | tee -a "$log"
done
fi
if [ "$STEP" = build ]; then
  note "== build only: status $status ($(( $(date +%s) - t0 )) s)"
  exit $status
fi

run() {  # name timeout command...
  local name=$1 t=$2; shift 2
  timeout "$t" "$@" >"$OUT/$name.log" 2>&1
  local r=$?
  [ $r -ne 0 ] && status=1
  note "$name: rc=$r, $(tail -1 "$OUT/$name.log")"
  grep -aE "FAIL" "$OUT/$name.log" | head -20 | tee -a "$log"
}
if [ -x "$B/gemm_gpu_test" ]; then
  TESSERA_CASES=fp8 run gemm_gpu_test_fp8 300 "$B/gemm_gpu_test"
  # (every scale-mode line: its error, and the promotion's comparison)
  grep -a " fp8 " "$OUT/gemm_gpu_test_fp8.log" | grep -aE "rowwise|block" | tee -a "$log"
  command -v compute-sanitizer >/dev/null &&
    TESSERA_CASES=fp8_scales TESSERA_SMALL=1 run memcheck_fp8_scales 420 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/gemm_gpu_test"
fi
if [ -x "$B/sm90_bench" ]; then
  for s in tensor rowwise block; do
    timeout 150 "$B/sm90_bench" --fp8 --scales $s "${SHAPES[@]}" 2>&1 | grep -v '^device' | tee -a "$log"
  done
  # Block scales at many tokens, each block-scaled whole-tile kernel forced (the 128 x 192 one,
  # whose consumers issue in turns, and the 128 x 128 one, whose consumers issue together).
  for c in "cooperative 128x192" "cooperative 128x128"; do
    timeout 150 "$B/sm90_bench" --fp8 --scales block --config "$c" 4096 7168 16384 2048 7168 16384 8192 7168 2048 2>&1 |
      grep -v '^device' | tee -a "$log"
  done
fi
if python3 -c "import torch" 2>/dev/null; then
  for s in tensor rowwise block; do
    timeout 200 python3 tools/device/scaled_mm_torch.py --scales $s "${SHAPES[@]}" 2>&1 | tee -a "$log"
  done
else
  note "torch: not installed (no torch._scaled_mm rows)"
fi
note "== status $status ($(( $(date +%s) - t0 )) s)"
(cd "$OUT" && tar czf logs.tgz --exclude=logs.tgz --exclude=summary.txt . 2>/dev/null &&
  find . -type f ! -name logs.tgz ! -name summary.txt -delete)
exit $status
