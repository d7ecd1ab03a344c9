#!/usr/bin/env bash
# One script for the GPU machine: build tessera's GEMM kernels for sm_90, run the GPU
# correctness tests, compute-sanitizer (memcheck, racecheck) on a few shapes, ncu
# shared-memory bank-conflict counters for every kernel configuration, the cuBLAS benchmark,
# and the ptxas register/spill report.  Everything lands under $OUT (at most 8 files).
#
#   OUT=/tmp/out COMMIT=<sha> tools/device/run_gpu.sh [steps...]
#   steps: build test atoms sanitize trace ncu variants bench hopper   (default: all but variants
#   and hopper, in that order; test runs the GPU test and example 4b; atoms gemm per MMA atom and
#   copy per copy atom (algorithm_gpu_test.cu, stmatrix_gpu_test.cu); hopper the sm_90a checks and
#   the SM90 GEMM, tools/device/run_hopper_gemm.sh)
#
# Build: nvcc directly, not CMake: the device image has CUDA, CMake and ninja but not the
# Debian packages the full CMake configure requires (Catch2, rapidcheck).
# The flags are the ones CMake uses for CMAKE_CUDA_ARCHITECTURES=90.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-gpu-out}
BUILD=${BUILD:-/tmp/tessera-gpu-build}
mkdir -p "$OUT" "$BUILD"
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(build test atoms sanitize trace ncu bench)
want() { local s; for s in "${steps[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }
summary="$OUT/summary.txt"
status=0
note() { echo "$*" | tee -a "$summary"; }

: >"$summary"
note "== tessera GPU run $(date -u +%FT%TZ) commit=${COMMIT:-unknown}"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$summary"
nvcc --version | tail -2 | tee -a "$summary"

NVCC_FLAGS=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 -O3 -lineinfo
            "--generate-code=arch=compute_90,code=[compute_90,sm_90]"
            -Iinclude -Ikernels)

