#!/usr/bin/env python3
"""The k-loop of each tensor-core kernel in a SASS listing (cuobjdump -sass), counted by opcode.

  sass_kloop.py SASS.txt [--mma HGMMA] [--label NAME]

The k-loop is the innermost backward branch whose range holds an MMA instruction (HGMMA for
the SM90 kernels): the mbarrier spin loops inside it hold none, the persistent tile loop
around it is wider. One line per kernel: the loop's instructions, then the counts of the
opcodes that say what a k-tile costs (the wgmmas, the promotion's FFMA / FMUL, the shared and
global loads, barriers, the wgmma fences and waits, mbarrier operations, spills), then the
rest of its opcodes, most frequent first.
"""
import re
import subprocess
import sys

INS = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
FUNC = re.compile(r"Function\s*:\s*(\S+)")
KEY = ["HGMMA", "QGMMA", "FFMA", "FMUL", "FADD", "LDS", "LDG", "LDSM", "STS", "BAR", "WARPGROUP", "WARPSYNC", "SYNCS", "STL", "LDL", "SHFL", "BRA"]


def opcode(text):
    toks = text.split()
    if toks and toks[0].startswith("@"):
        toks = toks[1:]
    return toks[0] if toks else ""


LABEL = re.compile(r"^\s*(\.L\w+):")


def branch_target(text, labels):
    m = re.search(r"\bBRA\b.*?\((\.L\w+)\)", text)  # nvdisasm: BRA `(.L_x_12)
    if m:
        return labels.get(m.group(1))
    m = re.search(r"\bBRA\b.*?(0x[0-9a-f]+)", text)  # cuobjdump: BRA 0x590
    return int(m.group(1), 16) if m else None


def demangle(names):
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True).stdout.splitlines()
        return out if len(out) == len(names) else names
    except (OSError, subprocess.CalledProcessError):
        return names


def short(name):
    name = name.replace("tessera::kernels::", "").replace("tessera::", "")
    for a, b in (("CollectiveMainloopSm90TmaWgmma", "Mainloop"), ("MainloopTmaWarpSpecializedCooperative", "Coop"),
                 ("CollectiveEpilogueSm90TmaStore", "EpiTma"), ("sm90::", ""), ("float_e4m3_t", "e4m3"), ("bfloat16_t", "bf16")):
        name = name.replace(a, b)
    return name[:260]


def main():
    path = sys.argv[1]
    mma = sys.argv[sys.argv.index("--mma") + 1] if "--mma" in sys.argv else "HGMMA"
    label = sys.argv[sys.argv.index("--label") + 1] if "--label" in sys.argv else ""
    funcs, labels, cur, pending = {}, {}, None, []
    for line in open(path, errors="replace"):
        f = FUNC.search(line)
        if f:
            cur = f.group(1)
            funcs[cur], labels[cur], pending = [], {}, []
            continue
        lab = LABEL.match(line)
        if lab and cur is not None:
            pending.append(lab.group(1))
            continue
        m = INS.search(line)
        if m and cur is not None:
            a = int(m.group(1), 16)
            for p in pending:
                labels[cur][p] = a
            pending = []
            funcs[cur].append((a, m.group(2)))
    names = [n for n in funcs if any(opcode(t).startswith(mma) for _, t in funcs[n])]
    for name, pretty in zip(names, demangle(names)):
        ins = funcs[name]
        mmas = [a for a, t in ins if opcode(t).startswith(mma)]
        best = None
        for a, t in ins:
            if not opcode(t).startswith("BRA"):
                continue
            tgt = branch_target(t, labels[name])
            if tgt is None or tgt >= a:
                continue
            if any(tgt <= x <= a for x in mmas) and (best is None or a - tgt < best[1] - best[0]):
                best = (tgt, a)
        if best is None:
            print(f"sass-kloop {label}: no backward branch around the {mma}s in {short(pretty)}")
            continue
        body = [t for a, t in ins if best[0] <= a <= best[1]]
        counts = {}
        for t in body:
            op = opcode(t)
            base = op.split(".")[0]
            # (the loads' widths: LDS / LDS.64 / LDS.128)
            key = op if base in ("LDS", "LDG") else base
            counts[key] = counts.get(key, 0) + 1
        keyed = []
        for k in KEY:
            for c in sorted(x for x in counts if x == k or x.startswith(k + ".")):
                keyed.append(f"{c}={counts.pop(c)}")
        rest = sorted(counts.items(), key=lambda kv: -kv[1])[:10]
        print(f"sass-kloop {label}: {len(body)} instructions [{best[0]:#x}, {best[1]:#x}]: " + " ".join(keyed) +
              " | other " + " ".join(f"{k}={v}" for k, v in rest) + f" | {short(pretty)}")


if __name__ == "__main__":
    main()
