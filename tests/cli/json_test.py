#!/usr/bin/env python3
"""`--json` of every command (docs/json.md): each output is one JSON object and a newline,
valid against docs/json.schema.json (members in the documented order, no key twice), and
its values equal what the same command prints as text. Errors under --json print nothing
on standard output. Usage: json_test.py TESSERA SCHEMA
"""
import copy
import math
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from json_command_check import JsonCommandCheck  # noqa: E402
from json_schema_check import loads  # noqa: E402

TESSERA, SCHEMA = sys.argv[1], sys.argv[2]
_j = JsonCommandCheck(TESSERA, SCHEMA)
check, run, run_json, validator = _j.check, _j.run, _j.run_json, _j.validator


def text_of(args, stdin=b"", status=0):
    rc, out, err = run(args, stdin)
    check(rc == status, "tessera %s: status %d, expected %d (%s)" % (" ".join(args), rc, status, err.strip()))
    return out.decode("utf-8")


def tuple_text(t):
    return str(t) if isinstance(t, int) else "(" + ",".join(tuple_text(x) for x in t) + ")"


def product(t):
    return t if isinstance(t, int) else math.prod(product(x) for x in t)


def layout_text(l):
    """A layout's text rebuilt from its shape and stride (and swizzle, offset)."""
    base = tuple_text(l["shape"]) + ":" + tuple_text(l["stride"])
    if "swizzle" in l:
        s = l["swizzle"]
        return "Sw<%d,%d,%d> o %d o %s" % (s["B"], s["M"], s["S"], l["offset"], base)
    return base


def check_layout(l, what):
    check(layout_text(l) == l["text"], "%s: text %s but shape/stride give %s" % (what, l["text"], layout_text(l)))


# ---- the validator rejects what it must (so that the checks below can fail) ------------
good = loads(text_of(["info", "--json", "(4,2):(1,4)"]))
check(not validator.errors(good), "validator: rejects a good document")
for mutate, why in [
    (lambda d: d.pop(), "a missing member"),
    (lambda d: d.append(("extra", 1)), "an extra member"),
    (lambda d: d.insert(3, d.pop(4)), "members out of order"),
    (lambda d: d.append(d[-1]), "a repeated key"),
    (lambda d: d.__setitem__(5, ("size", "16")), "a string for an integer"),
    (lambda d: d.__setitem__(5, ("size", 8.0)), "a fraction for an integer"),
    (lambda d: d.__setitem__(10, ("injective", 1)), "an integer for a boolean"),
    (lambda d: d.__setitem__(1, ("schema_version", 2)), "another schema version"),
]:
    bad = copy.deepcopy(good)
    mutate(bad)
    check(validator.errors(bad), "validator: accepts " + why)

# ---- eval -----------------------------------------------------------------------------
EXPRS = [
    "(4,(2,2)):(2,(1,8))", "8:1", "(8):(1)", "(4,2):(-1,4)", "composition((4,2):(2,1), 8:1)",
    "logical_divide((8,8):(1,8), (2:1,4:1))", "Sw<3,3,3> o (8,64):(64,1)", "Sw<2,0,2> o 4 o (4,4):(4,1)",
    "right_inverse(Sw<3,3,3> o (8,64):(64,1))", "(64,8):(8,1) o -8 o Sw<3,3,3>", "Sw<2,1,3>",
    "size((4,2):(1,4))", "shape((4,(2,3)):(1,(4,8)))", "(4:1,(2:2,3:1))", "(2,2):(4294967296,1)",
    "bad(", "composition((2,2):(1,6), (2,2):(1,1))", "", "size(", "(4,2):(1,4)\u00e9",
]
d = run_json(["eval"] + EXPRS, status=1)
lines = text_of(["eval", "-q"] + EXPRS, status=1).splitlines()
cpp_lines = text_of(["eval", "-q", "--cpp"] + EXPRS, status=1).splitlines()
check(len(d["results"]) == len(EXPRS) == len(lines) == len(cpp_lines), "eval: one entry per expression")
for e, r, line, cpp in zip(EXPRS, d["results"], lines, cpp_lines):
    check(r["input"] == e, "eval: input %r echoed as %r" % (e, r["input"]))
    if r["ok"]:
        v = r["result"]
        check(v["text"] == line, "eval %r: json text %r, text output %r" % (e, v["text"], line))
        check(r["cpp"] == cpp, "eval %r: json cpp %r, --cpp prints %r" % (e, r["cpp"], cpp))
        if v["kind"] in ("layout", "swizzled_layout"):
            check_layout(v, "eval " + e)
        if v["kind"] in ("integer", "int_tuple"):
            check(tuple_text(v["value"]) == v["text"], "eval %r: value %r, text %r" % (e, v["value"], v["text"]))
        if v["kind"] == "swizzle":
            check("Sw<%d,%d,%d>" % (v["B"], v["M"], v["S"]) == v["text"], "eval %r: swizzle fields" % e)
    else:
        err = r["error"]
        expect = "error: " + err["message"] + ("" if err["column"] is None else " (at column %d)" % err["column"])
        check(expect == line, "eval %r: json error %r, text %r" % (e, expect, line))
        check(cpp == line, "eval --cpp %r: error line %r, text %r" % (e, cpp, line))
