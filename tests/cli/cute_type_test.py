#!/usr/bin/env python3
"""`tessera eval --cpp` prints C++ that compiles and means the value it was given.

    cute_type_test.py TESSERA tessera CXX FLAGS...   against tessera's static tier
    cute_type_test.py TESSERA cute CXX FLAGS...      against CuTe itself (FLAGS: -I to CUTLASS's include/, CUDA's)

For each expression, --cpp's type goes into one C++ file.
- tessera: CuTe's names are mapped onto tessera's static tier by a preamble that defines
  exactly CuTe's names (Shape, Stride, Tile, Int<int>, and only the _N aliases CuTe's
  integral_constant.hpp has: a `_11`, which CuTe lacks, fails to compile). The file
  static_asserts that the type IS the one built from `eval --json`'s shape and stride with
  tessera's own spelling (tessera::Layout<tessera::tuple<tessera::C<4>,...>,...>), and that it
  evaluates to the offsets Python computes from that JSON.
- cute: the same offset static_asserts with CuTe's operator(), and the program prints each
  type with cute::print, which must read as tessera's text output without CuTe's `_` markers.
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile

TESSERA, MODE, CXX, FLAGS = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
assert MODE in ("tessera", "cute")

EXPRS = [
    "(4,8):(1,4)", "8:1", "(8):(1)", "(4,(2,2)):(2,(1,8))", "((2,3),(4,5)):((1,2),(6,24))",
    "(11,100):(100,1)", "(3,4):(-1,-33)", "(2,(3,(4,5))):(0,(1,(3,12)))", "(2,2):(4294967296,1)",
    "(384,2):(1,384)", "(2,3):(-32,-24)", "logical_divide((8,8):(1,8), (2:1,4:1))", "composition((4,2):(2,1), 8:1)",
    "blocked_product((2,2):(1,2), (3,4):(4,1))", "Sw<3,3,3> o (8,64):(64,1)", "Sw<2,0,2> o 4 o (4,4):(4,1)",
    "right_inverse(Sw<3,3,3> o (8,64):(64,1))", "tile_to_shape(Sw<3,3,3> o (8,64):(64,1), (16,128))",
    "Sw<1,2,-3> o (8,8):(8,1)", "(64,8):(8,1) o -8 o Sw<3,3,3>", "Sw<2,1,3>", "size((4,2):(1,4))",
    "cosize((3,4):(1,11))", "shape((4,(2,3)):(1,(4,8)))", "(4:1,(2:2,3:1))",
]



def generated(count, seed=18):
    """Layouts and swizzled layouts with random nested shapes, strides from -40 to 2^40 (aliases,
    Int<N> and C<N> all occur), a fixed seed so that a failure reproduces."""
    rng = random.Random(seed)

    def shape(depth):
        if depth == 0 or rng.random() < 0.4:
            return rng.choice([1, 2, 3, 4, 5, 8, 11, 16])
        return [shape(depth - 1) for _ in range(rng.randint(1, 3))]

    def stride_like(t):
        if isinstance(t, list):
            return [stride_like(x) for x in t]
        return rng.choice([0, 1, 2, -1, -33, 7, 24, 100, 384, 4096, 1 << 33, -(1 << 40), rng.randint(-40, 600)])

    def text(t):
        return str(t) if isinstance(t, int) else "(" + ",".join(map(text, t)) + ")"

    out = []
    for k in range(count):
        sh = shape(3)
        layout = text(sh) + ":" + text(stride_like(sh))
        if k % 4 == 3:
            b, m = rng.randint(0, 3), rng.randint(0, 4)
            sh_ = rng.choice([1, -1]) * rng.randint(max(b, 1), b + 3)
            layout = "Sw<%d,%d,%d> o %d o %s" % (b, m, sh_, rng.randint(0, 40), layout)
        out.append(layout)
    return out


EXPRS += generated(48)

# CuTe's integer aliases (include/cute/numeric/integral_constant.hpp): _mN is -N.
CUTE_ALIASES = ([-32, -24, -16, -12, -10] + list(range(-9, 11)) + [12, 16, 24] + list(range(32, 257, 8)) +
                [384, 512, 768, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288])


def run(args):
    p = subprocess.run([TESSERA] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("tessera %s failed: %s" % (" ".join(args), p.stderr))
    return p.stdout


cpp = run(["eval", "--cpp"] + EXPRS).splitlines()
text = run(["eval"] + EXPRS).splitlines()
values = [r["result"] for r in json.loads(run(["eval", "--json"] + EXPRS))["results"]]
assert len(cpp) == len(text) == len(values) == len(EXPRS)
# Every --cpp line reads back: `tessera eval <type>` is the value it was printed from.
back = run(["eval"] + cpp).splitlines()
for e, t, b, c in zip(EXPRS, text, back, cpp):
    if b != t:
        sys.exit("cute_type_test: %s printed as %s reads back as %s, not %s" % (e, c, b, t))


# ---- from the JSON: tessera's spelling of the type, and the function's offsets ---------
def tessera_tuple(t):
    return "tessera::C<%d>" % t if isinstance(t, int) else "tessera::tuple<%s>" % ",".join(map(tessera_tuple, t))


def tessera_layout(v):
    return "tessera::Layout<%s,%s>" % (tessera_tuple(v["shape"]), tessera_tuple(v["stride"]))


def tessera_swizzle(s):
    return "tessera::Swizzle<%d,%d,%d>" % (s["B"], s["M"], s["S"])


def tessera_tiler(v):
    return tessera_layout(v) if "shape" in v else "tessera::tuple<%s>" % ",".join(map(tessera_tiler, v["modes"]))


def tessera_type(v):
    k = v["kind"]
    if k in ("integer", "int_tuple"):
        return tessera_tuple(v["value"])
    if k == "layout":
        return tessera_layout(v)
    if k == "swizzled_layout":
        return "tessera::ComposedLayout<%s,tessera::C<%d>,%s>" % (tessera_swizzle(v["swizzle"]), v["offset"], tessera_layout(v))
    if k == "layout_after_swizzle":
        return "tessera::ComposedLayout<%s,tessera::C<%d>,%s>" % (tessera_layout(v), v["offset"], tessera_swizzle(v["swizzle"]))
    if k == "swizzle":
        return tessera_swizzle(v)
    if k == "tiler":
        return tessera_tiler(v)
    raise ValueError(k)


def leaves(t):
    return [t] if isinstance(t, int) else [x for e in t for x in leaves(e)]


def layout_at(v, i):
    """L(i): i's colexicographic coordinate over the flattened shape, dotted with the stride."""
    off = 0
    shape, stride = leaves(v["shape"]), leaves(v["stride"])
    for k, (s, d) in enumerate(zip(shape, stride)):
        c = i if k == len(shape) - 1 else i % s
        i //= s
        off += c * d
    return off


