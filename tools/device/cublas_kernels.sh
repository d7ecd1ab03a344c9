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
python3 - "$OUT/cublas_kernels.csv" "$OUT/suite_once.txt" <<'PY' | tee "$OUT/cublas_kernels.txt"
import csv, re, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 14]
if not rows or "Kernel Name" not in rows[0]:
    print("no ncu table"); sys.exit(0)
cols = rows[0]
k = {c: cols.index(c) for c in cols}
launches = collections.OrderedDict()
for r in rows[1:]:
    m = launches.setdefault(r[k["ID"]], {"name": r[k["Kernel Name"]], "grid": r[k["Grid Size"]], "block": r[k["Block Size"]]})
    m[r[k["Metric Name"]]] = r[k["Metric Value"]]
# The bench's lines name the shapes in launch order: cuBLAS's kernel(s), then tessera's.
shapes = [l.split("]")[0].strip("[") + " " + re.search(r"\d+ x +\d+ x +\d+", l).group(0).replace(" ", "")
          for l in open(sys.argv[2]) if "launched once" in l]
def short(name):  # (tessera's entry types are long: the mainloop's schedule and tile are what matter)
    if not name.startswith("void kernels::"): return name[:110]
    sched = re.search(r"MainloopTmaWarpSpecialized(\w+)<([^>]*)>", name)
    tile = re.search(r"tuple<C<(\d+)>, C<(\d+)>, C<(\d+)>", name)
    return ("tessera " + (sched.group(1) + "<" + sched.group(2) + ">" if sched else "?") +
            (" tile %sx%sx%s" % tile.groups() if tile else "") + (" stream-k" if "StreamK" in name else ""))
i = 0
for m in launches.values():
    if "sm90_check::" in m["name"]: continue  # (the bench's own check of D)
    ours = m["name"].startswith("void kernels::") or "tessera" in m["name"]
    tag = "tessera" if ours else "cuBLAS "
    print(f"{shapes[i] if i < len(shapes) else '?':42} {tag} grid {m['grid']:>14} cluster {m.get('Cluster Size', '?'):>3} "
          f"block {m['block']:>12} {m.get('gpu__time_duration.sum', '?'):>9} ns  {short(m['name'])}")
    if ours: i += 1
PY
exit $rc
