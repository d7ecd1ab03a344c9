"""Assertions about layouts for pytest (or any test): each raises AssertionError with the
sentence tessera's C++ matchers print (include/tessera/testing/claims.hpp, the same code),
"<claim>; but <first counterexample>", and returns None when the claim holds.

    >>> import tessera as ts
    >>> from tessera.testing import assert_injective
    >>> assert_injective(ts.Layout((4, 2), (1, 2)))
    Traceback (most recent call last):
    ...
    AssertionError: is injective; but in (4,2):(1,2) coordinate (2,0) (index 2) and coordinate (0,1) (index 4) both map to offset 2

Layouts and swizzled layouts (Sw o off o L) are checked element by element (up to 2^24
elements), as the C++ kit checks them; text in the notation is accepted too."""
from . import _core

__all__ = ["assert_bijective", "assert_compact", "assert_covers_tile_once", "assert_equal_as_functions",
           "assert_equals_exactly", "assert_has_cosize", "assert_injective", "assert_surjective_onto"]


def _check(name, layout, arg=None):
    why = _core.verify_claim(name, layout, arg)
    if why:
        raise AssertionError(why)


def assert_injective(layout):
    """No two coordinates of `layout` share an offset (IsInjective)."""
    _check("injective", layout)


def assert_bijective(layout):
    """`layout` is a permutation of [0, size) (IsBijective)."""
    _check("bijective", layout)


def assert_surjective_onto(layout, n):
    """`layout` reaches every offset of [0, n) and nothing outside (IsSurjectiveOnto(n))."""
    _check("surjective_onto", layout, n)


def assert_compact(layout):
    """filter(layout) is dense storage: a bijection onto [0, cosize) (IsCompact)."""
    _check("compact", layout)


def assert_equal_as_functions(layout, expected):
    """Same size and the same offset at every index as `expected` (EqualsFunction)."""
    _check("equal_as_functions", layout, expected)


def assert_equals_exactly(layout, expected):
    """Shape and stride (and swizzle) equal `expected`'s to the letter (EqualsExactly)."""
    _check("equals_exactly", layout, expected)


def assert_has_cosize(layout, n):
    """CuTe's cosize of `layout` is `n` (HasCosize(n))."""
    _check("has_cosize", layout, n)


def assert_covers_tile_once(tv, tile):
    """The TV layout `tv` ((thread modes, value modes) -> tile index) hits every cell of the
    tile of shape `tile` exactly once (CoversTileOnce(tile))."""
    _check("covers_tile_once", tv, tile)
