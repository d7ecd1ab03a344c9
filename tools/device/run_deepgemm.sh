#!/usr/bin/env bash
# DeepGEMM's block-scaled FP8 GEMM on the GPU machine: the anchor the FP8 issue names for
# tessera's block-scaled kernels. Nothing of DeepGEMM is part of tessera: the call carries a
# checkout of deepseek-ai/DeepGEMM with its two submodules (third-party/cutlass's include/ and
# third-party/fmt), e.g. in an ignored folder .deps/deepgemm, and this script
#   1. builds its extension (setup.py build_ext --inplace in a copy under /tmp; the machine has
#      torch, setuptools and ninja, nothing is fetched) unless STEP=run;
#   2. runs tools/device/deepgemm_fp8.py (DeepGEMM block-scaled beside torch._scaled_mm per-tensor,
#      one process; TESSERA=1 adds tessera.gemm when the module is on PYTHONPATH) on the shapes
#      given (default: 4096, 128 and 64 x 7168 x 16384), DeepGEMM's first call compiling its kernel
#      (the configuration it chose: its template arguments, read off the JIT cache) unless STEP=build;
#   3. the SASS k-loop of every kernel it compiled (tools/device/sass_kloop.py, QGMMA: FP8 wgmma),
#      the same count run_sm90_fp8_block_probe.sh prints for tessera's variants;
#   4. NCU=1: one ncu report of DeepGEMM's kernel at NCU_SHAPE (the probe's sections), set beside
#      the probe variants' reports in PROBE_LOGS (run_sm90_fp8_block_probe.sh's logs.tgz) by
#      tools/device/ncu_fp8_summary.py: stall reasons and the SASS lines the warps wait on.
#   run(command="DG=.deps/deepgemm OUT=$OUT NCU=1 bash tools/device/run_deepgemm.sh", carry=[".deps/deepgemm"])
# $OUT: summary.txt (everything above) and work.tgz (the build log, the SASS, the ncu reports).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
DG=${DG:?DG=path of a DeepGEMM checkout with its submodules}
OUT=${OUT:-/tmp/tessera-deepgemm}
W=${DG_WORK:-/tmp/deepgemm}
STEP=${STEP:-all}
NCU_SHAPE=${NCU_SHAPE:-"4096 7168 16384"}
mkdir -p "$OUT/work"
log="$OUT/summary.txt"
[ "$STEP" = run ] || : >"$log"
note() { echo "$*" | tee -a "$log"; }
t0=$(date +%s)
status=0
note "== DeepGEMM block-scaled FP8 $(date -u +%FT%TZ) step=$STEP"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"

if [ "$STEP" != run ]; then
  [ -d "$DG/deep_gemm" ] && [ -d "$DG/third-party/cutlass/include/cute" ] && [ -d "$DG/third-party/fmt/include" ] || {
    note "no DeepGEMM checkout with submodules at $DG"; exit 1; }
  rm -rf "$W" && cp -r "$DG" "$W"
  ln -sfn "$W/third-party/cutlass/include/cutlass" "$W/deep_gemm/include/cutlass"
  ln -sfn "$W/third-party/cutlass/include/cute" "$W/deep_gemm/include/cute"
  # (the system's g++, not the image's CXX wrapper: an extension built by the wrapper crashed in
  # libstdc++'s ostream on its first call, a library mismatch; DG_CXX overrides)
  cxx=${DG_CXX:-$(command -v /usr/bin/g++ || command -v g++)}
  (cd "$W" && CXX="$cxx" CC="${cxx%++}cc" MAX_JOBS=${MAX_JOBS:-8} python3 setup.py build_ext --inplace) >"$OUT/work/build.log" 2>&1
  r=$?
  so=$(ls "$W"/deep_gemm/_C*.so 2>/dev/null | head -1)
  note "build: rc=$r ${so:+$(basename "$so")} ($(( $(date +%s) - t0 )) s)"
  [ -n "$so" ] || { grep -a -m8 -E 'error|Error' "$OUT/work/build.log" | cut -c1-300 | tee -a "$log"; exit 1; }
