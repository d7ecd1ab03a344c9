"""explain and verify from Python: the text, the JSON (to_dict) and the drawings equal what
`tessera explain` and `tessera verify` print and draw; refusals and bad traces are data or
exceptions as documented."""
import json

import pytest

import tessera as ts

EXPRS = ["logical_divide((4,2,3):(2,1,8), 4:2)", "composition((2,2):(1,6), (2,2):(1,1))",
         "tile_to_shape(Sw<3,3,3> o (8,64):(64,1), (128,64))", "zipped_divide((8,8):(8,1), (4:1,2:1))", "(4,2):(1,4)"]


@pytest.mark.parametrize("expr", EXPRS)
@pytest.mark.parametrize("depth", [0, 1])
def test_explain_equals_the_cli(cli, tmp_path, expr, depth):
    e = ts.explain(expr, depth=depth)
    args = ["explain", expr, "--depth", str(depth)]
    r = cli(*args)
    assert r.returncode == (0 if e.ok else 1)
    assert str(e) == r.stdout
    assert e.to_dict() == json.loads(cli(*args, "--json").stdout)
    assert e.steps == e.to_dict()["steps"] and len(e) == len(e.steps) and list(e) == e.steps
    svg = tmp_path / "e.svg"
    r = cli(*args, "-o", str(svg))
    if svg.exists():
        assert e.draw("svg") == svg.read_text()
    else:  # nothing to draw: refused on both sides with the same sentence
        with pytest.raises(ts.Error) as err:
            e.draw("svg")
        assert err.value.message in r.stderr


def test_explanation_values_and_refusals(cli):
    e = ts.explain("logical_divide((4,2,3):(2,1,8), 4:2)")
    assert e.ok and e.error is None and e.value == ts.eval("logical_divide((4,2,3):(2,1,8), 4:2)")
    assert e[0]["operation"] == "logical_divide" and e[0]["items"]
    r = ts.explain("composition((2,2):(1,6), (2,2):(1,1))")
    assert not r.ok and r.value is None
    assert isinstance(r.error, ts.InadmissibleError)
    assert r.error.message == r.to_dict()["error"]["message"]
    assert str(r.error) in cli("eval", "composition((2,2):(1,6), (2,2):(1,1))").stderr
    assert repr(r).startswith("<Explanation of composition((2,2):(1,6), (2,2):(1,1)):")
    with pytest.raises(ts.ParseError):
        ts.explain("logical_divide((4,2):(1,4), ")
    with pytest.raises(ValueError, match="depth"):
        ts.explain("8:1", depth=-1)
    with pytest.raises(TypeError, match="as text"):
        ts.explain(ts.Layout(8, 1))
    with pytest.raises(ValueError, match="empty"):
        ts.explain("  ")


TV = ts.Layout(((4, 8), (2, 2)), ((32, 1), (16, 8)))  # the SM80 C fragment over a 16x8 tile


