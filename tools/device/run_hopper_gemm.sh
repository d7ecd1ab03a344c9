#!/usr/bin/env bash
# The SM90 GEMM (TMA + wgmma, warp-specialized, persistent) on the GPU machine in one call:
# build (or take binaries built from the same commit, carried in .prebuilt/), SASS counts,
# the GPU test (FP64 reference, residues), compute-sanitizer memcheck on small shapes, and
# the benchmark against cuBLAS. Logs under $OUT (tarred: at most 8 files come back).
#   OUT=/tmp/out COMMIT=<sha> [QUICK=1] [NCU=1|small] tools/device/run_hopper_gemm.sh [bench args...]
# NCU=1: ncu of one launch each of TN and NT at 4096^3; NCU=small: TN at 1000^3.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-hopper-gemm}
BIN=/tmp/hopper-gemm-bin
mkdir -p "$OUT" "$BIN"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
note "== hopper gemm $(date -u +%FT%TZ) commit=${COMMIT:-unknown}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
FLAGS=(-std=c++20 --expt-relaxed-constexpr -O3 -lineinfo -gencode arch=compute_90a,code=sm_90a -Iinclude -Xptxas -v -diag-suppress 20012
       -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647)  # (the mainloop's compile-time TMA plans)
for cc in g++-14 g++-13 g++-12; do command -v $cc >/dev/null && { FLAGS+=(-ccbin "$(command -v $cc)"); break; }; done
if [ -x .prebuilt/sm90_test ] && [ -x .prebuilt/sm90_bench ]; then
  note "binaries: .prebuilt (built on the development machine from commit ${COMMIT:-unknown})"
  cp .prebuilt/sm90_test .prebuilt/sm90_bench "$BIN/"
else
  t0=$(date +%s)
  # The library's sm_90 entry (kernels/device/sm90_instances*.cu: the dispatch and the TUs
  # of kernels, side by side, each timed) for the test; the bench with the kernel templates
  # (cluster and no-cluster variants).
  objs=()
  pids=()
  # (the bench's own kernels compile beside the library's)
  nvcc "${FLAGS[@]}" --split-compile=0 -DTESSERA_SM90_BENCH_VARIANTS -c bench/sm90_gemm_bench.cu -o "$BIN/sm90_bench.o" >"$OUT/ptxas_bench.txt" 2>&1 &
  pb=$!
  for src in kernels/device/sm90_instances*.cu; do
    o="$BIN/$(basename "$src" .cu).o"
    ( s=$(date +%s); nvcc "${FLAGS[@]}" --split-compile=0 -c "$src" -o "$o" >"$o.ptxas" 2>&1; r=$?; echo "$src: rc=$r $(( $(date +%s) - s )) s" >"$o.time"; exit $r ) &
    pids+=($!)
    objs+=("$o")
  done
  # (the library's host code the dispatch calls: gemm_tune, the tuning cache)
  host_objs=()
  source tools/device/host_objects.sh
  host_objects "$BIN" "${FLAGS[@]}"
  r0=0
  for p in "${pids[@]}"; do wait "$p" || r0=1; done
  cat "$BIN"/sm90_instances*.o.ptxas >"$OUT/ptxas_test.txt"
  cat "$BIN"/sm90_instances*.o.time | tee -a "$log"
  nvcc "${FLAGS[@]}" tests/hopper/sm90_gemm_gpu_test.cu "${objs[@]}" "${host_objs[@]}" -o "$BIN/sm90_test" >>"$OUT/ptxas_test.txt" 2>&1 &
  p1=$!
  wait $pb && nvcc "${FLAGS[@]}" "$BIN/sm90_bench.o" "${objs[@]}" "${host_objs[@]}" -o "$BIN/sm90_bench" -lcublas -lcublasLt >>"$OUT/ptxas_bench.txt" 2>&1
  r2=$?
  wait $p1; r1=$?
  note "build: instances rc=$r0"
  [ -x tools/device/sass_spills.sh ] && for o in "${objs[@]}"; do mkdir -p "$OUT/sass_$(basename "$o" .o)"; tools/device/sass_spills.sh "$o" "$OUT/sass_$(basename "$o" .o)" 'HGMMA|QGMMA|IGMMA' | sed -E "s/ gemm_sm90_entry.*(Major::[A-Z]+, GMMA::Major::[A-Z]+).*(TmaStore<[a-z0-9_:]+, [0-9]+, [0-9]+, 2, Activation::[A-Za-z]+>|EpilogueSm90Direct<float>).*(Whole|SplitK)TileScheduler.*/ \1 \2 \3/" | tee -a "$log"; done
  note "build: test rc=$r1 bench rc=$r2 in $(( $(date +%s) - t0 )) s"
  grep -aE "error" "$OUT/ptxas_test.txt" "$OUT/ptxas_bench.txt" | head -10 | tee -a "$log"
  grep -aE "Used|spill|C75" "$OUT/ptxas_bench.txt" | grep -v "^$" | tail -8 | tee -a "$log"
  note "instances (ptxas_test.txt): $(grep -ac 'Used' "$OUT/ptxas_test.txt") functions, $(grep -ac C7520 "$OUT/ptxas_test.txt") C7520, spills: $(grep -aoE '[0-9]+ bytes spill stores' "$OUT/ptxas_test.txt" | sort | uniq -c | tr '\n' ' ')"