if want build; then
  t0=$(date +%s)
  {
    # The translation units in parallel (the kernels are split over device/instances/ for
    # this, see configs.cuh); the kernels' TUs carry the ptxas report.
    kobjs=()
    kpids=()
    # (a tuning build: the variants of bench --variants included, as TESSERA_BUILD_TUNING_VARIANTS=ON)
    for src in kernels/device/gemm.cu kernels/device/gemm_variants.cu kernels/device/instances/*.cu; do
      o="$BUILD/k_$(basename "$src" .cu).o"
      nvcc "${NVCC_FLAGS[@]}" -DTESSERA_TUNING_VARIANTS=1 -Xptxas -v -c "$src" -o "$o" 2>"$o.ptxas" &
      kpids+=($!)
      kobjs+=("$o")
    done
    # The SM90 GEMM (tessera::gemm's path on sm_90): sm_90a only (wgmma, setmaxnreg).
    # (the dispatch and its kernel TUs, sm90_instances*.cu, side by side)
    for src in kernels/device/sm90_instances*.cu; do
      o="$BUILD/k_$(basename "$src" .cu).o"
      nvcc "${NVCC_FLAGS[@]/--generate-code=arch=compute_90,code=\[compute_90,sm_90\]/-gencode=arch=compute_90a,code=sm_90a}" \
        -Xptxas -v -c "$src" -o "$o" 2>"$o.ptxas" &
      kpids+=($!)
      kobjs+=("$o")
    done
    # (the library's host code: gemm_tune, the tuning cache; the SM90 dispatch calls it)
    host_objs=()
    pids=()
    source tools/device/host_objects.sh
    host_objects "$BUILD" "${NVCC_FLAGS[@]}"
    kpids+=("${pids[@]}")
    kobjs+=("${host_objs[@]}")
    nvcc "${NVCC_FLAGS[@]}" -c tests/kernels/gemm_gpu_test.cu -o "$BUILD/gemm_gpu_test.o" &
    p2=$!
    nvcc "${NVCC_FLAGS[@]}" -c bench/gemm.cu -o "$BUILD/gemm_bench.o" &
    p3=$!
    # The trace tool: the kernels with the Recorder trace policy (nvcc) + the host trace
    # writer and verifier (g++, the runtime and verify libraries' sources; no CMake packages).
    # (its SM90 part, gemm_trace --sm90, for sm_90a in a TU of its own; --config NAME: a unit
    # per configuration, src/gemm_trace/sm90_trace_configs.hpp, compiled side by side)
    trace_units=(gemm_trace_sm90 sm90_trace_fp8_128x256 sm90_trace_bf16_128x128 sm90_trace_bf16_64x128_pingpong sm90_trace_stream_k)
    trace_objs=("${trace_units[@]/#/$BUILD/}")
    trace_objs=("${trace_objs[@]/%/.o}")
    { tpids=()
      nvcc "${NVCC_FLAGS[@]}" -c src/gemm_trace/gemm_trace.cu -o "$BUILD/gemm_trace.o" &
      tpids+=($!)
      for u in "${trace_units[@]}"; do
        nvcc "${NVCC_FLAGS[@]/--generate-code=arch=compute_90,code=\[compute_90,sm_90\]/-gencode=arch=compute_90a,code=sm_90a}" \
          -Isrc/gemm_trace -c "src/gemm_trace/$u.cu" -o "$BUILD/$u.o" &
        tpids+=($!)
      done
      tok=1
      for p in "${tpids[@]}"; do wait "$p" || tok=0; done
      [ $tok = 1 ]; } &
    p5=$!
    g++ -std=c++20 -O1 -Iinclude -Ikernels -c src/gemm_trace/gemm_trace_main.cpp \
      -o "$BUILD/gemm_trace_main.o" &
    p6=$!
    root=$PWD
    # (One object per source, named by its folder too: src/verify/trace.cpp and
    # src/rt/trace.cpp would otherwise both be trace.o.)
    (mkdir -p "$BUILD/verify" && cd "$BUILD/verify" && rm -f ./*.o &&
      for src in "$root"/src/verify/trace.cpp "$root"/src/verify/verify.cpp "$root"/src/rt/*.cpp; do
        g++ -std=c++20 -O1 -I"$root/include" \
          -c "$src" -o "$(basename "$(dirname "$src")")_$(basename "$src" .cpp).o" &
      done && wait && ar rcs "$BUILD/libverify.a" ./*.o) &
    p7=$!
    # The trace tool is optional: its failure must not cost the tests and the benchmark.
    { wait $p5 && wait $p6 && wait $p7 &&
        nvcc -o "$BUILD/gemm_trace" "$BUILD/gemm_trace.o" "${trace_objs[@]}" "$BUILD/gemm_trace_main.o" "$BUILD/libverify.a"; } ||
      echo "trace tool build failed"
    kok=1
    for p in "${kpids[@]}"; do wait "$p" || kok=0; done
    cat "$BUILD"/k_*.o.ptxas >"$OUT/ptxas.log"
    [ $kok = 1 ] && wait $p2 && wait $p3 &&
      nvcc -o "$BUILD/gemm_gpu_test" "$BUILD/gemm_gpu_test.o" "${kobjs[@]}" &&
      nvcc -o "$BUILD/gemm_bench" "$BUILD/gemm_bench.o" "${kobjs[@]}" -lcublas &&
      nvcc "${NVCC_FLAGS[@]}" -o "$BUILD/example_gemm_run" examples/4_gemm_run.cpp "${kobjs[@]}"
  } >"$OUT/build.log" 2>&1
  rc=$?
  grep -q "trace tool build failed" "$OUT/build.log" && note "build: gemm_trace failed (see build.log)"
  note "build: rc=$rc in $(( $(date +%s) - t0 )) s"
  if [ $rc -ne 0 ]; then cat "$OUT/build.log" "$OUT/ptxas.log" | grep -m 40 -E "error|Error" ; exit 1; fi
  # One line per kernel: registers, spills, stack, from ptxas -v.
  awk '/Compiling entry function/ {match($0, /_Z[^'"'"']*/); name=substr($0, RSTART, RLENGTH)}
       /bytes stack frame/ {stack=$1; spill_st=$5; spill_ld=$9}
       /Used [0-9]+ registers/ {for (i=1;i<=NF;i++) if ($i=="Used") regs=$(i+1);
         printf "ptxas: regs=%s stack=%s spill_st=%s spill_ld=%s %s\n", regs, stack, spill_st, spill_ld, name}' \
    "$OUT/ptxas.log" | c++filt -t 2>/dev/null | sed 's/tessera::kernels:://g' | tee -a "$summary" >/dev/null
  grep -c "^ptxas:" "$summary" | sed 's/^/ptxas: kernels reported: /' | tee -a "$summary"
fi

if want test; then
  "$BUILD/gemm_gpu_test" >"$OUT/gpu_test.log" 2>&1
  rc=$?
  [ $rc -ne 0 ] && status=1
  note "gpu test: rc=$rc, $(tail -1 "$OUT/gpu_test.log")"
  grep "^FAIL" "$OUT/gpu_test.log" | head -20 | tee -a "$summary"
