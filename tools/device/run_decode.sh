#!/usr/bin/env bash
# The SM90 decode kernel (sm90_set::Decode: 16-bit TN, 128x64x64 tiles, no cluster, Stream-K) on
# the GPU machine: its correctness (the SM90 GPU test, which forces it at the suite's decode
# shapes and residues and checks where the rule picks it) and its speed (the suite's rows with
# fewer than 512 rows of output, against cuBLAS in alternating launches: sm90_gemm_bench --decode).
# The prediction it tests: bench/notes/sm90_tiles.md, "decode kernel".
#   OUT=$OUT [STEP=all|build|run] [BUILD=build-decode] tools/device/run_decode.sh
# STEP=all builds and runs in one call (the build ~250 s on 16 cores, the run ~250 s); where one
# 600-s call is too short: STEP=build, then STEP=run on the same warm machine (BUILD inside the
# tree, git-ignored, is kept between calls).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-decode}
B=${BUILD:-build-decode}
mkdir -p "$OUT" "$B"
log="$OUT/summary.txt"
note() { echo "$*" | tee -a "$log"; }
# (the flags of run_check.sh: the same kernels' code)
F=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 -O3 -lineinfo -Iinclude -Ikernels -diag-suppress 20012,177)
for cc in g++-14 g++-13 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
SM90A=(-gencode=arch=compute_90a,code=sm_90a)
STEP=${STEP:-all}
status=0
if [ "$STEP" != run ]; then
  note "== build $(date -u +%FT%TZ) commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
  t0=$(date +%s)
  pids=() sm80_objs=() sm90_objs=() host_objs=()
  # (the SM90 units for the test; the bench's grouped rows loop over tessera::gemm: the library's
  # whole dispatch, as run_check.sh builds it)
  source tools/device/host_objects.sh
  dispatch_objects "$B" "${F[@]}"
  host_objects "$B" "${F[@]}"
  objs=("${sm90_objs[@]}" "${host_objs[@]}")
  bench_objs=("${sm80_objs[@]}")
  nvcc "${F[@]}" "${SM90A[@]}" -c tests/hopper/sm90_gemm_gpu_test.cu -o "$B/sm90_test.o" & pids+=($!)
  nvcc "${F[@]}" "${SM90A[@]}" -c bench/sm90_gemm_bench.cu -o "$B/sm90_bench.o" & pids+=($!)
  r=0; for p in "${pids[@]}"; do wait "$p" || r=1; done
  cat "$B"/k_sm90_instances*.o.time | tee -a "$log"
  nvcc "${F[@]}" -o "$B/sm90_test" "$B/sm90_test.o" "${objs[@]}" || r=1
  nvcc "${F[@]}" -o "$B/sm90_bench" "$B/sm90_bench.o" "${objs[@]}" "${bench_objs[@]}" -lcublas -lcublasLt || r=1
  note "build: rc=$r in $(( $(date +%s) - t0 )) s"
  [ $r -eq 0 ] || status=1
  # ptxas of the decode kernels (the entries whose mainloop tile is tuple<C<128>, C<64>, C<64>>,
  # mangled ...CILl128EEENS<n>_ILl64EE...): registers, stack and spills (smem is dynamic: 8 stages)
  awk '/Compiling entry function/ {name=$0} /spill stores/ {sp=$0} /Used [0-9]+ registers/ {print name; print sp; print $0}' \
    "$B/k_sm90_instances_pingpong.o.ptxas" | grep -aA2 'ILl128EEENS[0-9A-Z_]*ILl64EE' | grep -avE 'Compiling|^--' \
    | sed 's/^/decode kernel ptxas: /' | tee -a "$log"
  grep -aoE '[0-9]+ bytes spill (stores|loads)' "$B/k_sm90_instances_pingpong.o.ptxas" | sort | uniq -c | sed 's/^/pingpong unit spills: /' | tee -a "$log"
  [ "$STEP" = all ] || exit $status
fi
note "== run $(date -u +%FT%TZ)"
if [ ! -x "$B/sm90_test" ] || [ ! -x "$B/sm90_bench" ]; then
  note "FAIL: no binaries in $B (STEP=build first)"
  exit 1
fi
# The GPU test (every SM90 case; the decode kernel's lines printed again below)
timeout 300 "$B/sm90_test" >"$OUT/sm90_test.txt" 2>&1
rc=$?
grep -E "decode|rule|PASSED|FAILED" "$OUT/sm90_test.txt" | tee -a "$log"
note "sm90_gemm_gpu_test: rc=$rc"
[ $rc -eq 0 ] || status=1
# The suite's decode rows against cuBLAS (median of 50 alternating launches each), and the
# 16-bit decode shapes once more without the workspace (no Stream-K: whole tiles, the old rule's
# fallback) for the difference the kernel makes.
timeout 150 "$B/sm90_bench" --decode --reps 50 --csv "$OUT/decode.csv" 2>&1 | tee -a "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 60 "$B/sm90_bench" --no-split --reps 50 6144 64 4096 4096 64 14336 14336 64 4096 10240 64 8192 2>&1 | grep -v '^device' | tee -a "$log"
note "== done $(date -u +%FT%TZ) status=$status"
exit $status
