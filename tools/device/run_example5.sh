#!/usr/bin/env bash
# Example 5 on the GPU machine: build it for sm_90 (ptxas report and SASS local-memory check),
# check it at a small and at the full size, and time it against cuBLAS at 8192^3 (f16 TN):
# group 1 (plain raster) and grouped rasters.  Also compiles the algorithms' device check
# for sm_80 and sm_90.  Logs under $OUT.
#   OUT=/tmp/out tools/device/run_example5.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-example5}
mkdir -p "$OUT"
log="$OUT/example5.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
note "== example 5 $(date -u +%FT%TZ) commit=${COMMIT:-unknown}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
FLAGS=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 -O3 -lineinfo "--generate-code=arch=compute_90,code=[compute_90,sm_90]" -Iinclude)
# The newest host compiler there (GCC 11 lacks some C++20 pack expansions tessera uses).
for cc in g++-14 g++-13 g++-12 clang++; do
  if command -v $cc >/dev/null; then FLAGS+=(-ccbin "$(command -v $cc)"); break; fi
done
note "host compiler: $(g++ --version | head -1); flags: ${FLAGS[*]}"
DEPS=()
[ -d .devdeps/include ] && DEPS=(-isystem .devdeps/include)
FLAGS+=("${DEPS[@]}")
nvcc -std=c++20 --expt-relaxed-constexpr -O3 -Iinclude "${DEPS[@]}" -gencode=arch=compute_80,code=sm_80 \
  -gencode=arch=compute_90,code=sm_90 -c tests/atoms/algorithm_device_compile.cu -o /tmp/algo_dc.o \
  >"$OUT/algorithm_device_compile.txt" 2>&1 &
dc=$!
if ! nvcc "${FLAGS[@]}" -Xptxas -v examples/5_my_gemm.cu examples/5_my_gemm_trace_maps.cpp -o /tmp/my_gemm -lcublas >"$OUT/ptxas.txt" 2>&1; then
  note "build FAILED here:"; grep -aE "error|sorry" "$OUT/ptxas.txt" | sort | uniq -c | head -10 | tee -a "$log"
  # Fallback: the same source built on the development machine (g++ 12, nvcc 13), carried.
  [ -x my_gemm_prebuilt ] || exit 1
  note "using my_gemm_prebuilt (built from the same commit on the development machine)"
  cp my_gemm_prebuilt /tmp/my_gemm
fi
grep -A1 "my_gemm_kernel" "$OUT/ptxas.txt" | grep -E "registers|spill|stack" | tee -a "$log"
cuobjdump -sass /tmp/my_gemm >"$OUT/sass.txt" 2>&1
note "SASS in my_gemm_kernel: HMMA $(grep -c HMMA "$OUT/sass.txt") LDSM $(grep -c LDSM "$OUT/sass.txt") LDGSTS $(grep -c LDGSTS "$OUT/sass.txt") LDL/STL $(grep -cE 'LDL|STL' "$OUT/sass.txt")"
/tmp/my_gemm 256 256 512 5 2 2>&1 | tee -a "$log"
# Its trace (one CTA, every thread's copies and fragments), for `tessera verify`.
/tmp/my_gemm --trace "$OUT/my_gemm.trace" 2>&1 | tee -a "$log"
/tmp/my_gemm 1024 768 320 5 1 2>&1 | tee -a "$log"
# Edge tiles: M, N not multiples of 128, K not of 64, a partial group, tiny shapes.
for shape in "1000 998 1000 5 3" "129 2 8 3 1" "200 136 200 3 2" "8191 8190 8184 10 8"; do
  /tmp/my_gemm $shape 2>&1 | tee -a "$log"
done
for g in 1 8 16; do /tmp/my_gemm 8192 8192 8192 50 $g 2>&1 | tee -a "$log"; done
/tmp/my_gemm 8192 8192 8192 50 8 2>&1 | tee -a "$log"   # the same version twice: the spread
# stmatrix on the GPU: fragments stored and read back with ldmatrix.
if nvcc "${FLAGS[@]}" tests/atoms/stmatrix_gpu_test.cu -o /tmp/stmatrix_gpu_test >"$OUT/stmatrix_build.txt" 2>&1; then
  /tmp/stmatrix_gpu_test 2>&1 | tee -a "$log"; note "stmatrix_gpu_test rc=${PIPESTATUS[0]}"
else
  note "stmatrix_gpu_test build FAILED"; grep -a error "$OUT/stmatrix_build.txt" | head -5 | tee -a "$log"
fi
if wait $dc; then note "algorithm_device_compile (sm_80, sm_90): ok"; else note "algorithm_device_compile FAILED"; tail -20 "$OUT/algorithm_device_compile.txt" | tee -a "$log"; fi
gzip -c "$OUT/sass.txt" >"$OUT/sass.txt.gz" && rm "$OUT/sass.txt"
