"""tessera.epilogue_tree from Python: the text, C++ type, JSON, drawings and host check equal
what `tessera epilogue` prints, writes and checks; malformed trees raise ParseError with the
CLI's column and caret."""
import json
import math

import pytest

import tessera as ts

# docs/gemm_epilogue.md's worked example (tests/cli/epilogue_cli_test.sh's), the CLI help's
# examples and a tree with every kind of sink.
EXAMPLE = "D = store(bf16, silu(acc * sa[m] * sb[n] + bias[n])); amax_d = amax(D)"
TREES = [
    EXAMPLE,
    "store(bf16, silu(acc * sa[m] * sb[n] + bias[n]))",
    "store(bf16, fma(alpha, acc, beta * C))",
    "z = acc * alpha + bias[n]:bf16; aux = store(bf16, z); store(bf16, relu(z)); r[n] = max(D)",
    "z = alpha * acc * s_m[m] * s_n[n] + bias[n]:bf16; aux = store(bf16, z); D = store(bf16, relu(z)); "
    "r[n] = max(D); amax_d = amax(D)",
    "store(e4m3, clamp(gelu(acc - C:f32) * *scale, -448, 448)); s[m] = sum(D)",
]


@pytest.mark.parametrize("text", TREES)
def test_text_reads_back_to_the_same_tree(text):
    t = ts.epilogue_tree(text)
    again = ts.epilogue_tree(str(t))
    assert again == t
    assert str(again) == str(t)


@pytest.mark.parametrize("text", TREES)
def test_cpp_json_and_drawings_equal_the_cli(cli, tmp_path, text):
    t = ts.epilogue_tree(text)
    r = cli("epilogue", "--cpp", text)
    assert r.returncode == 0, r.stderr
    assert t.cpp == r.stdout.rstrip("\n")
    doc = json.loads(cli("epilogue", "--json", "--no-check", text).stdout)
    assert t.to_dict() == doc
    assert doc["tree"] == str(t) and doc["cpp"] == t.cpp and doc["output"] == t.output
    for fmt in ("svg", "html", "tex", "txt"):
        path = tmp_path / f"tree.{fmt}"
        r = cli("epilogue", "--no-check", text, "-o", str(path), "--title", "a tree")
        assert r.returncode == 0, r.stderr
        assert ts.draw(t, fmt, title="a tree") == path.read_text()
        mine = tmp_path / f"mine.{fmt}"
        assert t.draw(mine, title="a tree") == str(mine)
        assert mine.read_text() == path.read_text()


def test_the_example_draws_in_a_notebook():
    t = ts.epilogue_tree(EXAMPLE)
    svg = t._repr_svg_()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and svg.rstrip().endswith("</svg>")
    # every node's box is drawn: its label appears in the SVG
    labels = []
    stack = [t.to_dict()["root"]]
    while stack:
        n = stack.pop()
        labels.append(n["label"])
        stack += n["children"]
    for label in labels:
        assert label.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") in svg
    assert "<iframe" in t._repr_html_()


def test_drawings_refuse_what_does_not_apply(tmp_path):
    t = ts.epilogue_tree(EXAMPLE)
    with pytest.raises(ValueError, match="txt, svg, tex or html"):
        t.draw("png")
    with pytest.raises(ValueError, match="color_by"):
        t.draw("svg", color_by="thread")
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("text", TREES)
@pytest.mark.parametrize("m, n, seed", [(16, 24, 1), (5, 7, 3)])
def test_check_equals_the_cli(cli, text, m, n, seed):
    t = ts.epilogue_tree(text)
    result = t.check(m=m, n=n, seed=seed)
    r = cli("epilogue", "--json", text, "--check", f"{m}x{n}", "--seed", str(seed))
    doc = json.loads(r.stdout)["check"]
    assert r.returncode == (0 if doc["pass"] else 2)
    assert bool(result) == result.passed == doc["pass"]
    assert len(result) == len(doc["outputs"])
    for mine, theirs in zip(result, doc["outputs"]):
        assert (mine.name, mine.kind, mine.type, mine.count, mine.passed) == \
            (theirs["name"], theirs["kind"], theirs["type"], theirs["count"], theirs["pass"])
        assert mine.max_error == pytest.approx(theirs["max_error"], rel=1e-12, abs=0)
        assert mine.ratio == pytest.approx(theirs["worst_ratio"], rel=1e-12, abs=0)
        assert mine.passed == (mine.ratio <= 1)
        # the worst ratio's element has the error ratio * bound, at most the largest error
        assert mine.ratio * mine.bound <= mine.max_error * (1 + 1e-12)


def test_check_passes_on_the_example_and_names_its_outputs():
    r = ts.epilogue_tree(EXAMPLE).check()
    assert r.passed and (r.m, r.n, r.seed) == (16, 24, 1)
    assert [(o.name, o.kind, o.type, o.count) for o in r] == \
        [("D", "D", "bf16", 16 * 24), ("amax_d", "ScalarReduction", "amax", 1)]
    for o in r:
        assert math.isfinite(o.max_error) and 0 <= o.ratio <= 1 and o.bound > 0


@pytest.mark.parametrize("m, n", [(0, 4), (4, 0), (4097, 1), (4096, 4096)])
def test_check_refuses_tiles_the_cli_refuses(cli, m, n):
    t = ts.epilogue_tree(EXAMPLE)
    with pytest.raises(ValueError, match="tile"):
        t.check(m=m, n=n)
    assert cli("epilogue", EXAMPLE, "--check", f"{m}x{n}").returncode == 1
    with pytest.raises(TypeError):
        t.check(m=1.5)


def cli_caret(cli, text):
    r = cli("epilogue", "--no-check", text)
    assert r.returncode == 1
    assert r.stderr.startswith("error: ")
    return r.stderr[len("error: "):].rstrip("\n")


# (text, the offending part: the column is where it starts)
BAD = [
    ("store(bf16, silu(acc +))", "))"),                  # a value missing before ')'
    ("store(bf17, acc)", "bf17"),                          # an unknown element type
    ("store(bf16, acc); store(f16, acc)", "store(f16"),    # D stored twice
    ("store(bf16, relu(acc)) extra", "extra"),             # no ';' between statements
    ("store(bf16, acc / 2)", "/"),                         # no division node
    ("r[n] = max(z); store(bf16, acc)", "z)"),             # a reduction of an undefined value
]


@pytest.mark.parametrize("text, offending", BAD)
def test_bad_trees_raise_the_cli_caret(cli, text, offending):
    with pytest.raises(ts.ParseError) as e:
        ts.epilogue_tree(text)
    assert e.value.text == text
    assert e.value.column == text.index(offending) + 1
    assert str(e.value) == cli_caret(cli, text)
    # the message, then the text and a caret under the column
    lines = str(e.value).splitlines()
    assert lines[0] == e.value.message
    assert lines[-2:] == ["  " + text, "  " + " " * (e.value.column - 1) + "^"]


def test_an_empty_tree_or_a_non_string_is_refused():
    with pytest.raises(ts.ParseError, match="the tree is empty"):
        ts.epilogue_tree("  ")
    with pytest.raises(TypeError):
        ts.epilogue_tree(b"store(bf16, acc)")
