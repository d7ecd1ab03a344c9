#!/usr/bin/env bash
# Every GPU correctness check of the tree in one call, built once on all cores: the library's
# kernels (mma.sync, SIMT, SM90), then
#   gemm_gpu_test (tessera::gemm, every kernel), gemm_drawn_gpu_test (tessera::gemm on problems
#   drawn from a seed, every element against its bound), hopper_sm90_gemm_gpu_test (SM90: majors,
#   residues, Stream-K, fused epilogues, TF32), algorithm_gpu_test (gemm per MMA atom, copy per
#   copy atom), hopper_gpu_test (wgmma / TMA atoms), wgmma_8bit_gpu_test (the FP8 and int8
#   wgmma atoms against an FP64 reference), hopper_sm90_epilogue_tree_gpu_test (an epilogue
#   tree, both stores, against FP64), compute-sanitizer memcheck on small
#   shapes, and a short benchmark against cuBLAS (SM90 at three shapes, fused, and the
#   mma.sync / SIMT kernels at 8192^3; tessera::gemm_grouped at MoE shapes against a loop of
#   tessera::gemm and, where torch is installed, torch._grouped_mm), and the host work of one
#   tessera::gemm call.
# For tuning runs use run_gpu.sh (ncu, variants, traces) and run_hopper_gemm.sh.
#   OUT=/tmp/out COMMIT=<sha> tools/device/run_check.sh
# The build and the checks fit one 600-s device call only when few kernels changed; in two
# calls: STEP=build (build only) into a BUILD folder the second call finds (inside the tree,
# e.g. BUILD=build-gpu, git-ignored: a warm machine keeps it), then STEP=check (no build).
# BENCH=full: the benchmark at every shape the issues name (SM90 TN and NT, Stream-K's shapes with and
# without the workspace; FP8 e4m3 TN against cuBLASLt's FP8, its default and its fast accumulation;
# mma.sync bf16).
# SAN=full: racecheck and synccheck besides memcheck.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-check}
B=${BUILD:-/tmp/tessera-check-build}
mkdir -p "$OUT" "$B"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
status=0
note "== tessera GPU check $(date -u +%FT%TZ) commit=${COMMIT:-unknown}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
# (-fPIC: the same objects link into the Python module, run_python_gemm.sh KOBJS=...; the host
# side only, the kernels' code is the same)
F=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 -O3 -lineinfo -Iinclude -Ikernels -diag-suppress 20012,177 -Xcompiler -fPIC)
for cc in g++-14 g++-13 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
SM90=(-gencode=arch=compute_90,code=sm_90)
SM90A=(-gencode=arch=compute_90a,code=sm_90a)

