#!/usr/bin/env bash
# A benchmark of several trees in one process order, for a same-run A/B of a change:
#   STEP=build|bench OUT=/tmp/out TREES="treeA treeB" [BENCH=sm90|gemm] [SHAPES="M N K ..."] \
#     [ARGS="--layout NT"] tools/device/run_bench_ab.sh
# BENCH=sm90 (default): the library's SM90 path (sm90_gemm_bench: tessera::gemm's dispatch).
# BENCH=gemm: bench/gemm.cu (gemm_bench: the mma.sync and SIMT kernels by explicit
#   configuration) with every kernel TU the tree's gemm.cu links, the tuning variants only
#   where the tree has no option for them; ARGS default "--dtype bf16 --layouts TN".
# STEP=build compiles each tree side by side into build-ab/<tree> at the root (git-ignored, so
# that a warm machine keeps it for the second call); STEP=bench runs the trees alternately,
# two rounds, each on the same shapes.
# XF1, XF2, ...: extra nvcc flags for the first, second, ... tree (a compile-flag A/B of one
# source: TREES=".gpu/x ." XF2="-Xcicc -O2").
set -uo pipefail
OUT=${OUT:-/tmp/bench-ab}
BENCH=${BENCH:-sm90}
read -r -a T <<<"${TREES:?trees}"
mkdir -p "$OUT"
ROOT=$PWD
bin_of() { echo "$ROOT/build-ab/$BENCH-$(echo "$1" | tr -c 'A-Za-z0-9_\n' _)"; }
log="$OUT/ab_summary.txt"
note() { echo "$*" | tee -a "$log"; }
F=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647
   -O3 -lineinfo -Iinclude -Ikernels -diag-suppress 20012,177)
SM90=(-gencode=arch=compute_90,code=sm_90)
SM90A=(-gencode=arch=compute_90a,code=sm_90a)
DEV=$PWD/.devdeps/include
[ -d "$DEV" ] && F+=(-isystem "$DEV")
for cc in g++-13 g++-14 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
# The SM80-side TUs gemm_bench links in tree $1 (the tuning variants where no option gates them).
gemm_tus() {
  echo kernels/device/gemm.cu kernels/device/gemm_variants.cu kernels/device/instances/{tensorop_bf16,tensorop_f16,simt}.cu
  grep -q TESSERA_TUNING_VARIANTS kernels/device/gemm_variants.cu || ls kernels/device/instances/variants_*.cu
}
if [ "${STEP:-build}" = build ]; then
  t0=$(date +%s)
  i=0
  for t in "${T[@]}"; do
    i=$((i + 1)); xf="XF$i"; read -r -a X <<<"${!xf:-}"
    (
      F+=("${X[@]}")
      d=$(bin_of "$t") && mkdir -p "$d" && cd "$t" && pids=()
      # (SM90 TUs with --split-compile; the mma.sync ones without: it stops nvcc inlining their
      # helpers)
      for src in kernels/device/sm90_instances*.cu; do
        [ -f "$src" ] && { nvcc "${F[@]}" "${SM90A[@]}" --split-compile=0 -c "$src" -o "$d/$(basename "$src" .cu).o" & pids+=($!); }
      done
      # (the library's host code the SM90 dispatch calls, in trees that have it)
      if [ -f tools/device/host_objects.sh ]; then
        host_objs=()
        source tools/device/host_objects.sh
        host_objects "$d" "${F[@]}"
      fi
      if [ "$BENCH" = sm90 ]; then
        nvcc "${F[@]}" "${SM90A[@]}" -c bench/sm90_gemm_bench.cu -o "$d/bench.o" & pids+=($!)
      else
        for src in $(gemm_tus); do
          nvcc "${F[@]}" "${SM90[@]}" -c "$src" -o "$d/$(basename "$src" .cu).o" & pids+=($!)
        done
        nvcc "${F[@]}" "${SM90[@]}" -c bench/gemm.cu -o "$d/bench.o" & pids+=($!)
      fi
      ok=0; for p in "${pids[@]}"; do wait "$p" || ok=1; done
      [ $ok = 0 ] && nvcc "${F[@]}" -o "$d/bench" "$d"/*.o -lcublas -lcublasLt
      echo "build $t rc=$? $(( $(date +%s) - t0 )) s" >>"$log"
    ) >"$OUT/ab_build_$(basename "$t").log" 2>&1 &
  done
  wait
  cat "$log"
  exit 0
fi
if [ "$BENCH" = sm90 ]; then
  SHAPES=${SHAPES:-8192 8192 8192 4096 4096 4096 8192 8192 1024 1000 1000 1000}
  ARGS=${ARGS:-}
  keep() { grep -E "ratio"; }
else
  SHAPES=${SHAPES:-}  # (gemm_bench runs its own shape list)
  ARGS=${ARGS:---dtype bf16 --layouts TN}
  keep() { sed -n '/^summary/,$p'; }
fi
for round in 1 2; do
  for t in "${T[@]}"; do
    note "-- round $round: $t"
    [ -x "$(bin_of "$t")/bench" ] && timeout 200 "$(bin_of "$t")/bench" $ARGS $SHAPES 2>&1 | keep | tee -a "$log"
  done
done
