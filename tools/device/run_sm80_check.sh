#!/usr/bin/env bash
# The mma.sync kernels alone, with no SM90 TU: run_check.sh trimmed to the library's sm_80 TUs
# (gemm.cu, gemm_variants.cu, tensorop_bf16/f16, simt), gemm_gpu_test and gemm_bench, then
#   gemm_gpu_test (every mma.sync / SIMT kernel, both majors, residues, split-K) and
#   gemm_bench --dtype bf16 --layouts TN (8192^3, 4096x11008x4096, 8192x8192x1024 among its shapes).
# gemm.cu calls the SM90 dispatch (sm90_dispatch.hpp); here a stand-in that refuses every
# argument links in its place (written into the build folder, never shipped), so
# tessera::gemm runs the sm_80 kernels on an H100 as on an A100 and the build skips the SM90
# kernels (the most of run_check's build time).  Both test and bench name their kernel
# explicitly (GemmKernel::TensorOpVec8, ...), which never takes the SM90 path.
# BASE=dir: a second tree (e.g. the commit before a change) built side by side into its own
# folder and benchmarked after this one, in the same call on the same GPU.
# COMPILE_ALSO="x.cu ...": more TUs of this tree compiled (not linked), e.g. tuning variants.
#   OUT=/tmp/out DEADLINE_S=540 [BASE=.gpu/base] [COMPILE_ALSO=...] tools/device/run_sm80_check.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-sm80}
END=$(( $(date +%s) + ${DEADLINE_S:-540} ))
left() { echo $(( END - $(date +%s) )); }
mkdir -p "$OUT"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
status=0
note "== tessera mma.sync check (no SM90 TUs) $(date -u +%FT%TZ) commit=${COMMIT:-unknown}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
DEPS=$(pwd)/.devdeps/include
build_tree() {  # tree build-dir: the sm_80 TUs, the SM90 stand-in, gemm_gpu_test, gemm_bench
  local T=$1 B=$2
  mkdir -p "$B"
  ( cd "$T" || exit 1
    F=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647
       -O3 -lineinfo -Iinclude -Ikernels -diag-suppress 20012,177 -isystem "$DEPS")
    for cc in g++-14 g++-13 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
    SM90=(-gencode=arch=compute_90,code=sm_90)
    cat >"$B/sm90_refused.cu" <<'EOF'
// Stand-in for the SM90 dispatch (run_sm80_collective.sh only): refuses every argument.
#include "device/sm90_dispatch.hpp"
namespace tessera::kernels::device {
GemmResult sm90_can_implement(const GemmArguments&) { return {GemmStatus::Unsupported, "SM90 kernels not built in this run"}; }
GemmResult run_sm90(const GemmArguments& a, cudaStream_t) { return sm90_can_implement(a); }
std::size_t sm90_workspace_size(const GemmArguments&) { return 0; }
const char* sm90_schedule(const GemmArguments&) { return "none"; }
GemmResult run_sm90(const GemmArguments& a, cudaStream_t, const sm90::Sm90Config&) { return sm90_can_implement(a); }
std::size_t sm90_workspace_size(const GemmArguments&, const sm90::Sm90Config&) { return 0; }
}  // namespace tessera::kernels::device
EOF
    pids=(); kobjs=()
    for src in kernels/device/gemm.cu kernels/device/gemm_variants.cu kernels/device/instances/{tensorop_bf16,tensorop_f16,simt}.cu "$B/sm90_refused.cu"; do
      o="$B/k_$(basename "$src" .cu).o"
      ( s=$(date +%s); nvcc "${F[@]}" "${SM90[@]}" -Xptxas -v -c "$src" -o "$o" 2>"$o.ptxas"; r=$?
        echo "tu $(basename "$src"): rc=$r $(( $(date +%s) - s )) s" >"$o.time"; exit $r ) &
      pids+=($!); kobjs+=("$o")
    done
    nvcc "${F[@]}" "${SM90[@]}" -c tests/kernels/gemm_gpu_test.cu -o "$B/gemm_gpu_test.o" & pids+=($!)
    nvcc "${F[@]}" "${SM90[@]}" -c bench/gemm.cu -o "$B/gemm_bench.o" & pids+=($!)
    ok=1
    for p in "${pids[@]}"; do wait "$p" || ok=0; done
    cat "$B"/*.ptxas >"$B/ptxas.log"
    [ $ok = 1 ] &&
      nvcc "${F[@]}" -o "$B/gemm_gpu_test" "$B/gemm_gpu_test.o" "${kobjs[@]}" &&
      nvcc "${F[@]}" -o "$B/gemm_bench" "$B/gemm_bench.o" "${kobjs[@]}" -lcublas )
}
t0=$(date +%s)
B=$(pwd)/build-sm80c
# COMPILE_ALSO="a.cu b.cu": TUs of this tree only compiled (tuning variants, the traced
# kernels), beside the rest, not waited for before the tests; reported at the end.
E=$(pwd)/build-sm80c-extra
mkdir -p "$E"
( F=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647
     -O3 -lineinfo -Iinclude -Ikernels -Isrc/gemm_trace -diag-suppress 20012,177 -isystem "$(pwd)/.devdeps/include")
  for cc in g++-14 g++-13 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
  for src in ${COMPILE_ALSO:-}; do
    o="$E/c_$(basename "$src" .cu).o"
    ( s=$(date +%s); nvcc "${F[@]}" -gencode=arch=compute_90,code=sm_90 -Xptxas -v -c "$src" -o "$o" >"$o.log" 2>&1; r=$?
      echo "tu $(basename "$src") (compile only): rc=$r $(( $(date +%s) - s )) s" >"$o.time"; [ $r -ne 0 ] && grep -a error "$o.log" | head -5 >>"$o.time"; exit $r ) &
  done
  wait ) &
pextra=$!
build_tree . "$B" >"$OUT/build.log" 2>&1 &
pnew=$!
if [ -n "${BASE:-}" ]; then
  BB=$(pwd)/build-sm80c-base
  build_tree "$BASE" "$BB" >"$OUT/build_base.log" 2>&1 &
  pbase=$!
fi
wait $pnew; rc=$?
note "build: rc=$rc in $(( $(date +%s) - t0 )) s; $(cat "$B"/*.time | tr '\n' ';')"
[ $rc -ne 0 ] && { grep -a "error" "$OUT/build.log" | head -20 | tee -a "$log"; status=1; }
cp "$B/ptxas.log" "$OUT/ptxas.log" 2>/dev/null
note "ptxas: $(grep -ac 'Used' "$OUT/ptxas.log") functions, spill stores: $(grep -aoE '[0-9]+ bytes spill stores' "$OUT/ptxas.log" | sort | uniq -c | sort -rn | head -6 | tr -s ' ' | tr '\n' ';')"
# SASS of the bf16 instance TU per kernel: instructions, HMMA, LDSM, LDGSTS, local-memory spills.
if command -v cuobjdump >/dev/null && [ -f "$B/k_tensorop_bf16.o" ]; then
  cuobjdump -sass "$B/k_tensorop_bf16.o" >"$OUT/sass_bf16.txt" 2>&1
  awk '/Function : /{f=$3} /\/\*[0-9a-f]+\*\//{n[f]++} /HMMA/{h[f]++} /LDSM/{l[f]++} /LDGSTS/{g[f]++} /(STL|LDL)/{d[f]++}
       END{for (f in h) printf "sass: instr=%d HMMA=%d LDSM=%d LDGSTS=%d STL/LDL=%d %s\n", n[f], h[f], l[f], g[f], d[f], f}' \
    "$OUT/sass_bf16.txt" | c++filt | sed 's/tessera::kernels:://g' | cut -c1-200 | tee -a "$log"
  gzip -f "$OUT/sass_bf16.txt"
fi
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
# (the bench first: the test takes what is left before the deadline)
[ -x "$B/gemm_bench" ] && { run gemm_bench_bf16_tn 120 stdbuf -oL "$B/gemm_bench" --dtype bf16 --layouts TN;
  sed -n '/^summary/,$p' "$OUT/gemm_bench_bf16_tn.log" | tee -a "$log"; }
[ -x "$B/gemm_gpu_test" ] && run gemm_gpu_test 200 "$B/gemm_gpu_test"
if [ -n "${BASE:-}" ]; then
  wait $pbase; note "base build: rc=$? at $(( $(date +%s) - t0 )) s"
  [ -x "$BB/gemm_bench" ] && { run base_gemm_bench_bf16_tn 120 stdbuf -oL "$BB/gemm_bench" --dtype bf16 --layouts TN;
    sed -n '/^summary/,$p' "$OUT/base_gemm_bench_bf16_tn.log" | tee -a "$log"; }
  [ -x "$B/gemm_bench" ] && { run gemm_bench_bf16_tn_again 120 stdbuf -oL "$B/gemm_bench" --dtype bf16 --layouts TN;
    sed -n '/^summary/,$p' "$OUT/gemm_bench_bf16_tn_again.log" | tee -a "$log"; }
fi
if [ -n "${COMPILE_ALSO:-}" ]; then
  while kill -0 $pextra 2>/dev/null && [ "$(left)" -gt 5 ]; do sleep 2; done
  note "compile only: $(cat "$E"/*.time 2>/dev/null | tr '\n' ';') $(kill -0 $pextra 2>/dev/null && echo '(still running at the deadline)')"
  grep -aE "Used [0-9]+ registers|spill stores" "$E"/*.log 2>/dev/null | sed 's/.*ptxas info *: //' | sort | uniq -c | sort -rn | head -8 >>"$log"
fi
note "== status $status ($(( $(date +%s) - t0 )) s)"
(cd "$OUT" && tar czf logs.tgz --exclude=logs.tgz --exclude=summary.txt . 2>/dev/null && find . -type f ! -name logs.tgz ! -name summary.txt -delete)
exit $status
