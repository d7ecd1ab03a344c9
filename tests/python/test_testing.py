"""tessera.testing's assertions: silent when the claim holds, AssertionError with the C++
matcher's sentence when it does not. The sentences are compared with the C++ claims
themselves (tessera_claims_probe, built from include/tessera/testing/claims.hpp) over fixed
cases and hypothesis-drawn layouts, and with the strings tests/kit/matchers_test.cpp expects."""
import os
import subprocess

import pytest
from hypothesis import given, settings

import tessera as ts
from tessera import strategies, testing

HELPERS = {
    "injective": (testing.assert_injective, 0), "bijective": (testing.assert_bijective, 0),
    "compact": (testing.assert_compact, 0), "surjective_onto": (testing.assert_surjective_onto, 1),
    "has_cosize": (testing.assert_has_cosize, 1), "equal_as_functions": (testing.assert_equal_as_functions, 1),
    "equals_exactly": (testing.assert_equals_exactly, 1), "covers_tile_once": (testing.assert_covers_tile_once, 1),
}

# (claim, layout, argument, the C++ sentence; "" when the claim holds) as matchers_test.cpp has them.
CASES = [
    ("equal_as_functions", "(4,2):(1,4)", "8:1", ""),
    ("equal_as_functions", "(4,2):(2,1)", "8:1", "equals 8:1 as a function; but at coordinate (1,0) (index 1) of "
     "(4,2):(2,1) the offset is 2, expected 1 (coordinate 1 of 8:1)"),
    ("equals_exactly", "(4,2):(1,4)", "(4,2):(1,4)", ""),
    ("equals_exactly", "(4,2):(1,4)", "8:1",
     "equals 8:1 exactly (shape and stride); but in (4,2):(1,4) the shape is (4,2), expected 8"),
    ("injective", "(2,2):(1,5)", None, ""),
    ("injective", "(4,2):(1,2)", None, "is injective; but in (4,2):(1,2) coordinate (2,0) (index 2) and "
     "coordinate (0,1) (index 4) both map to offset 2"),
    ("surjective_onto", "(4,2):(1,0)", 4, ""),
    ("surjective_onto", "(4,2):(1,4)", 10,
     "is surjective onto [0,10); but in (4,2):(1,4) offset 8 in [0,10) is never reached"),
    ("bijective", "((2,2),(2,2)):((1,4),(2,8))", None, ""),
    ("bijective", "4:2", None,
     "is a bijection onto [0,size); but in 4:2 coordinate 2 (index 2) maps to offset 4, outside [0,4)"),
    ("bijective", "Sw<2,0,2> o (4,4):(1,4)", None, ""),
    ("compact", "(4,1,2):(2,7,1)", None, ""),
    ("compact", "(4,2):(1,5)", None,
     "is compact; but in filter((4,2):(1,5)) = (4,2):(1,5) offset 4 in [0,9) is never reached"),
    ("has_cosize", "(4,2):(1,5)", 9, ""),
    ("has_cosize", "(4,2):(1,5)", 8,
     "has cosize 8; but (4,2):(1,5) has cosize 9 (largest offset 8 at coordinate (3,1) (index 7))"),
    ("covers_tile_once", "((2,2),2):((1,4),2)", (4, 2), ""),
    ("covers_tile_once", "(4,2):(1,2)", (4, 2), "covers the tile (4,2) once; but in (4,2):(1,2) tile coordinate "
     "(2,0) (index 2) is hit by (T2,V0) and by (T0,V1) (2 cells never hit, 2 repeated hits)"),
]


def arg_text(arg):
    return "(" + ",".join(map(str, arg)) + ")" if isinstance(arg, tuple) else str(arg)


def python_sentence(claim, layout, arg):
    helper, nargs = HELPERS[claim]
    try:
        helper(layout, arg) if nargs else helper(layout)
    except AssertionError as e:
        return str(e)
    return ""


def cpp_sentences(cases):
    """What the C++ claims say of each (claim, layout text, argument)."""
    probe = os.environ.get("TESSERA_CLAIMS_PROBE")
    if not probe or not os.path.exists(probe):
        pytest.skip("TESSERA_CLAIMS_PROBE (the built tessera_claims_probe) is not set")
    lines = "".join(f"{c}\t{layout}" + (f"\t{arg_text(a)}" if a is not None else "") + "\n" for c, layout, a in cases)
    out = subprocess.run([probe], input=lines, capture_output=True, text=True, check=True).stdout
    return out.split("\n")[:len(cases)]


@pytest.mark.parametrize("claim, layout, arg, expected", CASES)
def test_sentences_are_the_matchers(claim, layout, arg, expected):
    assert python_sentence(claim, layout, arg) == expected
    assert python_sentence(claim, ts.eval(layout), arg) == expected  # objects as text


def test_sentences_equal_the_cpp_claims():
    cases = [(c, layout, a) for c, layout, a, _ in CASES]
    assert [python_sentence(*c) for c in cases] == cpp_sentences(cases)


@settings(max_examples=60, deadline=None)
@given(strategies.layouts(), strategies.layouts())
def test_random_layouts_get_the_cpp_sentences(L, M):
    n = ts.size(L)
    cases = [("injective", str(L), None), ("bijective", str(L), None), ("compact", str(L), None),
             ("surjective_onto", str(L), n), ("has_cosize", str(L), n), ("equal_as_functions", str(L), str(M)),
             ("equals_exactly", str(L), str(M))]
    if ts.rank(L) == 2:
        cases.append(("covers_tile_once", str(L), (n // 2 or 1, 2)))
    expected = cpp_sentences(cases)
    for case, sentence in zip(cases, expected):
        claim, layout, arg = case
        assert python_sentence(claim, L, M if claim.startswith("equal") else arg) == sentence, case


def test_helpers_are_exported_and_refuse_what_is_no_layout():
    assert ts.assert_injective is testing.assert_injective
    with pytest.raises(TypeError, match="must be a layout"):
        testing.assert_injective(ts.Swizzle(3, 3, 3))
    with pytest.raises(TypeError, match="the tile is a shape"):
        testing.assert_covers_tile_once("(4,2):(1,4)", "(4,2):(1,4)")
    with pytest.raises(ts.ParseError):
        testing.assert_compact("(4,2):(1,")
