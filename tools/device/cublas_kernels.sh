#!/usr/bin/env bash
# Which kernel cuBLAS runs at each shape of the suite (sm90_gemm_bench --suite --launch-once
# under ncu): its name (cuBLAS's names carry the tile, cluster and whether it splits K), grid,
# cluster and block, with tessera's choice at the same shape beside it. What the suite's lowest
# rows would need (a tile, a cluster or a K split tessera lacks) is read from this table.
#   OUT=$OUT BUILD=build-gpu tools/device/cublas_kernels.sh   (after run_check.sh STEP=build)
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-cublas-kernels}
B=${BUILD:-build-gpu}
mkdir -p "$OUT"
[ -x "$B/sm90_bench" ] || { echo "no $B/sm90_bench (run_check.sh STEP=build first)"; exit 1; }
# (LaunchStats: grid, block, cluster size, registers, shared memory; gpu__time_duration: one
# profiled launch, for order only; the suite's ratios come from its own timed runs)
# (the table to its own file; the bench's lines, the shapes in launch order, to suite_once.txt)
ncu --section LaunchStats --metrics gpu__time_duration.sum --csv --log-file "$OUT/cublas_kernels.csv" \
  "$B/sm90_bench" --suite --launch-once >"$OUT/suite_once.txt" 2>&1
rc=$?
python3 - "$OUT/cublas_kernels.csv" <<'PY' | tee "$OUT/cublas_kernels.txt"
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if r]
head = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
if head is None:
    print("no ncu table"); sys.exit(0)
cols = rows[head]
k = {c: cols.index(c) for c in cols}
launches = collections.OrderedDict()
for r in rows[head + 1:]:
    if len(r) != len(cols): continue
    key = (r[k["ID"]], r[k["Kernel Name"]])
    launches.setdefault(key, {})[r[k["Metric Name"]]] = r[k["Metric Value"]]
for (i, name), m in launches.items():
    pick = lambda *names: next((m[n] for n in names if n in m), "?")
    print(f"{i:>4} grid {pick('Grid Size'):>6} cluster {pick('Cluster Size'):>3} block {pick('Block Size'):>4} "
          f"regs {pick('Registers Per Thread'):>3} {pick('gpu__time_duration.sum', 'Duration'):>10}  {name[:160]}")
PY
exit $rc