STEP=${STEP:-all}
t0=$(date +%s)
if [ "$STEP" != check ]; then
{
  pids=()  # (objects the links below need)
  solo=()  # (whole test programs: one that fails is reported, the rest still link)
  kobjs=()
  # (the shipped kernels, the library's host code that the SM90 dispatch calls (gemm_tune, the
  # tuning cache), and the SM90 dispatch with its kernel units; the tuning variants are run_gpu.sh's)
  host_objs=() sm80_objs=() sm90_objs=()
  source tools/device/host_objects.sh
  dispatch_objects "$B" "${F[@]}"
  host_objects "$B" "${F[@]}"
  kobjs+=("${sm80_objs[@]}" "${host_objs[@]}" "${sm90_objs[@]}")
  nvcc "${F[@]}" "${SM90[@]}" -c tests/kernels/gemm_gpu_test.cu -o "$B/gemm_gpu_test.o" & pids+=($!)
  nvcc "${F[@]}" "${SM90[@]}" -c tests/kernels/gemm_drawn_gpu_test.cu -o "$B/gemm_drawn_gpu_test.o" & pids+=($!)
  nvcc "${F[@]}" "${SM90A[@]}" -c tests/hopper/sm90_gemm_gpu_test.cu -o "$B/sm90_test.o" & pids+=($!)
  # (one kernel type in two TUs, launched through the device layer's opt-in: kernels/device/smem_opt_in.cuh)
  nvcc "${F[@]}" "${SM90[@]}" tests/kernels/entry_cache_gpu/{main,tu_a,tu_b}.cu -o "$B/entry_cache_gpu_test" & solo+=($!)
  nvcc "${F[@]}" "${SM90A[@]}" -c bench/sm90_gemm_bench.cu -o "$B/sm90_bench.o" & pids+=($!)
  nvcc "${F[@]}" "${SM90[@]}" -c bench/gemm.cu -o "$B/gemm_bench.o" & pids+=($!)
  nvcc "${F[@]}" -c bench/gemm_host_cost.cpp -o "$B/gemm_host_cost.o" & pids+=($!)
  nvcc "${F[@]}" "${SM90[@]}" tests/atoms/algorithm_gpu_test.cu -o "$B/algorithm_gpu_test" & solo+=($!)
  nvcc "${F[@]}" "${SM90A[@]}" tests/hopper/hopper_gpu_test.cu -o "$B/hopper_gpu_test" & solo+=($!)
  nvcc "${F[@]}" "${SM90A[@]}" tests/hopper/wgmma_8bit_gpu_test.cu -o "$B/wgmma_8bit_gpu_test" & solo+=($!)
  # (an epilogue tree in the SM90 GEMM: its own two kernel instances)
  nvcc "${F[@]}" "${SM90A[@]}" tests/hopper/sm90_epilogue_tree_gpu_test.cu -lcublasLt -o "$B/epilogue_tree_gpu_test" & solo+=($!)
  # Example 5 (a user's GEMM through the algebra): correctness, speed, and its trace.
  nvcc "${F[@]}" "${SM90[@]}" -Iexamples examples/5_my_gemm.cu examples/5_my_gemm_trace_maps.cpp -lcublas \
    -o "$B/example_my_gemm" & solo+=($!)
  ok=1
  for p in "${pids[@]}"; do wait "$p" || ok=0; done
  solo_ok=1
  for p in "${solo[@]}"; do wait "$p" || solo_ok=0; done
  cat "$B"/k_*.ptxas >"$OUT/ptxas.log"
  [ $ok = 1 ] &&
    nvcc "${F[@]}" -o "$B/gemm_gpu_test" "$B/gemm_gpu_test.o" "${kobjs[@]}" &&
    nvcc "${F[@]}" -o "$B/gemm_drawn_gpu_test" "$B/gemm_drawn_gpu_test.o" "${kobjs[@]}" &&
    nvcc "${F[@]}" -o "$B/sm90_test" "$B/sm90_test.o" "$B"/k_sm90_instances*.o "${host_objs[@]}" &&
    nvcc "${F[@]}" -o "$B/sm90_bench" "$B/sm90_bench.o" "${kobjs[@]}" -lcublas -lcublasLt &&
    nvcc "${F[@]}" -o "$B/gemm_bench" "$B/gemm_bench.o" "${kobjs[@]}" -lcublas &&
    nvcc "${F[@]}" -o "$B/gemm_host_cost" "$B/gemm_host_cost.o" "${kobjs[@]}" -lcublas
} >"$OUT/build.log" 2>&1
rc=$?
note "build: rc=$rc in $(( $(date +%s) - t0 )) s"
[ $rc -ne 0 ] && { grep -a "error" "$OUT/build.log" | head -20 | tee -a "$log"; status=1; }
[ "${solo_ok:-1}" = 1 ] || { note "build: a test program failed to build (the others are built; build.log)"; grep -a "error" "$OUT/build.log" | head -5 | tee -a "$log"; status=1; }
# Spills inside the k-loops (LDL/STL between a kernel's first and last MMA in its SASS).
for o in "$B"/k_tensorop_bf16.o "$B"/k_tensorop_f16.o "$B"/k_sm90_instances_*.o; do
  [ -f "$o" ] || continue
  case "$o" in *sm90*) mma='HGMMA|QGMMA|IGMMA' ;; *) mma=HMMA ;; esac  # (FP8 units' wgmmas are QGMMA)
  mkdir -p "$B/sass" && tools/device/sass_spills.sh "$o" "$B/sass" $mma
done >"$OUT/sass_spills.txt" 2>&1
note "k-loop spills: $(awk '/^sass:/{n++; split($2,a,"="); if (a[2]>0) s++; if (a[2]>m) m=a[2]} END{printf "%d kernels, %d with LDL/STL between their first and last MMA (max %d)", n, s+0, m+0}' "$OUT/sass_spills.txt")"
note "ptxas: $(grep -ac 'Used' "$OUT/ptxas.log") functions, $(grep -ac C7520 "$OUT/ptxas.log") C7520, spill stores: $(grep -aoE '[0-9]+ bytes spill stores' "$OUT/ptxas.log" | sort | uniq -c | sort -rn | head -6 | tr -s ' ' | tr '\n' ';')"
fi
if [ "$STEP" = build ]; then
  note "== build only: status $status ($(( $(date +%s) - t0 )) s)"
  (cd "$OUT" && tar czf logs.tgz --exclude=logs.tgz --exclude=summary.txt . 2>/dev/null && find . -type f ! -name logs.tgz ! -name summary.txt -delete)
  exit $status
fi

