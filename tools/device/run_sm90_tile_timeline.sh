#!/usr/bin/env bash
# Per-tile timeline of the SM90 cooperative kernel (the whole-tile 128x256 c2 bf16 kernel):
# copies include/, kernels/, bench/, tools/device/ and tools/harness/ into $W/tree, instruments
# the copy's kernel headers with clock stamps (sm90_tile_timeline_patch.py, which fails naming
# any anchor it does not find once; this tree's headers stay as they are), builds the probe
# sm90_tile_timeline.cu there once per epilogue order, in parallel (one TU, one kernel each: the
# epilogue after the tile; and under the next tile where kernels/kernel/sm90_epilogue_order.hpp
# exists), prints ptxas's line and the SASS local-memory check of each kernel, then runs them
# (default shapes 4096^3, 8192x8192x1024, 6144x4096x4096; SHAPES="M N K ..." for others;
# ORDERS="after" or "under" for one). One device call: ~1.5 min of build on 16 cores, ~1 min of
# runs. Files in $OUT (at most 6): summary.txt (everything printed), build.log, ptxas.txt,
# sass_after.txt.gz and sass_under.txt.gz (the kernels' SASS), timeline_raw.csv.gz (every
# record of the stamped launches).
#   OUT=/tmp/out W=<build dir> [REPS=20] [SHAPES="8192 8192 1024"] [ORDERS="after under"] tools/device/run_sm90_tile_timeline.sh
set -uo pipefail
OUT=${OUT:-/tmp/tile-timeline}
W=${W:-/tmp/tile-timeline-build}
mkdir -p "$OUT" "$W"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
t0=$(date +%s)
note "== sm90 cooperative kernel per-tile timeline $(date -u +%FT%TZ) $(git rev-parse --short HEAD 2>/dev/null)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
orders=after
[ -f kernels/kernel/sm90_epilogue_order.hpp ] && orders="after under"
orders=${ORDERS:-$orders}
rm -rf "$W/tree" && mkdir -p "$W/tree/tools"
cp -r include kernels bench "$W/tree/" && cp -r tools/device tools/harness "$W/tree/tools/"
python3 tools/device/sm90_tile_timeline_patch.py "$W/tree" 2>&1 | tee -a "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || { note "patch FAILED: an anchor was not found once (see above); nothing built"; exit 1; }
F=(-std=c++20 --expt-relaxed-constexpr -O3 -lineinfo -gencode=arch=compute_90a,code=sm_90a -Xptxas -v -diag-suppress 20012,177
   -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 -Iinclude -Ikernels)
for cc in g++-13 g++-14 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
for o in $orders; do
  case $o in after) n=0 ;; under) n=1 ;; *) note "ORDERS: after and/or under, not $o"; exit 2 ;; esac
  rm -f "$W/timeline_$o"
  ( cd "$W/tree" && nvcc "${F[@]}" -DTESSERA_TL_ORDER=$n tools/device/sm90_tile_timeline.cu -o "$W/timeline_$o" -lcublas ) >"$W/build_$o.log" 2>&1 &
done
wait
: >"$OUT/build.log"
: >"$OUT/ptxas.txt"
for o in $orders; do
  { echo "== build, epilogue $o"; cat "$W/build_$o.log"; } >>"$OUT/build.log"
  grep -aE "ptxas info|bytes stack|registers|spill" "$W/build_$o.log" | sed "s/^/$o: /" >>"$OUT/ptxas.txt"
  note "build $o: $([ -x "$W/timeline_$o" ] && echo ok || echo FAILED) ($(( $(date +%s) - t0 )) s); ptxas: $(grep -ac C7520 "$W/build_$o.log") C7520;" \
       "$(grep -aA2 'gemm_sm90_entry' "$W/build_$o.log" | grep -aE 'stack frame|registers' | tr -s ' ' | tr '\n' ';')"
  grep -aE "error" "$W/build_$o.log" | head -10 | tee -a "$log"
done
rm -f "$OUT/timeline_raw.csv"
status=0
for o in $orders; do
  [ -x "$W/timeline_$o" ] || { status=1; continue; }
  bash tools/device/sass_spills.sh "$W/timeline_$o" "$OUT" HGMMA 2>&1 | sed -E 's/(gemm_sm90_entry<).*/\1...>/' | sed "s/^/$o /" | head -5 | tee -a "$log"
  mv -f "$OUT/sass_all.txt.gz" "$OUT/sass_$o.txt.gz" 2>/dev/null; rm -f "$OUT/sass_all.txt"
  timeout 200 "$W/timeline_$o" --reps "${REPS:-20}" --raw "$OUT/timeline_raw.csv" ${SHAPES:-} 2>&1 | tee -a "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
gzip -f "$OUT/timeline_raw.csv" 2>/dev/null
note "== end $(( $(date +%s) - t0 )) s, status $status"
exit $status
