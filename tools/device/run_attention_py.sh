#!/usr/bin/env bash
# tessera.attention from Python against torch's SDPA (cuDNN and FlashAttention-2 backends) on
# the GPU machine, in one call: builds the Python module with the attention kernels alone, then
#   pytest -m gpu tests/python/test_attention_gpu.py   (FP64 and SDPA references, every grid bit
#                                                        for bit against a CTA per tile, the
#                                                        module's per-stream counters, graphs)
#   pytest tests/python/test_attention.py              (the host tests, a GPU present)
#   bench/attention_vs_torch.py --per-tile              (one process: B4 H16 S 4096/8192/16384,
#                                                        D 64/128/256, full and causal, against
#                                                        cuDNN and FA2, and tessera's per-tile
#                                                        grid beside its default; CSV)
# The build: the attention kernels' TU (nvcc, position-independent, whole: never split, see
# run_python_gemm.sh), _core from its sources and _gemm_cuda over the attention kernels with
# the GEMM's stand-ins (tools/python/kernels_stub.cpp -DTESSERA_STUB_GEMM_ONLY: tessera.gemm
# refuses there), side by side on all cores, without CMake (the machine has no Debian packages:
# pybind11 and PyTorch come from its Python); about 150 s, the tests and the bench about 200 s.
#   run(command="OUT=$OUT tools/device/run_attention_py.sh")
# DTYPE=f16 times f16 instead of bf16; BENCH_ARGS replaces "--per-tile" (e.g. "--seqlens 8192
# --dims 128 --reps 40", or "" for tessera's default grid alone); TESTS=0 skips the tests; BUILD=DIR keeps the build there
# (e.g. build-attpy inside the tree, which a warm machine keeps; STEP=build then STEP=run).
# $OUT: summary.txt (first: what ran, the bench's table and the targets), build.log,
# ptxas.txt, pytest_gpu.log, pytest_host.log, bench.log, attention_vs_torch.csv.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-attention-py}
B=${BUILD:-/tmp/tessera-attention-py-build}
STEP=${STEP:-all}
mkdir -p "$OUT" "$B/python/tessera"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
status=0
t0=$(date +%s)
PY=${PYTHON:-python3}
note "== tessera.attention (Python) against torch SDPA $(date -u +%FT%TZ) commit=$(git rev-parse --short HEAD 2>/dev/null || echo "${COMMIT:-unknown}")"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader 2>&1 |
  sed 's/^/device: /' | tee -a "$log"
note "python: $($PY -c 'import sys, torch; print(sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version())' 2>&1 | tail -1)"

CXX=g++
for cc in g++-14 g++-13 g++-12; do command -v $cc >/dev/null && { CXX=$(command -v $cc); break; }; done
F=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647
   -O3 -lineinfo -Iinclude -Ikernels -diag-suppress 20012,177 -ccbin "$CXX")
