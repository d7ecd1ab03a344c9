#!/usr/bin/env python3
"""Draws the GEMM suite (sm90_gemm_bench --suite --csv FILE) as an SVG bar chart.

    python3 bench/suite_chart.py suite.csv -o bench/suite.svg [--title TEXT]

One bar per shape: cuBLAS's time over tessera's (above 1: tessera is faster), coloured by the
kernel the dispatch's rule chose, grouped by layer, with a black tick at the ratio after
gemm_tune where the CSV has it (--tuned), and a thin vertical line from the lowest to the highest
ratio of the runs of pairs where the CSV has them (columns ratio_lo, ratio_hi, ratio_tuned_lo,
ratio_tuned_hi: CSVs before them draw without); dashed lines at the suite's bars (0.97 for the
geometric mean, 0.92 for shapes with at least 512 rows, 0.85 below). Python's standard library
only, so that it runs where the CSV is (no plotting package on the GPU machine or in CI).
"""
import argparse
import csv
import html
import os
import math
import sys

PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"]


def read_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    need = {"name", "m", "n", "k", "ratio", "schedule"}
    if not rows:
        raise ValueError(f"{path}: no rows")
    missing = need - set(rows[0].keys())
    if missing:
        raise ValueError(f"{path}: missing columns {sorted(missing)}")
    for i, r in enumerate(rows, start=2):
        try:
            r["ratio"] = float(r["ratio"])
            for key in ("m", "n", "k"):
                r[key] = int(r[key])
        except ValueError as e:
            raise ValueError(f"{path}:{i}: {e}") from None
        if not (r["ratio"] > 0 and math.isfinite(r["ratio"])):
            raise ValueError(f"{path}:{i}: ratio {r['ratio']} is not a positive number")
        for key in ("ratio_tuned", "ratio_lo", "ratio_hi", "ratio_tuned_lo", "ratio_tuned_hi"):
            text = (r.get(key) or "").strip()
            try:
                r[key] = float(text) if text else None
            except ValueError as e:
                raise ValueError(f"{path}:{i}: {key}: {e}") from None
        for lo, hi in (("ratio_lo", "ratio_hi"), ("ratio_tuned_lo", "ratio_tuned_hi")):
            if (r[lo] is None) != (r[hi] is None):
                raise ValueError(f"{path}:{i}: {lo} and {hi} go together")
            if r[lo] is not None and not (0 < r[lo] <= r[hi] and math.isfinite(r[hi])):
                raise ValueError(f"{path}:{i}: spread {r[lo]}..{r[hi]} is not 0 < {lo} <= {hi}")
    return rows


def spread_of(r, tuned):
    """The (lowest, highest) ratio of the runs of pairs, or None where the CSV has none."""
    lo, hi = ("ratio_tuned_lo", "ratio_tuned_hi") if tuned else ("ratio_lo", "ratio_hi")
    return None if r.get(lo) is None else (r[lo], r[hi])


def label_of(r):
    if r["name"] == "issue":
        return f"{r['m']}x{r['n']}x{r['k']}"
    return f"{r['name']} {r['m']}"


