"""The machinery the timeline patches share (sm90_tile_timeline_patch.py,
sm90_decode_timeline_patch.py): exact-anchor edits of a COPY of the kernel headers, checked all
before any file is written.

A patch is a list of Groups. A group's edits are (anchor, replacement) pairs per file; each
anchor must occur exactly once in the file as the group's earlier edits left it, else nothing is
written and the run exits 1 naming every such anchor (the kernel changed: update the anchors).
A group with `when` (a path in the tree) applies only where that file exists (code that a branch
adds, which the patch can time once it is merged); there, its anchors are checked as strictly.
A tree already instrumented (a file holding the hooks' namespace) is refused: a second pass
would stamp twice. "tl::" in a replacement stands for the hooks' namespace.
"""
import sys
from pathlib import Path


class Group:
    def __init__(self, name, edits, when=None):
        self.name = name
        self.edits = edits  # {relative path: [(anchor, replacement), ...]}
        self.when = when


def main(prog, namespace, groups, argv):
    """`prog <tree copy> [--check]`: --check reports every anchor's count and changes nothing."""
    if len(argv) < 2 or argv[1].startswith("-"):
        sys.exit(f"usage: {prog} <tree copy> [--check]")
    root = Path(argv[1])
    check = "--check" in argv[2:]
    marker = f"::{namespace}::"
    texts = {}  # path -> [text, edits applied]
    bad = []
    applied = []
    for g in groups:
        if g.when is not None and not (root / g.when).is_file():
            print(f"{prog}: group '{g.name}' skipped ({g.when} is not in this tree)")
            continue
        applied.append(g)
        for rel, edits in g.edits.items():
            f = root / rel
            if f not in texts:
                if not f.is_file():
                    sys.exit(f"{prog}: {f} not found")
                text = f.read_text()
                if marker in text:
                    sys.exit(f"{prog}: {rel} is already instrumented (it calls {marker}): patch a fresh copy")
                texts[f] = [text, 0]
            for old, new in edits:
                n = texts[f][0].count(old)
                if n != 1:
                    bad.append((g.name, rel, n, old))
                    continue
                texts[f][0] = texts[f][0].replace(old, new.replace("tl::", marker))
                texts[f][1] += 1
    for name, rel, n, old in bad:
        print(f"{prog}: anchor found {n} times (must be 1) in {rel} (group '{name}'):\n{old}", file=sys.stderr)
    if bad:
        sys.exit(1)
    total = sum(len(e) for g in applied for e in g.edits.values())
    if check:
        print(f"{prog}: all {total} anchors found once (groups: {', '.join(g.name for g in applied)})")
        return
    for f, (text, n) in texts.items():
        f.write_text(text)
        print(f"instrumented {f.relative_to(root)}: {n} edits")

# The producer's k-loop in the mainloop (kernels/collective/sm90_mainloop_tma_wgmma.cuh), the
# same in every SM90 kernel both probes time: per unit or step, the first empty barrier passed,
# the first and last k-tile issued, the time blocked on empty barriers (record tl_r: s.tl[0]).
PRODUCER_KLOOP = [
    ("    for (int k = k_begin; k < k_end; ++k) {\n"
     "      while (!s.pipe.producer_try_acquire(st)) {}\n"
     "      s.pipe.producer_commit(st);  // expect the stage's bytes; the copies complete them\n",
     "    unsigned long long* tl_r = s.tl[0];\n    unsigned long long tl_wait = 0;\n"
     "    for (int k = k_begin; k < k_end; ++k) {\n      const unsigned long long tl_t0 = clock64();\n"
     "      while (!s.pipe.producer_try_acquire(st)) {}\n      const unsigned long long tl_t1 = clock64();\n"
     "      tl_wait += tl_t1 - tl_t0;\n      if (k == k_begin && tl_r) tl_r[tl::P_FirstAcquired] = tl_t1;\n"
     "      s.pipe.producer_commit(st);  // expect the stage's bytes; the copies complete them\n"),
    ("                            2, at);\n      }\n      ++st;\n    }\n  }\n",
     "                            2, at);\n      }\n"
     "      if (tl_r) {\n        if (k == k_begin) tl_r[tl::P_FirstIssued] = clock64();\n"
     "        if (k == k_end - 1) tl_r[tl::P_LastIssued] = clock64();\n      }\n"
     "      ++st;\n    }\n    if (tl_r) tl_r[tl::P_EmptyWait] = tl_wait;\n  }\n"),
]
