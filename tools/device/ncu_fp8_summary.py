#!/usr/bin/env python3
"""Side by side of a few ncu reports of one kernel each (tools/device/run_sm90_fp8_block_probe.sh).

  ncu_fp8_summary.py DIR NAME...

For each NAME, DIR holds NAME.details.txt (ncu -i REP --print-details all), NAME.raw.csv
(--page raw --csv) and, where this ncu has the page, NAME.source.csv (--page source --csv
--print-source sass). Prints:
  - the headline metrics (duration, clock, throughputs, issue, the tensor pipe) in columns;
  - each report's stall reasons (cycles per issued instruction, highest first);
  - each report's SASS lines with the most stall samples, and the samples summed per opcode
    (where the k-loop's warps wait: the wgmma wait, the turn's bar.sync, the stage's mbarrier,
    the promotion's loads or FFMAs).
"""
import csv
import os
import re
import sys

HEADLINE = ["Duration", "SM Frequency", "Elapsed Cycles", "Compute (SM) Throughput", "Memory Throughput", "L1/TEX Cache Throughput",
            "L2 Cache Throughput", "DRAM Throughput", "Registers Per Thread", "Executed Ipc Active", "Issue Slots Busy",
            "Warp Cycles Per Issued Instruction", "No Eligible", "Active Warps Per Scheduler", "Eligible Warps Per Scheduler",
            "Executed Instructions", "Dynamic Shared Memory Per Block"]
# Raw metrics worth a row where the report has them (regex over the raw page's names).
RAW = [r"sm__pipe_tensor_op_gmma_cycles_active\.avg\.pct_of_peak_sustained_active",
       r"sm__inst_executed_pipe_tensor_op_gmma\.sum", r"sm__pipe_fma_cycles_active\.avg\.pct_of_peak_sustained_active",
       r"sm__inst_executed_pipe_fma\.avg\.pct_of_peak_sustained_active", r"sm__inst_executed_pipe_lsu\.avg\.pct_of_peak_sustained_active",
       r"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld\.sum", r"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld\.sum",
       r"l1tex__data_pipe_lsu_wavefronts_mem_shared\.sum\.pct_of_peak_sustained_elapsed", r"sm__warps_active\.avg\.pct_of_peak_sustained_active",
       r"smsp__issue_active\.avg\.pct_of_peak_sustained_active", r"smsp__inst_executed\.sum"]
STALL = re.compile(r"smsp__average_warps?_issue_stalled_(\w+?)_per_issue_active\.ratio$")


def details_metric(text, name):
    m = re.search(r"^\s+" + re.escape(name) + r"\s+(?:(\S+)\s+)?([\d.,]+)\s*$", text, re.M)
    return (m.group(2) + (" " + m.group(1) if m.group(1) else "")) if m else "-"


def raw_metrics(path):
    if not os.path.exists(path):
        return {}
    rows = [r for r in csv.reader(open(path, errors="replace")) if r]
    hdr = next((i for i, r in enumerate(rows) if "Kernel Name" in r or "ID" in r), None)
    if hdr is None or hdr + 1 >= len(rows):
        return {}
    h = rows[hdr]
    data = [r for r in rows[hdr + 1:] if len(r) == len(h)]
    # (the first data row may be the units)
    vals = next((r for r in data if r[0] and not r[0].startswith("(") and r[0] != ""), None)
    if vals is None:
        return {}
    return dict(zip(h, vals))


def source_rows(path):
    if not os.path.exists(path):
        return None, []
    rows = [r for r in csv.reader(open(path, errors="replace")) if r]
    hdr = next((i for i, r in enumerate(rows) if any("Sampling" in c for c in r)), None)
    if hdr is None:
        return rows[0] if rows else None, []
    return rows[hdr], [r for r in rows[hdr + 1:] if len(rows[hdr]) == len(r)]


def num(s):
    try:
        return float(str(s).replace(",", ""))
    except ValueError:
        return 0.0


def main():
    d, names = sys.argv[1], sys.argv[2:]
    det = {n: open(os.path.join(d, n + ".details.txt"), errors="replace").read() if os.path.exists(os.path.join(d, n + ".details.txt")) else ""
           for n in names}
    raw = {n: raw_metrics(os.path.join(d, n + ".raw.csv")) for n in names}
    w = 22
    print("%-44s" % "metric" + "".join("%*s" % (w, n) for n in names))
    for m in HEADLINE:
        print("%-44s" % m[:44] + "".join("%*s" % (w, details_metric(det[n], m)[:w - 1]) for n in names))
    for pat in RAW:
        keys = sorted({k for n in names for k in raw[n] if re.fullmatch(pat, k)})
        for k in keys:
            print("%-44s" % k[:44] + "".join("%*s" % (w, raw[n].get(k, "-")[:w - 1]) for n in names))
    for n in names:
        stalls = sorted(((num(v), STALL.match(k).group(1)) for k, v in raw[n].items() if STALL.match(k)), reverse=True)
        total = sum(v for v, _ in stalls)
        print(f"-- {n}: stall reasons (cycles per issued instruction, of {total:.1f} in all): " +
              ", ".join(f"{r} {v:.2f}" for v, r in stalls[:9] if v > 0))
        for line in re.findall(r"^.*(?:This stall type|Est\. (?:Local )?Speedup).*$", det[n], re.M)[:6]:
            print("   ", line.strip()[:230])
    for n in names:
        h, rows = source_rows(os.path.join(d, n + ".source.csv"))
        if not rows:
            print(f"-- {n}: no per-instruction source counters ({'header: ' + ','.join(h[:12]) if h else 'no source page'})")
            continue
        src = next((i for i, c in enumerate(h) if c.strip().lower() == "source"), None)
        allc = next((i for i, c in enumerate(h) if "Sampling (All" in c), None)
        noti = next((i for i, c in enumerate(h) if "Sampling (Not" in c), None)
        addr = next((i for i, c in enumerate(h) if c.strip().lower() == "address"), None)
        if src is None or allc is None:
            print(f"-- {n}: source page without the expected columns: {','.join(h[:16])}")
            continue
        total = sum(num(r[allc]) for r in rows) or 1.0
        by_op = {}
        for r in rows:
            toks = r[src].split()
            full = toks[1] if toks and toks[0].startswith("@") and len(toks) > 1 else toks[0] if toks else "?"
            parts = full.split(".")
            # (the barriers' and wgmma's kinds apart: DEPBAR / ARRIVE, TRYWAIT / ARRIVE, SYNC / ARV)
            op = ".".join(parts[:2]) if parts[0] in ("WARPGROUP", "SYNCS", "BAR") else parts[0]
            by_op[op] = by_op.get(op, 0.0) + num(r[allc])
        print(f"-- {n}: stall samples per opcode (% of {int(total)}): " +
              ", ".join(f"{k} {100 * v / total:.1f}" for k, v in sorted(by_op.items(), key=lambda kv: -kv[1])[:12]))
        print(f"-- {n}: top SASS lines by stall samples (all / not-issued, % of all samples)")
        for r in sorted(rows, key=lambda r: -num(r[allc]))[:16]:
            print("   %6s %5.1f%% %5.1f%%  %s" % (r[addr] if addr is not None else "", 100 * num(r[allc]) / total,
                                               100 * num(r[noti]) / total if noti is not None else 0.0, r[src].strip()[:120]))


if __name__ == "__main__":
    main()
