#!/usr/bin/env bash
# Example 6 (your own Hopper GEMM, examples/6_my_hopper_gemm.*) on the GPU machine, and CuTe's
# own Hopper tutorial beside it, in one call:
#   1. builds example 6 (nvcc, sm_90a, the flags run_bench_ab.sh uses) and, from a copy of
#      CUTLASS in .gpu/cutlass (include/, tools/util/include/cutlass/util/{GPU_Clock,
#      helper_cuda,print_error}.hpp, which the tutorial includes, and
#      examples/cute/tutorial/hopper/wgmma_tma_sm90.cu: made here with the fetch tool, never
#      committed: /.gpu/ is in the repository's info/exclude, so the call carries it), CuTe's
#      tutorial wgmma_tma_sm90.cu, side by side;
#   2. example 6: its GPU checks (the ring over several tiles per CTA; tiles across every
#      edge), its trace (one CTA; written to $OUT/my_hopper_gemm.trace.gz, and verified there
#      with .gpu/bin/tessera when that CLI runs on the machine: else verify it here with
#      `build/bin/tessera verify`), its SASS spills, and its time against cuBLAS at 8192^3 and
#      4096^3 (and SHAPES="M N K ..." more);
#   3. CuTe's tutorial at 8192^3, TN (its 'T' 'N': A and B K-major, as example 6) and its
#      default NT: f16 in and out, f16 accumulation, 128x128x64 tiles, 3 stages, one
#      warpgroup that issues both the TMA copies and the wgmmas, a cluster of 2; it prints
#      CUTE_GEMM: [GFlop/s] (ms), the mean of 100 back-to-back launches (GPU_Clock), and no
#      correctness check.
# BASE=DIR: another version of example 6's sources (DIR/6_my_hopper_gemm.{cu,hpp,...}, e.g. the
# previous commit's in a git-ignored folder the call carries) built beside it and timed at the
# same shapes in the same call (an A/B).
# Run here first: copy the CLI that
# verifies the trace to .gpu/bin/tessera (cp build/bin/tessera .gpu/bin/). Then
#   run(command="tools/device/run_example6.sh", carry=[".gpu"])
# Logs under $OUT: summary.txt (every result line), build logs, sass.
set -uo pipefail
OUT=${OUT:-/tmp/example6}
mkdir -p "$OUT"
log="$OUT/summary.txt"
note() { echo "$*" | tee -a "$log"; }
B=$PWD/build-example6
mkdir -p "$B"
F=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647
   -O3 -lineinfo -Iinclude -diag-suppress 20012,177)
SM90A=(-gencode=arch=compute_90a,code=sm_90a)
CCBIN=()
for cc in g++-13 g++-14 g++-12; do command -v $cc >/dev/null && { CCBIN=(-ccbin "$(command -v $cc)"); break; }; done
F+=("${CCBIN[@]}")
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | sed 's/^/gpu: /' | tee -a "$log"
nvcc --version | tail -1 | sed 's/^/nvcc: /' | tee -a "$log"

# 1. Builds, side by side.
t0=$(date +%s)
pids=()
(nvcc "${F[@]}" "${SM90A[@]}" -Xptxas -v -c examples/6_my_hopper_gemm.cu -o "$B/ex6.o" &&
 nvcc "${F[@]}" -x c++ -c examples/6_my_hopper_gemm_trace_maps.cpp -o "$B/ex6_maps.o" &&
 nvcc "${F[@]}" "${SM90A[@]}" "$B/ex6.o" "$B/ex6_maps.o" -lcublas -o "$B/example_my_hopper_gemm") >"$OUT/build_example6.log" 2>&1 &
pids+=($!)
if [ -n "${BASE:-}" ]; then
  (nvcc "${F[@]}" "${SM90A[@]}" -I"$BASE" -c "$BASE/6_my_hopper_gemm.cu" -o "$B/base.o" &&
   nvcc "${F[@]}" -I"$BASE" -x c++ -c "$BASE/6_my_hopper_gemm_trace_maps.cpp" -o "$B/base_maps.o" &&
   nvcc "${F[@]}" "${SM90A[@]}" "$B/base.o" "$B/base_maps.o" -lcublas -o "$B/example_base") >"$OUT/build_base.log" 2>&1 &
  pids+=($!)
