#!/usr/bin/env bash
# The Stream-K schedule and its fix-up on the GPU machine in one call: builds
# tools/device/stream_k_check.cu alone (~20 s), runs it (the issue's shapes with their real tile
# counts and generated ones, three launches each: C bit for bit against the host's reduction in
# the documented order, every tile stored once, no stall, no flag left with the launch's tag, on
# a workspace of 0xff bytes never cleared; round 1 replays round 0's tag), then compute-sanitizer
# memcheck and racecheck on one launch each (SAN=0 skips them). Logs under $OUT.
#   OUT=/tmp/out tools/device/run_stream_k_check.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-stream-k-check}
BIN=/tmp/stream-k-check-bin
mkdir -p "$OUT" "$BIN"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
note "== stream-K check $(date -u +%FT%TZ) commit=${COMMIT:-unknown}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
FLAGS=(-std=c++20 --expt-relaxed-constexpr -O2 -fmad=false -lineinfo -gencode arch=compute_90a,code=sm_90a -Iinclude -Ikernels
       -diag-suppress 177)
for cc in g++-14 g++-13 g++-12; do command -v $cc >/dev/null && { FLAGS+=(-ccbin "$(command -v $cc)"); break; }; done
t0=$(date +%s)
nvcc "${FLAGS[@]}" tools/device/stream_k_check.cu -o "$BIN/stream_k_check" >"$OUT/build.txt" 2>&1
r=$?
note "build: rc=$r in $(( $(date +%s) - t0 )) s"
[ $r -eq 0 ] || { tail -20 "$OUT/build.txt" | tee -a "$log"; exit 1; }
timeout 300 "$BIN/stream_k_check" 3 >"$OUT/check.txt" 2>&1
r=$?
grep -c "ok  " "$OUT/check.txt" | sed 's/^/cases passing (per round): /' | tee -a "$log"
grep -E "FAIL|error" "$OUT/check.txt" | head -20 | tee -a "$log"
tail -1 "$OUT/check.txt" | tee -a "$log"
note "check: rc=$r (124: timed out, a stall)"
if [ "${SAN:-1}" != 0 ] && command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck; do
    timeout 600 compute-sanitizer --tool $tool --error-exitcode 3 "$BIN/stream_k_check" 1 >"$OUT/$tool.txt" 2>&1
    note "$tool: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$tool.txt" | tail -1)"
  done
fi