fi

if want test; then
  # Example 4b, the README's "run it" step, on a real GPU (CI builds it and sees exit 77).
  "$BUILD/example_gemm_run" >"$OUT/example.log" 2>&1
  rc=$?
  [ $rc -ne 0 ] && status=1
  note "example 4b (examples/4_gemm_run.cpp): rc=$rc, $(tail -1 "$OUT/example.log")"
fi

if want atoms; then
  # The algorithms per atom on the GPU: gemm per MMA atom, copy per copy atom, against the
  # exact answer and their host emulation (tests/atoms/algorithm_gpu_test.cu); stmatrix.
  t0=$(date +%s)
  for t in algorithm_gpu_test stmatrix_gpu_test; do
    if nvcc "${NVCC_FLAGS[@]}" -diag-suppress 20012,177 tests/atoms/$t.cu -o "$BUILD/$t" >"$OUT/atoms_$t.log" 2>&1; then
      "$BUILD/$t" >>"$OUT/atoms_$t.log" 2>&1
      rc=$?
    else
      rc=build-failed
    fi
    [ "$rc" != 0 ] && status=1
    note "atoms $t: rc=$rc, $(tail -1 "$OUT/atoms_$t.log")"
    grep "^FAIL" "$OUT/atoms_$t.log" | head -10 | tee -a "$summary"
  done
  compute-sanitizer --tool memcheck --error-exitcode 9 "$BUILD/algorithm_gpu_test" >"$OUT/atoms_memcheck.log" 2>&1
  note "atoms algorithm_gpu_test memcheck: rc=$? $(grep 'ERROR SUMMARY' "$OUT/atoms_memcheck.log" | tail -1) ($(( $(date +%s) - t0 )) s)"
fi

if want sanitize; then
  # Residues, every layout, batches, both tensor-core copy paths, split-K (skinny_m1, beta_TN):
  # small shapes keep it fast.
  cases=one,seven,odd127,batched_odd_TT,beta_NN_pad,batched_TN,k1,skinny_m1,beta_TN
  { echo "== memcheck"; TESSERA_CASES=$cases compute-sanitizer --tool memcheck --error-exitcode 9 "$BUILD/gemm_gpu_test"; echo "rc=$?";
    echo "== racecheck"; TESSERA_CASES=odd127,batched_TN,beta_TN compute-sanitizer --tool racecheck --error-exitcode 9 "$BUILD/gemm_gpu_test"; echo "rc=$?";
    echo "== synccheck"; TESSERA_CASES=seven,odd127,beta_TN compute-sanitizer --tool synccheck --error-exitcode 9 "$BUILD/gemm_gpu_test"; echo "rc=$?";
  } >"$OUT/sanitizer.log" 2>&1
  grep -E "^== |^rc=|ERROR SUMMARY|passed," "$OUT/sanitizer.log" | tee -a "$summary"
  grep -q "^rc=[^0]" "$OUT/sanitizer.log" && status=1
fi

if want trace && [ -x "$BUILD/gemm_trace" ]; then
  # Device traces of both kernels in all four layouts; gemm_trace verifies each (exit 1 on
  # findings) and the files come back for `tessera verify` on the host.
  mkdir -p "$BUILD/traces"
  for kind in "" --simt; do
    for l in TN NT NN TT; do
      name=tensorop; [ -n "$kind" ] && name=simt
      f="$BUILD/traces/${name}_$l.trace"
      "$BUILD/gemm_trace" $kind --layout $l -o "$f" >>"$OUT/trace.log" 2>&1
      rc=$?
      [ $rc -ne 0 ] && status=1
      note "trace ${kind:-tensorop} $l: rc=$rc $(grep -c '^rec' "$f" 2>/dev/null) records"
    done
  done
  # The SM90 kernel's wgmma accumulators (TN; bf16 and f32 as tf32).
  for kind in "" --tf32; do
    f="$BUILD/traces/sm90${kind:+_tf32}_TN.trace"
    "$BUILD/gemm_trace" --sm90 $kind -o "$f" >>"$OUT/trace.log" 2>&1
    rc=$?
    [ $rc -ne 0 ] && status=1
    note "trace --sm90 $kind TN: rc=$rc $(grep -c '^rec' "$f" 2>/dev/null) records"
  done
  # The shipped SM90 kernel types over whole problems (gemm_trace --sm90 --config list): each
  # map's "N/N records match" line from gemm_trace's own verification; the traces come back
  # for `tessera verify` on the host.
  for c in fp8_128x256 bf16_128x128 bf16_64x128_pingpong stream_k; do
    f="$BUILD/traces/sm90_$c.trace"
    "$BUILD/gemm_trace" --sm90 --config $c -o "$f" 2>"$BUILD/traces/sm90_$c.report"
    rc=$?
    cat "$BUILD/traces/sm90_$c.report" >>"$OUT/trace.log"
    [ $rc -ne 0 ] && status=1
    note "trace --sm90 --config $c: rc=$rc $(grep '^map' "$BUILD/traces/sm90_$c.report" | tr '\n' ' ')"
  done
  tar -C "$BUILD" -czf "$OUT/traces.tgz" traces
  grep -E "FAILED|findings|error" "$OUT/trace.log" | head -20 | tee -a "$summary"
