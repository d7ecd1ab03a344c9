"""Bank conflicts and coalescing from Python: the text, the JSON (to_dict) and the drawings
equal what `tessera banks` / `tessera gmem` print and draw for the same arguments; bad
arguments raise tessera's errors."""
import json

import pytest

import tessera as ts

LDSM_ROWS = "((8,4),(8,2)):((1,64),(8,256))"
MMA = "SM80_16x8x16_F32F16F16F32_TN"

# (smem, CLI access args, Python access kwargs)
BANKS = [
    ("(8,64):(64,1)", ["--tv", LDSM_ROWS, "--vec", "8", "--bits", "16"], dict(tv=LDSM_ROWS, vec=8, bits=16)),
    ("Sw<3,3,3> o (8,64):(64,1)", ["--tv", LDSM_ROWS, "--vec", "8"], dict(tv=LDSM_ROWS, vec=8)),
    ("(32,32):(32,1)", ["--tv", "(32,32):(32,1)", "--bits", "32"], dict(tv="(32,32):(32,1)", bits=32)),
    ("Sw<3,3,3> o (32,64):(64,1)",
     ["--access", "SM75_U32x4_LDSM_N", "--for-mma", MMA, "--atoms", "2x2", "--operand", "A"],
     dict(access=lambda: ts.make_tiled_copy_A("SM75_U32x4_LDSM_N", ts.make_tiled_mma(MMA, atoms="2x2")))),
    ("(32,64):(64,1)", ["--access", "SM80_CP_ASYNC_CACHEALWAYS<16>", "--threads", "(32,4):(4,1)", "--values", "(1,8)"],
     dict(access=lambda: ts.make_tiled_copy("SM80_CP_ASYNC_CACHEALWAYS<16>", "(32,4):(4,1)", "(1,8)"))),
]

GMEM = [
    ("(64,64):(1,64)", ["--tv", "(32,4):(1,32)", "--bits", "32"], dict(tv="(32,4):(1,32)", bits=32)),
    ("(64,64):(64,1)", ["--tv", "(32,4):(1,32)", "--bits", "32", "--base", "16"],
     dict(tv="(32,4):(1,32)", bits=32, base=16)),
    ("(32,64):(64,1)", ["--access", "SM80_CP_ASYNC_CACHEALWAYS<16>", "--threads", "(32,4):(4,1)", "--values", "(1,8)"],
     dict(access=lambda: ts.make_tiled_copy("SM80_CP_ASYNC_CACHEALWAYS<16>", "(32,4):(4,1)", "(1,8)"))),
]


def kwargs_of(kw):
    return {k: v() if callable(v) else v for k, v in kw.items()}


def check_report(cli, command, report, mem, args):
    assert str(report) == cli(command, mem, *args, check=True).stdout
    assert report.text(summary_only=True) == cli(command, mem, *args, "--summary", check=True).stdout
    assert report.to_dict() == json.loads(cli(command, mem, *args, "--json", check=True).stdout)
    assert ts.to_dict(report) == report.to_dict()
    assert report.to_dict(summary_only=True) == json.loads(
        cli(command, mem, *args, "--json", "--summary", check=True).stdout)
    for fmt in ("svg", "txt"):  # -o -: the report, then the drawing
        out = cli(command, mem, *args, "-o", "-", "-f", fmt, check=True).stdout
        assert out.startswith(str(report)) and out[len(str(report)):] == report.draw(fmt)


@pytest.mark.parametrize("smem, args, kw", BANKS)
def test_banks_equal_the_cli(cli, smem, args, kw):
    check_report(cli, "banks", ts.banks(smem, **kwargs_of(kw)), smem, args)


@pytest.mark.parametrize("gmem, args, kw", GMEM)
def test_gmem_equals_the_cli(cli, gmem, args, kw):
    check_report(cli, "gmem", ts.gmem(gmem, **kwargs_of(kw)), gmem, args)


def test_bank_report_fields():
    b = ts.banks("(8,64):(64,1)", tv=LDSM_ROWS, vec=8)
    assert not b.conflict_free and b.max_degree == 8
    s = ts.banks(ts.make_composed_layout(ts.Swizzle(3, 3, 3), 0, ts.Layout((8, 64), (64, 1))), tv=LDSM_ROWS, vec=8)
    assert s.conflict_free and s.max_degree == 1 and s.conflict_factor == 1.0
    assert s.summary["wavefronts"] == len(s.instructions) * 4
    assert repr(s).startswith("<BankConflicts of Sw<3,3,3> o 0 o (8,64):(64,1): summary:")
    assert s._repr_svg_() == s.draw("svg") and s._repr_html_().startswith("<iframe")
    g = ts.gmem("(64,64):(1,64)", tv="(32,4):(1,32)", bits=32)
    assert g.coalesced and g.sector_efficiency == 1.0


