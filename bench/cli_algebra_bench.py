"""`tessera eval` against pycute, whole process, on the conformance expressions pycute can
evaluate (the set of bench/python_algebra_bench.py: its functions, no swizzle, no exception).

Each side is one process that reads the set on standard input and prints one line per
expression; its time is the process's, start included (exec, dynamic loading, for pycute the
interpreter and `import pycute`), taken as the best of --rounds runs, wall clock and the CPU
time of the child (user + system, from wait4's rusage). Three figures for pycute:

  process     python3 reading the set, parsing it with the bench's reader, evaluating with
              pycute and printing each result in tessera's notation (the CLI's counterpart);
  in-process  parse + evaluate inside a running interpreter, no start, nothing printed (what
              python_algebra_bench.py measures): the stricter reference;
  evaluate    pycute's evaluation alone, parsed beforehand.

The target (`tessera eval` >= 20x pycute, whole process) is read against the strictest
reference, in-process parse + evaluate: the CLI's start is counted, pycute's is not.
The outputs are compared too: the lines where pycute and tessera print the same text.

usage: python3 bench/cli_algebra_bench.py --pycute /tmp/pycute_src [--cli build/bin/tessera]
           [--data tests/data/conformance] [--rounds 20]"""
import argparse
import os
import resource
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import python_algebra_bench as pab  # noqa: E402  (the set and pycute's reader)

# The pycute side as a process of its own: the reader, pycute, one printed line per input line.
PYCUTE_PROCESS = r"""
import sys
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2])
import pycute as pc
import python_algebra_bench as pab
out = []
for line in sys.stdin.read().splitlines():
    out.append(pab.notation(pc, pab.pycute_eval(pc, pab.pycute_parse(pc, line))))
sys.stdout.write("\n".join(out) + "\n")
"""


def run(cmd, text):
    """Wall and CPU seconds of one child process fed `text`; its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(cmd, input=text, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise RuntimeError(f"{cmd[0]} failed ({r.returncode}): {r.stderr[:300]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, r.stdout


def best_of(rounds, f):
    walls, cpus, out = [], [], None
    for _ in range(rounds):
        w, c, out = f()
        walls.append(w)
        cpus.append(c)
    return min(walls), min(cpus), out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pycute", required=True, help="folder holding the pycute package (CUTLASS's python/)")
    p.add_argument("--cli", default=os.path.join(root, "build", "bin", "tessera"))
    p.add_argument("--data", default=os.path.join(root, "tests", "data", "conformance"))
    p.add_argument("--rounds", type=int, default=20)
    args = p.parse_args()

    sys.path.insert(0, args.pycute)
    import pycute as pc

    exprs = []
    for v in pab.conformance_vectors(args.data):
        r = pab.pycute_result(pc, v["expr"])
        if r is not None:
            exprs.append(v["expr"])
    n = len(exprs)
    text = "\n".join(exprs) + "\n"

    t_cli, c_cli, out_cli = best_of(args.rounds, lambda: run([args.cli, "eval"], text))
    t_cli0, c_cli0, _ = best_of(args.rounds, lambda: run([args.cli, "eval"], ""))
    t_pp, c_pp, out_pp = best_of(max(3, args.rounds // 4),
                                 lambda: run([sys.executable, "-c", PYCUTE_PROCESS, args.pycute, here], text))
    parsed = [pab.pycute_parse(pc, e) for e in exprs]
    cpu_in = []
    t_pin, _ = pab.best(max(3, args.rounds // 4),
                        lambda: [pab.pycute_eval(pc, pab.pycute_parse(pc, e)) for e in exprs], cpu_in)
    t_pev, _ = pab.best(max(3, args.rounds // 4), lambda: [pab.pycute_eval(pc, x) for x in parsed])
    same = sum(a == b for a, b in zip(out_cli.splitlines(), out_pp.splitlines()))

    us = lambda t: t / n * 1e6  # noqa: E731
    print(f"{n} expressions (the conformance expressions pycute evaluates); {same} print the same in both")
    print(f"tessera eval, one process:      {t_cli * 1e3:7.2f} ms wall, {c_cli * 1e3:7.2f} ms CPU  "
          f"({us(t_cli):.2f} us per expression, start included)")
    print(f"tessera eval, empty input:      {t_cli0 * 1e3:7.2f} ms wall, {c_cli0 * 1e3:7.2f} ms CPU  (the start alone)")
    print(f"pycute, one process:            {t_pp * 1e3:7.2f} ms wall, {c_pp * 1e3:7.2f} ms CPU")
    print(f"pycute, in-process parse + eval:{t_pin * 1e3:7.2f} ms wall, {cpu_in[0] * 1e3:7.2f} ms CPU  "
          f"({us(t_pin):.2f} us per expression)")
    print(f"pycute, evaluate alone:         {t_pev * 1e3:7.2f} ms wall")
    print(f"ratios (wall; CPU): tessera eval against pycute in-process parse + evaluate {t_pin / t_cli:.1f}x; "
          f"{cpu_in[0] / c_cli:.1f}x (target >= 20x); against pycute's process {t_pp / t_cli:.1f}x; "
          f"{c_pp / c_cli:.1f}x; against pycute's evaluation alone {t_pev / t_cli:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