fi
[ "$STEP" = build ] && exit 0

# (not DG_PRINT_CONFIGS: printing a configuration crashes this build inside libstdc++'s ostream;
# the configuration is read off the kernel's instantiation in the JIT cache below instead)
export PYTHONPATH="$W${PYTHONPATH:+:$PYTHONPATH}" DG_JIT_CACHE_DIR=/tmp/deepgemm-cache PYTHONUNBUFFERED=1
extra=()
[ "${TESSERA:-0}" = 1 ] && extra+=(--tessera)
(cd "$ROOT/tools/device" && timeout "${BENCH_S:-300}" python3 deepgemm_fp8.py --profile "${extra[@]}" "$@") 2>&1 | cut -c1-400 | tee -a "$log"
r=${PIPESTATUS[0]}
note "bench: rc=$r ($(( $(date +%s) - t0 )) s)"
[ "$r" -eq 0 ] || status=1

if command -v cuobjdump >/dev/null; then
  find /tmp/deepgemm-cache -name '*.cubin' 2>/dev/null | while read -r f; do
    d=$(dirname "$f")
    grep -h -o 'sm90_fp8_gemm_1d2d_impl<[^>]*>' "$d"/*.cu 2>/dev/null | head -1 | sed 's/^/dg kernel: /' | tee -a "$log"
    s="$OUT/work/$(basename "$d").sass"
    cuobjdump -sass "$f" >"$s" 2>&1
    grep -q sm90_fp8_gemm "$s" && python3 tools/device/sass_kloop.py "$s" --mma QGMMA --label dg 2>&1 | cut -c1-400 | tee -a "$log"
  done
fi

if [ "${NCU:-0}" = 1 ] && command -v ncu >/dev/null; then
  mkdir -p "$OUT/work/ncu"
  sec=(--section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section InstructionStats
       --section SourceCounters --section LaunchStats --section Occupancy)
  rep="$OUT/work/ncu/dg"
  # shellcheck disable=SC2086
  (cd "$ROOT/tools/device" && timeout "${NCU_S:-150}" ncu --clock-control none "${sec[@]}" \
     --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active -k regex:sm90_fp8_gemm --launch-count 1 -f -o "$rep" \
     python3 deepgemm_fp8.py --reps 1 $NCU_SHAPE) >"$OUT/work/ncu/dg.log" 2>&1
  note "ncu: rc=$? ($(( $(date +%s) - t0 )) s)"
  if [ -f "$rep.ncu-rep" ]; then
    ncu -i "$rep.ncu-rep" --print-details all >"$rep.details.txt" 2>&1
    ncu -i "$rep.ncu-rep" --page raw --csv >"$rep.raw.csv" 2>&1
    ncu -i "$rep.ncu-rep" --page source --csv --print-source sass >"$rep.source.csv" 2>&1 || true
    names=(dg)
    if [ -n "${PROBE_LOGS:-}" ] && [ -f "$PROBE_LOGS" ]; then
      tar xzf "$PROBE_LOGS" -C /tmp work/ncu 2>/dev/null
      for f in /tmp/work/ncu/v*.details.txt; do
        [ -f "$f" ] || continue
        v=$(basename "$f" .details.txt); cp /tmp/work/ncu/"$v".* "$OUT/work/ncu/"; names+=("$v")
      done
    fi
    python3 tools/device/ncu_fp8_summary.py "$OUT/work/ncu" "${names[@]}" 2>&1 | cut -c1-260 | tee -a "$log"
  else
    tail -3 "$OUT/work/ncu/dg.log" | tee -a "$log"; status=1
  fi
fi
(cd "$OUT" && tar czf work.tgz work 2>/dev/null && rm -rf work)
note "== status $status ($(( $(date +%s) - t0 )) s)"
exit $status
