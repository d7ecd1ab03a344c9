#!/usr/bin/env bash
# The mma.sync (SM80-style) kernels alone: run_check.sh trimmed to the TUs gemm_gpu_test and
# gemm_bench link (gemm.cu calls the SM90 dispatch, so the SM90 instance TUs are among them;
# ~380-430 s on 16 cores), then
#   gemm_gpu_test, algorithm_gpu_test (copy/MMA atoms), the bench of bf16 TN/NT/NN at every
#   shape, SASS counts of the bf16 instance TU (16-byte stores, calls, spills), memcheck on
#   small gemm cases, and SIMT f32 TN (4096^3, 8192^3) -- each step only while time is left.
#   OUT=/tmp/out DEADLINE_S=540 [SPLIT=1] tools/device/run_sm80_check.sh
# SPLIT=1: the mma.sync/SIMT TUs with --split-compile=0 too (cicc and ptxas per kernel on all
# cores: 4ecd8cf's ten library TUs and the bench built in 87 s so on 16 cores; this tree's,
# without it, in 379 s -- two trees, not a like-for-like comparison).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-sm80}
B=${BUILD:-/tmp/tessera-sm80-build}
END=$(( $(date +%s) + ${DEADLINE_S:-540} ))
left() { echo $(( END - $(date +%s) )); }
mkdir -p "$OUT" "$B"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
status=0
note "== tessera mma.sync check $(date -u +%FT%TZ) commit=${COMMIT:-unknown}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
F=(-std=c++20 --expt-relaxed-constexpr -O3 -lineinfo -Iinclude -Ikernels -diag-suppress 20012,177)
[ -d .devdeps/include ] && F+=(-isystem .devdeps/include)
for cc in g++-14 g++-13 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
SM90=(-gencode=arch=compute_90,code=sm_90)
SM90A=(-gencode=arch=compute_90a,code=sm_90a)
t0=$(date +%s)
(
  pids=(); kobjs=()
  for src in kernels/device/gemm.cu kernels/device/gemm_variants.cu kernels/device/instances/*.cu; do
    o="$B/k_$(basename "$src" .cu).o"
    ( s=$(date +%s); nvcc "${F[@]}" "${SM90[@]}" ${SPLIT:+--split-compile=0} -Xptxas -v -c "$src" -o "$o" 2>"$o.ptxas"; r=$?
      echo "tu $(basename "$src"): rc=$r $(( $(date +%s) - s )) s" >"$o.time"; exit $r ) &
    pids+=($!); kobjs+=("$o")
  done
  for src in kernels/device/sm90_instances*.cu; do
    o="$B/k_$(basename "$src" .cu).o"
    nvcc "${F[@]}" "${SM90A[@]}" --split-compile=0 -c "$src" -o "$o" 2>"$o.ptxas" &
    pids+=($!); kobjs+=("$o")
  done
  nvcc "${F[@]}" "${SM90[@]}" -c tests/kernels/gemm_gpu_test.cu -o "$B/gemm_gpu_test.o" & pids+=($!)
  nvcc "${F[@]}" "${SM90[@]}" -c bench/gemm.cu -o "$B/gemm_bench.o" & pids+=($!)
  nvcc "${F[@]}" "${SM90[@]}" tests/atoms/algorithm_gpu_test.cu -o "$B/algorithm_gpu_test" &  # (not needed to link)
  ok=1
  for p in "${pids[@]}"; do wait "$p" || ok=0; done
  cat "$B"/k_*.ptxas >"$OUT/ptxas.log"
  [ $ok = 1 ] &&
    nvcc "${F[@]}" -o "$B/gemm_gpu_test" "$B/gemm_gpu_test.o" "${kobjs[@]}" &&
    nvcc "${F[@]}" -o "$B/gemm_bench" "$B/gemm_bench.o" "${kobjs[@]}" -lcublas
  r=$?
  wait
  exit $r
) >"$OUT/build.log" 2>&1
rc=$?
note "build: rc=$rc in $(( $(date +%s) - t0 )) s; $(cat "$B"/k_*.time | tr '\n' ';')"
[ $rc -ne 0 ] && { grep -a "error" "$OUT/build.log" | head -20 | tee -a "$log"; status=1; }
note "ptxas: $(grep -ac 'Used' "$OUT/ptxas.log") functions, spill stores: $(grep -aoE '[0-9]+ bytes spill stores' "$OUT/ptxas.log" | sort | uniq -c | sort -rn | head -6 | tr -s ' ' | tr '\n' ';')"
run() {  # name timeout command...: only while the deadline leaves the time
  local name=$1 t=$2; shift 2
  [ "$(left)" -lt 20 ] && { note "$name: skipped (deadline)"; return; }
  [ "$t" -gt "$(left)" ] && t=$(left)
  timeout "$t" "$@" >"$OUT/$name.log" 2>&1
  local r=$?
  [ $r -ne 0 ] && status=1
  note "$name: rc=$r, $(tail -1 "$OUT/$name.log")"
  grep -aE "FAIL" "$OUT/$name.log" | head -10 | tee -a "$log"
}
[ -x "$B/gemm_gpu_test" ] && run gemm_gpu_test 150 "$B/gemm_gpu_test"
[ -x "$B/algorithm_gpu_test" ] && run algorithm_gpu_test 60 "$B/algorithm_gpu_test"
[ -x "$B/gemm_bench" ] && { run gemm_bench_bf16 220 stdbuf -oL "$B/gemm_bench" --dtype bf16 --layouts TN,NT,NN;
  sed -n '/^summary/,$p' "$OUT/gemm_bench_bf16.log" | tee -a "$log"; grep -a " bf16 " "$OUT/gemm_bench_bf16.log" >>"$log"; }
if command -v cuobjdump >/dev/null; then
  cuobjdump -sass "$B/k_tensorop_bf16.o" >"$OUT/sass_bf16.txt" 2>&1
  awk '/Function : /{f=$3} /STG.E.128/{a[f]++} /STG.E.64/{b[f]++} /CALL.REL/{c[f]++} /(STL|LDL)/{d[f]++} /HMMA/{h[f]++}
       END{for (f in h) printf "sass: STG.128=%d STG.64=%d CALL.REL=%d STL/LDL=%d %s\n", a[f], b[f], c[f], d[f], f}' \
    "$OUT/sass_bf16.txt" | c++filt | sed 's/tessera::kernels:://g' | cut -c1-220 | tee -a "$log"
  gzip -f "$OUT/sass_bf16.txt"
fi
command -v compute-sanitizer >/dev/null && [ -x "$B/gemm_gpu_test" ] &&
  TESSERA_CASES=one,seven,odd127,batched_odd_TT,beta_NN_pad,k1,skinny_m1,beta_TN \
    run memcheck_gemm 120 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/gemm_gpu_test"
[ -x "$B/gemm_bench" ] && { run gemm_bench_f32 90 stdbuf -oL "$B/gemm_bench" --dtype f32 --layouts TN;
  grep -a " f32 " "$OUT/gemm_bench_f32.log" | tee -a "$log"; }
note "== status $status ($(( $(date +%s) - t0 )) s)"
exit $status