SM90A=(-gencode=arch=compute_90a,code=sm_90a)
EXT=$($PY -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
PYBIND=$($PY -m pybind11 --includes)
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(command -v nvcc)")")}
VERSION=$(sed -n 's/^project(tessera VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
CXXF=(-std=c++20 -O2 -g0 -fPIC -fvisibility=hidden -fconstexpr-ops-limit=2147483647 -Iinclude)

if [ "$STEP" != run ]; then
{
  pids=()
  nvcc "${F[@]}" "${SM90A[@]}" -Xcompiler -fPIC -Xptxas -v -c kernels/device/sm90_attention_instances.cu \
    -o "$B/k_sm90_attention_instances.o" 2>"$OUT/ptxas.txt" & pids+=($!)
  cobjs=()
  for src in src/rt/*.cpp src/analysis/*.cpp src/verify/*.cpp src/viz/*.cpp; do
    case "$src" in src/viz/cairo_backend.cpp | src/viz/cairo_loader.cpp) continue ;; esac  # (no Cairo headers there)
    o="$B/c_$(echo "${src%.cpp}" | tr / _).o"
    $CXX "${CXXF[@]}" -c "$src" -o "$o" & pids+=($!)
    cobjs+=("$o")
  done
  $CXX "${CXXF[@]}" $PYBIND -Ipython/src -DTESSERA_VERSION="\"$VERSION\"" -c python/src/module.cpp -o "$B/module.o" & pids+=($!)
  $CXX "${CXXF[@]}" $PYBIND -Ipython/src -isystem "$CUDA_HOME/include" -c python/src/gemm_cuda.cpp -o "$B/gemm_cuda.o" & pids+=($!)
  $CXX "${CXXF[@]}" -Ikernels -DTESSERA_STUB_GEMM_ONLY -isystem "$CUDA_HOME/include" -c tools/python/kernels_stub.cpp \
    -o "$B/gemm_stub.o" & pids+=($!)
  ok=1
  for p in "${pids[@]}"; do wait "$p" || ok=0; done
  [ $ok = 1 ] &&
    $CXX -shared -o "$B/python/tessera/_core$EXT" "$B/module.o" "${cobjs[@]}" -lz &&
    $CXX -shared -o "$B/python/tessera/_gemm_cuda$EXT" "$B/gemm_cuda.o" "$B/gemm_stub.o" "$B/k_sm90_attention_instances.o" \
      -L"$CUDA_HOME/lib64" -lcudart -Wl,-rpath,"$CUDA_HOME/lib64"
} >"$OUT/build.log" 2>&1
rc=$?
note "build: rc=$rc in $(( $(date +%s) - t0 )) s; attention kernels: $(grep -c 'C7520' "$OUT/ptxas.txt") wgmma serializations (C7520; 0 expected)"
if [ $rc -ne 0 ]; then
  grep -a "error" "$OUT/build.log" "$OUT/ptxas.txt" | head -20 | tee -a "$log"
  note "== status 1 ($(( $(date +%s) - t0 )) s)"
  exit 1
fi
[ "$STEP" = build ] && { note "== build only ($(( $(date +%s) - t0 )) s)"; exit 0; }
fi

cp python/tessera/*.py "$B/python/tessera/"
export PYTHONPATH="$B/python" PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
note "import: $($PY -c 'import tessera; print("tessera", tessera.__version__, "has_cuda", tessera.has_cuda)' 2>&1 | tail -1)"
# The bench first, so that its table heads the summary (and a slow test cannot crowd it out).
t=$(date +%s)
timeout 300 $PY bench/attention_vs_torch.py --dtype "${DTYPE:-bf16}" --budget 240 --csv "$OUT/attention_vs_torch.csv" \
  ${BENCH_ARGS---per-tile} >"$OUT/bench.log" 2>&1
r=$?; [ $r -ne 0 ] && status=1
note "-- bench/attention_vs_torch.py: rc=$r in $(( $(date +%s) - t )) s"
cat "$OUT/bench.log" | tee -a "$log"
if [ "${TESTS:-1}" != 0 ]; then
  t=$(date +%s)
  timeout 200 $PY -m pytest -q -p no:cacheprovider -m gpu tests/python/test_attention_gpu.py -rs >"$OUT/pytest_gpu.log" 2>&1
  r=$?; [ $r -ne 0 ] && status=1
  note "pytest -m gpu test_attention_gpu.py: rc=$r in $(( $(date +%s) - t )) s, $(tail -1 "$OUT/pytest_gpu.log")"
  grep -aE "^FAILED|^ERROR" "$OUT/pytest_gpu.log" | head -20 | tee -a "$log"
  timeout 60 $PY -m pytest -q -p no:cacheprovider tests/python/test_attention.py >"$OUT/pytest_host.log" 2>&1
  r=$?; [ $r -ne 0 ] && status=1
  note "pytest test_attention.py (host tests, GPU present): rc=$r, $(tail -1 "$OUT/pytest_host.log")"
  grep -aE "^FAILED|^ERROR" "$OUT/pytest_host.log" | head -10 | tee -a "$log"
fi
note "== status $status ($(( $(date +%s) - t0 )) s)"
exit $status