fi
CUTE=.gpu/cutlass
if [ -f "$CUTE/examples/cute/tutorial/hopper/wgmma_tma_sm90.cu" ]; then
  nvcc -std=c++17 --expt-relaxed-constexpr -O3 "${SM90A[@]}" "${CCBIN[@]}" -I"$CUTE/include" -I"$CUTE/tools/util/include" \
    "$CUTE/examples/cute/tutorial/hopper/wgmma_tma_sm90.cu" -o "$B/cute_wgmma_tma_sm90" >"$OUT/build_cute.log" 2>&1 &
  pids+=($!)
else
  note "cute tutorial: $CUTE missing (make it here with the fetch tool; see the header)"
fi
for p in "${pids[@]}"; do wait "$p"; done
note "builds: $(( $(date +%s) - t0 )) s; example 6 $([ -x "$B/example_my_hopper_gemm" ] && echo ok || echo FAILED), cute tutorial $([ -x "$B/cute_wgmma_tma_sm90" ] && echo ok || echo FAILED)"
grep -E "registers|spill|C7514|error" "$OUT/build_example6.log" | sed 's/^/example6 ptxas: /' | tee -a "$log"
[ -x "$B/cute_wgmma_tma_sm90" ] || tail -20 "$OUT/build_cute.log" | tee -a "$log"

run() {  # name timeout command...: its last lines and its exit status into the summary
  local name=$1 t=$2; shift 2
  timeout "$t" "$@" >"$OUT/$name.log" 2>&1
  local rc=$?
  tail -3 "$OUT/$name.log" | sed "s/^/$name: /" | tee -a "$log"
  note "$name: exit $rc"
}

# 2. Example 6.
if [ -x "$B/example_my_hopper_gemm" ]; then
  command -v cuobjdump >/dev/null && bash tools/device/sass_spills.sh "$B/ex6.o" "$OUT" HGMMA | tee -a "$log"
  run example6_ring 60 "$B/example_my_hopper_gemm" 1024 2048 1024 5 2
  run example6_edges 60 "$B/example_my_hopper_gemm" 1000 1032 1000 5 3
  run example6_small 60 "$B/example_my_hopper_gemm" 1 8 8 5 1
  run example6_trace 60 "$B/example_my_hopper_gemm" --trace "$OUT/my_hopper_gemm.trace"
  if command -v compute-sanitizer >/dev/null; then
    run example6_memcheck 120 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/example_my_hopper_gemm" 1000 1032 1000 2 3
    run example6_memcheck_small 60 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/example_my_hopper_gemm" 1 8 8 2 1
    run example6_synccheck 120 compute-sanitizer --tool synccheck --error-exitcode 9 "$B/example_my_hopper_gemm" 300 520 264 2 1
  fi
  if [ -f "$OUT/my_hopper_gemm.trace" ] && [ -x .gpu/bin/tessera ]; then
    run example6_verify 60 .gpu/bin/tessera verify "$OUT/my_hopper_gemm.trace"
  fi
  for shape in "8192 8192 8192" "4096 4096 4096" ${SHAPES:+"$SHAPES"}; do
    run "example6_$(echo $shape | tr ' ' x)" 180 "$B/example_my_hopper_gemm" $shape 50 8
    [ -x "$B/example_base" ] && run "base_$(echo $shape | tr ' ' x)" 180 "$B/example_base" $shape 50 8
  done
fi

# 3. CuTe's tutorial.
if [ -x "$B/cute_wgmma_tma_sm90" ]; then
  run cute_tutorial_TN_8192 120 "$B/cute_wgmma_tma_sm90" 8192 8192 8192 T N
  run cute_tutorial_NT_8192 120 "$B/cute_wgmma_tma_sm90" 8192 8192 8192 N T
fi

[ -f "$OUT/my_hopper_gemm.trace" ] && gzip -f "$OUT/my_hopper_gemm.trace"
(cd "$OUT" && tar czf logs.tgz --exclude=logs.tgz --exclude=summary.txt --exclude=my_hopper_gemm.trace.gz . 2>/dev/null &&
  find . -type f ! -name logs.tgz ! -name summary.txt ! -name my_hopper_gemm.trace.gz -delete)
exit 0
