#!/usr/bin/env bash
# The library's SM90 path (tessera::gemm's dispatch, sm90_gemm_bench) of several trees in one
# process order, for a same-run A/B of a change:
#   STEP=build|bench OUT=/tmp/out TREES="treeA treeB" [SHAPES="M N K ..."] [ARGS="--layout NT"] \
#     tools/device/run_sm90_bench_ab.sh
# STEP=build compiles each tree's SM90 TUs and the bench (side by side, into build-ab/<tree> at
# the root: git-ignored, so that a warm machine keeps it for the second call);
# STEP=bench runs them alternately, two rounds, each tree's binary on the same shapes.
set -uo pipefail
OUT=${OUT:-/tmp/sm90-ab}
read -r -a T <<<"${TREES:?trees}"
mkdir -p "$OUT"
ROOT=$PWD
bin_of() { echo "$ROOT/build-ab/$(echo "$1" | tr -c 'A-Za-z0-9_\n' _)"; }
log="$OUT/ab_summary.txt"
note() { echo "$*" | tee -a "$log"; }
F=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647
   -O3 -lineinfo -Iinclude -Ikernels -diag-suppress 20012,177 -gencode=arch=compute_90a,code=sm_90a)
DEV=$PWD/.devdeps/include
[ -d "$DEV" ] && F+=(-isystem "$DEV")
for cc in g++-13 g++-14 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
if [ "${STEP:-build}" = build ]; then
  t0=$(date +%s)
  for t in "${T[@]}"; do
    (
      d=$(bin_of "$t") && mkdir -p "$d" && cd "$t" && pids=()
      for src in kernels/device/sm90_instances*.cu bench/sm90_gemm_bench.cu; do
        nvcc "${F[@]}" --split-compile=0 -c "$src" -o "$d/$(basename "$src" .cu).o" & pids+=($!)
      done
      ok=0; for p in "${pids[@]}"; do wait "$p" || ok=1; done
      [ $ok = 0 ] && nvcc "${F[@]}" -o "$d/sm90_bench" "$d"/*.o -lcublas -lcublasLt
      echo "build $t rc=$? $(( $(date +%s) - t0 )) s" >>"$log"
    ) >"$OUT/ab_build_$(basename "$t").log" 2>&1 &
  done
  wait
  cat "$log"
  exit 0
fi
SHAPES=${SHAPES:-8192 8192 8192 4096 4096 4096 8192 8192 1024 1000 1000 1000}
for round in 1 2; do
  for t in "${T[@]}"; do
    note "-- round $round: $t"
    [ -x "$(bin_of "$t")/sm90_bench" ] && timeout 120 "$(bin_of "$t")/sm90_bench" ${ARGS:-} $SHAPES 2>&1 | grep -E "ratio" | tee -a "$log"
  done
done
