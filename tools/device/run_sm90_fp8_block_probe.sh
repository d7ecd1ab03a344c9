#!/usr/bin/env bash
# What bounds the block-scaled FP8 k-tile, in one device call of at most MAX_S seconds (default
# 240): tools/device/sm90_fp8_block_probe.cu's variants (bench/notes/fp8.md's decision table
# reads the results), no library build.
#   1. build: each variant one object (-DTESSERA_FP8_PROBE_VARIANT=i, only its kernel), all
#      side by side with the driver (9 jobs by default on 16 cores: ~45-60 s), linked into one binary;
#   2. ptxas registers / spills of each kernel, and its SASS k-loop counted by opcode
#      (tools/device/sass_kloop.py: QGMMA, FFMA, FMUL, LDS widths, barriers, wgmma waits,
#      mbarrier ops, spills) and sass_spills.sh's spill line;
#   3. the probe: every variant checked (poisoned D, FP64 samples, the block variants against
#      a's D bit for bit) and timed in rotated rounds at 4096 and 2048 x 7168 x 16384 and at
#      1024 x 2048 x 16384 (one partial wave: the k-tile at a light load) (~15 s);
#   4. ncu on NCU_VARIANTS (default r2, r: ~30-50 s each at 4096 x 7168 x 16384), one report
#      each (SpeedOfLight, ComputeWorkloadAnalysis, WarpStateStats, SchedulerStats,
#      InstructionStats, SourceCounters, LaunchStats, Occupancy, the tensor pipe's and shared
#      memory's metrics), skipped once less than NCU_MIN_S is left; the side by side and the
#      stall reasons (per reason and per SASS line: tools/device/ncu_fp8_summary.py) into
#      summary.txt.
#   OUT=$OUT bash tools/device/run_sm90_fp8_block_probe.sh
#   [VARIANTS="0 1 ..."] [NCU_VARIANTS="13 12"] [REPS=20] [MAX_S=240] [NCU_MIN_S=40] [NCU_SHAPE="4096 7168 16384"]
# $OUT at the end: summary.txt, probe.txt, logs.tgz (the build logs, the SASS, the ncu reports
# and their exports).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-fp8-block-probe}
B=${BUILD:-/tmp/tessera-fp8-block-probe-build}
MAX_S=${MAX_S:-240}
VARIANTS=${VARIANTS:-"0 1 2 3 5 6 11 12 13 14"}  # (r, r2, r2-sk beside a, b, c, d, e, e-sa, d128; all: "0 1 ... 23")
# Per-tensor variants against d256 (4; list it first: the others' D is compared with its bits):
# 15 pp (ping-pong 64x256 per warpgroup, c2), 16 pp128 (ping-pong 128x128, c2; its cooperative
# twin is d128, 11), 17 c1 (no cluster), 18 c4 (clusters of 4), 19 s3 (3 stages), 20 pp-c4
# (ping-pong 64x256, clusters of 4), 21 k64 (BK 64, 8 stages), 22 eo2 (the epilogue under the
# next tile's 2 k-tiles), 23 c256 (cooperative 256x128x128, 128x128 per consumer warpgroup,
# clusters of 2 along M; its D must equal d256's bit for bit: bench/notes/fp8.md), and the tokens
# along the tile's M (D row-major, the problem untransposed: the cluster pair shares the weight
# tile, as cuBLASLt's): 24 d256r (128x256), 25 c256r (256x128), 26 d128r (128x128), each bitwise
# d256; 27 m160 (128x160, Fp8Mid) and 28 m160eo2 (its epilogue under the next tile), e.g.
#   OUT=$OUT VARIANTS="4 11 15 16 17 18 19 20 21 22" NCU_VARIANTS="4 22" MAX_S=400 bash tools/device/run_sm90_fp8_block_probe.sh
# and A/B pairs after it: $BUILD/probe --reps 30 --variants 4,22 [--gap-us 2000] 4096 7168 16384 8192 8192 8192
#   OUT=$OUT VARIANTS="4 23" NCU_VARIANTS="" MAX_S=200 bash tools/device/run_sm90_fp8_block_probe.sh
#   OUT=$OUT VARIANTS="4 27 28" NCU_VARIANTS="" MAX_S=260 bash tools/device/run_sm90_fp8_block_probe.sh; \
#     $BUILD/probe --reps 40 --variants 27,28,4 320 32576 7168 640 32576 7168
#   OUT=$OUT VARIANTS="4 22 23 24 25 26" NCU_VARIANTS="" MAX_S=200 bash tools/device/run_sm90_fp8_block_probe.sh
# (a variant whose object fails to build is reported and left out; the others still run)
NCU_VARIANTS=${NCU_VARIANTS-"13 12"}  # (r2, then r; empty: no ncu)
NCU_MIN_S=${NCU_MIN_S:-40}
NCU_SHAPE=${NCU_SHAPE:-"4096 7168 16384"}
REPS=${REPS:-20}
mkdir -p "$OUT" "$B" "$OUT/work"
W=$OUT/work
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
t0=$(date +%s)
left() { echo $(( MAX_S - ($(date +%s) - t0) )); }
status=0
note "== sm90 fp8 block probe $(date -u +%FT%TZ) commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown) MAX_S=$MAX_S"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"

