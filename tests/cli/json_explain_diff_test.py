#!/usr/bin/env python3
"""`tessera explain --json` and `tessera diff --json` (docs/json.md): one JSON object and a
newline, valid against docs/json.schema.json (member order, no key twice), and equal to what
the same command prints as text: every step of the JSON is a `N  expression = result` line of
the text (same numbering), the result and error are the text's last line, a diff's summary is
its verdict line and `equal` is its exit status. Errors under --json print nothing on
standard output. Usage: json_explain_diff_test.py TESSERA SCHEMA
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from json_schema_check import Members, Validator, loads, plain  # noqa: E402

TESSERA, SCHEMA = sys.argv[1], sys.argv[2]
validator = Validator(json.load(open(SCHEMA)))
failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL: " + what, file=sys.stderr)


def run(args):
    p = subprocess.run([TESSERA] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8", "replace")


def run_json(args, status):
    rc, out, err = run(args + ["--json"])
    what = "tessera " + " ".join(args) + " --json"
    check(rc == status, "%s: status %d, expected %d (%s)" % (what, rc, status, err.strip()))
    check(out.endswith("\n") and out.count("\n") == 1, what + ": not one line and a newline")
    doc = loads(out)
    check(isinstance(doc, Members) and [k for k, _ in doc[:2]] == ["command", "schema_version"],
          what + ": does not start with command, schema_version")
    errs = validator.errors(doc)
    check(not errs, what + ": schema: " + "; ".join(errs[:3]))
    d = plain(doc)
    check(d["command"] == args[0] and d["schema_version"] == 1, what + ": command or version")
    return d


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

# ---- errors: nothing on standard output, `error:` on standard error, status 1 ----------
tmp = tempfile.mkdtemp()
for args in [["explain", ""], ["explain", "8:1", "-o", os.path.join(tmp, "x.svg")], ["explain", "8:1", "--force"],
             ["diff", "8:1"], ["diff", "8:1", "foo("], ["diff", "8:1", "8:1", "--brief"],
             ["diff", "8:1", "8:1", "-o", os.path.join(tmp, "x.svg")], ["diff", "8:1", "8:1", "--max", "x"]]:
    rc, out, err = run(args + ["--json"])
    check(rc == 1 and out == "" and err.startswith("error: "),
          "tessera %s --json: status %d, stdout %r, stderr %r" % (" ".join(args), rc, out[:60], err[:80]))
check(not os.path.exists(os.path.join(tmp, "x.svg")), "--json -o wrote a file")
for name in ["explain", "diff"]:
    rc, out, _ = run([name, "--help"])
    check(rc == 0 and "--json" in out, "tessera %s --help does not show --json" % name)

print("json_explain_diff_test: %d checks, %d failed" % (checks, len(failures)))
sys.exit(1 if failures else 0)