def trace(swap=False, drop=False, unknown=False):
    lines = ["tessera-trace 1", "kernel sm80 c fragment", "map mma.C (16,8) ((4,8),(2,2)):((32,1),(16,8))"]
    recs = []
    for v in range(4):
        for t in range(32):
            i = TV(t + 32 * v)
            recs.append([t, v, i % 16, i // 16])
    if swap:
        recs[3][2:], recs[40][2:] = recs[40][2:], recs[3][2:]
    if drop:
        recs.pop(7)
    lines += [f"rec mma.C {t} {v} {r} {c}" for t, v, r, c in recs]
    if unknown:
        lines.append("rec nope 0 0 0 0")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("kind", ["ok", "swap", "drop", "unknown"])
@pytest.mark.parametrize("extra", [[], ["--max", "1"], ["--map", "mma.C"]])
def test_verify_equals_the_cli(cli, tmp_path, kind, extra):
    path = tmp_path / f"{kind}.trace"
    path.write_text(trace(swap=kind == "swap", drop=kind == "drop", unknown=kind == "unknown"))
    kw = {"max": int(extra[1])} if extra[:1] == ["--max"] else {"map": extra[1]} if extra else {}
    v = ts.verify(path, **kw)
    r = cli("verify", str(path), *extra)
    assert r.returncode == (0 if v.ok else 1) and bool(v) == v.ok
    assert v.ok == (kind == "ok" or (kind == "unknown" and "map" in kw))  # --map drops other maps' findings
    assert str(v) == r.stdout
    assert v.to_dict() == json.loads(cli("verify", str(path), *extra, "--json").stdout)
    svg = tmp_path / "v.svg"
    cli("verify", str(path), *extra, "-o", str(svg), check=False)
    assert v.draw("svg") == svg.read_text()
    assert v.draw("svg", color_by="value") == cli("verify", str(path), *extra, "-o", "-", "-f", "svg",
                                                   "--color-by", "value").stdout[len(str(v)):]
    t = ts.verify(text=path.read_text(), **kw)
    assert t.to_dict()["maps"] == v.to_dict()["maps"] and t.to_dict()["trace"] == "<text>"


def test_bad_traces_raise(tmp_path, cli):
    with pytest.raises(ts.ParseError) as e:
        ts.verify(text="tessera-trace 1\nmap a (2,2) (2,2):(1,2)\nrec a x 0 0 0\n")
    assert e.value.column and "<text>:3:" in str(e.value)
    bad = tmp_path / "bad.trace"
    bad.write_text("tessera-trace 2\n")
    with pytest.raises(ts.ParseError) as e:
        ts.verify(bad)
    assert str(e.value) in cli("verify", str(bad)).stderr
    with pytest.raises(ts.ParseError):
        ts.verify(tmp_path / "absent.trace")
    good = tmp_path / "good.trace"
    good.write_text(trace())
    with pytest.raises(ts.InadmissibleError, match="has no map 'x' \\(its maps: mma.C\\)"):
        ts.verify(good, map="x")
    with pytest.raises(ValueError, match="max takes a count"):
        ts.verify(good, max=-1)
    with pytest.raises(TypeError, match="not both"):
        ts.verify(good, text="x")
    empty = ts.verify(text="tessera-trace 1\n")
    assert not empty.ok and empty.focus is None
    with pytest.raises(ts.Error, match="declares no map"):
        empty.draw("svg")


DIFFS = [
    (["(2,2):(1,2)", "4:1"], {}),
    (["(4,8):(1,4)", "(4,8):(8,1)"], {}),
    (["(4,8):(1,4)", "(4,8):(1,4)"], {}),
    (["Sw<3,3,3> o (8,64):(64,1)", "(8,64):(64,1)"], {}),
    (["(4,8)", "(4,4):(1,4)"], {}),
    (["--tv", "(16,8)", "((4,8),(2,2)):((32,1),(16,8))", "((4,8),(2,2)):((32,1),(8,16))"], {"tv": "(16,8)"}),
    (["--tv", "(16,8)", "((4,8),(2,2)):((32,1),(16,8))", "((4,8),(2,2)):((32,1),(16,8))"], {"tv": "(16,8)"}),
]


@pytest.mark.parametrize("args, kw", DIFFS)
def test_diff_equals_the_cli(cli, tmp_path, args, kw):
    a, b = args[-2:]
    d = ts.diff(a, b, **kw)
    r = cli("diff", *args, "--brief")
    assert r.returncode == (0 if d.equal else 1) and bool(d) == d.equal
    assert str(d) + "\n" == r.stdout
    assert d.to_dict() == json.loads(cli("diff", *args, "--json").stdout)
    assert ts.diff(a, b, max=1, **kw).to_dict() == json.loads(cli("diff", *args, "--json", "--max", "1").stdout)
    assert d.verdict == d.to_dict()["verdict"] and d.summary == str(d)
    for ext in ("svg", "txt", "html"):
        out = tmp_path / f"d.{ext}"
        cli("diff", *args, "-o", str(out))
        assert d.draw(ext) == out.read_text(), ext
    out = tmp_path / "w.txt"
    cli("diff", *args, "-o", str(out), "--width", "0", "--color-by", "offset" if not kw else "value")
    assert ts.diff(a, b, width=0, **kw).draw("txt", color_by="offset" if not kw else "value") == out.read_text()


def test_diff_refusals(cli):
    with pytest.raises(TypeError, match="diff compares layouts"):
        ts.diff(ts.Swizzle(3, 3, 3), "8:1")
    with pytest.raises(ValueError, match="not a shape"):
        ts.diff((4, None), "8:1")
    with pytest.raises(TypeError, match="tv= compares TV layouts"):
        ts.diff("Sw<3,3,3> o (8,64):(64,1)", "(8,64):(64,1)", tv=(8, 64))
    with pytest.raises(ts.InadmissibleError) as e:
        ts.diff("((4,8),(2,2)):((32,1),(16,8))", "((4,8),(2,2)):((32,1),(16,8))", tv=(8, 8))
    assert e.value.argument == 1 and e.value.message.startswith("A: ")
    assert e.value.message[3:] in cli("diff", "--tv", "(8,8)", "((4,8),(2,2)):((32,1),(16,8))",
                                      "((4,8),(2,2)):((32,1),(16,8))").stderr
    with pytest.raises(ts.ParseError):
        ts.diff("(4,8):(1,", "8:1")
    with pytest.raises(ValueError, match="max takes a count"):
        ts.diff("8:1", "8:1", max=-2)
    with pytest.raises(ts.Error, match="more than 65536"):
        ts.diff("(512,512):(1,512)", "(512,512):(512,1)").draw("svg")
    assert not ts.diff("(512,512):(1,512)", "(512,512):(512,1)").equal
