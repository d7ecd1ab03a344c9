#!/usr/bin/env bash
# The SM90 ping-pong kernels (64x128, and 128x128 per consumer from the bench's variants) on the
# GPU machine, in one call (STEP=all, ~330 s of build on 16 cores) or two within the machine's
# warm period (STEP=build, then STEP=run):
#   build: the library's SM90 TUs, the GPU test and the bench with its variants, side by side
#   run:   SASS spills of the ping-pong kernels, the bench's schedules (cooperative 128x256,
#          ping-pong 128x128 with and without clusters, ping-pong 64x128), the GPU test,
#          racecheck of the ping-pong kernels, and with NCU=1 ncu of 128x128 against 128x256
#   OUT=$OUT [STEP=all|build|run] [NCU=1] tools/device/run_sm90_pingpong.sh
# Binaries in /tmp/sm90-pp-bin (kept while the machine is warm).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/sm90-pp}
BIN=/tmp/sm90-pp-bin
mkdir -p "$OUT" "$BIN"
log="$OUT/summary.txt"
note() { echo "$*" | tee -a "$log"; }
F=(-std=c++20 --expt-relaxed-constexpr -O3 -lineinfo -gencode arch=compute_90a,code=sm_90a -Iinclude -Xptxas -v -diag-suppress 20012
   -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647)
for cc in g++-13 g++-14 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
STEP=${STEP:-all}
if [ "$STEP" = build ] || [ "$STEP" = all ]; then
  note "== build $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
  t0=$(date +%s)
  nvcc "${F[@]}" --split-compile=0 -DTESSERA_SM90_BENCH_VARIANTS -c bench/sm90_gemm_bench.cu -o "$BIN/bench.o" >"$OUT/ptxas_bench.txt" 2>&1 &
  pb=$!
  objs=() pids=()
  for src in kernels/device/sm90_instances*.cu; do
    o="$BIN/$(basename "$src" .cu).o"
    ( s=$(date +%s); nvcc "${F[@]}" --split-compile=0 -c "$src" -o "$o" >"$o.ptxas" 2>&1; r=$?; echo "$src: rc=$r $(( $(date +%s) - s )) s" >"$o.time"; exit $r ) &
    pids+=($!) objs+=("$o")
  done
  # (the library's host code the dispatch calls: gemm_tune, the tuning cache)
  host_objs=()
  source tools/device/host_objects.sh
  host_objects "$BIN" "${F[@]}"
  objs+=("${host_objs[@]}")
  r0=0; for p in "${pids[@]}"; do wait "$p" || r0=1; done
  cat "$BIN"/sm90_instances*.o.ptxas >"$OUT/ptxas_test.txt"
  cat "$BIN"/sm90_instances*.o.time | tee -a "$log"
  nvcc "${F[@]}" tests/hopper/sm90_gemm_gpu_test.cu "${objs[@]}" -o "$BIN/sm90_test" >>"$OUT/ptxas_test.txt" 2>&1 &
  p1=$!
  wait $pb && nvcc "${F[@]}" "$BIN/bench.o" "${objs[@]}" -o "$BIN/sm90_bench" -lcublas -lcublasLt >>"$OUT/ptxas_bench.txt" 2>&1
  r2=$?
  wait $p1; r1=$?
  note "build: instances rc=$r0 test rc=$r1 bench rc=$r2 in $(( $(date +%s) - t0 )) s"
  grep -aE "error" "$OUT/ptxas_test.txt" "$OUT/ptxas_bench.txt" | head -10 | tee -a "$log"
  note "instances: $(grep -ac 'Used' "$OUT/ptxas_test.txt") functions, $(grep -ac C7520 "$OUT/ptxas_test.txt") C7520, spills: $(grep -aoE '[0-9]+ bytes spill stores' "$OUT/ptxas_test.txt" | sort | uniq -c | tr '\n' ' ')"
  [ "$STEP" = all ] || exit 0
fi
note "== run $(date -u +%FT%TZ)"
for o in "$BIN"/sm90_instances_pingpong.o "$BIN"/bench.o; do
  d="$OUT/sass_$(basename "$o" .o)"; mkdir -p "$d"
  tools/device/sass_spills.sh "$o" "$d" HGMMA | grep -E "Pingpong" | sed -E 's/(gemm_sm90_entry<sm90::GemmTmaWarpSpecialized[A-Za-z]*).*(CollectiveEpilogueSm90TmaStore<[^>]*>).*/\1 \2/' | tee -a "$log"
done
note "-- bench (bf16 TN, D column-major; ratio = cuBLAS time / tessera time, median of 30 alternating launches)"
S="4096 4096 4096 8192 8192 1024 1000 1000 1000 8192 8192 8192 4096 11008 4096 2048 2048 2048"
for sch in coop pp128x128c2 pp128x128; do
  note "- $sch"
  timeout 60 "$BIN/sm90_bench" --schedule $sch $S 2>&1 | grep -E "ratio|error|FAIL|run:" | tee -a "$log"
done
timeout 30 "$BIN/sm90_bench" --schedule pp128 1000 1000 1000 2048 2048 2048 2>&1 | grep -E "ratio|error|run:" | tee -a "$log"
note "-- GPU test (library: ping-pong 64x128 with the early hand-off)"
timeout 150 "$BIN/sm90_test" >"$OUT/test.txt" 2>&1
note "test rc=$? $(grep -c ': ok' "$OUT/test.txt") ok, $(grep -c FAIL "$OUT/test.txt") FAIL; $(tail -1 "$OUT/test.txt")"
grep -E "FAIL" "$OUT/test.txt" | head -10 | tee -a "$log"
note "-- racecheck: ping-pong 128x128 c2 (bench, 1000 x 1040 x 200) and the test's --small ping-pong 64x128 cases"
timeout 60 compute-sanitizer --tool racecheck --kernel-name kns=Pingpong "$BIN/sm90_bench" --reps 1 --schedule pp128x128c2 1000 1040 200 >"$OUT/racecheck_pp128.txt" 2>&1
note "racecheck pp128x128: rc=$? $(grep -aE 'RACECHECK SUMMARY|ERROR SUMMARY|ratio' "$OUT/racecheck_pp128.txt" | tr '\n' ' ' | head -c 400)"
timeout 90 compute-sanitizer --tool racecheck --kernel-name kns=Pingpong "$BIN/sm90_test" --small >"$OUT/racecheck_test.txt" 2>&1
note "racecheck test --small: rc=$? $(grep -aE 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/racecheck_test.txt" | tail -1) $(tail -1 "$OUT/racecheck_test.txt")"
if [ -n "${NCU:-}" ] && command -v ncu >/dev/null; then
  sec="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis"
  for c in "pp128x128c2 4096 4096 4096" "coop 4096 4096 4096" "pp128x128c2 8192 8192 1024"; do
    set -- $c
    f="$OUT/ncu_$1_$2x$3x$4.txt"
    timeout 60 ncu --clock-control none $sec -k regex:gemm_sm90_entry --launch-count 1 "$BIN/sm90_bench" --reps 1 --schedule $1 $2 $3 $4 >"$f" 2>&1
    note "ncu $c: rc=$? $(grep -E 'Duration|Compute \(SM\) Throughput|Registers Per|Stall|Issue Slots Busy|L2 Cache Throughput|Warp Cycles Per Issued|No Eligible|Tensor' "$f" | tr -s ' ' | tr '\n' ';' | head -c 1200)"
  done
fi
(cd "$OUT" && tar czf logs.tgz --exclude=logs.tgz --exclude=summary.txt . 2>/dev/null && find . -type f ! -name logs.tgz ! -name summary.txt -delete)
