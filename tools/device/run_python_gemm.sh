#!/usr/bin/env bash
# tessera.gemm and tessera.attention on the GPU machine in one call: builds the Python module
# with its CUDA part (the kernel library's TUs position-independent, the attention kernels'
# included, _core from the runtime/analysis/viz/verify sources, _gemm_cuda over the kernels)
# and the C++ SM90 bench, side by side on all cores, without CMake (the machine has no Debian
# packages: pybind11 and PyTorch come from its Python); then
#   pytest -m gpu tests/python/test_gemm_gpu.py (tessera.gemm against torch.matmul and FP64),
#     test_gemm_fp8_gpu.py (FP8 against torch._scaled_mm and FP64), test_gemm_grouped_gpu.py
#     (tessera.gemm_grouped against torch._grouped_mm and FP64) and test_attention_gpu.py
#     (tessera.attention against SDPA and FP64),
#   the host tests of tests/python/test_gemm.py, test_gemm_fp8.py, test_gemm_grouped.py and test_attention.py (here
#   with a GPU present),
#   bench/python_gemm_bench.py (tessera.gemm against torch.matmul, one process; with --fp8
#   tensor and rowwise against torch._scaled_mm),
#   bench/python_attention_bench.py (tessera.attention against SDPA, one process),
#   bench/python_grouped_bench.py (tessera.gemm_grouped against torch._grouped_mm, one process) and
#   sm90_gemm_bench on the same shapes (tessera::gemm against cuBLAS), so the two ratios come
#   from one machine and one build.
#   run(command="OUT=$OUT tools/device/run_python_gemm.sh")
# STEP=build (build only, into BUILD inside the tree, e.g. BUILD=build-gpu, which a warm machine
# keeps) then STEP=check when one call cannot hold both.
# KOBJS=DIR: take the kernel library's objects from DIR (k_*.o and h_*.o of a run_check.sh build,
# which compiles them position-independent) instead of compiling them again; the attention
# kernels' TU (k_sm90_attention_instances.o) is compiled here when DIR lacks it.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-pygemm}
B=${BUILD:-/tmp/tessera-pygemm-build}
STEP=${STEP:-all}
mkdir -p "$OUT" "$B/python/tessera"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
status=0
t0=$(date +%s)
PY=${PYTHON:-python3}
note "== tessera.gemm GPU check $(date -u +%FT%TZ) commit=${COMMIT:-unknown}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
note "python: $($PY -c 'import sys, torch, numpy; print(sys.version.split()[0], "torch", torch.__version__, "numpy", numpy.__version__)' 2>&1)"

CXX=g++
for cc in g++-14 g++-13 g++-12; do command -v $cc >/dev/null && { CXX=$(command -v $cc); break; }; done
F=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647
   -O3 -lineinfo -Iinclude -Ikernels -diag-suppress 20012,177 -ccbin "$CXX")
