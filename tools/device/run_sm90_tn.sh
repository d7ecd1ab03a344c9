#!/usr/bin/env bash
# A reduced SM90 check in one call, when the device budget cannot pay for the full build
# (run_hopper_gemm.sh: sm90_instances.cu's 25 kernels took over 450 s on the 16-core machine
# in session 10): the library TU cut to its TN bf16/f16 kernels (sed: no MN-major, f32-D or
# tf32 instances, no 128x128 cooperative) + the ping-pong TU + the GPU test and the bench
# (device entry only); ~50 s of build. The GPU test's cases for the cut instances FAIL
# ("built for other operand majors", "reduced build", no split-K planned): read the TN lines.
#   OUT=/tmp/out tools/device/run_sm90_tn.sh [bench shapes: M N K ...]
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-sm90-tn}
B=/tmp/sm90-tn-bin
mkdir -p "$OUT" $B
F=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 -O3 -lineinfo -gencode arch=compute_90a,code=sm_90a -Iinclude -diag-suppress 20012,177)
[ -d .devdeps/include ] && F+=(-isystem .devdeps/include)
for cc in g++-14 g++-13 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
sed -e '/with_tile<T, D, K, MN>/d' -e '/with_tile<T, D, MN, K>/d' -e 's/return with_tile<T, D, MN, MN>(g, f);/return with_tile<T, D, K, K>(g, f);/' \
    -e '/return with_majors<T, float>(g, f);/d' -e 's/return f(sm90::GemmSm90<sm90::DefaultGemmTf32<>>{});/return {GemmStatus::Unsupported, "reduced build"};/' \
    -e '/if (s != sm90::Schedule::Cooperative128x256) return f(sm90::GemmSm90<sm90::SmallTileGemm<T, MA, MB>>{});/d' \
    kernels/device/sm90_instances.cu > kernels/device/sm90_instances_tn.cu
t0=$(date +%s)
nvcc "${F[@]}" -Xptxas -v -c kernels/device/sm90_instances_pingpong.cu -o $B/pp.o > "$OUT/ptxas_pingpong.txt" 2>&1 & p1=$!
nvcc "${F[@]}" -c tests/hopper/sm90_gemm_gpu_test.cu -o $B/test.o > "$OUT/build_test.txt" 2>&1 & p2=$!
nvcc "${F[@]}" -c bench/sm90_gemm_bench.cu -o $B/bench.o > "$OUT/build_bench.txt" 2>&1 & p3=$!
nvcc "${F[@]}" --split-compile=0 -Xptxas -v -c kernels/device/sm90_instances_tn.cu -o $B/tn.o > "$OUT/ptxas_tn.txt" 2>&1
wait $p1 $p2 $p3
rm -f kernels/device/sm90_instances_tn.cu
echo "build $(( $(date +%s) - t0 )) s" | tee "$OUT/summary.txt"
nvcc "${F[@]}" $B/test.o $B/tn.o $B/pp.o -o $B/sm90_test && nvcc "${F[@]}" $B/bench.o $B/tn.o $B/pp.o -o $B/sm90_bench -lcublas -lcublasLt
echo "link rc=$?" | tee -a "$OUT/summary.txt"
cat "$OUT"/ptxas_*.txt | grep -E "spill" | sort | uniq -c | tee -a "$OUT/summary.txt"
timeout 120 $B/sm90_test > "$OUT/test.txt" 2>&1
echo "test rc=$? (TN lines: $(grep -E '^(bf16|f16) +TN|->.* TN' "$OUT/test.txt" | grep -c ' ok ') ok, $(grep -E '^(bf16|f16) +TN|->.* TN' "$OUT/test.txt" | grep -c FAIL) FAIL)" | tee -a "$OUT/summary.txt"
shapes=("$@")
[ ${#shapes[@]} -eq 0 ] && shapes=(1000 1000 1000 2048 2048 2048)
timeout 120 $B/sm90_bench --reps 20 "${shapes[@]}" 2>&1 | tee -a "$OUT/summary.txt"
