"""The Python module's figures (one run, this machine): import time, conformance expressions
parsed and evaluated per second from Python against `tessera eval` on the same input, and a
128x128 TV map drawn to SVG.

usage: PYTHONPATH=build/python python3 bench/python_bench.py build/bin/tessera tests/data/conformance"""
import glob
import json
import os
import subprocess
import sys
import time


def best_of(n, f):
    best = float("inf")
    for _ in range(n):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def main():
    cli, folder = sys.argv[1:3]
    start = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", "import time; t = time.perf_counter(); import tessera; "
                        "print(time.perf_counter() - t)"], capture_output=True, text=True, check=True,
                       env=dict(os.environ))
    print(f"import tessera: {float(r.stdout):.3f} s (limit 0.3 s)")
    import tessera as ts
    exprs = []
    for f in sorted(glob.glob(os.path.join(folder, "*.jsonl"))):
        with open(f, encoding="utf-8") as fh:
            exprs += [json.loads(line)["expr"] for line in fh if line.strip()]
    py = best_of(5, lambda: [str(ts.eval(e)) for e in exprs])
    text = "\n".join(exprs) + "\n"
    sh = best_of(5, lambda: subprocess.run([cli, "eval"], input=text, capture_output=True, text=True))
    print(f"{len(exprs)} conformance expressions: Python {len(exprs) / py:,.0f}/s, tessera eval "
          f"{len(exprs) / sh:,.0f}/s (process included): Python takes {py / sh:.2f}x eval's time (limit 3x)")
    svg = best_of(3, lambda: ts.TvMap("(128,128):(1,128)", "(128,128)").draw("svg"))
    print(f"128x128 TV map to SVG: {svg:.3f} s (limit 0.2 s)")
    print(f"total {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