run() {  # name timeout command...
  local name=$1 t=$2; shift 2
  timeout "$t" "$@" >"$OUT/$name.log" 2>&1
  local r=$?
  [ $r -ne 0 ] && status=1
  note "$name: rc=$r, $(tail -1 "$OUT/$name.log")"
  grep -aE "^FAIL|FAIL" "$OUT/$name.log" | head -10 | tee -a "$log"
}
[ -x "$B/gemm_gpu_test" ] && run gemm_gpu_test 240 "$B/gemm_gpu_test"
[ -x "$B/gemm_drawn_gpu_test" ] && TESSERA_DRAWN_SECONDS=${DRAWN_SECONDS:-120} run gemm_drawn_gpu_test 200 "$B/gemm_drawn_gpu_test"
# (its 501 cases take about 235 s on an H200)
[ -x "$B/sm90_test" ] && run sm90_gemm_gpu_test 360 "$B/sm90_test"
[ -x "$B/algorithm_gpu_test" ] && run algorithm_gpu_test 120 "$B/algorithm_gpu_test"
[ -x "$B/entry_cache_gpu_test" ] && run entry_cache_gpu_test 60 "$B/entry_cache_gpu_test"
[ -x "$B/hopper_gpu_test" ] && run hopper_gpu_test 120 "$B/hopper_gpu_test"
[ -x "$B/wgmma_8bit_gpu_test" ] && run wgmma_8bit_gpu_test 60 "$B/wgmma_8bit_gpu_test"
[ -x "$B/epilogue_tree_gpu_test" ] && run epilogue_tree_gpu_test 120 "$B/epilogue_tree_gpu_test"
if command -v compute-sanitizer >/dev/null; then
  [ -x "$B/sm90_test" ] && run memcheck_sm90 180 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/sm90_test" --small
  [ -x "$B/gemm_gpu_test" ] && TESSERA_CASES=one,seven,odd127,batched_odd_TT,beta_NN_pad,k1,skinny_m1,beta_TN \
    run memcheck_gemm 180 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/gemm_gpu_test"
  [ -x "$B/gemm_drawn_gpu_test" ] && TESSERA_DRAWN=40 TESSERA_DRAWN_MAX_WORK=2e7 \
    run memcheck_drawn 150 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/gemm_drawn_gpu_test"
  [ -x "$B/algorithm_gpu_test" ] && run memcheck_atoms 120 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/algorithm_gpu_test"
  # (the tree's leaves and sinks at residue tiles: nothing read or written past M or N)
  [ -x "$B/epilogue_tree_gpu_test" ] && run memcheck_epilogue_tree 150 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/epilogue_tree_gpu_test" --small
  # SAN=full: racecheck and synccheck too (on sm_90 the TN cases run the SM90 kernels: odd127
  # ping-pong, batched_TN and beta_TN cooperative), and synccheck of the SM90 test's small set.
  if [ "${SAN:-}" = full ]; then
    [ -x "$B/gemm_gpu_test" ] && TESSERA_CASES=odd127,batched_TN,beta_TN,seven \
      run racecheck_gemm 150 compute-sanitizer --tool racecheck --error-exitcode 9 "$B/gemm_gpu_test"
    [ -x "$B/gemm_gpu_test" ] && TESSERA_CASES=odd127,batched_TN,beta_TN,seven \
      run synccheck_gemm 150 compute-sanitizer --tool synccheck --error-exitcode 9 "$B/gemm_gpu_test"
    [ -x "$B/sm90_test" ] && run synccheck_sm90 150 compute-sanitizer --tool synccheck --error-exitcode 9 "$B/sm90_test" --small
  fi
fi
# Example 5: every edge, then its trace for `tessera verify` (the trace comes back in $OUT; the
# CLI that verifies it is built where the Debian packages are: `tessera verify my_gemm.trace`).
if [ -x "$B/example_my_gemm" ]; then
  run example_my_gemm 60 "$B/example_my_gemm" 256 256 512 5 2
  run example_my_gemm_edges 60 "$B/example_my_gemm" 1000 998 1000 5 3
  run example_my_gemm_trace 60 "$B/example_my_gemm" --trace "$OUT/my_gemm.trace"
