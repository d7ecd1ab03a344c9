"""The Python module's figures, one run on this machine:

1. the conformance expressions (tests/data/conformance/*.jsonl) that pycute can evaluate,
   parsed and evaluated by tessera from Python (`tessera.eval`), by pycute (CUTLASS's
   python/pycute, fetched, not part of tessera: --pycute names the folder holding the
   `pycute` package) and by `tessera eval` (one process, every expression on its standard
   input): throughputs and ratios (targets: tessera >= 30x pycute, within 3x of the CLI);
2. `import tessera` in a fresh interpreter (target < 0.3 s);
3. a 128x128 TV map drawn to SVG from Python (target < 0.2 s).

pycute has no text notation, so its side parses with the small reader below (tuples,
integers, layouts `shape:stride`, calls); its time is given with and without that parse.
"pycute can evaluate" means: a function pycute has (composition, complement, the inverses,
coalesce, filter, the divide and product families it defines, size, cosize), no swizzle,
and pycute returns without raising. How many of its answers equal CuTe's (the vectors'
`result`) is printed too.

usage: PYTHONPATH=build/python python3 bench/python_algebra_bench.py --pycute /tmp/pycute_src \\
           [--cli build/bin/tessera] [--data tests/data/conformance] [--rounds 5]"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import time

PYCUTE_FUNCTIONS = ("composition", "complement", "right_inverse", "left_inverse", "coalesce", "filter",
                    "logical_divide", "zipped_divide", "tiled_divide", "logical_product", "zipped_product",
                    "tiled_product", "size", "cosize")
_TOKEN = re.compile(r"\s*(?:(-?\d+)|([A-Za-z_]\w*)|(.))")


def tokens(text):
    for m in _TOKEN.finditer(text):
        if m.group(1) is not None:
            yield ("int", int(m.group(1)))
        elif m.group(2) is not None:
            yield ("name", m.group(2))
        elif m.group(3) is not None and not m.group(3).isspace():
            yield ("sym", m.group(3))


class Reader:
    """The notation as pycute objects: (a,b) a tuple, a:b a Layout, f(x, y) a call, _ None."""

    def __init__(self, pycute, text):
        self.pc = pycute
        self.toks = list(tokens(text))
        self.i = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else ("end", None)

    def take(self, sym=None):
        t = self.peek()
        if sym is not None and t != ("sym", sym):
            raise SyntaxError(f"expected {sym!r}, got {t}")
        self.i += 1
        return t

    def expr(self):
        kind, value = self.peek()
        if kind == "name" and value != "_" and self.i + 1 < len(self.toks) and self.toks[self.i + 1] == ("sym", "("):
            self.take()
            self.take("(")
            args = [self.expr()]
            while self.peek() == ("sym", ","):
                self.take()
                args.append(self.expr())
            self.take(")")
            return ("call", value, args)
        return self.term()

    def atom(self):
        kind, value = self.take()
        if kind == "int":
            return value
        if (kind, value) == ("name", "_"):
            return None
        if (kind, value) == ("sym", "("):
            items = [self.term()]
            while self.peek() == ("sym", ","):
                self.take()
                items.append(self.term())
            self.take(")")
            return tuple(items)
        raise SyntaxError(f"unexpected {value!r}")

    def term(self):
        shape = self.atom()
        if self.peek() == ("sym", ":"):
            self.take()
            return self.pc.Layout(shape, self.atom())
        return shape

    def done(self):
        if self.i != len(self.toks):
            raise SyntaxError(f"trailing {self.toks[self.i:]}")


def pycute_eval(pc, node):
    if isinstance(node, tuple) and len(node) == 3 and node[0] == "call":
        _, name, args = node
        return getattr(pc, name)(*[pycute_eval(pc, a) for a in args])
    return node


def pycute_parse(pc, text):
    r = Reader(pc, text)
    node = r.expr()
    r.done()
    return node


def notation(pc, x):
    """A pycute value in tessera's notation (what `tessera eval` prints), for comparison."""
    if isinstance(x, pc.Layout):
        return f"{notation(pc, x.shape)}:{notation(pc, x.stride)}"
    if isinstance(x, tuple):
        return "(" + ",".join(notation(pc, e) for e in x) + ")"
    return str(x)


def conformance_vectors(data):
    """Every conformance vector (a dict with `expr` and `result`), in file order."""
    vectors = []
    for f in sorted(glob.glob(os.path.join(data, "*.jsonl"))):
        with open(f, encoding="utf-8") as fh:
            vectors += [json.loads(line) for line in fh if line.strip()]
    return vectors


def pycute_result(pc, e):
    """pycute's value of the expression e, or None where pycute cannot evaluate it (a function
    it lacks, a swizzle, or an exception)."""
    name = e.split("(", 1)[0]
    if name not in PYCUTE_FUNCTIONS or "Sw<" in e or " o " in e:
        return None
    try:
        return pycute_eval(pc, pycute_parse(pc, e))
    except Exception:
        return None


