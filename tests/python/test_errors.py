"""Every error path: malformed text (ParseError with the CLI's caret), inadmissible arguments
(InadmissibleError naming the rule and the argument), integers past 64 bits (never wrapped),
wrong Python types, drawing limits and unknown names. Never a crash."""
import pytest

import tessera as ts

BIG = 2**63


def cli_caret(cli, expr):
    """What `tessera eval` prints on standard error, without "error: " and the final newline."""
    err = cli("eval", expr).stderr
    assert err.startswith("error: ")
    return err[len("error: "):].rstrip("\n")


@pytest.mark.parametrize("expr, column", [("bad(", 5), ("(4,2):(1,4", 11), ("(4,2):(1,4))", 12),
                                          ("Sw<3,4> o 8:1", 7), ("foo(8:1)", 1), ("", 1), ("composition(8:1 2:1)", 17)])
def test_parse_error_has_the_cli_caret(cli, expr, column):
    with pytest.raises(ts.ParseError) as e:
        ts.eval(expr)
    assert e.value.column == column
    assert e.value.text == expr
    assert str(e.value) == cli_caret(cli, expr)
    assert isinstance(e.value, ValueError) and isinstance(e.value, ts.Error)


@pytest.mark.parametrize("expr", ["composition((2,2):(1,6), (2,2):(1,1))", "complement((2,2):(1,1))",
                                  "logical_divide(8:1, Sw<1,2,3>)", "size(Sw<3,3,3>)", "idx2crd(9, (2,4))",
                                  "crd2idx((2,0), (2,4):(1,2))", "slice(8:1, (_,_))", "upcast(8:1, 3)",
                                  "get((4,2):(1,4), 2)", "make_layout((4,2), (1,2,3))", "rank(Sw<1,2,3>)",
                                  "coalesce(8:1, (_,2))", "Sw<3,4,2> o 8:1"])
def test_inadmissible_text_has_the_cli_message_and_caret(cli, expr):
    with pytest.raises(ts.InadmissibleError) as e:
        ts.eval(expr)
    assert str(e.value) == cli_caret(cli, expr)
    assert e.value.message and e.value.column is not None


def test_the_rule_is_named():
    with pytest.raises(ts.InadmissibleError, match="inadmissible composition"):
        ts.composition(ts.Layout((2, 2), (1, 6)), ts.Layout((2, 2), (1, 1)))
    with pytest.raises(ts.InadmissibleError, match="not injective"):
        ts.complement(ts.make_layout((2, 2), stride=(1, 1)))


def test_wrong_argument_is_named():
    with pytest.raises(ts.InadmissibleError) as e:
        ts.logical_divide(ts.make_layout(8), ts.Swizzle(3, 3, 3))
    assert e.value.argument == 2 and "argument 2" in e.value.message
    with pytest.raises(ts.InadmissibleError) as e:
        ts.upcast(ts.make_layout(8), (2, 2))
    assert e.value.argument == 2


@pytest.mark.parametrize("make", [
    lambda: ts.make_layout(BIG),
    lambda: ts.make_layout((4, 2), stride=(1, BIG)),
    lambda: ts.make_layout(-BIG),            # -2^63: tessera's integers are within +-(2^63-1)
    lambda: ts.make_layout(10**40),
    lambda: ts.Layout((4, 2), (1, 4))(BIG),
    lambda: ts.Swizzle(3, 4, 3)(BIG),
    lambda: ts.idx2crd(BIG, (2, 4)),
    lambda: ts.Layout("2:1")(2**64 + 1),     # would wrap to 1
    lambda: ts.make_composed_layout(ts.Swizzle(3, 4, 3), BIG, ts.make_layout(8)),
])
def test_python_ints_past_64_bits_are_refused(make):
    with pytest.raises(ts.IntegerOverflowError) as e:
        make()
    assert isinstance(e.value, OverflowError) and "64 bits" in str(e.value)


def test_computed_overflow_is_refused():
    with pytest.raises(ts.IntegerOverflowError):
        ts.size(ts.make_layout((2**40, 2**40)))
    with pytest.raises(ts.IntegerOverflowError):
        ts.eval("cosize((2,2):(4611686018427387904,4611686018427387904))")
    with pytest.raises(ts.IntegerOverflowError):
        ts.Layout((2, 2), (2**62, 2**62))((1, 1))


@pytest.mark.parametrize("call", [
    lambda: ts.make_layout(4.0),
    lambda: ts.make_layout(True),
    lambda: ts.composition(ts.make_layout(8), object()),
    lambda: ts.Swizzle(3, 4, "x"),
    lambda: ts.make_composed_layout(ts.make_layout(4), 0, ts.make_layout(4)),
])
def test_wrong_python_types_are_type_errors(call):
    with pytest.raises(TypeError):
        call()


def test_bad_text_argument_is_a_parse_error():
    with pytest.raises(ts.ParseError) as e:
        ts.composition("(4,2):(1,4)", "8:")
    assert e.value.text == "8:" and "^" in str(e.value)
    with pytest.raises(ts.ParseError):
        ts.Layout("(4,2):(1,4")
    with pytest.raises(TypeError):
        ts.Layout("Sw<3,4,3>")  # text that is not a layout


def test_call_and_slice_errors():
    L = ts.make_layout((4, 8))
    with pytest.raises(ts.InadmissibleError):
        L(32)          # outside [0, size)
    with pytest.raises(ts.InadmissibleError):
        L((4, 0))      # outside the shape
    with pytest.raises(ts.InadmissibleError):
        L[2]
    with pytest.raises(ts.InadmissibleError):
        L(None, (1, None))  # '_' inside a coordinate of rank 1
    with pytest.raises(TypeError):
        L["x"]


def test_drawing_errors():
    with pytest.raises(ts.Error, match="force=True"):
        ts.make_layout((512, 512)).draw("svg")
    with pytest.raises(ts.Error, match="even with force=True"):
        ts.make_layout((2048, 1024)).draw("svg", force=True)
    with pytest.raises(ts.Error, match="group the modes|rank"):
        ts.make_layout((2, 2, 2)).draw("svg")
    with pytest.raises(ValueError, match="unknown format"):
        ts.make_layout(8).draw("out.svg", format="jpeg")
    with pytest.raises(ValueError, match="cannot tell the format"):
        ts.make_layout(8).draw("out.jpeg")
    with pytest.raises(ValueError, match="color_by"):
        ts.make_layout(8).draw("svg", color_by="mood")
    with pytest.raises(ts.Error, match="thread"):
        ts.make_layout(8).draw("svg", color_by="thread")  # a plain layout has no threads
    with pytest.raises(ts.Error, match="not in the tile"):
        ts.TvMap("((4,8),(2,2)):((32,1),(16,8))", "(8,8)").draw("svg")
    assert ts.make_layout((2, 2, 2))._repr_svg_() is None  # nothing to draw: Jupyter shows the text


def test_unknown_atoms_suggest_names():
    with pytest.raises(KeyError, match="did you mean: SM80_16x8x16_F32F16F16F32_TN"):
        ts.mma_atom("SM80_16x8x16_F32F16F16F32_T")
    with pytest.raises(KeyError):
        ts.copy_atom("nope")
    with pytest.raises(ts.ParseError):
        ts.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", atoms="2xx2")
    with pytest.raises(ts.InadmissibleError):
        ts.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", permute=(8, None, None))
