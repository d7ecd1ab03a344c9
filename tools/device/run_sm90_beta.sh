#!/usr/bin/env bash
# The SM90 GEMM with beta != 0 through TMA loads of C (session 11) in one call: every SM90
# instance TU side by side (ptxas -v kept), the GPU test (its beta cases among all), compute-
# sanitizer memcheck of the --small set, and the bench at 8192^3 and 4096x11008x4096 with
# beta = 0 and beta = 1 against cuBLAS with the same beta (TN, then NT). Device entry only
# (no bench variants: no extra kernels). Logs under $OUT.
#   OUT=/tmp/out tools/device/run_sm90_beta.sh
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-sm90-beta}
B=/tmp/sm90-beta-bin
mkdir -p "$OUT" $B
log="$OUT/summary.txt"
: >"$log"
note() { echo "$*" | tee -a "$log"; }
note "== sm90 beta $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | sed 's/^/device: /' | tee -a "$log"
F=(-std=c++20 --expt-relaxed-constexpr -O3 -lineinfo -gencode arch=compute_90a,code=sm_90a -Iinclude -diag-suppress 20012,177)
[ -d .devdeps/include ] && F+=(-isystem .devdeps/include)
for cc in g++-14 g++-13 g++-12; do command -v $cc >/dev/null && { F+=(-ccbin "$(command -v $cc)"); break; }; done
t0=$(date +%s)
objs=()
pids=()
for src in kernels/device/sm90_instances*.cu; do
  o="$B/$(basename "$src" .cu).o"
  ( s=$(date +%s); nvcc "${F[@]}" --split-compile=0 -Xptxas -v -c "$src" -o "$o" >"$o.ptxas" 2>&1; r=$?; echo "$src: rc=$r $(( $(date +%s) - s )) s" >"$o.time"; exit $r ) &
  pids+=($!)
  objs+=("$o")
done
nvcc "${F[@]}" -c tests/hopper/sm90_gemm_gpu_test.cu -o $B/test.o >"$OUT/build_test.txt" 2>&1 & pt=$!
nvcc "${F[@]}" -c bench/sm90_gemm_bench.cu -o $B/bench.o >"$OUT/build_bench.txt" 2>&1 & pb=$!
r0=0
for p in "${pids[@]}"; do wait "$p" || r0=1; done
wait $pt; rt=$?
wait $pb; rb=$?
cat $B/sm90_instances*.o.ptxas >"$OUT/ptxas.txt"
cat $B/sm90_instances*.o.time | tee -a "$log"
note "build: instances rc=$r0 test rc=$rt bench rc=$rb in $(( $(date +%s) - t0 )) s"
grep -aE "error" "$OUT/ptxas.txt" "$OUT/build_test.txt" "$OUT/build_bench.txt" | head -20 | tee -a "$log"
nvcc "${F[@]}" $B/test.o "${objs[@]}" -o $B/sm90_test && nvcc "${F[@]}" $B/bench.o "${objs[@]}" -o $B/sm90_bench -lcublas -lcublasLt
note "link rc=$?"
# Per kernel: registers, stack, spills (the plain TMA-store kernels carry the C loads now).
awk '/Compiling entry function/{f=$0} /Used [0-9]+ registers/{print f " :: " $0} /bytes stack frame/{print "   " $0}' "$OUT/ptxas.txt" | c++filt |
  sed -E 's/.*gemm_sm90_entry.*(Major::[A-Z]+, GMMA::Major::[A-Z]+).*(TmaStore<[a-z0-9_:]+, [0-9]+, [0-9]+, [12], Activation::[A-Za-z]+, ?[0-9]*>|EpilogueSm90Direct<float>).*(Whole|SplitK)TileScheduler.* :: / \1 \2 \3 :: /' >"$OUT/ptxas_summary.txt"
note "spills: $(grep -aoE '[0-9]+ bytes spill stores' "$OUT/ptxas.txt" | sort | uniq -c | tr '\n' ' ')"
[ -x $B/sm90_test ] || { note "no test binary"; exit 1; }
note "-- GPU test"
timeout 200 $B/sm90_test >"$OUT/test.txt" 2>&1
note "test rc=$? $(grep -c ': ok' "$OUT/test.txt") ok, $(grep -c 'FAIL' "$OUT/test.txt") FAIL"
grep -E "FAIL|beta [^0]|PASSED|FAILED" "$OUT/test.txt" | grep -v "beta 0:" | head -60 | tee -a "$log"
if command -v compute-sanitizer >/dev/null; then
  note "-- compute-sanitizer memcheck (--small)"
  timeout 150 compute-sanitizer --tool memcheck $B/sm90_test --small >"$OUT/memcheck.txt" 2>&1
  note "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.txt" | tail -1) $(tail -1 "$OUT/memcheck.txt")"
fi
note "-- bench TN: beta 0, beta 1"
timeout 60 $B/sm90_bench 8192 8192 8192 4096 11008 4096 2>&1 | tee -a "$log"
timeout 60 $B/sm90_bench --beta 1 8192 8192 8192 4096 11008 4096 2>&1 | grep -v '^device' | tee -a "$log"
note "-- bench NT: beta 0, beta 1"
timeout 60 $B/sm90_bench --layout NT 8192 8192 8192 4096 11008 4096 2>&1 | grep -v '^device' | tee -a "$log"
timeout 60 $B/sm90_bench --layout NT --beta 1 8192 8192 8192 4096 11008 4096 2>&1 | grep -v '^device' | tee -a "$log"
note "-- bench TN beta 1 at 1000^3 (ping-pong)"
timeout 30 $B/sm90_bench --beta 1 1000 1000 1000 2>&1 | grep -v '^device' | tee -a "$log"
note "== done $(( $(date +%s) - t0 )) s"
