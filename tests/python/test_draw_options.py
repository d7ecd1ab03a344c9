"""Every drawable object, every colouring and density: Python's drawing is the CLI's, byte for
byte, with the option and without it (no colouring given is the CLI without --color-by; a
colouring given, the default's name included, is the CLI with that --color-by), and a
colouring the CLI refuses for a diagram Python refuses too."""
import pytest

import tessera as ts

MMA = "SM80_16x8x16_F32F16F16F32_TN"
LDSM_ROWS = "((8,4),(8,2)):((1,64),(8,256))"
TMA_TILE = "Sw<3,3,3> o ((64,2),64):((1,4096),64)"

# (name, the CLI's arguments up to the drawing, the object, how many lines of report precede the drawing)
DRAWABLES = [
    ("layout", ["render", "(8,(2,4)):(2,(1,16))"], lambda: ts.parse("(8,(2,4)):(2,(1,16))"), False),
    ("swizzled", ["render", "Sw<3,3,3> o 0 o (8,64):(64,1)"], lambda: ts.parse("Sw<3,3,3> o 0 o (8,64):(64,1)"), False),
    ("tv", ["render", "--tv", "(16,8)", "((4,8),(2,2)):((32,1),(16,8))"],
     lambda: ts.TvMap("((4,8),(2,2)):((32,1),(16,8))", (16, 8)), False),
    ("mma", ["mma", MMA, "--atoms", "2x2x1"], lambda: ts.make_tiled_mma(MMA, atoms="2x2x1"), False),
    ("copy", ["copy", "SM75_U32x4_LDSM_N", "--for-mma", MMA, "--operand", "A"],
     lambda: ts.make_tiled_copy_A("SM75_U32x4_LDSM_N", ts.make_tiled_mma(MMA)), False),
    ("banks", ["banks", "(8,64):(64,1)", "--tv", LDSM_ROWS, "--vec", "8", "-o", "-"],
     lambda: ts.banks("(8,64):(64,1)", tv=LDSM_ROWS, vec=8), True),
    ("gmem", ["gmem", "(64,64):(1,64)", "--tv", "(32,4):(1,32)", "--bits", "32", "-o", "-"],
     lambda: ts.gmem("(64,64):(1,64)", tv="(32,4):(1,32)", bits=32), True),
    ("tma", ["tma", "(4096,4096):(1,4096)", TMA_TILE, "-o", "-"], lambda: ts.tma("(4096,4096):(1,4096)", TMA_TILE), True),
]
COLORINGS = [None, "thread", "warp", "value", "offset", "bank", "chunk", "box"]


@pytest.mark.parametrize("name, args, make, report", DRAWABLES, ids=[d[0] for d in DRAWABLES])
@pytest.mark.parametrize("color_by", COLORINGS, ids=[str(c) for c in COLORINGS])
def test_colourings_equal_the_cli(cli, name, args, make, report, color_by):
    obj = make()
    r = cli(*args, "-f", "svg", *(["--color-by", color_by] if color_by else []))
    if r.returncode != 0:  # a colouring this diagram cannot have: refused on both sides
        with pytest.raises(ts.Error):
            obj.draw("svg", color_by=color_by)
        return
    out = r.stdout[len(str(obj)):] if report else r.stdout
    assert obj.draw("svg", color_by=color_by) == out


@pytest.mark.parametrize("name, args, make, report", DRAWABLES, ids=[d[0] for d in DRAWABLES])
@pytest.mark.parametrize("density", ["heatmap", "labels"])
def test_densities_and_titles_equal_the_cli(cli, name, args, make, report, density):
    obj = make()
    r = cli(*args, "-f", "txt", f"--{density}", check=True)
    out = r.stdout[len(str(obj)):] if report else r.stdout
    assert obj.draw("txt", density=density) == out
