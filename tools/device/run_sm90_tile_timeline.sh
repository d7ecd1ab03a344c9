#!/usr/bin/env bash
# Per-tile timeline of the SM90 cooperative kernel: copies include/, kernels/, bench/,
# tools/device/ and tools/harness/ into $W/tree, instruments the copy's kernel headers with clock stamps
# (sm90_tile_timeline_patch.py; this tree's headers stay as they are), builds the probe
# sm90_tile_timeline.cu there alone, prints ptxas's line for its kernel and the SASS local-memory
# check, then runs it (default shapes 8192x8192x1024 and 4096^3; SHAPES="M N K ..." for others).
#   OUT=/tmp/out W=<build dir> [REPS=20] [SHAPES="8192 8192 1024"] tools/device/run_sm90_tile_timeline.sh
set -uo pipefail
OUT=${OUT:-/tmp/tile-timeline}
W=${W:-/tmp/tile-timeline-build}
mkdir -p "$OUT"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
t0=$(date +%s)
note "== sm90 per-tile timeline $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
rm -rf "$W/tree" && mkdir -p "$W/tree/tools"
cp -r include kernels bench "$W/tree/" && cp -r tools/device tools/harness "$W/tree/tools/"
python3 tools/device/sm90_tile_timeline_patch.py "$W/tree" | tee -a "$log" || { note "patch failed"; exit 1; }
F=(-std=c++20 --expt-relaxed-constexpr -O3 -lineinfo -gencode arch=compute_90a,code=sm_90a -Xptxas -v -diag-suppress 20012,177
   -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 -Iinclude)
for cc in g++-13 g++-14 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
( cd "$W/tree" && nvcc "${F[@]}" --split-compile=0 tools/device/sm90_tile_timeline.cu -o "$W/timeline" -lcublas ) >"$OUT/ptxas.txt" 2>&1
note "build rc=$? in $(( $(date +%s) - t0 )) s"
grep -aE "error" "$OUT/ptxas.txt" | head -10 | tee -a "$log"
note "ptxas: $(grep -ac C7520 "$OUT/ptxas.txt") C7520; $(grep -aA2 'gemm_sm90_entry' "$OUT/ptxas.txt" | grep -aE 'stack frame|registers' | tr -s ' ' | tr '\n' ';')"
[ -x "$W/timeline" ] || exit 1
bash tools/device/sass_spills.sh "$W/timeline" "$OUT" HGMMA 2>&1 | sed -E 's/(gemm_sm90_entry<).*/\1...>/' | head -5 | tee -a "$log"
rm -f "$OUT"/sass_all.txt.gz
timeout 120 "$W/timeline" --reps "${REPS:-20}" ${SHAPES:-} 2>&1 | tee -a "$log"
note "== end $(( $(date +%s) - t0 )) s"