@pytest.mark.parametrize("call, error, message", [
    (lambda: ts.banks("(8,64):(64,1)"), ts.InadmissibleError, "give the access"),
    (lambda: ts.banks("(8,64):(64,1)", tv=LDSM_ROWS, access=1), ts.InadmissibleError, "not both"),
    (lambda: ts.banks("(8,64):(64,1)", tv=LDSM_ROWS, vec=0), ts.InadmissibleError, "vec must be a positive"),
    (lambda: ts.banks("(8,64):(64,1)", tv=LDSM_ROWS, bits=12), ts.InadmissibleError, "bits must be 8, 16"),
    (lambda: ts.banks("(8,64):(64,1)", tv="64:1"), ts.InadmissibleError, "tv must have two modes"),
    (lambda: ts.banks("(8,64):(64,1)", tv=LDSM_ROWS, side="src"), ts.InadmissibleError, "side= goes with access="),
    (lambda: ts.banks("(8,64):(64,1)", access="SM75_U32x4_LDSM_N"), ts.InadmissibleError, "access= is a TiledCopy"),
    (lambda: ts.banks("(2,2,2):(1,2,4)", tv=LDSM_ROWS), ts.InadmissibleError, "one or two modes"),
    (lambda: ts.banks("Sw<3,3,3>", tv=LDSM_ROWS), ts.InadmissibleError, "must be a layout"),
    (lambda: ts.banks("(8,64):(64,1", tv=LDSM_ROWS), ts.ParseError, "expected"),
    (lambda: ts.banks("(4096,2048):(1,4096)", tv=LDSM_ROWS), ts.InadmissibleError, "more than tessera analyses"),
    (lambda: ts.gmem("(64,64):(1,64)", access=ts.make_tiled_copy_A("SM75_U32x4_LDSM_N", ts.make_tiled_mma(MMA))),
     ts.InadmissibleError, ""),
    (lambda: ts.gmem("(64,64):(1,64)", tv="(32,4):(1,32)", base=2**70), OverflowError, "64 bits"),
])
def test_bad_arguments_raise(call, error, message):
    with pytest.raises(error, match=message):
        call()


TMA = [
    ("(8192,8192):(8192,1)", "gmma_k_sw128_bf16", [], {}),
    ("(8192,8192):(1,8192)", "Sw<3,3,3> o (64,128):(1,64)", [], {}),
    ("(4096,4096,8):(1,4096,16777216)", "(64,32):(1,64)", ["--bits", "32"], dict(bits=32)),
    ("(4096,4096):(1,4096)", "Sw<3,3,3> o ((64,2),64):((1,4096),64)", [], {}),
    ("(4096,4096):(1,4096)", "(64,32):(1,64)", ["--box", "(64,16)"], dict(box=(64, 16))),
]


@pytest.mark.parametrize("gmem, smem, args, kw", TMA)
def test_tma_equals_the_cli(cli, gmem, smem, args, kw):
    t = ts.tma(gmem, smem, **kw)
    assert str(t) == cli("tma", gmem, smem, *args, check=True).stdout
    assert t.to_dict() == json.loads(cli("tma", gmem, smem, *args, "--json", check=True).stdout)
    assert t.box_dim == t.to_dict()["box_dim"]
    out = cli("tma", gmem, smem, *args, "-o", "-", "-f", "svg", check=True).stdout
    assert out == str(t) + t.draw("svg")


def test_tma_objects_and_refusals(cli):
    sw = ts.gmma_layout_atom("gmma_k_sw128_bf16")
    assert ts.tma("(8192,8192):(8192,1)", sw).to_dict() == ts.tma(ts.Layout((8192, 8192), (8192, 1)),
                                                                   "gmma_k_sw128_bf16").to_dict()
    # The CLI's refusal, sentence for sentence; the argument it is about.
    r = cli("tma", "(4096,4096):(4096,1)", "(64,32):(1,64)")
    with pytest.raises(ts.InadmissibleError) as e:
        ts.tma("(4096,4096):(4096,1)", "(64,32):(1,64)")
    assert r.returncode == 1 and e.value.message in r.stderr and e.value.argument == 2
    with pytest.raises(ts.InadmissibleError, match="multiple of 16 bytes") as e:
        ts.tma("(100,100):(1,100)", "(64,32):(1,64)")
    assert e.value.argument == 1
    with pytest.raises(ValueError, match="contradicts the atom's 16-bit"):
        ts.tma("(8192,8192):(8192,1)", "gmma_k_sw128_bf16", bits=32)
    with pytest.raises(ts.InadmissibleError, match="--box has 1 entries|entries"):
        ts.tma("(4096,4096):(1,4096)", "(64,32):(1,64)", box=(64,))
    with pytest.raises(TypeError, match="smem must be a layout"):
        ts.tma("(4096,4096):(1,4096)", ts.Swizzle(3, 3, 3))
    with pytest.raises(ts.Error, match="rank-2"):
        ts.tma("(4096,4096,8):(1,4096,16777216)", "(64,32,2):(1,64,2048)").draw("svg")
