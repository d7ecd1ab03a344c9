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