kinds = {r["result"]["kind"] for r in d["results"] if r["ok"]}
check(kinds == {"layout", "swizzled_layout", "layout_after_swizzle", "swizzle", "integer", "int_tuple", "tiler"},
      "eval: every kind of value covered, got %r" % sorted(kinds))

# Standard input: one entry per line, control characters escaped, bytes that are not UTF-8
# replaced; more than the 64 KiB output buffer, so the document is streamed in pieces.
stdin = b"8:1\r\n\x01(4,2):(1,4)\n\xff\xfe\n\xe2\x82\xac\n" + b"(4,(2,2)):(2,(1,8))\n" * 3000
d = run_json(["eval", "-q"], stdin, status=1)
check(len(d["results"]) == 3004, "eval stdin: %d entries for 3004 lines" % len(d["results"]))
check(d["results"][0]["input"] == "8:1" and d["results"][0]["ok"], "eval stdin: CRLF line")
check(d["results"][1]["input"] == "\x01(4,2):(1,4)" and not d["results"][1]["ok"], "eval stdin: control character")
check(d["results"][2]["input"] == "\ufffd\ufffd", "eval stdin: invalid UTF-8 becomes U+FFFD")
check(d["results"][3]["input"] == "\u20ac", "eval stdin: UTF-8 passes through")
check(all(r["result"]["text"] == "(4,(2,2)):(2,(1,8))" for r in d["results"][4:]), "eval stdin: the long tail")
d = run_json(["eval"], b"")
check(d["results"] == [], "eval: no input, no entries")
d = run_json(["eval", "8:1"])
check(d["results"][0]["cpp"] == "Layout<_8,_1>", "eval: status 0 when every expression evaluates")

# ---- info -----------------------------------------------------------------------------
INFO_NAMES = ["layout", "size", "cosize", "image", "rank", "depth", "injective", "surjective", "bijective", "compact"]
for e in ["(4,(2,2)):(2,(1,8))", "(4,2):(1,0)", "(4,2):(-1,4)", "Sw<1,0,1> o (2,2):(1,2)", "Sw<3,3,3> o 8 o (8,64):(64,1)",
          "logical_divide((8,8):(1,8), (2:1,4:1))", "(8192,4096):(1,8192)", "(4096,2048):(1,4096)", "8:2"]:
    d = run_json(["info", e])
    text = dict(re.match(r"(\w+):\s+(.*)", line).groups() for line in text_of(["info", e]).splitlines())
    check(list(text) == INFO_NAMES, "info %s: text names %r" % (e, list(text)))
    check(d["input"] == e, "info %s: input" % e)
    check(d["layout"]["text"] == text["layout"], "info %s: layout" % e)
    check_layout(d["layout"], "info " + e)
    check(d["cpp"] == text_of(["info", "--cpp", e]).strip() == text_of(["eval", "--cpp", e]).strip(),
          "info %s: cpp differs from info --cpp / eval --cpp" % e)
    for name in ["size", "rank", "depth"]:
        check(str(d[name]) == text[name], "info %s: %s %r vs %r" % (e, name, d[name], text[name]))
    check((str(d["cosize"]) if d["cosize"] is not None else "unknown (too large)") == text["cosize"],
          "info %s: cosize %r vs %r" % (e, d["cosize"], text["cosize"]))
    image = "[%d, %d]" % (d["image"]["min"], d["image"]["max"]) if d["image"] else "unknown (too large to check)"
    check(image == text["image"], "info %s: image %r vs %r" % (e, image, text["image"]))
    for name in ["injective", "surjective", "bijective", "compact"]:
        word = {True: "yes", False: "no", None: "unknown (too large to check)"}[d[name]]
        check(word == text[name], "info %s: %s %r vs %r" % (e, name, d[name], text[name]))