I=(-Iinclude)
SM90=(-gencode=arch=compute_90,code=sm_90)
SM90A=(-gencode=arch=compute_90a,code=sm_90a)
EXT=$($PY -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
PYBIND=$($PY -m pybind11 --includes)
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(command -v nvcc)")")}
VERSION=$(sed -n 's/^project(tessera VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
CXXF=(-std=c++20 -O2 -g0 -fPIC -fvisibility=hidden -fconstexpr-ops-limit=2147483647 "${I[@]}")

if [ "$STEP" != check ]; then
{
  pids=()
  kobjs=()
  host_objs=()
  if [ -n "${KOBJS:-}" ]; then
    kobjs=("$KOBJS"/k_*.o "$KOBJS"/h_*.o)
    host_objs=("$KOBJS"/h_*.o)
    cp "$KOBJS/sm90_bench" "$B/"  # (run_check.sh's C++ bench, linked over the same objects)
    if [ ! -f "$KOBJS/k_sm90_attention_instances.o" ]; then
      o="$B/k_sm90_attention_instances.o"
      # (never --split-compile for the attention kernels: split, ptxas serializes the D 128 and
      # D 256 kernels' wgmmas (C7520) and they ran 60x slower; whole, it warns of none)
      nvcc "${F[@]}" "${SM90A[@]}" -Xcompiler -fPIC -Xptxas -v -c kernels/device/sm90_attention_instances.cu -o "$o" 2>"$o.ptxas" &
      pids+=($!)
      kobjs+=("$o")
    fi
  else
  sm80_objs=() sm90_objs=()
  source tools/device/host_objects.sh
  dispatch_objects "$B" "${F[@]}" -Xcompiler -fPIC
  kobjs+=("${sm80_objs[@]}" "${sm90_objs[@]}")
  o="$B/k_sm90_attention_instances.o"  # (whole: see above)
  nvcc "${F[@]}" "${SM90A[@]}" -Xcompiler -fPIC -Xptxas -v -c kernels/device/sm90_attention_instances.cu -o "$o" 2>"$o.ptxas" & pids+=($!)
  kobjs+=("$o")
  # (the library's host code the SM90 dispatch calls: gemm_tune, the tuning cache)
  source tools/device/host_objects.sh
  host_objects "$B" "${F[@]}" -Xcompiler -fPIC
  kobjs+=("${host_objs[@]}")
  nvcc "${F[@]}" "${SM90A[@]}" -c bench/sm90_gemm_bench.cu -o "$B/sm90_bench.o" & pids+=($!)
  fi
  # _core's sources (the CMake targets tessera_python links: tessera_runtime/analysis/viz/verify/
  # verify_diagram/epilogue_check, no Cairo; zlib for the HTML pages' per-cell data).
  cobjs=()
  for src in src/rt/*.cpp src/analysis/*.cpp src/verify/*.cpp src/viz/*.cpp src/epilogue_check/*.cpp; do
    # (Cairo's two files, as CMake without Cairo: the machine has no Cairo headers)
    case "$src" in src/viz/cairo_backend.cpp | src/viz/cairo_loader.cpp) continue ;; esac
    o="$B/c_$(echo "${src%.cpp}" | tr / _).o"
    $CXX "${CXXF[@]}" -c "$src" -o "$o" & pids+=($!)
    cobjs+=("$o")
  done
  $CXX "${CXXF[@]}" $PYBIND -Ipython/src -DTESSERA_VERSION="\"$VERSION\"" -c python/src/module.cpp -o "$B/module.o" & pids+=($!)
  $CXX "${CXXF[@]}" $PYBIND -Ipython/src -isystem "$CUDA_HOME/include" -c python/src/gemm_cuda.cpp -o "$B/gemm_cuda.o" & pids+=($!)
  ok=1
  for p in "${pids[@]}"; do wait "$p" || ok=0; done
  [ $ok = 1 ] &&
    $CXX -shared -o "$B/python/tessera/_core$EXT" "$B/module.o" "${cobjs[@]}" -lz &&
    $CXX -shared -o "$B/python/tessera/_gemm_cuda$EXT" "$B/gemm_cuda.o" "${kobjs[@]}" -L"$CUDA_HOME/lib64" -lcudart \
      -Wl,-rpath,"$CUDA_HOME/lib64" &&
    { [ -n "${KOBJS:-}" ] || nvcc "${F[@]}" -o "$B/sm90_bench" "$B/sm90_bench.o" "${sm80_objs[@]}" "${sm90_objs[@]}" "${host_objs[@]}" -lcublas -lcublasLt; }
} >"$OUT/build.log" 2>&1
rc=$?
cp python/tessera/*.py "$B/python/tessera/"
note "build: rc=$rc in $(( $(date +%s) - t0 )) s"
a="$B/k_sm90_attention_instances.o.ptxas"
[ -f "$a" ] && note "attention kernels: $(grep -c 'C7520' "$a") wgmma serializations (C7520; 0 expected)"
[ $rc -ne 0 ] && { grep -a "error" "$OUT/build.log" | head -20 | tee -a "$log"; status=1; }
fi
if [ "$STEP" = build ]; then
  note "== build only: status $status ($(( $(date +%s) - t0 )) s)"
  exit $status
fi

cp python/tessera/*.py "$B/python/tessera/"
export PYTHONPATH="$B/python" PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
note "import: $($PY -c 'import tessera, sys; print("tessera", tessera.__version__, "has_cuda", tessera.has_cuda)' 2>&1 | tail -1)"
timeout 420 $PY -m pytest -q -p no:cacheprovider -m gpu tests/python/test_gemm_gpu.py tests/python/test_gemm_fp8_gpu.py \
  tests/python/test_gemm_grouped_gpu.py tests/python/test_attention_gpu.py -rs >"$OUT/pytest_gpu.log" 2>&1
r=$?; [ $r -ne 0 ] && status=1
note "pytest -m gpu: rc=$r, $(tail -1 "$OUT/pytest_gpu.log")"
grep -aE "^FAILED|^ERROR" "$OUT/pytest_gpu.log" | head -20 | tee -a "$log"
timeout 60 $PY -m pytest -q -p no:cacheprovider tests/python/test_gemm.py tests/python/test_gemm_fp8.py \
  tests/python/test_gemm_grouped.py tests/python/test_attention.py >"$OUT/pytest_host.log" 2>&1
r=$?; [ $r -ne 0 ] && status=1
note "pytest test_gemm.py test_gemm_fp8.py test_gemm_grouped.py test_attention.py (host tests, GPU present): rc=$r, $(tail -1 "$OUT/pytest_host.log")"
note "-- tessera.gemm against torch.matmul (Python, one process)"
timeout 150 $PY bench/python_gemm_bench.py 2>&1 | tee -a "$log"
note "-- FP8 tessera.gemm against torch._scaled_mm (Python, one process)"
timeout 120 $PY bench/python_gemm_bench.py --fp8 tensor 2>&1 | tee -a "$log"
timeout 120 $PY bench/python_gemm_bench.py --fp8 rowwise 2>&1 | tee -a "$log"
note "-- tessera.attention against torch SDPA (Python, one process)"
timeout 150 $PY bench/python_attention_bench.py 2>&1 | tee -a "$log"
note "-- tessera.gemm_grouped against torch._grouped_mm (Python, one process; uniform and skewed experts)"
timeout 150 $PY bench/python_grouped_bench.py 2>&1 | tee -a "$log"
timeout 150 $PY bench/python_grouped_bench.py --skew 2>&1 | tee -a "$log"
note "-- tessera::gemm against cuBLAS (C++ sm90_gemm_bench, same shapes)"
[ -x "$B/sm90_bench" ] && timeout 120 "$B/sm90_bench" 8192 8192 8192 4096 11008 4096 1000 1000 1000 2>&1 | tee -a "$log"
note "== status $status ($(( $(date +%s) - t0 )) s)"
exit $status
