"""CuTe's answers (tests/data/conformance) through Python: as text (tessera.eval), as calls of
the Python functions on Python objects, and as to_dict() against the CLI's --json."""
import json

import pytest

import tessera as ts
from conftest import conformance_vectors

VECTORS = conformance_vectors()


def test_all_vectors_present():
    # The README's count: a missing file is a failure, not a smaller test.
    assert len(VECTORS) == 4618


def test_eval_text_equals_cute():
    wrong = [(v["expr"], str(ts.eval(v["expr"])), v["result"]) for v in VECTORS
             if str(ts.eval(v["expr"])) != v["result"]]
    assert not wrong, wrong[:5]


def split_call(expr):
    """'name(a, b)' -> ('name', ['a', 'b']) at the top level, or None when expr is no call."""
    p = expr.find("(")
    name = expr[:p]
    if p <= 0 or not name.isidentifier() or not expr.endswith(")"):
        return None
    args, depth, start = [], 0, p + 1
    for i, c in enumerate(expr[p + 1:-1], start=p + 1):
        if c in "(<":
            depth += 1
        elif c in ")>":
            depth -= 1
        elif c == "," and depth == 0:
            args.append(expr[start:i])
            start = i + 1
    args.append(expr[start:-1])
    return name, [a.strip() for a in args]


PYTHON_NAME = {"slice": "slice_"}


def to_object(text):
    """An argument as the Python object a user would pass: the value it stands for, with the
    underscore as None."""
    if text == "_":
        return None
    if "_" in text and "Sw<" not in text and ":" not in text:  # a coordinate with underscores
        return ts._core.parse_int_tuple(eval(text.replace("_", "None")))
    return ts.parse(text)


def test_python_calls_equal_cute():
    checked, wrong = 0, []
    for v in VECTORS:
        call = split_call(v["expr"])
        if call is None:
            continue
        name, args = call
        fn = getattr(ts, PYTHON_NAME.get(name, name))
        result = fn(*[to_object(a) for a in args])
        checked += 1
        if str(result) != v["result"]:
            wrong.append((v["expr"], str(result), v["result"]))
    assert not wrong, wrong[:5]
    assert checked > 4000


def test_to_dict_equals_cli_json(cli):
    exprs = [v["expr"] for v in VECTORS]
    out = cli("eval", "--json", input="\n".join(exprs) + "\n")
    assert out.returncode == 0, out.stderr[:500]
    results = json.loads(out.stdout)["results"]
    assert len(results) == len(exprs)
    wrong = [(e, r["result"]) for e, r in zip(exprs, results) if ts.to_dict(ts.eval(e)) != r["result"]]
    assert not wrong, wrong[:3]
    # Same member order too, so json.dumps gives the CLI's text.
    for e, r in zip(exprs[:200], results[:200]):
        assert json.dumps(ts.to_dict(ts.eval(e)), separators=(",", ":")) == json.dumps(r["result"], separators=(",", ":"))


@pytest.mark.parametrize("expr", ["size((4,(2,2)):(2,(1,8)))", "shape((4,(2,2)):(2,(1,8)))",
                                  "idx2crd(5, (2,(2,2)))", "get((4,2):(1,4), 1)", "Sw<3,4,3>",
                                  "right_inverse(Sw<3,3,3> o 8 o (8,64):(64,1))", "(4:1,2:2)", "(8)"])
def test_str_equals_cli_text(cli, expr):
    out = cli("eval", expr, check=True)
    assert str(ts.eval(expr)) + "\n" == out.stdout