check(run_json(["info", "(8192,4096):(1,8192)"])["injective"] is None, "info: unknown is null")

# ---- banks ----------------------------------------------------------------------------
BANKS = [
    ["(8,64):(64,1)", "--tv", "((8,4),(8,2)):((1,64),(8,256))", "--vec", "8", "--bits", "16"],
    ["Sw<3,3,3> o (8,64):(64,1)", "--tv", "((8,4),(8,2)):((1,64),(8,256))", "--vec", "8"],
    ["Sw<3,3,3> o (32,64):(64,1)", "--access", "SM75_U32x4_LDSM_N", "--for-mma", "SM80_16x8x16_F32F16F16F32_TN",
     "--atoms", "2x2", "--operand", "A"],
    ["(32,64):(64,1)", "--access", "SM80_CP_ASYNC_CACHEALWAYS_16", "--threads", "(32,4):(4,1)", "--values", "(1,8)"],
    ["(32,32):(1,32)", "--tv", "(32,32):(32,1)", "--bits", "32"],
]
for args in BANKS:
    args = ["banks"] + args
    d = run_json(args)
    lines = text_of(args).splitlines()
    smem, access, s = d["smem"], d["access"], d["summary"]
    check(lines[0] == "smem %s (%dx%d, %d-bit elements)" % (smem["layout"]["text"], smem["rows"], smem["cols"], d["bits"]),
          "%s: smem line %r" % (args, lines[0]))
    check_layout(smem["layout"], "banks smem")
    check(lines[1] == "access %s: tile %dx%d, %d threads, %d value(s) = %d bytes per access"
          % (access["text"], access["tile"][0], access["tile"][1], access["threads"], access["vec"], access["bytes"]),
          "%s: access line %r" % (args, lines[1]))
    instr_lines = lines[2:-1]
    check(len(instr_lines) == 2 * len(d["instructions"]), "%s: %d instruction entries" % (args, len(d["instructions"])))
    for k, ins in enumerate(d["instructions"]):
        check(instr_lines[2 * k] == "instr %d tile %d step %d threads %d-%d: wavefronts %d ideal %d extra %d max-degree %d"
              % (ins["index"], ins["tile"], ins["step"], ins["first_thread"], ins["last_thread"], ins["wavefronts"],
                 ins["ideal"], ins["extra"], ins["max_degree"]), "%s: instr %d line" % (args, k))
        check(instr_lines[2 * k + 1] == "  degree by bank: " + " ".join(map(str, ins["degree_by_bank"])),
              "%s: instr %d degrees" % (args, k))
        phases = ins["phases"]
        check(ins["degree_by_bank"] == [max(p["degree"][b] for p in phases) for b in range(32)],
              "%s: instr %d degree_by_bank is not the max over phases" % (args, k))
        check(ins["wavefronts"] == sum(p["wavefronts"] for p in phases), "%s: instr %d wavefronts" % (args, k))
        check(all(p["wavefronts"] == max(p["degree"]) for p in phases), "%s: instr %d phase wavefronts" % (args, k))
        check(ins["max_degree"] == max(ins["degree_by_bank"]), "%s: instr %d max degree" % (args, k))
        check(ins["ideal"] == sum(1 for p in phases if p["active_threads"] > 0), "%s: instr %d ideal" % (args, k))
        check(phases[0]["first_thread"] == ins["first_thread"] and
              phases[-1]["first_thread"] + phases[-1]["threads"] - 1 == ins["last_thread"],
              "%s: instr %d phases span the instruction's threads" % (args, k))
    verdict = "(conflict-free)" if s["conflict_free"] else "(%d-way conflicted)" % s["max_degree"]
    check(lines[-1] == "summary: instructions %d, wavefronts %d, ideal %d, extra %d, conflict factor %.2f, max degree %d %s"
          % (s["instructions"], s["wavefronts"], s["ideal"], s["extra"], s["conflict_factor"], s["max_degree"], verdict),
          "%s: summary %r" % (args, lines[-1]))
    check(s["extra"] == s["wavefronts"] - s["ideal"] and s["instructions"] == len(d["instructions"]),
          "%s: summary sums" % args)
    check(isinstance(s["conflict_factor"], float), "%s: conflict factor is a number with a fraction" % args)
    summary = run_json(args + ["--summary"])
    check("instructions" not in summary and summary["summary"] == s, "%s --summary: no instructions" % args)