fi
note "-- benchmark against cuBLAS (same run)"
[ -x "$B/example_my_gemm" ] && timeout 60 "$B/example_my_gemm" 8192 8192 8192 2>&1 | tail -3 | tee -a "$log"
[ -x "$B/sm90_bench" ] && { timeout 120 "$B/sm90_bench" 8192 8192 8192 4096 11008 4096 1000 1000 1000 2>&1 | tee -a "$log";
  timeout 60 "$B/sm90_bench" --fused 8192 8192 8192 2>&1 | grep -v '^device' | tee -a "$log";
  [ -n "${TF32:-1}" ] && timeout 60 "$B/sm90_bench" --tf32 8192 8192 8192 2>&1 | grep -v '^device' | tee -a "$log";
  # the grouped GEMM (MoE shapes) against a loop of tessera::gemm, uniform and skewed experts
  timeout 120 "$B/sm90_bench" --grouped 2>&1 | grep -v '^device' | tee -a "$log";
  timeout 120 "$B/sm90_bench" --grouped --skew 2>&1 | grep -v '^device' | tee -a "$log"; }
# torch._grouped_mm on the same shapes, where torch is installed (the anchor of the lines above)
if python3 -c "import torch" >/dev/null 2>&1; then
  timeout 120 python3 tools/device/grouped_mm_torch.py 2>&1 | tee -a "$log"
  timeout 120 python3 tools/device/grouped_mm_torch.py --skew 2>&1 | grep -v '^device' | tee -a "$log"
fi
if [ "${BENCH:-}" = full ] && [ -x "$B/sm90_bench" ]; then
  timeout 90 "$B/sm90_bench" 4096 4096 4096 8192 8192 1024 2>&1 | grep -v '^device' | tee -a "$log"
  # Stream-K's shapes (the dispatch with its workspace, then whole tiles only), TN and NT
  for l in TN NT; do
    timeout 90 "$B/sm90_bench" --layout $l 512 4096 14336 3072 3072 3072 128 8192 8192 2>&1 | grep -v '^device' | tee -a "$log"
    timeout 90 "$B/sm90_bench" --layout $l --no-split 512 4096 14336 3072 3072 3072 128 8192 8192 2>&1 | grep -v '^device' | tee -a "$log"
  done
  timeout 120 "$B/sm90_bench" --layout NT 8192 8192 8192 4096 4096 4096 4096 11008 4096 2>&1 | grep -v '^device' | tee -a "$log"
  for l in NN TT; do timeout 60 "$B/sm90_bench" --layout $l 8192 8192 8192 2>&1 | grep -v '^device' | tee -a "$log"; done
  timeout 60 "$B/sm90_bench" --beta 1 8192 8192 8192 2>&1 | grep -v '^device' | tee -a "$log"
  # FP8 (e4m3 TN, per-tensor scales, bf16 D) at the FP8 issue's shapes against cuBLASLt: its default
  # (promoted accumulation, torch._scaled_mm's use_fast_accum=False), then its fast accumulation
  # (what tessera does: f32 wgmma accumulators over the whole K); one mixed e4m3 x e5m2 shape.
  timeout 150 "$B/sm90_bench" --fp8 2>&1 | grep -v '^device' | tee -a "$log"
  timeout 150 "$B/sm90_bench" --fp8 --fast-accum 2>&1 | grep -v '^device' | tee -a "$log"
  timeout 60 "$B/sm90_bench" --fp8 --e5m2-b 8192 8192 8192 2>&1 | grep -v '^device' | tee -a "$log"
  [ -x "$B/gemm_bench" ] && timeout 200 "$B/gemm_bench" --dtype bf16 --layouts TN,NT,NN >"$OUT/gemm_bench_bf16.log" 2>&1 &&
    sed -n '/^summary/,$p' "$OUT/gemm_bench_bf16.log" | tee -a "$log"
fi
# The host work of one tessera::gemm call, piece by piece, against cublasGemmEx's.
[ -x "$B/gemm_host_cost" ] && timeout 60 "$B/gemm_host_cost" 2>&1 | tee -a "$log"
# (the mma.sync and SIMT kernels, explicitly: tessera::gemm sends bf16 to SM90 on this GPU)
[ -x "$B/gemm_bench" ] && timeout 150 "$B/gemm_bench" --quick --dtype all --layouts TN >"$OUT/gemm_bench.log" 2>&1 &&
  sed -n '/^summary/,$p' "$OUT/gemm_bench.log" | tee -a "$log"
note "== status $status ($(( $(date +%s) - t0 )) s)"
# (one archive whatever tar says of files still being written: the device tool returns 8 files,
# and a failed tar would leave every log beside it and the summary among those cut)
(cd "$OUT" && { tar czf logs.tgz --exclude=logs.tgz --exclude=summary.txt --exclude=my_gemm.trace . 2>/dev/null; true; } &&
  find . -type f ! -name logs.tgz ! -name summary.txt ! -name my_gemm.trace -delete)
[ -f "$OUT/my_gemm.trace" ] && gzip -f "$OUT/my_gemm.trace"
exit $status