def chart(rows, title):
    bar_w, gap, left, top, plot_h, bottom = 14, 4, 60, 50, 300, 170
    width = left + len(rows) * (bar_w + gap) + 220
    height = top + plot_h + bottom
    y_max = max(1.2, max(max(r["ratio"], r.get("ratio_hi") or 0, r.get("ratio_tuned_hi") or 0) for r in rows) * 1.05)

    def y(v):
        return top + plot_h - v / y_max * plot_h

    schedules = sorted({r["schedule"] for r in rows})
    colour = {s: PALETTE[i % len(PALETTE)] for i, s in enumerate(schedules)}
    geo = math.exp(sum(math.log(r["ratio"]) for r in rows) / len(rows))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="22" font-size="14">{html.escape(title)}</text>',
           f'<text x="{left}" y="40">{len(rows)} shapes, geometric mean {geo:.3f} '
           f'(ratio = cuBLAS time / tessera time: above 1, tessera is faster)</text>']
    for v in [0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2]:
        if v <= y_max:
            out.append(f'<line x1="{left}" x2="{width - 210}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd"/>')
            out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.1f}</text>')
    for v, what in [(0.97, "0.97 mean bar"), (0.92, "0.92 (>= 512 rows)"), (0.85, "0.85 (< 512 rows)")]:
        out.append(f'<line x1="{left}" x2="{width - 210}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#c00" '
                   f'stroke-dasharray="4 3" stroke-width="0.8"/>')
        out.append(f'<text x="{width - 206}" y="{y(v) + 4:.1f}" fill="#c00">{html.escape(what)}</text>')
    for i, r in enumerate(rows):
        x = left + i * (bar_w + gap)
        h = r["ratio"] / y_max * plot_h
        tip = f'{label_of(r)}: {r["ratio"]:.3f} ({r["schedule"]})'
        out.append(f'<rect x="{x}" y="{y(r["ratio"]):.1f}" width="{bar_w}" height="{h:.1f}" '
                   f'fill="{colour[r["schedule"]]}"><title>{html.escape(tip)}</title></rect>')
        if r["ratio_tuned"] is not None:
            tip_t = f'{label_of(r)} after gemm_tune: {r["ratio_tuned"]:.3f} ({r.get("schedule_tuned", "")})'
            out.append(f'<line x1="{x - 2}" x2="{x + bar_w + 2}" y1="{y(r["ratio_tuned"]):.1f}" '
                       f'y2="{y(r["ratio_tuned"]):.1f}" stroke="black" stroke-width="2">'
                       f'<title>{html.escape(tip_t)}</title></line>')
        for tuned, dx, stroke in ((False, bar_w / 2 - 2, "#333"), (True, bar_w / 2 + 2, "black")):
            sp = spread_of(r, tuned)
            if sp is not None:
                what = "after gemm_tune" if tuned else "rule"
                tip_s = f'{label_of(r)} ({what}): runs of pairs from {sp[0]:.3f} to {sp[1]:.3f}'
                out.append(f'<path class="spread" d="M {x + dx:.1f} {y(sp[0]):.1f} V {y(sp[1]):.1f}" stroke="{stroke}" '
                           f'stroke-width="1"><title>{html.escape(tip_s)}</title></path>')
        lx, ly = x + bar_w / 2 + 4, top + plot_h + 8
        out.append(f'<text x="{lx:.1f}" y="{ly}" transform="rotate(60 {lx:.1f} {ly})">'
                   f'{html.escape(label_of(r))}</text>')
    for j, s in enumerate(schedules):
        ly = top + 10 + j * 18
        out.append(f'<rect x="{width - 206}" y="{ly - 10 + 120}" width="12" height="12" fill="{colour[s]}"/>')
        out.append(f'<text x="{width - 188}" y="{ly + 120}">{html.escape(s)}</text>')
    if any(r["ratio_tuned"] is not None for r in rows):
        ly = top + 10 + len(schedules) * 18 + 120
        out.append(f'<line x1="{width - 208}" x2="{width - 192}" y1="{ly - 4}" y2="{ly - 4}" stroke="black" stroke-width="2"/>')
        out.append(f'<text x="{width - 188}" y="{ly}">after gemm_tune</text>')
    if any(spread_of(r, False) is not None for r in rows):
        ly = top + 10 + (len(schedules) + 1) * 18 + 120
        out.append(f'<path d="M {width - 200} {ly - 10} V {ly + 2}" stroke="#333" stroke-width="1"/>')
        out.append(f'<text x="{width - 188}" y="{ly}">lowest..highest of the runs</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", help="the CSV sm90_gemm_bench --suite --csv wrote")
    ap.add_argument("-o", "--output", required=True, help="the SVG file to write")
    ap.add_argument("--title", default="tessera::gemm against cuBLAS, bf16, one process")
    args = ap.parse_args(argv)
    try:
        svg = chart(read_rows(args.csv), args.title)
    except (OSError, ValueError) as e:
        print(f"suite_chart: {e}", file=sys.stderr)
        return 1
    tmp = args.output + ".tmp"
    with open(tmp, "w") as f:
        f.write(svg)
    os.replace(tmp, args.output)  # no half-written chart
    return 0


if __name__ == "__main__":
    sys.exit(main())