# ---- mma and copy: the layouts --print-layouts prints, under its names -------------------
for args in [["SM80_16x8x16_F32F16F16F32_TN"], ["SM80_16x8x16_F32F16F16F32_TN", "--atoms", "2x2"],
             ["AMD_CDNA3_MFMA_16x16x16_F32F16F16F32", "--atoms", "2x1"], ["SM120_16x8x64_TN_VS_E2M1E2M1F32_UE4M3x16"],
             ["SM100_MMA_MXF4_SS_128x64x64_F32E2M1E2M1_UE4M3x16"], ["SM100_MMA_F8F6F4_2x1SM_TS_256x64x32_F16E2M1E3M2"],
             ["SM80_16x8x8_F16F16F16F16_TN", "--atoms", "2x2", "--permute", "32,32,8"],
             ["SM70_8x8x4_F32F16F16F32_TN"], ["SM90_64x64x16_F32BF16BF16_SS"], ["SM90_64x64x16_F32F16F16_RS", "--atoms", "2x1x1"]]:
    d = run_json(["mma"] + args)
    text = dict(line.split(" ", 1) for line in text_of(["mma"] + args + ["--print-layouts"]).splitlines())
    for name, l in d.items():
        if name in text and name not in ("tile", "SFVecSize"):
            check(l["text"] == text[name], "mma %s: %s %r vs %r" % (args, name, l["text"], text[name]))
            check_layout(l, "mma %s %s" % (args, name))
    check(set(text) - {"tile"} <= set(d), "mma %s: names %r" % (args, sorted(set(text) - set(d))))
    check(("SFVecSize" in text) == ("SFVecSize" in d) and str(d.get("SFVecSize")) == text.get("SFVecSize", "None"),
          "mma %s: SFVecSize" % args)
    check(text["tile"] == tuple_text(d["tile"]), "mma %s: tile" % args)
    listed = [a for a in run_json(["list", "atoms", "--mma", args[0]])["atoms"] if a["name"] == args[0]]
    check(len(listed) == 1 and all(d["atom"][k] == listed[0][k] for k in d["atom"]), "mma %s: atom vs list" % args)
    atoms = args[args.index("--atoms") + 1].split("x") if "--atoms" in args else []
    check(d["atom_layout"]["shape"] == [int(x) for x in atoms] + [1] * (3 - len(atoms)), "mma %s: atom_layout" % args)
    check(sum(p is not None for p in d["permutation"]) == (3 if "--permute" in args else 0), "mma %s: permutation" % args)

for args in [["UniversalCopy_128", "--threads", "(4,8):(8,1)", "--values", "(1,8)"],
             ["SM75_U32x4_LDSM_N", "--for-mma", "SM80_16x8x16_F32F16F16F32_TN", "--operand", "A"],
             ["SM75_U16x4_LDSM_T", "--for-mma", "SM80_16x8x16_F32F16F16F32_TN", "--atoms", "2x2", "--operand", "B"],
             ["SM80_CP_ASYNC_CACHEALWAYS_16", "--threads", "(16,8):(8,1)", "--values", "(1,8)", "--bits", "32"]]:
    d = run_json(["copy"] + args)
    text = dict(line.split(" ", 1) for line in text_of(["copy"] + args + ["--print-layouts"]).splitlines())
    for name in ["src", "dst"]:
        check(d[name]["text"] == text[name], "copy %s: %s" % (args, name))
        check_layout(d[name], "copy %s %s" % (args, name))
    check(tuple_text(d["tile"]) == text["tile"], "copy %s: tile" % args)
    check(d["bits"] == (int(args[args.index("--bits") + 1]) if "--bits" in args else 16), "copy %s: bits" % args)
    check(d["threads"] == product(d["src"]["shape"][0]) == product(d["dst"]["shape"][0]), "copy %s: threads" % args)

# ---- tma: the arguments the text prints, one member per line ---------------------------
def braces(xs):
    return "{" + ", ".join(str(x) for x in xs) + "}"