fi

if want ncu; then
  metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_op_ldsm.sum,sm__inst_executed_pipe_lsu.sum,gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed
  ncu --clock-control none --metrics "$metrics" -k regex:gemm_ --csv --page raw \
    "$BUILD/gemm_bench" --profile 2048 2048 2048 >"$OUT/ncu.csv" 2>>"$OUT/build.log"
  rc=$?
  note "ncu: rc=$rc (2048^3, one launch per configuration; full table in ncu.csv)"
  python3 - "$OUT/ncu.csv" <<'EOF' | tee -a "$summary"
import csv, sys, re
rows = [r for r in csv.reader(open(sys.argv[1])) if r]
hdr = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
if hdr is None:
    print("ncu: no table"); sys.exit()
h = rows[hdr]
col = lambda n: h.index(n) if n in h else None
want = ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "smsp__inst_executed_op_ldsm.sum", "gpu__time_duration.sum"]
print("ncu: kernel | conflicts ld | conflicts st | conflicts ldsm | wavefronts ld | ldsm instr | time")
for r in rows[hdr + 1:]:
    if len(r) != len(h) or not r[col("Kernel Name")]: continue
    if r[col("Kernel Name")].startswith("("): continue  # units row
    name = r[col("Kernel Name")]
    m = re.search(r"<([^()]*)>", name)
    short = name.split("(")[0].replace("tessera::kernels::", "") 
    print("ncu:", short[:150], "|", " | ".join(r[col(w)] if col(w) is not None else "-" for w in want))
EOF
fi

if want variants; then
  "$BUILD/gemm_bench" --variants >"$OUT/variants.log" 2>&1
  rc=$?
  [ $rc -ne 0 ] && status=1
  note "variants: rc=$rc"
  tail -n +2 "$OUT/variants.log" | tee -a "$summary"
fi

if want bench; then
  "$BUILD/gemm_bench" >"$OUT/bench.log" 2>&1
  rc=$?
  [ $rc -ne 0 ] && status=1
  note "bench: rc=$rc"
  sed -n '/^summary/,$p' "$OUT/bench.log" | tee -a "$summary"
fi
if want hopper; then
  # Hopper: descriptors and TMA against the hardware (tests/hopper/hopper_gpu_test.cu), then
  # the SM90 GEMM's build, test, memcheck and benchmark (run_hopper_gemm.sh; QUICK=1 keeps
  # its benchmark to TN bf16/f16), logs under hopper/.
  H90=(-std=c++20 --expt-relaxed-constexpr -Xcudafe --max_cost_constexpr_call=2000000000 -Xcompiler -fconstexpr-ops-limit=2147483647 -O3 -gencode arch=compute_90a,code=sm_90a -Iinclude -diag-suppress 20012)
  for cc in g++-14 g++-13 g++-12; do command -v $cc >/dev/null && { H90+=(-ccbin "$(command -v $cc)"); break; }; done
  if nvcc "${H90[@]}" tests/hopper/hopper_gpu_test.cu -o "$BUILD/hopper_gpu_test" >"$OUT/hopper_gpu_test.log" 2>&1; then
    "$BUILD/hopper_gpu_test" >>"$OUT/hopper_gpu_test.log" 2>&1
    rc=$?
  else
    rc=build-failed
  fi
  [ "$rc" != 0 ] && status=1
  note "hopper_gpu_test: rc=$rc, $(tail -1 "$OUT/hopper_gpu_test.log")"
  OUT="$OUT/hopper" COMMIT=${COMMIT:-unknown} tools/device/run_hopper_gemm.sh ${HOPPER_SHAPES:-} >/dev/null 2>&1
  grep -vE '^(device|==)' "$OUT/hopper/summary.txt" | tee -a "$summary"
  grep -q 'test rc=0' "$OUT/hopper/summary.txt" || status=1
fi

note "== done, status=$status"
exit $status
