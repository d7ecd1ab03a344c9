#!/usr/bin/env python3
"""`tessera explain --json` and `tessera diff --json` (docs/json.md): one JSON object and a
newline, valid against docs/json.schema.json (member order, no key twice), and equal to what
the same command prints as text: every step of the JSON is a `N  expression = result` line of
the text (same numbering), the result and error are the text's last line, a diff's summary is
its verdict line and `equal` is its exit status. Errors under --json print nothing on
standard output. Usage: json_explain_diff_test.py TESSERA SCHEMA
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from json_command_check import JsonCommandCheck  # noqa: E402

TESSERA, SCHEMA = sys.argv[1], sys.argv[2]
_j = JsonCommandCheck(TESSERA, SCHEMA)
check = _j.check


def run(args):
    rc, out, err = _j.run(args)
    return rc, out.decode("utf-8"), err


def run_json(args, status):
    return _j.run_json(args, status=status)


# ---- explain ---------------------------------------------------------------------------
STEP = re.compile(r"^( *)(\d+(?:\.\d+)*)  (.*?)(?: = (.*)|  REFUSED)$")


def text_steps(text):
    """{number: (expression, result or None)} of the text output's operation lines."""
    steps = {}
    for line in text.splitlines():
        m = STEP.match(line)
        if m:
            steps[m.group(2)] = (m.group(3), m.group(4))
    return steps


def json_steps(steps, out):
    for s in steps:
        if "step" in s:
            out[s["step"]] = s
            json_steps(s["items"], out)
    return out


EXPLAIN = [
    ("logical_divide((4,2,3):(2,1,8), 4:2)", 0),
    ("size(complement(4:2, 24))", 0),
    ("right_inverse(Sw<3,3,3> o (8,64):(64,1))", 0),
    ("slice(Sw<2,0,2> o (4,4):(4,1), (1,_))", 0),
    ("tile_to_shape((2,2):(1,2), (4,6))", 0),
    ("zipped_divide((8,8):(8,1), (4,2))", 0),
    ("max_common_layout((4,8):(1,4), (4,8):(1,4))", 0),
    ("composition((2,2):(1,6), (2,2):(1,1))", 1),
    ("make_layout(complement(4:2, 24), composition((2,2):(1,6), (2,2):(1,1)))", 1),
    ("coalesce((2,2):(1,2)", 1),
]
for expr, status in EXPLAIN:
    d = run_json(["explain", expr], status)
    rc, text, _ = run(["explain", expr])
    last = text.splitlines()[-1]
    check(d["expression"] == expr, "explain %s: expression" % expr)
    if status == 0:
        check(d["error"] is None and last == "result: " + d["result"]["text"],
              "explain %s: result %r vs text %r" % (expr, d["result"], last))
    else:
        e = d["error"]
        check(d["result"] is None, "explain %s: a refused expression has no result" % expr)
        col = "" if e["column"] is None else " (at column %d)" % e["column"]
        check(last == "error: " + e["message"] + col, "explain %s: error %r vs text %r" % (expr, e, last))
    js, ts = json_steps(d["steps"], {}), text_steps(text)
    check(sorted(js) == sorted(ts), "explain %s: steps %s vs text %s" % (expr, sorted(js), sorted(ts)))
    for n, s in js.items():
        if n not in ts:
            continue
        texpr, tres = ts[n]
        check(s["expression"] == texpr, "explain %s: step %s expression %r vs %r" % (expr, n, s["expression"], texpr))
        if s["refused"]:
            check(tres is None and s["result"] is None, "explain %s: step %s refused in both" % (expr, n))
        else:
            check(s["result"]["text"] == tres, "explain %s: step %s result %r vs %r" % (expr, n, s["result"], tres))
        check(len(s["inputs"]) > 0 or "(" not in texpr or texpr.endswith("()"),
              "explain %s: step %s has no inputs" % (expr, n))
    refused = [s for s in js.values() if "error" in s]
    check(len(refused) == (1 if status and js else 0), "explain %s: %d steps carry an error" % (expr, len(refused)))

# The slice coordinate keeps its wildcard.
d = run_json(["explain", "slice((4,(2,3)):(1,(4,8)), (_,(1,_)))"], 0)
check(d["steps"][0]["inputs"][1] == {"kind": "coordinate", "text": "(_,(1,_))", "value": ["_", [1, "_"]]},
      "explain slice: coordinate input %r" % d["steps"][0]["inputs"][1])

# ---- diff ------------------------------------------------------------------------------
def product(t):
    if isinstance(t, int):
        return t
    r = 1
    for x in t:
        r *= product(x)
    return r


DIFF = [
    (["(4,2):(1,4)", "(4,2):(1,4)"], 0, "equal_to_the_letter"),
    (["(2,2):(1,2)", "4:1"], 0, "equal_as_functions"),
    (["(4,2):(1,4)", "(4,2):(2,1)"], 1, "differ"),
    (["4:1", "8:1"], 1, "differ"),
    (["Sw<1,0,1> o (2,2):(2,1)", "(2,2):(2,1)"], 1, "differ"),
    (["--tv", "(4,2)", "(4,2):(1,4)", "(4,2):(2,1)"], 1, "differ"),
    (["--tv", "(4,2)", "((2,2),2):((1,2),4)", "(4,2):(1,4)"], 0, "equal_as_functions"),
]
for args, status, verdict in DIFF:
    d = run_json(["diff"] + args, status)
    rc, text, _ = run(["diff"] + args + ["--brief"])
    what = "diff " + " ".join(args)
    check(rc == status and d["equal"] == (status == 0) and d["verdict"] == verdict, what + ": verdict/status")
    check(d["summary"] + "\n" == text, what + ": summary %r vs text %r" % (d["summary"], text))
    check(d["mode"] == ("tv" if "--tv" in args else "layout"), what + ": mode")
    check(len(d["cells"]) == min(d["differing"], 100) or d["compared"] < max(d["size_a"], d["size_b"]),
          what + ": cells listed")
    for c in d["cells"]:
        check(c["a"] != c["b"], what + ": a listed cell that does not differ")
    if d["mode"] == "layout":
        check(d["size_a"] == product(d["a"]["shape"]) and d["size_b"] == product(d["b"]["shape"]), what + ": sizes")
        check([c["index"] for c in d["cells"]] == sorted(c["index"] for c in d["cells"]), what + ": cells in order")

# ---- errors: nothing on standard output, `error:` on standard error, status 1 (diff: 2) ---
tmp = tempfile.mkdtemp()
for args in [["explain", ""], ["explain", "8:1", "-o", os.path.join(tmp, "x.svg")], ["explain", "8:1", "--force"],
             ["diff", "8:1"], ["diff", "8:1", "foo("], ["diff", "8:1", "8:1", "--brief"],
             ["diff", "8:1", "8:1", "-o", os.path.join(tmp, "x.svg")], ["diff", "8:1", "8:1", "--max", "x"]]:
    rc, out, err = run(args + ["--json"])
    check(rc == (2 if args[0] == "diff" else 1) and out == "" and err.startswith("error: "),
          "tessera %s --json: status %d, stdout %r, stderr %r" % (" ".join(args), rc, out[:60], err[:80]))
check(not os.path.exists(os.path.join(tmp, "x.svg")), "--json -o wrote a file")
for name in ["explain", "diff"]:
    rc, out, _ = run([name, "--help"])
    check(rc == 0 and "--json" in out, "tessera %s --help does not show --json" % name)

_j.finish("json_explain_diff_test")