for args in [["(8192,4096):(4096,1)", "Sw<3,3,3> o (128,64):(64,1)"], ["(64,64):(64,1)", "gmma_k_sw128_bf16"],
             ["(8192,8192):(8192,1)", "gmma_k_sw128_bf16"],
             ["(4096,4096,8):(1,4096,16777216)", "(64,32):(1,64)"],
             ["(4096,4096,8):(1,4096,16777216)", "(64,32):(1,64)", "--bits", "32"],
             ["(4096,4096):(1,4096)", "Sw<3,3,3> o ((64,2),64):((1,4096),64)"]]:
    d = run_json(["tma"] + args)
    text = text_of(["tma"] + args)
    fields = dict(re.match(r"\s+(\w+)\s+(.*)", line).groups() for line in text.splitlines() if line.startswith("  "))
    check_layout(d["gmem"], "tma gmem")
    check_layout(d["smem"], "tma smem")
    check(text.startswith("gmem: %s, %d-bit elements\nsmem: %s\n" % (d["gmem"]["text"], d["bits"], d["smem"]["text"])),
          "tma %s: gmem, bits and smem as the text's" % args)
    check(fields["tensorRank"] == str(d["rank"]), "tma %s: rank" % args)
    check(fields["globalDim"].startswith(braces(d["global_dim"]) + "   (dim d = gmem mode " + braces(d["mode_of_dim"])),
          "tma %s: globalDim and mode_of_dim" % args)
    check(fields["globalStrides"].startswith(braces(d["global_strides"]) + " "), "tma %s: globalStrides" % args)
    check(fields["boxDim"] == braces(d["box_dim"]), "tma %s: boxDim" % args)
    check(fields["elementStrides"] == braces(d["element_strides"]), "tma %s: elementStrides" % args)
    for key, name in [("interleave", "interleave"), ("swizzle", "swizzle"), ("l2Promotion", "l2_promotion"),
                      ("oobFill", "oob_fill")]:
        check(fields[key].split()[0] == d[name], "tma %s: %s" % (args, key))
    check(re.search(r"per tile: %d box(es)? of %d bytes" % (d["boxes"], d["box_bytes"]), text) is not None,
          "tma %s: boxes" % args)
    check(d["boxes"] == math.prod(d["boxes_per_dim"]), "tma %s: boxes = product of boxes_per_dim" % args)

# ---- list -----------------------------------------------------------------------------
for args in [[], ["--mma"], ["--copy"], ["SM80"], ["--copy", "ldsm"], ["--vendor", "amd"], ["--arch", "xe-hpc"],
             ["--vendor", "nvidia", "--arch", "SM90"]]:
    d = run_json(["list", "atoms"] + args)
    lines = text_of(["list", "atoms"] + args).splitlines()
    check(len(lines) == len(d["atoms"]), "list %s: %d lines, %d entries" % (args, len(lines), len(d["atoms"])))
    for line, a in zip(lines, d["atoms"]):
        if a["kind"] == "mma":
            rebuilt = "mma  %s  %s  %dx%dx%d  %s  threads %d" % (a["name"], a["arch"], a["m"], a["n"], a["k"], a["types"], a["threads"])
            if a["vendor"] not in ("nvidia", "any"):
                rebuilt += "  wave %d" % a["wave_size"]
        else:
            rebuilt = "copy %s  %s  src %dx%d bits  dst %dx%d bits  smem %s  threads %d" % (
                a["name"], a["arch"], a["src"]["threads"], a["src"]["bits"], a["dst"]["threads"], a["dst"]["bits"],
                a["smem"], a["threads"])
        check(rebuilt == line, "list %s: %r vs %r" % (args, rebuilt, line))
    filt = [x for i, x in enumerate(args) if not x.startswith("--") and (i == 0 or args[i - 1] not in ("--vendor", "--arch"))]
    check(d["filter"] == (filt[0] if filt else None), "list %s: filter" % args)
    # The count: by kind and by vendor, each the number of entries so described.
    c = d["count"]
    check(c["total"] == len(d["atoms"]) == c["mma"] + c["copy"], "list %s: count %r" % (args, c))
    for kind in ("mma", "copy"):
        check(c[kind] == sum(a["kind"] == kind for a in d["atoms"]), "list %s: count of %s" % (args, kind))
    for vendor in ("nvidia", "amd", "intel", "any"):
        check(c[vendor] == sum(a["vendor"] == vendor for a in d["atoms"]), "list %s: count of %s" % (args, vendor))
    if "--vendor" in args:
        want = args[args.index("--vendor") + 1]
        check(all(a["vendor"] == want for a in d["atoms"]), "list %s: vendors" % args)
        check(d["vendor"] == want, "list %s: vendor field" % args)
    if "--arch" in args:
        want = args[args.index("--arch") + 1].lower()
        check(all(a["arch"].lower() in (want, want + "a") for a in d["atoms"]), "list %s: archs" % args)

