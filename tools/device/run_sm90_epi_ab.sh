#!/usr/bin/env bash
# An SM90 kernel change against main in one device call from the branch's tree:
# build (side by side) the probe tools/device/sm90_epi_probe.cu against main's tree (BASE) and
# this tree ("new"), and (LIB=1, default) this tree's SM90 library (the instance TUs) with its
# GPU test; then the probes alternately (two rounds, same process order), the GPU test,
# compute-sanitizer memcheck of its --small set, SASS local-memory counts of every kernel, ncu
# of one launch per tree.
#   OUT=/tmp/out BASE=<main's tree> W=<build dir> [LIB=0] [NCU_SHAPE="8192 8192 1024"] [MAX_S=560] \
#     tools/device/run_sm90_epi_ab.sh
# (ec93479's version also built a 4-buffer variant by sed.)
# Steps after the build run only while the call has time left (MAX_S from the start).
set -uo pipefail
OUT=${OUT:-/tmp/epi-ab}
HERE=$PWD
BASE=$(cd "${BASE:?main tree}" && pwd)
W=${W:-/tmp/epi-ab-build}
MAX_S=${MAX_S:-560}
mkdir -p "$OUT" "$W/lib" "$W/probe"
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
t0=$(date +%s)
left() { [ $(( $(date +%s) - t0 )) -lt "$1" ]; }
note "== sm90 epilogue A/B $(date -u +%FT%TZ) base=$BASE"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
F=(-std=c++20 --expt-relaxed-constexpr -O3 -lineinfo -gencode arch=compute_90a,code=sm_90a -Xptxas -v -diag-suppress 20012,177
   -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 -Iinclude)
for cc in g++-13 g++-14 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
mkdir -p "$BASE/tools/device" && cp tools/device/sm90_epi_probe.cu "$BASE/tools/device/"
declare -A TREE=([base]=$BASE [new]=$HERE)
pids=()
for t in base new; do
  ( cd "${TREE[$t]}" && s=$(date +%s) && nvcc "${F[@]}" --split-compile=0 tools/device/sm90_epi_probe.cu -o "$W/probe/$t" -lcublas \
      >"$OUT/ptxas_probe_$t.txt" 2>&1; echo "build probe $t rc=$? $(( $(date +%s) - s )) s" >>"$log" ) &
  pids+=($!)
done
objs=()
[ "${LIB:-1}" = 1 ] && for src in kernels/device/sm90_instances*.cu; do
  o="$W/lib/$(basename "$src" .cu).o"
  objs+=("$o")
  ( s=$(date +%s); nvcc "${F[@]}" --split-compile=0 -c "$src" -o "$o" >"$o.ptxas" 2>&1; echo "build $src rc=$? $(( $(date +%s) - s )) s" >>"$log" ) &
  pids+=($!)
done
if [ "${LIB:-1}" = 1 ]; then
  nvcc "${F[@]}" -c tests/hopper/sm90_gemm_gpu_test.cu -o "$W/lib/test.o" >"$OUT/build_test.txt" 2>&1 &
  pids+=($!)
  # (the library's host code the dispatch calls: gemm_tune, the tuning cache)
  host_objs=()
  source tools/device/host_objects.sh
  host_objects "$W/lib" "${F[@]}"
  objs+=("${host_objs[@]}")
fi
for p in "${pids[@]}"; do wait "$p"; done
[ "${LIB:-1}" = 1 ] && { nvcc "${F[@]}" "$W/lib/test.o" "${objs[@]}" -o "$W/lib/sm90_test" >>"$OUT/build_test.txt" 2>&1; note "build test rc=$?"; }
note "build done in $(( $(date +%s) - t0 )) s"
cat "$W"/lib/*.ptxas >"$OUT/ptxas_lib.txt" 2>/dev/null
grep -aE "error" "$OUT"/ptxas_*.txt "$OUT"/build_test.txt 2>/dev/null | head -10 | tee -a "$log"
for t in base new; do
  note "ptxas probe $t: $(grep -aE 'stack frame' "$OUT/ptxas_probe_$t.txt" | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
done
note "ptxas lib (this tree): $(grep -ac 'Used' "$OUT/ptxas_lib.txt") functions, $(grep -ac C7520 "$OUT/ptxas_lib.txt") C7520; $(grep -aE 'stack frame' "$OUT/ptxas_lib.txt" | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
for t in base new; do
  [ -x "$W/probe/$t" ] || { note "probe $t missing"; continue; }
  mkdir -p "$OUT/sass_$t" && bash tools/device/sass_spills.sh "$W/probe/$t" "$OUT/sass_$t" HGMMA | sed -E 's/(gemm_sm90_entry<).*(CollectiveEpilogue[A-Za-z0-9]+<[^>]*>).*((Whole|SplitK)TileScheduler).*/\1 \2 \3/' | sed "s/^/$t /" | tee -a "$log"
