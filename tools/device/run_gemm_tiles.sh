#!/usr/bin/env bash
# SM90 tile configurations side by side in one device call: builds one binary per
# configuration of tools/device/sm90_epi_probe.cu's ProbeTile list (-DTESSERA_PROBE_TILE=i: only
# that kernel compiled; all built at once, one core each), then runs them one after another,
# each against cuBLAS in its own process (alternating pairs after a lead-in, medians), cuBLAS
# the common anchor of the ratios: bf16 TN at the shape suite's kinds of problems (or SHAPES).
# What it answers: which tiles and clusters the kernel list lacks, and how far each
# configuration's mainloop and epilogue are from cuBLAS at each kind of shape.
#   OUT=/tmp/out [TILES="0 1 2 ..."] [SHAPES="M N K ..."] [REPS=20] tools/device/run_gemm_tiles.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-gemm-tiles}
B=${BUILD:-/tmp/tessera-gemm-tiles-build}
TILES=${TILES:-"0 1 2 3 4 5 6 7 8 9 10 11 12"}
REPS=${REPS:-20}
mkdir -p "$OUT" "$B"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
note "== SM90 tiles $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
F=(-std=c++20 --expt-relaxed-constexpr -O3 -lineinfo -gencode arch=compute_90a,code=sm_90a -Xptxas -v -diag-suppress 20012,177
   -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 -Iinclude)
for cc in g++-13 g++-14 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
t0=$(date +%s)
for i in $TILES; do
  nvcc "${F[@]}" -DTESSERA_PROBE_TILE="$i" tools/device/sm90_epi_probe.cu -o "$B/tile$i" -lcublas >"$OUT/build_tile$i.txt" 2>&1 &
done
wait
note "build: $(( $(date +%s) - t0 )) s"
status=0
for i in $TILES; do
  if [ ! -x "$B/tile$i" ]; then
    note "tile $i: build FAILED"; grep -m5 error "$OUT/build_tile$i.txt" | tee -a "$log"; status=1; continue
  fi
  grep -E "registers|spill" "$OUT/build_tile$i.txt" | grep -B0 -A0 "gemm_sm90_entry\|Used\|spill" | tail -2 | sed "s/^/tile $i ptxas: /" >>"$log"
  # shellcheck disable=SC2086
  timeout 120 "$B/tile$i" --tiles --reps "$REPS" ${SHAPES:-} >"$OUT/tile$i.txt" 2>&1 || status=1
  cat "$OUT/tile$i.txt" | tee -a "$log"
done
note "== done: status $status ($(( $(date +%s) - t0 )) s)"
exit $status