# ---- verify ---------------------------------------------------------------------------
tmp = tempfile.mkdtemp(prefix="tessera_json_test_")
good_trace = os.path.join(tmp, "good.trace")
bad_trace = os.path.join(tmp, "bad.trace")
with open(good_trace, "w") as f:
    f.write("tessera-trace 1\nkernel a kernel \u00e9\nmap c (2,2) (2,2):(1,2)\n")
    for t in range(2):
        for v in range(2):
            f.write("rec c %d %d %d %d\n" % (t, v, t, v))
with open(bad_trace, "w") as f:
    f.write("tessera-trace 1\nmap c (2,2) (2,2):(1,2)\nmap d (4,1) (4,1):(1,0)\n"
            "rec c 0 0 0 0\nrec c 1 0 1 0\nrec c 1 0 1 0\nrec c 0 1 1 1\nrec e 0 0 0 0\n"
            "rec d 0 0 0 0\nrec d 1 0 1 0\nrec d 2 0 2 0\nrec d 3 0 3 0\n")
for path, status, extra in [(good_trace, 0, []), (bad_trace, 1, []), (bad_trace, 1, ["--max", "1"]),
                            (bad_trace, 0, ["--map", "d"]), (bad_trace, 1, ["--map", "c"])]:
    d = run_json(["verify", path] + extra, status=status)
    lines = text_of(["verify", path] + extra, status=status).splitlines()
    check(d["ok"] == (status == 0) and d["trace"] == path, "verify %s %s: ok/trace" % (path, extra))
    if d["kernel"] is not None:
        check(lines.pop(0) == "kernel: " + d["kernel"], "verify: kernel line")
    check(lines.pop() == ("OK" if d["ok"] else "FAILED"), "verify: verdict line")
    # The report rebuilt from the JSON, line by line (verify::format_report's form).
    rebuilt = []

    def findings(first, count):
        rebuilt.extend("  " + f["text"] for f in first)
        if count > len(first):
            rebuilt.append("  ... and %d more" % (count - len(first)))
        check(count >= len(first), "verify: counts")

    def header(count, kept):
        return "%d finding%s (first %d):" % (count, "" if count == 1 else "s", kept)

    for m in d["maps"]:
        if m["findings"] == 0:
            rebuilt.append("map %s: %d/%d records match" % (m["map"], m["matched"], m["expected"]))
        else:
            rebuilt.append("map %s: %s" % (m["map"], header(m["findings"], len(m["first"]))))
            findings(m["first"], m["findings"])
    if d["other_findings"]:
        rebuilt.append("records of undeclared maps: " + header(d["other_findings"], len(d["other"])))
        findings(d["other"], d["other_findings"])
    other = d["other"]
    check(rebuilt == lines, "verify %s %s: %r vs %r" % (path, extra, rebuilt, lines))
    for f in [f for m in d["maps"] for f in m["first"]] + other:
        coord = lambda c: "(%d,%d)" % tuple(c)
        check(f["kind"].replace("_", " ") in f["text"], "verify: finding kind %r in %r" % (f["kind"], f["text"]))
        if f["expected"]:
            check("expected " + coord(f["expected"]) in f["text"], "verify: expected in %r" % f["text"])
        if f["got"]:
            check("got " + coord(f["got"]) in f["text"], "verify: got in %r" % f["text"])
        if f["line"]:
            check(f["text"].endswith("(line %d)" % f["line"]), "verify: line in %r" % f["text"])
kinds = {f["kind"] for m in run_json(["verify", bad_trace], status=1)["maps"] for f in m["first"]}
check({"mismatch", "missing", "duplicate"} <= kinds, "verify: finding kinds covered, got %r" % kinds)