# ---- 1. build (one object per variant, side by side)
F=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 -O3
   -lineinfo -Iinclude -Ikernels -diag-suppress 20012,177 -gencode=arch=compute_90a,code=sm_90a)
for cc in g++-14 g++-13 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
SRC=tools/device/sm90_fp8_block_probe.cu
build_s=$(( $(left) - 80 ))  # (leave the probe and one ncu report their time)
[ $build_s -gt 160 ] && build_s=160
pids=()
timeout "$build_s" nvcc "${F[@]}" -c "$SRC" -o "$B/main.o" >"$W/build_main.txt" 2>&1 & pids+=($!)
for v in $VARIANTS; do
  rm -f "$B/v$v.o"
  timeout "$build_s" nvcc "${F[@]}" -Xptxas -v -DTESSERA_FP8_PROBE_VARIANT="$v" -c "$SRC" -o "$B/v$v.o" >"$W/build_v$v.txt" 2>&1 & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
objs=() built=()
for v in $VARIANTS; do
  if [ -f "$B/v$v.o" ]; then objs+=("$B/v$v.o") built+=("$v")
  else note "variant $v: build FAILED: $(grep -m3 -aE 'error|Killed|Terminated' "$W/build_v$v.txt" | tr '\n' ' ' | cut -c1-300)"; status=1; fi
