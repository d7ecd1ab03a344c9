#!/usr/bin/env bash
# The SM90 ping-pong 128x128 kernel on the GPU machine, in two calls within the machine's warm
# period (the build does not fit one call beside the checks):
#   STEP=build OUT=$OUT tools/device/run_sm90_pingpong.sh   the library's SM90 TUs, the GPU test and
#                                                          the bench with its variants, side by side
#   STEP=run   OUT=$OUT tools/device/run_sm90_pingpong.sh   SASS spills, GPU test, memcheck (--small),
#                                                          racecheck of the ping-pong kernels, and
#                                                          the bench: dispatch against each schedule
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
[ -d .devdeps/include ] && F+=(-isystem .devdeps/include)
for cc in g++-13 g++-14 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
if [ "${STEP:-build}" = build ]; then
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
  exit 0
fi
note "== run $(date -u +%FT%TZ)"
for o in "$BIN"/sm90_instances_{bf16,f16,pingpong}.o; do
  d="$OUT/sass_$(basename "$o" .o)"; mkdir -p "$d"
  tools/device/sass_spills.sh "$o" "$d" HGMMA | grep -E "Pingpong|loop_spill_ldst=[1-9]" | sed -E 's/(gemm_sm90_entry<sm90::GemmTmaWarpSpecialized[A-Za-z]*).*(CollectiveEpilogueSm90TmaStore<[^>]*>).*/\1 \2/' | tee -a "$log"
done
note "-- GPU test"
timeout 200 "$BIN/sm90_test" >"$OUT/test.txt" 2>&1
note "test rc=$? $(grep -c ': ok\|: ok ' "$OUT/test.txt") ok, $(grep -c FAIL "$OUT/test.txt") FAIL; $(tail -1 "$OUT/test.txt")"
grep -E "FAIL|ping-pong 128x128" "$OUT/test.txt" | head -30 | tee -a "$log"
note "-- memcheck (--small)"
timeout 150 compute-sanitizer --tool memcheck "$BIN/sm90_test" --small >"$OUT/memcheck.txt" 2>&1
note "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.txt" | tail -1) $(tail -1 "$OUT/memcheck.txt" | head -c 200)"
note "-- racecheck of the ping-pong kernels (--small: 64x128 and 128x128, turns, C = D)"
timeout 150 compute-sanitizer --tool racecheck --kernel-name regex:Pingpong "$BIN/sm90_test" --small >"$OUT/racecheck.txt" 2>&1
note "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$OUT/racecheck.txt" | tail -1)"
note "-- bench (bf16 TN, D column-major; ratio = cuBLAS time / tessera time, median of 30 alternating launches)"
S="4096 4096 4096 8192 8192 1024 1000 1000 1000 8192 8192 8192 4096 11008 4096 2048 2048 2048"
for round in 1 2; do
  for sch in dispatch coop pp128x128 pp128x128c2; do
    a=(); [ $sch = dispatch ] || a=(--schedule $sch)
    note "- $sch (round $round)"
    timeout 90 "$BIN/sm90_bench" "${a[@]}" $S 2>&1 | grep -E "ratio|error|FAIL|run:" | tee -a "$log"
  done
done
note "- 64x128 ping-pong at 1000^3; f16 through the dispatch; no workspace"
timeout 30 "$BIN/sm90_bench" --schedule pp128 1000 1000 1000 2048 2048 2048 2>&1 | grep -E "ratio|error" | tee -a "$log"
timeout 60 "$BIN/sm90_bench" --f16 4096 4096 4096 8192 8192 1024 8192 8192 8192 2>&1 | grep -E "ratio|error" | tee -a "$log"
timeout 60 "$BIN/sm90_bench" --no-split 4096 11008 4096 2>&1 | grep -E "ratio|error" | tee -a "$log"
if [ -n "${NCU:-}" ] && command -v ncu >/dev/null; then
  sec="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats --section MemoryWorkloadAnalysis"
  for s in "4096 4096 4096" "8192 8192 1024"; do
    f="$OUT/ncu_$(echo $s | tr ' ' x).txt"
    timeout 100 ncu --clock-control none $sec -k regex:gemm_sm90_entry --launch-count 1 "$BIN/sm90_bench" --reps 1 $s >"$f" 2>&1
    note "ncu $s: rc=$? $(grep -E 'Duration|Compute \(SM\) Throughput|Registers Per|Stall|Issue Slots Busy|L2 Cache Throughput' "$f" | tr -s ' ' | tr '\n' ';' | head -c 900)"
  done
fi
(cd "$OUT" && tar czf logs.tgz --exclude=logs.tgz --exclude=summary.txt . 2>/dev/null && find . -type f ! -name logs.tgz ! -name summary.txt -delete)
