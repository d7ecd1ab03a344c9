#!/usr/bin/env python3
"""Compile-time benchmark of the static algebra (issue 15; not a test, not in CI).

Generates translation units from the committed sample (sample.jsonl: 200 conformance
expressions, each result checked with static_assert), compiles each with every
compiler at -O2 and prints wall time, CPU time (user+sys, the compiler's whole
process tree) and peak resident memory, the median of --runs compiles. With --cute
it times the same expressions written with CuTe in the same run and prints the ratio
tessera / CuTe (below 1: tessera compiles faster or smaller).

usage: bench/compile_time/run.py [--runs 5] [--compilers g++,clang++]
           [--cute /path/to/cutlass/include] [--cuda-include /usr/local/cuda/include]
           [--families] [--headers] [--keep DIR]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import gen_tu  # noqa: E402


def measure(cmd):
    """One compile: (wall s, cpu s, peak RSS MiB) of the whole process tree."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read()
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"error: compile failed ({' '.join(cmd)}):\n{err.decode(errors='replace')[:4000]}")
    # wait4 reports the child and its waited-for descendants (cc1plus, as):
    # CPU times summed, ru_maxrss the largest of them, in KiB on Linux.
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0


def median_of(cmd, runs):
    ms = [measure(cmd) for _ in range(runs)]
    return tuple(statistics.median(m[i] for m in ms) for i in range(3))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="compiles per measurement; the median is printed")
    ap.add_argument("--compilers", default="g++,clang++")
    ap.add_argument("--opt", default="-O2")
    ap.add_argument("--sample", default=os.path.join(HERE, "sample.jsonl"))
    ap.add_argument("--cute", help="CuTe's include directory (a CUTLASS checkout's include/)")
    ap.add_argument("--cuda-include", default="/usr/local/cuda/include",
                    help="CUDA's include directory (CCCL is taken from its cccl/ when present)")
    ap.add_argument("--families", action="store_true", help="also one TU per operation family")
    ap.add_argument("--headers", action="store_true", help="also the #includes alone (no expression)")
    ap.add_argument("--keep", help="write the generated TUs here (default: a temporary directory)")
    ap.add_argument("--extra", default="", help="extra compiler flags, space separated")
    args = ap.parse_args()

    libs = {"tessera": ["-I" + os.path.join(ROOT, "include")]}
    if args.cute:
        inc = ["-I" + args.cute, "-isystem", args.cuda_include]
        cccl = os.path.join(args.cuda_include, "cccl")
        if os.path.isdir(cccl):
            inc += ["-isystem", cccl]
        libs["cute"] = inc

    work = args.keep or tempfile.mkdtemp(prefix="tessera_ct_")
    os.makedirs(work, exist_ok=True)
    families = sorted(set(gen_tu.FAMILIES.values())) if args.families else []
    units = [("all 200", None)]
    if args.headers:
        units.append(("#includes only", "__none__"))
    units += [(f, f) for f in families]

    print(f"# compile-time benchmark: {args.sample}, {args.opt}, median of {args.runs}; "
          f"wall s / CPU s / peak MiB" + ("; ratio = tessera / CuTe" if args.cute else ""))
    for cxx in args.compilers.split(","):
        ver = subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
        print(f"\n## {cxx}: {ver}")
        hdr = f"{'TU':<16}{'n':>4}  {'tessera':>24}"
        if args.cute:
            hdr += f"  {'CuTe':>24}  {'ratio wall/CPU/mem':>22}"
        print(hdr)
        for label, fam in units:
            row, res, n = {}, {}, 0
            for lib, inc in libs.items():
                src = os.path.join(work, f"{lib}_{label.replace(' ', '_').replace('#', '')}.cpp")
                gen_tu.write_tu(lib, args.sample, src, None if fam == "__none__" else fam, empty=(fam == "__none__"))
                n = gen_tu.count(args.sample, None if fam in (None, "__none__") else fam) if fam != "__none__" else 0
                cmd = [cxx, "-std=c++20", args.opt, *inc, *args.extra.split(), "-c", src, "-o", os.devnull]
                res[lib] = median_of(cmd, args.runs)
                row[lib] = f"{res[lib][0]:7.2f} {res[lib][1]:7.2f} {res[lib][2]:7.0f}"
            line = f"{label:<16}{n:>4}  {row['tessera']:>24}"
            if args.cute:
                t, c = res["tessera"], res["cute"]
                line += f"  {row['cute']:>24}  {t[0] / c[0]:6.2f}x {t[1] / c[1]:6.2f}x {t[2] / c[2]:6.2f}x"
            print(line, flush=True)


if __name__ == "__main__":
    main()