fi
if command -v cuobjdump >/dev/null; then
  cuobjdump -sass "$BIN/sm90_bench" >"$OUT/sass.txt" 2>&1
  gzip -f "$OUT/sass.txt" && gunzip -c "$OUT/sass.txt.gz" >/tmp/sass.txt
  note "SASS (bench binary, all its kernels): HGMMA $(grep -c HGMMA /tmp/sass.txt) UTMALDG $(grep -c UTMALDG /tmp/sass.txt) HMMA $(grep -c 'HMMA' /tmp/sass.txt) LDL/STL $(grep -cE '\bLDL|\bSTL' /tmp/sass.txt) USETMAXREG $(grep -c USETMAXREG /tmp/sass.txt)"
fi
note "-- GPU test"
timeout 240 "$BIN/sm90_test" 2>&1 | tee -a "$log"
note "test rc=${PIPESTATUS[0]}"
if command -v compute-sanitizer >/dev/null; then
  note "-- compute-sanitizer memcheck (small shapes)"
  timeout 120 compute-sanitizer --tool memcheck "$BIN/sm90_test" --small >"$OUT/memcheck.txt" 2>&1
  note "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.txt" | tail -1)"
fi
note "-- benchmark (bf16 TN, D column-major; median of alternating launches)"
timeout 200 "$BIN/sm90_bench" "$@" 2>&1 | tee -a "$log"
note "-- f16; bf16 without clusters (QUICK=1: f16 only, and no MN-major layouts)"
timeout 60 "$BIN/sm90_bench" --f16 8192 8192 8192 2>&1 | tee -a "$log"
note "-- fused epilogue (GELU tanh + bias, bf16) against cuBLASLt GELU_BIAS"
timeout 60 "$BIN/sm90_bench" --fused 8192 8192 8192 4096 11008 4096 8192 8192 1024 2>&1 | grep -v '^device' | tee -a "$log"
[ -n "${QUICK:-}" ] || timeout 60 "$BIN/sm90_bench" --cluster1 8192 8192 8192 4096 11008 4096 2>&1 | tee -a "$log"
note "-- without Stream-K (no workspace); without the lead-in kernel (host launch work timed, as before)"
[ -n "${QUICK:-}" ] || timeout 60 "$BIN/sm90_bench" --no-split 1000 1000 1000 4096 11008 4096 2>&1 | grep -v '^device' | tee -a "$log"
[ -n "${QUICK:-}" ] || timeout 60 "$BIN/sm90_bench" --no-lead 1000 1000 1000 4096 4096 4096 2>&1 | grep -v '^device' | tee -a "$log"
note "-- other layouts (MN-major operands)"
[ -n "${QUICK:-}" ] || for l in NT NN TT; do timeout 60 "$BIN/sm90_bench" --layout $l 8192 8192 8192 4096 11008 4096 2>&1 | grep -v '^device' | tee -a "$log"; done
if [ -n "${NCU:-}" ] && command -v ncu >/dev/null; then
  # One launch of the SM90 kernel per case: where the time goes. NCU=1: TN and NT at 4096^3;
  # NCU=small: TN at 1000^3 (kernel duration against the benchmark's event time).
  sec="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section SchedulerStats --section LaunchStats"
  if [ "$NCU" = small ]; then cases="TN:1000"; else cases="TN:4096 NT:4096"; fi
  for c in $cases; do
    l=${c%%:*} s=${c##*:}
    timeout 120 ncu --clock-control none $sec -k regex:gemm_sm90_entry --launch-count 1 --print-details all \
      "$BIN/sm90_bench" --reps 1 --layout $l $s $s $s >"$OUT/ncu_${l}_$s.txt" 2>&1
    note "ncu $l $s^3: rc=$? $(grep -E 'Duration|Compute \(SM\) Throughput|L2 Cache Throughput|Memory Throughput|Grid Size|Cluster Size' "$OUT/ncu_${l}_$s.txt" | tr -s ' ' | tr '\n' ';')"
  done
fi
(cd "$OUT" && tar czf logs.tgz --exclude=logs.tgz --exclude=summary.txt . 2>/dev/null && find . -type f ! -name logs.tgz ! -name summary.txt -delete)