def best(rounds, f, cpu=None):
    """Best and median wall time of `rounds` calls of f; with a list `cpu`, the best CPU time
    of this process (time.process_time) is appended to it: on a shared machine it is the
    steadier figure."""
    times, cpus = [], []
    for _ in range(rounds):
        t, c = time.perf_counter(), time.process_time()
        f()
        times.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    if cpu is not None:
        cpu.append(min(cpus))
    return min(times), statistics.median(times)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pycute", required=True, help="folder holding the pycute package (CUTLASS's python/)")
    p.add_argument("--cli", default=os.path.join(root, "build", "bin", "tessera"))
    p.add_argument("--data", default=os.path.join(root, "tests", "data", "conformance"))
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args()

    # 2. import time, in a fresh interpreter each time (best of 5, and the median)
    imports = []
    for _ in range(5):
        r = subprocess.run([sys.executable, "-c", "import time; t = time.perf_counter(); import tessera; "
                            "print(time.perf_counter() - t)"], capture_output=True, text=True, check=True)
        imports.append(float(r.stdout))
    print(f"import tessera: best {min(imports):.3f} s, median {statistics.median(imports):.3f} s (target < 0.3 s)")

    import tessera as ts
    sys.path.insert(0, args.pycute)
    import pycute as pc

    vectors = conformance_vectors(args.data)
    chosen, agree = [], 0
    for v in vectors:
        result = pycute_result(pc, v["expr"])
        if result is None:
            continue
        chosen.append(v["expr"])
        agree += notation(pc, result) == v["result"]
    exprs = chosen
    n = len(exprs)
    print(f"{len(vectors)} conformance vectors; pycute evaluates {n} of them (its functions, no swizzle, no "
          f"exception); {agree} of its answers equal CuTe's")

    # 1. throughput: tessera from Python, pycute, tessera eval
    parsed = [pycute_parse(pc, e) for e in exprs]
    cpu_ts, cpu_pc = [], []
    t_ts, m_ts = best(args.rounds, lambda: [ts.eval(e) for e in exprs], cpu_ts)
    t_ts_str, _ = best(args.rounds, lambda: [str(ts.eval(e)) for e in exprs])
    t_pc, m_pc = best(args.rounds, lambda: [pycute_eval(pc, pycute_parse(pc, e)) for e in exprs], cpu_pc)
    t_pc_eval, _ = best(args.rounds, lambda: [pycute_eval(pc, x) for x in parsed])
    text = "\n".join(exprs) + "\n"

    def cli(repeat=1):
        r = subprocess.run([args.cli, "eval"], input=text * repeat, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"tessera eval failed: {r.stderr[:200]}")
    t_cli, m_cli = best(args.rounds, cli)
    t_cli10, _ = best(args.rounds, lambda: cli(10))
    rate = lambda t: n / t  # noqa: E731
    print(f"tessera (Python) tessera.eval:        {rate(t_ts):>11,.0f} expr/s  ({t_ts * 1e3:.1f} ms; median "
          f"{m_ts * 1e3:.1f}; CPU {cpu_ts[0] / n * 1e6:.2f} us per expression)")
    print(f"tessera (Python) str(tessera.eval):   {rate(t_ts_str):>11,.0f} expr/s  ({t_ts_str * 1e3:.1f} ms)")
    print(f"pycute parse + evaluate:              {rate(t_pc):>11,.0f} expr/s  ({t_pc * 1e3:.1f} ms; median "
          f"{m_pc * 1e3:.1f}; CPU {cpu_pc[0] / n * 1e6:.2f} us per expression)")
    print(f"pycute evaluate (parsed beforehand):  {rate(t_pc_eval):>11,.0f} expr/s  ({t_pc_eval * 1e3:.1f} ms)")
    print(f"tessera eval (CLI, one process):      {rate(t_cli):>11,.0f} expr/s  ({t_cli * 1e3:.1f} ms, process "
          f"start included; median {m_cli * 1e3:.1f})")
    print(f"tessera eval (CLI), steady state:     {9 * n / (t_cli10 - t_cli):>11,.0f} expr/s  (the input 10 times "
          f"over, less once: no process start)")
    print(f"ratios: tessera/pycute {t_pc / t_ts:.1f}x (target >= 30x; CPU time {cpu_pc[0] / cpu_ts[0]:.1f}x; "
          f"{t_pc_eval / t_ts:.1f}x against pycute without its parse); Python takes {t_ts_str / t_cli:.2f}x the "
          f"CLI's time printing the same results (target <= 3x)")

    # 3. a 128x128 TV map to SVG
    svg, svg_median = best(args.rounds, lambda: ts.TvMap("(128,128):(1,128)", "(128,128)").draw("svg"))
    print(f"128x128 TV map to SVG: best {svg:.3f} s, median {svg_median:.3f} s (target < 0.2 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