done
rm -f "$B/probe"
[ -f "$B/main.o" ] && [ ${#objs[@]} -gt 0 ] && nvcc "${F[@]}" -o "$B/probe" "$B/main.o" "${objs[@]}" >"$W/build_link.txt" 2>&1
note "build: $([ -x "$B/probe" ] && echo ok || echo FAILED), ${#objs[@]} variants ($(( $(date +%s) - t0 )) s)"
[ -x "$B/probe" ] || { grep -m10 -a error "$W"/build_*.txt | tee -a "$log"; status=1; }

# ---- 2. registers, spills, the SASS k-loops
for v in $VARIANTS; do
  [ -f "$B/v$v.o" ] || continue
  f="$W/build_v$v.txt"
  note "ptxas v$v: $(grep -aoE 'Used [0-9]+ registers' "$f" | sort -u | tr '\n' ' ')| $(grep -aoE '[0-9]+ bytes spill stores, [0-9]+ bytes spill loads' "$f" | sort | uniq -c | tr -s ' ' | tr '\n' ';') $(grep -acE "C75(10|18|20)" "$f") wgmma serializations (C7510, C7518, C7520)"
  if command -v cuobjdump >/dev/null; then
    cuobjdump -sass "$B/v$v.o" >"$W/sass_v$v.txt" 2>&1
    # (8-bit wgmma disassembles as QGMMA: every kernel here is FP8)
    python3 tools/device/sass_kloop.py "$W/sass_v$v.txt" --mma QGMMA --label "v$v" 2>&1 | cut -c1-400 | tee -a "$log"
    mkdir -p "$W/spills_v$v" && bash tools/device/sass_spills.sh "$B/v$v.o" "$W/spills_v$v" QGMMA | cut -c1-160 | sed "s/^/v$v /" | tee -a "$log"
  fi
done
[ -n "$(command -v cuobjdump)" ] || note "sass: no cuobjdump"

# ---- 3. check and time every variant
if [ -x "$B/probe" ]; then
  t=$(( $(left) - NCU_MIN_S )); [ $t -gt 120 ] && t=120; [ $t -lt 30 ] && t=30
  list=$(echo "${built[@]}" | tr ' ' ',')  # (the variants that built: the binary has only those)
  timeout "$t" "$B/probe" --reps "$REPS" --variants "$list" >"$OUT/probe.txt" 2>&1
  r=$?
  [ $r -ne 0 ] && status=1
  note "probe: rc=$r ($(( $(date +%s) - t0 )) s)"
  cat "$OUT/probe.txt" >>"$log"
  cat "$OUT/probe.txt"
fi

# ---- 4. ncu: the headline metrics, stall reasons, and where in the k-loop the warps wait
names=()
if [ -x "$B/probe" ] && command -v ncu >/dev/null; then
  mkdir -p "$W/ncu"
  sec=(--section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section InstructionStats
       --section SourceCounters --section LaunchStats --section Occupancy)
  extra=sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  for v in $NCU_VARIANTS; do
    [ -f "$B/v$v.o" ] || continue
    l=$(left)
    if [ "$l" -lt "$NCU_MIN_S" ]; then note "ncu v$v: skipped (${l} s left, MAX_S guard)"; continue; fi
    t=$(( l - 10 )); [ $t -gt 100 ] && t=100
    rep="$W/ncu/v$v"
    rm -f "$rep.ncu-rep"
    # shellcheck disable=SC2086
    timeout "$t" ncu --clock-control none "${sec[@]}" --metrics "$extra" -k regex:gemm_sm90_entry --launch-count 1 -f -o "$rep" \
      "$B/probe" --ncu "$v" $NCU_SHAPE >"$W/ncu_v$v.log" 2>&1
    r=$?
    if [ ! -f "$rep.ncu-rep" ] && grep -qaiE "metric|not (found|available)" "$W/ncu_v$v.log" && [ "$(left)" -gt 30 ]; then
      # (an ncu without one of the extra metrics: the sections alone)
      t=$(( $(left) - 10 )); [ $t -gt 100 ] && t=100
      # shellcheck disable=SC2086
      timeout "$t" ncu --clock-control none "${sec[@]}" -k regex:gemm_sm90_entry --launch-count 1 -f -o "$rep" \
        "$B/probe" --ncu "$v" $NCU_SHAPE >>"$W/ncu_v$v.log" 2>&1
      r=$?
    fi
    note "ncu v$v: rc=$r ($(( $(date +%s) - t0 )) s)"
    [ -f "$rep.ncu-rep" ] || { tail -3 "$W/ncu_v$v.log" | tee -a "$log"; status=1; continue; }
    ncu -i "$rep.ncu-rep" --print-details all >"$W/ncu/v$v.details.txt" 2>&1
    ncu -i "$rep.ncu-rep" --page raw --csv >"$W/ncu/v$v.raw.csv" 2>&1
    ncu -i "$rep.ncu-rep" --page source --csv --print-source sass >"$W/ncu/v$v.source.csv" 2>&1 || true
    names+=("v$v")
  done
  [ ${#names[@]} -gt 0 ] && python3 tools/device/ncu_fp8_summary.py "$W/ncu" "${names[@]}" 2>&1 | cut -c1-260 | tee -a "$log"
else
  note "ncu: skipped ($(command -v ncu >/dev/null && echo 'no probe binary' || echo 'no ncu'))"
fi

note "== status $status ($(( $(date +%s) - t0 )) s)"
(cd "$OUT" && tar czf logs.tgz work 2>/dev/null; rm -rf work)
exit $status
