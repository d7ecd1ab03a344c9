#!/usr/bin/env bash
# tessera._gemm_cuda (python/src/gemm_cuda.cpp) on a machine without a GPU: builds it with g++
# against the CUDA runtime's headers and stand-ins for the kernel library (kernels_stub.cpp:
# check the arguments, launch nothing), puts it beside a host build's package, and runs
# tests/python/test_gemm.py, test_gemm_fp8.py, test_gemm_grouped.py and test_attention.py with
# it loaded (tessera.has_cuda true; the launch answers "no CUDA device"). Checks the binding's
# argument handling, which a build without CUDA never compiles.
#   tools/python/check_gemm_cuda.sh [BUILD]     (BUILD: a host build with tessera_python; default build)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}
PY=${PYTHON:-python3}
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(command -v nvcc)")")}
pkg=$(mktemp -d)
trap 'rm -rf "$pkg"' EXIT
cp -r "$BUILD/python/tessera" "$pkg/"
ext=$($PY -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
${CXX:-g++} -std=c++20 -O1 -g0 -fPIC -shared -fvisibility=hidden -Iinclude -Ikernels -Ipython/src \
  $($PY -m pybind11 --includes) -isystem "$CUDA_HOME/include" python/src/gemm_cuda.cpp tools/python/kernels_stub.cpp \
  -L"$CUDA_HOME/lib64" -lcudart -Wl,-rpath,"$CUDA_HOME/lib64" -o "$pkg/tessera/_gemm_cuda$ext"
PYTHONPATH=$pkg PYTHONDONTWRITEBYTECODE=1 $PY -c \
  'import tessera; from tessera import _gemm_cuda; assert tessera.has_cuda; print("_gemm_cuda loaded; devices:", _gemm_cuda.device_count())'
PYTHONPATH=$pkg PYTHONDONTWRITEBYTECODE=1 $PY -m pytest -q -p no:cacheprovider tests/python/test_gemm.py tests/python/test_gemm_fp8.py tests/python/test_gemm_grouped.py \
  tests/python/test_attention.py