def swizzle_at(s, x):
    yyy = ((1 << s["B"]) - 1) << (s["M"] + max(s["S"], 0))
    return x ^ ((x & yyy) >> s["S"] if s["S"] >= 0 else (x & yyy) << -s["S"])


def offsets(v):
    """(i, f(i)) for the first indices of a function-valued result; none for the others."""
    size = 1
    for s in leaves(v.get("shape", 1)):
        size *= s
    k = v["kind"]
    if k == "layout":
        return [(i, layout_at(v, i)) for i in range(min(size, 48))]
    if k == "swizzled_layout":
        return [(i, swizzle_at(v["swizzle"], v["offset"] + layout_at(v, i))) for i in range(min(size, 48))]
    if k == "layout_after_swizzle":
        return [(x, layout_at(v, v["offset"] + swizzle_at(v["swizzle"], x))) for x in range(8, min(size, 48))]
    return []


# ---- the C++ file -----------------------------------------------------------------------
lines = []
if MODE == "tessera":
    lines += ["#include <tessera/tessera.hpp>", "#include <cstdint>", "#include <type_traits>", "",
              "// CuTe's names for the static tier, and no others.", "namespace cute_names {",
              "using tessera::C;", "using tessera::ComposedLayout;", "using tessera::Layout;", "using tessera::Swizzle;",
              "template <class... T> using Shape = tessera::tuple<T...>;",
              "template <class... T> using Stride = tessera::tuple<T...>;",
              "template <class... T> using Tile = tessera::tuple<T...>;",
              "template <int N> using Int = tessera::C<N>;  // CuTe's Int takes an int"]
    lines += ["using _%s = C<%d>;" % ("m%d" % -n if n < 0 else n, n) for n in CUTE_ALIASES]
    lines += ["}  // namespace cute_names", ""]
else:
    lines += ["#include <cute/layout.hpp>", "#include <cute/swizzle_layout.hpp>", "#include <cstdint>",
              "#include <cstdio>", "", "namespace cute_names {", "using namespace cute;", "}", ""]
for k, (e, t, v) in enumerate(zip(EXPRS, cpp, values)):
    lines.append("// %s  ->  %s" % (e, v["text"]))
    lines.append("namespace cute_names { using T%d = %s; }  using cute_names::T%d;" % (k, t, k))
    if MODE == "tessera":
        lines.append("static_assert(std::is_same_v<T%d, %s>, \"%s\");" % (k, tessera_type(v), e))
    for i, o in offsets(v):
        lines.append("static_assert(T%d{}(std::int64_t(%d)) == %d, \"%s at %d\");" % (k, i, o, e, i))
if MODE == "tessera":
    lines.append("int main() { return 0; }")
else:
    lines.append("int main() {")
    lines += ['  cute::print(T%d{}); std::printf("\\n");' % k for k in range(len(EXPRS))]
    lines.append("}")
source = "\n".join(lines) + "\n"

with tempfile.TemporaryDirectory(prefix="tessera_cute_type_") as tmp:
    src, exe = os.path.join(tmp, "types.cpp"), os.path.join(tmp, "types")
    open(src, "w").write(source)
    p = subprocess.run([CXX] + FLAGS + [src, "-o", exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        print(source)
        print(p.stdout[-6000:])
        sys.exit("cute_type_test (%s): the printed types do not compile or do not mean the values" % MODE)
    run_out = subprocess.run([exe], stdout=subprocess.PIPE, text=True, check=True).stdout.splitlines()

failures = 0
if MODE == "cute":
    for e, t, printed, expected in zip(EXPRS, cpp, run_out, text):
        if printed.replace("_", "") != expected:
            print("FAIL: %s: CuTe prints %s as %s, tessera %s" % (e, t, printed, expected))
            failures += 1
print("cute_type_test (%s): %d types compiled%s, %d failed" %
      (MODE, len(EXPRS), " and printed by CuTe" if MODE == "cute" else "", failures))
sys.exit(1 if failures else 0)
