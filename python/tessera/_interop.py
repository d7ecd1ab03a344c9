"""Interop: numpy arrays of offsets, pycute's Layout, CuTe DSL's printed layouts, and the
GF(2) bases Triton's LinearLayout uses. numpy and pycute are optional: imported when asked."""
import re as _re

from . import _core
from ._algebra import coalesce, make_layout, rank, size
from ._core import Layout
from ._errors import InadmissibleError

# A numpy array or a list of offsets is built element by element: at most this many.
MAX_ELEMENTS = 1 << 24


def to_numpy(layout):
    """The offsets of `layout` as a numpy array over its coordinate grid: element
    [i0, i1, ...] is layout((i0, i1, ...)), each i_k the index within top-level mode k
    (an integer shape gives a 1-D array)."""
    import numpy as np
    flat = np.array(_core.offsets(layout, MAX_ELEMENTS), dtype=np.int64)
    shape = layout.shape if isinstance(layout, Layout) else layout.outer.shape
    dims = [size(layout, [k]) for k in range(rank(layout))] if isinstance(shape, tuple) else [size(layout)]
    return flat.reshape(dims, order="F")  # CuTe's index order: the first mode fastest


def from_pycute(layout):
    """A pycute Layout (anything with `shape` and `stride`) as a tessera Layout."""
    try:
        shape, stride = layout.shape, layout.stride
    except AttributeError:
        raise TypeError(f"from_pycute: a {type(layout).__name__} has no shape and stride") from None
    return make_layout(shape, stride=stride)


def to_pycute(layout):
    """The pycute Layout of a tessera Layout (needs pycute importable)."""
    import pycute
    if not isinstance(layout, Layout):
        raise TypeError("to_pycute: pycute's Layout holds a plain layout; this is a " + type(layout).__name__)
    return pycute.Layout(_plain(layout.shape), _plain(layout.stride))


def _plain(t):
    return tuple(_plain(x) for x in t) if isinstance(t, tuple) else t


_DSL_SWIZZLE = _re.compile(r"\bS<")


def from_cute_dsl(text):
    """A layout as CuTe DSL prints it: "(4,2):(1,4)", "S<3,4,3> o 0 o (8,64):(64,1)". A dynamic
    value (printed "?") has no value to read: refused."""
    if "?" in text:
        raise InadmissibleError("from_cute_dsl: the layout holds dynamic values ('?'), which CuTe DSL does not print",
                                text, text.index("?") + 1, None,
                                _core.format_error(text, text.index("?") + 1,
                                                   "the layout holds dynamic values ('?')")[7:].rstrip("\n"))
    return _core.value(_DSL_SWIZZLE.sub("Sw<", text))


def to_cute_dsl(obj):
    """The text CuTe DSL prints for a layout, swizzle or composed layout."""
    return str(obj).replace("Sw<", "S<")


def _log2(n):
    return n.bit_length() - 1 if n > 0 and n & (n - 1) == 0 else None


def _xor_check(offsets, bases, what):
    """The first index whose offset is not the xor of its bits' bases, or None."""
    for i, o in enumerate(offsets):
        x = 0
        for k, b in enumerate(bases):
            if i >> k & 1:
                x ^= b
        if x != o:
            return i, o, x
    return None


def to_f2(layout, in_dims=None):
    """The GF(2) matrix of `layout` as Triton's LinearLayout writes it: one basis per bit of the
    index, basis k = [layout(2^k)], so that layout(i) is the xor of the bases of i's set bits.
    With `in_dims`, one name per top-level mode of `layout` (Triton's in-dims, e.g.
    ("register", "lane", "warp") for a layout whose modes are those), the bases come per mode:
    {name: [[b], ...]} holding that mode's index bits, the first mode's lowest (CuTe's
    colexicographic index). Refused (InadmissibleError, naming an index where it fails) when
    the size is not a power of two or the layout is not linear over GF(2), e.g. (2,2):(1,1),
    whose index 3 gives 2."""
    n = size(layout)
    bits = _log2(n)
    if bits is None:
        raise InadmissibleError(f"to_f2: {layout} has size {n}, not a power of two")
    if in_dims is not None:
        if isinstance(in_dims, (str, bytes)) or not hasattr(in_dims, "__iter__"):
            raise TypeError(f"to_f2: in_dims is a sequence of names, one per top-level mode, not {in_dims!r}")
        names = list(in_dims)
        if len(names) != rank(layout):
            raise ValueError(f"to_f2: in_dims names {len(names)} dims, but {layout} has {rank(layout)} modes")
        if len(set(names)) != len(names):
            raise ValueError(f"to_f2: in_dims repeats a name: {names}")
    off = _core.offsets(layout, MAX_ELEMENTS)
    bases = [off[1 << k] for k in range(bits)]
    bad = _xor_check(off, bases, layout)
    if bad:
        i, o, x = bad
        raise InadmissibleError(f"to_f2: {layout} is not linear over GF(2): index {i} gives {o}, "
                                f"but the xor of its bases gives {x}")
    if in_dims is None:
        return [[b] for b in bases]
    out, first = {}, 0
    for k, name in enumerate(names):
        mode_bits = _log2(size(layout, [k]))  # a factor of a power of two is one
        out[name] = [[b] for b in bases[first:first + mode_bits]]
        first += mode_bits
    return out


def _basis_list(bases):
    flat = []
    for b in bases:
        b = b[0] if isinstance(b, (list, tuple)) and len(b) == 1 else b
        if not isinstance(b, int) or isinstance(b, bool) or b < 0:
            raise TypeError("from_f2: each basis is a non-negative integer [b] (one output dimension)")
        flat.append(b)
    return flat


def from_f2(bases):
    """The layout whose GF(2) bases are `bases`, when a layout has them. `bases` is Triton's
    list [[b0], [b1], ...] (one per index bit): the layout (2,2,...):(b0,b1,...) coalesced; or
    a dict {in_dim: [[b], ...]} as to_f2(L, in_dims) gives: one top-level mode per in-dim,
    each coalesced on its own. Refused when the bases' xor is not their sum somewhere (no
    layout is that map; a swizzle may be)."""
    if isinstance(bases, dict):
        per_dim = [_basis_list(b) for b in bases.values()]
        if not per_dim:
            raise ValueError("from_f2: the dict names no in-dim")
        flat = [b for d in per_dim for b in d]
        shape = tuple(tuple([2] * len(d)) if d else 1 for d in per_dim)
        stride = tuple(tuple(d) if d else 0 for d in per_dim)
    else:
        flat = _basis_list(bases)
        if not flat:
            return make_layout(1, stride=0)
        shape, stride = tuple([2] * len(flat)), tuple(flat)
    L = make_layout(shape, stride=stride)
    bad = _xor_check(_core.offsets(L, MAX_ELEMENTS), flat, L)
    if bad:
        i, o, x = bad
        raise InadmissibleError(f"from_f2: no layout has these bases: index {i} is {x} by xor, "
                                f"but {o} by the sum of the strides {L}")
    return coalesce(L, tuple([1] * len(shape))) if isinstance(bases, dict) else coalesce(L)


__all__ = ["from_cute_dsl", "from_f2", "from_pycute", "to_cute_dsl", "to_f2", "to_numpy", "to_pycute"]
