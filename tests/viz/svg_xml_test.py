#!/usr/bin/env python3
"""Every SVG tessera writes is well-formed XML, and every legend says the colouring in force.

usage: svg_xml_test.py TESSERA TESTS_DIR

1. Every golden SVG under TESTS_DIR (tests/*/data) parses with an XML parser.
2. --title with random text: drawable text (UTF-8 without control characters but tab and
   newline) gives a well-formed SVG whose title reads back unchanged; anything else is
   refused (`error: --title ...` with a caret, exit 1, no file).
3. Every drawing command under every --color-by: the SVG parses, exactly one text says
   what colour means (the legend's title, naming the quantity asked for) and nothing else
   speaks of colour; a quantity the cells lack is refused. The TMA drawing colours each box
   and names it in the legend and in each cell's tooltip.
4. A large HTML page's compressed cell data decodes to the tooltips the SVG draws.
"""
import base64
import glob
import json
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

TESSERA, TESTS = sys.argv[1], sys.argv[2]
SVG = "{http://www.w3.org/2000/svg}"
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL: " + what, file=sys.stderr)


def run(args):
    p = subprocess.run([TESSERA] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout, p.stderr


def parse(path, what):
    try:
        return ET.parse(path).getroot()
    except ET.ParseError as e:
        check(False, "%s: not well-formed XML: %s" % (what, e))
        return None


def texts(root):
    return ["".join(t.itertext()) for t in root.iter(SVG + "text")]


# ---- 1. the goldens -----------------------------------------------------------------------
goldens = sorted(glob.glob(os.path.join(TESTS, "*", "data", "**", "*.svg"), recursive=True))
check(len(goldens) >= 10, "only %d golden SVGs found under %s" % (len(goldens), TESTS))
for g in goldens:
    parse(g, os.path.relpath(g, TESTS))

tmp = tempfile.mkdtemp(prefix="tessera-svg-xml-")


# ---- 2. fuzzed titles ---------------------------------------------------------------------
def drawable(b):
    """The rule of viz::first_undrawable, written again from its statement."""
    try:
        s = b.decode("utf-8")  # Python's decoder is strict: no overlongs, surrogates, > U+10FFFF
    except UnicodeDecodeError:
        return False
    for ch in s:
        o = ord(ch)
        if (o < 0x20 and ch not in "\t\n") or 0x7F <= o <= 0x9F or o in (0xFFFE, 0xFFFF):
            return False
    return True


rng = random.Random(20260101)
alphabet = [b"<", b">", b"&", b'"', b"'", b"]]>", b"\t", b"\n", b"\r", b"\x01", b"\x1b", b"\x7f", b"\xc2\x85",
            b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xef\xbf\xbe", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xe6\x97\xa5",
            b"a", b"Z", b"0", b" ", b"%", b"$", b"\\", b"{", b"}", b"\xc3", b"\xe2\x82"]
titles = [b"my\x01tile", b"\xff\xfe", b"plain title", b"<b>&amp;</b>", b"\xe2\x82\xac 16x8 \xf0\x9f\x98\x80"]
for _ in range(120):
    titles.append(b"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))))
accepted = refused = 0
for i, t in enumerate(titles):
    out = os.path.join(tmp, "t%d.svg" % i)
    rc, _, err = run(["render", "(4,2):(2,1)", "--title", os.fsdecode(t), "-o", out])
    what = "--title %r" % t
    if drawable(t):
        accepted += 1
        check(rc == 0, "%s: exit %d, %r" % (what, rc, err[:200]))
        root = parse(out, what) if os.path.exists(out) else None
        if root is not None:
            check(t.decode("utf-8") in texts(root), "%s: the title does not read back from the SVG" % what)
    else:
        refused += 1
        check(rc == 1 and err.startswith(b"error: --title") and b"^" in err,
              "%s: exit %d, stderr %r (want `error: --title ...` with a caret, exit 1)" % (what, rc, err[:200]))
        check(not os.path.exists(out), "%s: refused, yet %s was written" % (what, out))
check(accepted >= 10 and refused >= 10, "fuzzed titles: %d accepted, %d refused" % (accepted, refused))

# ---- 3. legends under every --color-by ----------------------------------------------------
trace = os.path.join(tmp, "tiny.trace")
with open(trace, "w") as f:
    f.write("tessera-trace 1\nkernel toy\nmap toy.C (2,2) (2,2):(1,2)\n"
            "rec toy.C 0 0 0 0\nrec toy.C 1 0 1 0\nrec toy.C 0 1 0 1\nrec toy.C 1 1 0 1\n")
COMMANDS = [
    ["render", "(4,(2,4)):(2,(1,8))"],
    ["render", "Sw<3,3,3> o (8,64):(64,1)"],
    ["render", "((4,8),(2,2)):((32,1),(16,8))", "--tv", "(16,8)"],
    ["mma", "SM80_16x8x8_F16F16F16F16_TN", "--atoms", "2x2"],
    ["mma", "SM90_64x64x16_F32BF16BF16_SS"],
    ["copy", "SM75_U32x4_LDSM_N", "--for-mma", "SM80_16x8x16_F32F16F16F32_TN", "--operand", "A"],
    ["banks", "Sw<3,3,3> o (8,64):(64,1)", "--tv", "((8,4),(8,2)):((1,64),(8,256))", "--vec", "8"],
    ["gmem", "(8,32):(36,1)", "--tv", "(32,8):(8,1)", "--bits", "32"],
    ["tma", "(4096,4096):(1,4096)", "((8,2),8):((1,64),8)"],  # two boxes of 8x8
    ["verify", trace],
]
# What the legend's title names for each quantity (chunks go by the unit's own name).
NAMES = {"thread": ["thread"], "warp": ["warp"], "value": ["value"], "offset": ["offset"], "bank": ["bank"],
         "chunk": ["chunk", "sector", "unit"], "box": ["box"]}
for cmd in COMMANDS:
    for by in [None] + list(NAMES):
        out = os.path.join(tmp, "legend.svg")
        if os.path.exists(out):
            os.remove(out)
        args = cmd + ["-o", out] + ([] if by is None else ["--color-by", by])
        what = "tessera " + " ".join(args[:-2] if by is None else args)
        rc, _, err = run(args)
        # (verify answers 1 for FAILED, with its drawing; its errors are 2)
        if rc != 0 and not (cmd[0] == "verify" and rc == 1):
            check(by is not None and rc == (2 if cmd[0] == "verify" else 1) and
                  b"cannot colour by " + by.encode() in err and not os.path.exists(out),
                  "%s: exit %d, %r" % (what, rc, err[:200]))
            continue
        root = parse(out, what)
        if root is None:
            continue
        speaking = [t for t in texts(root) if "colour" in t.lower() or "color" in t.lower()]
        check(len(speaking) == 1 and speaking[0].startswith("colour: "),
              "%s: want one legend title on colour, got %r" % (what, speaking))
        if by is not None and speaking:
            check(any(n in speaking[0] for n in NAMES[by]), "%s: the legend %r does not name %s" % (what, speaking[0], by))
        if cmd[0] == "tma" and by in (None, "box"):
            fills = {r.get("fill") for r in root.iter(SVG + "rect")
                     if r.get("fill") not in (None, "none", "#ffffff", "white")}
            titles_ = [t.text or "" for t in root.iter(SVG + "title")]
            check("box" in speaking[0], "%s: legend %r" % (what, speaking[0]))
            check(any("box 1 (copy 2 of 2" in t for t in titles_), "%s: no cell tooltip names its box" % what)
            check(len(fills) >= 2, "%s: the two boxes share one colour" % what)

# The TMA page of one 64x64 box (4096 cells: the largest page that keeps an element per cell,
# html_backend.cpp): each cell its own offset and bank, the box in every cell.
page = os.path.join(tmp, "boxes.html")
rc, _, err = run(["tma", "(8192,4096):(4096,1)", "Sw<3,3,3> o (64,64):(64,1)", "-o", page])
check(rc == 0, "tma -o boxes.html: exit %d, %r" % (rc, err[:200]))
if rc == 0:
    html = open(page, encoding="utf-8").read()
    cells = html.count('<g class="cell"')
    check(cells == 4096, "tma page: %d cells" % cells)
    check(len(set(re.findall(r'data-o="(\d+)"', html))) == 4096, "tma page: offsets are not the cells' own")
    check(len(set(re.findall(r'data-b="(\d+)"', html))) == 32, "tma page: banks are not the cells' own")
    check(html.count('data-x="0"') == 4096, "tma page: not every cell names box 0")


def canvas_cells(html):
    """A canvas page's cell data, decoded as its script decodes it (html_backend.cpp): per
    cell, in panel and row-major order, (kind, {fact: decimal text}, tooltip)."""
    m = re.search(r'<script type="application/x-tessera-cells">\s*([A-Za-z0-9+/=]+)\s*</script>', html)
    raw = zlib.decompress(base64.b64decode(m.group(1)))
    n = struct.unpack("<I", raw[:4])[0]
    meta, off, count = json.loads(raw[4:4 + n]), 4 + n + (4 - n % 4) % 4, None
    count = meta["cells"]
    cols = {}
    for c in meta["columns"]:
        words = []
        for _ in range(2 if c["wide"] else 1):
            acc, out = 0, []
            for d in struct.unpack("<%di" % count, raw[off:off + 4 * count]):
                acc = (acc + d) & 0xFFFFFFFF
                out.append(acc - (1 << 32) if acc >> 31 else acc)
            words.append(out)
            off += 4 * count
        if c["wide"]:
            cols[c["name"]] = [None if (h, l) == (-(1 << 31), 0) else h * (1 << 32) + (l & 0xFFFFFFFF) for l, h in zip(*words)]
        else:
            cols[c["name"]] = [None if v == -(1 << 31) else v for v in words[0]]
    cells, i = [], 0
    for p in meta["panels"]:
        for r in range(p["rows"]):
            for c in range(p["cols"]):
                facts = {"r": str(r), "c": str(c)}
                for k in "otvxb":
                    facts[k] = None if cols[k][i] is None else str(cols[k][i])
                facts["w"] = None if cols["t"][i] is None else str(int(cols["t"][i] / 32))
                parts, extra = meta["templates"][cols["tpl"][i]].split("\x01"), 0
                tip = parts[0]
                for part in parts[1:]:
                    if part[0] == "#":
                        tip += str(cols["e%d" % extra][i]) + part[1:]
                        extra += 1
                    else:
                        tip += facts[part[0]] + part[1:]
                cells.append((cols["k"][i], facts, tip))
                i += 1
    return cells


# A canvas page (past 4096 cells): its cell data, decoded here, gives every cell the tooltip the
# labelled SVG of the same drawing gives it, character for character (offsets past 32 bits and
# negative ones included).
for args in (["tma", "(4096,4096):(1,4096)", "Sw<3,3,3> o ((64,2),64):((1,4096),64)"],
             ["mma", "SM90_64x64x16_F32BF16BF16_RS", "--atoms", "1x2"],
             ["render", "(64,80):(-4294967296,3)"]):
    page, svg = os.path.join(tmp, "canvas.html"), os.path.join(tmp, "canvas.svg")
    rc1, _, _ = run(args + ["-o", page])
    rc2, _, _ = run(args + ["--labels", "-o", svg])
    check(rc1 == 0 and rc2 == 0, "%s: drawn" % args)
    if rc1 or rc2:
        continue
    decoded = canvas_cells(open(page, encoding="utf-8").read())
    svg_titles = [g.find(SVG + "title").text or "" for g in ET.parse(svg).getroot().iter(SVG + "g")
                  if g.find(SVG + "title") is not None and g.find(SVG + "rect") is not None]
    got = [t for k, _, t in decoded if k and t]
    check(len(decoded) > 4096 and got == svg_titles,
          "%s: the canvas page's %d decoded tooltips are not the SVG's %d (first differing: %s)"
          % (args, len(got), len(svg_titles), next(((a, b) for a, b in zip(got, svg_titles) if a != b), None)))

if failures:
    print("%d failure(s)" % len(failures), file=sys.stderr)
    sys.exit(1)
print("svg_xml_test: %d goldens, %d titles (%d refused), %d drawings checked" %
      (len(goldens), len(titles), refused, len(COMMANDS) * (len(NAMES) + 1)))
