#!/usr/bin/env python3
"""`tessera gmem` against ncu's sector counters on real kernels.

Usage: gmem_ncu_test.py KERNELS TESSERA [REPORT]

KERNELS is gmem_ncu_kernels (tests/atoms/gmem_ncu_kernels.cu): one kernel per case, each
reading (or writing) global memory through the layouts that `tessera gmem ARGS` analyses.
This script profiles it once with ncu, reading per launch
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum  (warp-wide load instructions)
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum   (32-byte sectors they touched)
and their _op_st twins for the store cases, and requires, case by case, requests == tessera's
instructions and sectors == its sectors.
Exit 77 (ctest's SKIP_RETURN_CODE) without a CUDA device, without ncu, or when ncu may not
read the counters; REPORT (optional) receives the comparison table.
"""
import csv
import io
import os
import re
import shlex
import shutil
import subprocess
import sys

SKIP = 77
def metrics(op):
    return ("l1tex__t_sectors_pipe_lsu_mem_global_op_%s.sum" % op, "l1tex__t_requests_pipe_lsu_mem_global_op_%s.sum" % op)


def main():
    kernels, tessera = sys.argv[1], sys.argv[2]
    report = sys.argv[3] if len(sys.argv) > 3 else None
    run = subprocess.run([kernels], capture_output=True, text=True)
    if run.returncode == SKIP:
        print(run.stdout.strip())
        return SKIP
    if run.returncode != 0:
        print("FAIL: the kernels did not read what their TV maps name\n" + run.stdout + run.stderr)
        return 1
    cases = re.findall(r"^case (\S+) \((load|store)\): tessera gmem (.*)$", run.stdout, re.M)
    if len(cases) < 4:
        print("FAIL: expected at least 4 cases from the kernels program\n" + run.stdout)
        return 1
    ncu = os.environ.get("NCU") or shutil.which("ncu")
    if not ncu:
        print("ncu not found: skipped")
        return SKIP
    # Only the case kernels (the program also runs the analysis itself on the device).
    prof = subprocess.run([ncu, "--kernel-name", "regex:through_layouts", "--metrics",
                           ",".join(metrics("ld") + metrics("st")), "--csv", kernels], capture_output=True, text=True)
    if prof.returncode != 0 or "ERR_NVGPUCTRPERM" in prof.stdout + prof.stderr:
        print("ncu could not profile (skipped):\n" + prof.stdout[-2000:] + prof.stderr[-2000:])
        return SKIP
    # CSV rows after ncu's own "==PROF==" lines: one row per (launch ID, metric).
    text = "\n".join(l for l in prof.stdout.splitlines() if l.startswith('"'))
    by_id = {}
    for row in csv.DictReader(io.StringIO(text)):
        if "through_layouts" not in row["Kernel Name"]:
            continue
        value = float(row["Metric Value"].replace(",", ""))
        by_id.setdefault(int(row["ID"]), {})[row["Metric Name"]] = value
    measured = [by_id[k] for k in sorted(by_id)]  # launch order = the cases' order
    if len(measured) != len(cases):
        print(f"FAIL: ncu profiled {len(measured)} launches, the program has {len(cases)} cases\n" + prof.stdout[-3000:])
        return 1
    fails = 0
    lines = ["case          requests(ncu/tessera)  sectors(ncu/tessera)  sectors/request(ncu/tessera)"]
    for i, (name, kind, args) in enumerate(cases):
        SECTORS, REQUESTS = metrics("st" if kind == "store" else "ld")
        cli = subprocess.run([tessera, "gmem", *shlex.split(args), "--summary"], capture_output=True, text=True)
        m = re.search(r"^summary: instructions (\d+), sectors (\d+)", cli.stdout, re.M)
        if cli.returncode != 0 or not m:
            print(f"FAIL: tessera gmem {args}: exit {cli.returncode}\n{cli.stdout}{cli.stderr}")
            fails += 1
            continue
        want_req, want_sec = int(m.group(1)), int(m.group(2))
        got_req, got_sec = measured[i].get(REQUESTS, -1), measured[i].get(SECTORS, -1)
        lines.append(f"{name:<13} {int(got_req):>8} / {want_req:<8}    {int(got_sec):>7} / {want_sec:<7}     "
                     f"{got_sec / max(got_req, 1):6.2f} / {want_sec / max(want_req, 1):.2f}")
        if got_req != want_req or got_sec != want_sec:
            fails += 1
            lines[-1] += "   MISMATCH"
    table = "\n".join(lines)
    print(table)
    if report:
        with open(report, "w") as f:
            f.write(table + "\n")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