done
# The epilogue's code size per kernel: instructions, shared stores, LOP3 (the swizzle's xor), IMAD/IADD.
for t in base new; do
  [ -x "$W/probe/$t" ] && cuobjdump -sass "$W/probe/$t" 2>/dev/null | awk -v t=$t '/Function : /{if (f) printf "%s sass: instr %d STS %d LOP3 %d IADD/IMAD %d %s\n", t, n, st, lo, ad, substr(f,1,40); f=$3; n=st=lo=ad=0}
    /\/\*[0-9a-f]+\*\//{n++} / STS/{st++} /LOP3/{lo++} /IADD|IMAD/{ad++}
    END{if (f) printf "%s sass: instr %d STS %d LOP3 %d IADD/IMAD %d %s\n", t, n, st, lo, ad, substr(f,1,40)}' | c++filt | tee -a "$log"
done
mkdir -p "$OUT/sass_lib"
for o in "${objs[@]:-}"; do [ -f "$o" ] && bash tools/device/sass_spills.sh "$o" "$OUT/sass_lib" HGMMA; done | awk '{print $1, $2, $3}' | sort | uniq -c | sed 's/^/lib (this tree): /' | tee -a "$log"
rm -f "$OUT"/sass_*/sass_all.txt.gz
run_probes() {
  for t in base new; do
    note "-- round $1: $t"
    [ -x "$W/probe/$t" ] && timeout 100 "$W/probe/$t" --reps 30 2>&1 | tee -a "$log"
  done
}
left "$MAX_S" && run_probes 1
if left $(( MAX_S - 60 )) && [ -x "$W/lib/sm90_test" ]; then
  note "-- GPU test (this tree)"
  timeout 240 "$W/lib/sm90_test" >"$OUT/test.txt" 2>&1
  note "test rc=$? $(tail -3 "$OUT/test.txt" | tr '\n' ' ')"
  grep -aE "FAIL|WRONG" "$OUT/test.txt" | head -10 | tee -a "$log"
fi
if left $(( MAX_S - 60 )) && [ -x "$W/lib/sm90_test" ]; then
  note "-- compute-sanitizer memcheck of the GPU test's --small set (this tree)"
  timeout 150 compute-sanitizer --tool memcheck "$W/lib/sm90_test" --small >"$OUT/memcheck.txt" 2>&1
  note "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.txt" | tail -1) $(tail -2 "$OUT/memcheck.txt" | tr '\n' ' ')"
fi
sec="--section SpeedOfLight --section WarpStateStats --section SchedulerStats --section LaunchStats --section MemoryWorkloadAnalysis"
for t in base new; do
  left $(( MAX_S - 50 )) || break
  timeout 60 ncu --clock-control none $sec -k regex:gemm_sm90_entry --launch-count 1 --print-details all "$W/probe/$t" --reps 0 ${NCU_SHAPE:-8192 8192 1024} \
    >"$OUT/ncu_$t.txt" 2>&1
  note "ncu $t ${NCU_SHAPE:-8192 8192 1024}: rc=$? $(grep -E 'Duration|Compute \(SM\) Throughput|Issue Slots Busy|Warp Cycles Per Issued|L2 Cache Throughput' "$OUT/ncu_$t.txt" | tr -s ' ' | tr '\n' ';')"
done
left $(( MAX_S - 40 )) && run_probes 2
note "== end $(( $(date +%s) - t0 )) s"
