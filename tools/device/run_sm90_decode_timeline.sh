#!/usr/bin/env bash
# Per-CTA timeline of the SM90 decode kernel (sm90::DecodeGemm<bf16>, Stream-K 128x64x64): copies
# include/, kernels/, bench/, tools/device/ and tools/harness/ into $W/tree, instruments the copy's
# kernel headers with clock stamps (sm90_decode_timeline_patch.py, which fails naming any anchor
# it does not find once; this tree's headers stay as they are), builds the probe
# sm90_decode_timeline.cu there alone (one TU, one kernel), prints ptxas's line for its kernel
# and the SASS local-memory check, then runs it (default: the suite's four 64-token shapes and
# 4096 x 128 x 14336; SHAPES="M N K ..." for others). One device call (~2-4 min of build on 16
# cores, ~1 min of runs). Files in $OUT (5): summary.txt (everything printed), ptxas.txt,
# sass_decode.txt.gz (the decode kernel's SASS), timeline_raw.csv.gz (every record), build.log.
#   OUT=/tmp/out W=<build dir> [REPS=40] [SHAPES="6144 64 4096"] tools/device/run_sm90_decode_timeline.sh
set -uo pipefail
OUT=${OUT:-/tmp/decode-timeline}
W=${W:-/tmp/decode-timeline-build}
mkdir -p "$OUT" "$W"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
t0=$(date +%s)
note "== sm90 decode kernel timeline $(date -u +%FT%TZ) $(git rev-parse --short HEAD 2>/dev/null)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
rm -rf "$W/tree" && mkdir -p "$W/tree/tools"
cp -r include kernels bench "$W/tree/" && cp -r tools/device tools/harness "$W/tree/tools/"
python3 tools/device/sm90_decode_timeline_patch.py "$W/tree" 2>&1 | tee -a "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || { note "patch FAILED: an anchor was not found once (see above); nothing built"; exit 1; }
F=(-std=c++20 --expt-relaxed-constexpr -O3 -lineinfo -gencode=arch=compute_90a,code=sm_90a -Xptxas -v -diag-suppress 20012,177
   -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 -Iinclude -Ikernels)
for cc in g++-13 g++-14 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
( cd "$W/tree" && nvcc "${F[@]}" tools/device/sm90_decode_timeline.cu -o "$W/decode_timeline" -lcublas ) >"$OUT/build.log" 2>&1
rc=$?
note "build rc=$rc in $(( $(date +%s) - t0 )) s"
grep -aE "error" "$OUT/build.log" | head -10 | tee -a "$log"
grep -aE "ptxas info|bytes stack|registers|spill" "$OUT/build.log" >"$OUT/ptxas.txt"
note "ptxas: $(grep -ac C7520 "$OUT/build.log") C7520; $(grep -aA2 'gemm_sm90_entry' "$OUT/build.log" | grep -aE 'stack frame|registers' | tr -s ' ' | tr '\n' ';')"
[ -x "$W/decode_timeline" ] || exit 1
bash tools/device/sass_spills.sh "$W/decode_timeline" "$OUT" HGMMA 2>&1 | sed -E 's/(gemm_sm90_entry<).*/\1...>/' | head -5 | tee -a "$log"
mv -f "$OUT/sass_all.txt.gz" "$OUT/sass_decode.txt.gz" 2>/dev/null; rm -f "$OUT/sass_all.txt"
timeout 300 "$W/decode_timeline" --reps "${REPS:-40}" --raw "$OUT/timeline_raw.csv" ${SHAPES:-} 2>&1 | tee -a "$log"
gzip -f "$OUT/timeline_raw.csv" 2>/dev/null
note "== end $(( $(date +%s) - t0 )) s"