# ---- epilogue: the tree, its C++ type, its nodes and the check, as the text prints them ------
tree = "z = acc * sa[m] * sb[n] + bias[n]:bf16; aux = store(bf16, z); D = store(bf16, silu(z)); amax_d = amax(D); r[n] = max(D)"
e = run_json(["epilogue", tree, "--check", "8x12"])
check(e["tree"] == tree, "epilogue: tree %r is not the canonical text %r" % (e["tree"], tree))
check(e["cpp"] == text_of(["epilogue", "--cpp", tree]).strip(), "epilogue: cpp differs from --cpp")
check(e["root"]["position"] == "root" and e["root"]["cpp"] == e["cpp"], "epilogue: the root node is not the tree's")


def epilogue_nodes(n):
    yield n
    for c in n["children"]:
        check(c["position"].startswith(n["position"] + "."), "epilogue: child position %r" % c["position"])
        yield from epilogue_nodes(c)


epilogue_text = text_of(["epilogue", tree, "--check", "8x12"])
for n in epilogue_nodes(e["root"]):
    check(any(n["label"] in line and n["annotation"] in line for line in epilogue_text.splitlines()),
          "epilogue: node %r not drawn in the text" % n["label"])
check([o["name"] for o in e["check"]["outputs"]] == ["D", "r", "amax_d", "aux"], "epilogue: outputs %r" % e["check"]["outputs"])
check(e["check"]["pass"] and all(o["pass"] and 0 <= o["worst_ratio"] <= 1 for o in e["check"]["outputs"]),
      "epilogue: check did not pass")
check(e["check"]["outputs"][0]["count"] == 8 * 12 and e["check"]["outputs"][1]["count"] == 12, "epilogue: counts")
check("check" not in run_json(["epilogue", tree, "--no-check"]), "epilogue --no-check: a check in the JSON")

# ---- errors: nothing on standard output, `error:` on standard error, status 1 -----------
for args in [["info", "bad("], ["info", "(4,2)"], ["mma", "NOPE"], ["copy", "UniversalCopy_128"],
             ["banks", "(8,8):(8,1)"], ["list", "atoms", "nothing-matches-this"], ["list", "things"],
             ["verify", os.path.join(tmp, "absent.trace")], ["eval", "--cpp"],
             ["mma", "SM80_16x8x16_F32F16F16F32_TN", "-o", os.path.join(tmp, "x.svg")],
             ["mma", "SM80_16x8x16_F32F16F16F32_TN", "-f", "svg"], ["mma", "SM80_16x8x16_F32F16F16F32_TN", "--print-layouts"],
             ["copy", "UniversalCopy_128", "--threads", "(4,8):(8,1)", "--values", "(1,8)", "--color-by", "warp"],
             ["banks", "(8,64):(64,1)", "--tv", "(32,8):(8,1)", "-o", "-"], ["verify", good_trace, "-o", "-", "-f", "txt"],
             ["info", "8:1", "--cpp"], ["tma", "(4096,4096):(4096,1)", "(64,32):(1,64)"],
             ["tma", "(4096,4096):(4096,1)", "gmma_mn_sw128_bf16"], ["tma", "(4096,4096):(1,4096)", "(64,32):(1,64)", "-o", "-"],
             ["tma", "(4096,4096):(1,4096)", "(64,32):(1,64)", "-o", os.path.join(tmp, "x.svg")],
             ["epilogue", "store(bf16, sigmoid(acc))"], ["epilogue", "store(bf16, acc)", "-o", os.path.join(tmp, "x.svg")],
             ["epilogue", "store(bf16, acc)", "--cpp"]]:
    rc, out, err = run(args + ["--json"])
    # (verify's trace errors read `FILE: error: ...`, as a compiler's; verify's errors exit 2,
    # its 1 meaning FAILED)
    want = 2 if args[0] == "verify" else 1
    check(rc == want and out == b"" and re.match(r"(\S+: )?error: ", err) is not None,
          "tessera %s --json: status %d, stdout %r, stderr %r" % (" ".join(args), rc, out[:60], err[:80]))
check(not os.path.exists(os.path.join(tmp, "x.svg")), "--json -o wrote a file")
for name in ["eval", "info", "banks", "gmem", "tma", "mma", "copy", "list", "verify", "epilogue"]:
    rc, out, _ = run([name, "--help"])
    check(rc == 0 and b"--json" in out, "tessera %s --help does not show --json" % name)
for name in ["eval", "info"]:
    check(b"--cpp" in run([name, "--help"])[1], "tessera %s --help does not show --cpp" % name)

_j.finish("json_test")
