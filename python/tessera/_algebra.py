"""CuTe's layout algebra, eagerly: each function is the `tessera eval` function of the same
name, applied through the evaluator (tessera._core.call), so results and refusals are eval's."""
from . import _core
from ._core import ComposedLayout, Layout, Swizzle, Tiler

_call = _core.call

# What every function accepts: Layout, ComposedLayout, Swizzle, integers, None (the
# underscore of slices), tuples of those (a tuple holding layouts is a tiler), or text in
# the notation ("(4,2):(1,4)", "Sw<3,4,3> o 0 o (8,64):(64,1)").


def make_layout(*args, stride=None):
    """make_layout(shape, stride=None): the layout of `shape` with `stride`, or the compact
    column-major one (CuTe DSL's make_layout). make_layout(L0, L1, ...): the layouts as the
    modes of one layout."""
    if len(args) == 2 and stride is None and not isinstance(args[0], (Layout, ComposedLayout)):
        shape, stride = args
        return _call("make_layout", shape, stride)
    if stride is not None:
        if len(args) != 1:
            raise TypeError("make_layout(shape, stride=...) takes one shape")
        return _call("make_layout", args[0], stride)
    if not args:
        raise TypeError("make_layout needs a shape (or layouts)")
    return _call("make_layout", *args)


def make_swizzle(b, m, s):
    """Swizzle<B,M,S>: xor bits [M+S, M+S+B) into bits [M, M+B) (S may be negative)."""
    return Swizzle(b, m, s)


def make_composed_layout(inner, offset, outer):
    """inner o offset o outer (CuTe DSL's order): x -> inner(offset + outer(x)). One of inner
    and outer is a Swizzle, the other a Layout: Sw o off o L, or L o off o Sw."""
    off = _core.parse_int_tuple(offset)
    if not isinstance(off, int):
        raise TypeError("make_composed_layout: the offset is an integer")
    if isinstance(inner, Swizzle) and isinstance(outer, Layout):
        return _core.value(f"{inner} o {off} o {outer}")
    if isinstance(inner, Layout) and isinstance(outer, Swizzle):
        return _core.value(f"{inner} o {off} o {outer}")
    raise TypeError("make_composed_layout(inner, offset, outer): one of inner and outer is a Swizzle, "
                    "the other a Layout")


def parse(text):
    """The value a text in the notation stands for: a layout ``(4,2):(1,4)`` (CuTe's print
    form ``(_4,_2):(_1,_4)`` too), a composed layout ``Sw<3,4,3> o 0 o (8,64):(64,1)``, a
    swizzle, a tiler, a tuple or an integer. Calls are evaluated (as :func:`eval`)."""
    if not isinstance(text, str):
        raise TypeError("parse takes text")
    return _core.value(text)


# eval(expression) is the module's own function, called directly (a Python frame around it
# was a fortieth of its time): its docstring is there.
eval = _core.eval  # noqa: A001  (CuTe DSL's and `tessera eval`'s name)


def composition(lhs, rhs):
    """R = lhs o rhs, R(i) == lhs(rhs(i)); rhs a layout, a tiler (one layout per mode), a shape,
    or a swizzle."""
    return _call("composition", lhs, rhs)


def complement(layout, cotarget=None):
    """The layout of the offsets in [0, cotarget) that `layout` does not reach."""
    return _call("complement", layout) if cotarget is None else _call("complement", layout, cotarget)


def right_inverse(layout):
    return _call("right_inverse", layout)


def left_inverse(layout):
    return _call("left_inverse", layout)


def coalesce(layout, target_profile=None):
    """Merges modes that continue each other (per mode of `target_profile`)."""
    if target_profile is None:
        return _call("coalesce", layout)
    return _call("coalesce", layout, target_profile)


def filter(layout, target_profile=None):
    """Removes stride-0 and size-1 modes, then coalesces."""
    if target_profile is None:
        return _call("filter", layout)
    return _call("filter", layout, target_profile)


def logical_divide(target, tiler):
    return _call("logical_divide", target, tiler)


def zipped_divide(target, tiler):
    return _call("zipped_divide", target, tiler)


def tiled_divide(target, tiler):
    return _call("tiled_divide", target, tiler)


def flat_divide(target, tiler):
    return _call("flat_divide", target, tiler)


def logical_product(block, tiler):
    return _call("logical_product", block, tiler)


def zipped_product(block, tiler):
    return _call("zipped_product", block, tiler)


def tiled_product(block, tiler):
    return _call("tiled_product", block, tiler)


def flat_product(block, tiler):
    return _call("flat_product", block, tiler)


def blocked_product(block, tiler):
    return _call("blocked_product", block, tiler)


def raked_product(block, tiler):
    return _call("raked_product", block, tiler)


def tile_to_shape(atom, trg_shape, order=None):
    """Repeats `atom` until it has the shape `trg_shape`: CuTe's blocked_product(atom, copies),
    uncoalesced (mode i is (atom mode i, copies along i)). The copies walk the target modes
    column-major, or in `order` (CuTe's Step, e.g. (2, 1, 3): smallest first, equal orders at
    the same stride)."""
    if order is None:
        return _call("tile_to_shape", atom, trg_shape)
    return _call("tile_to_shape", atom, trg_shape, order)


def max_common_vector(a, b):
    return _call("max_common_vector", a, b)


def max_common_layout(a, b):
    return _call("max_common_layout", a, b)


def upcast(layout, factor):
    """The layout for elements `factor` times wider."""
    return _call("upcast", layout, factor)


def downcast(layout, factor):
    """The layout for elements `factor` times narrower."""
    return _call("downcast", layout, factor)


def _descend(x, mode):
    for i in mode:
        x = _call("get", x, i)
    return x


def size(a, mode=()):
    """Number of elements of a layout, or product of a tuple (of mode `mode`, a list of indices)."""
    return _call("size", _descend(a, mode))


def cosize(a, mode=()):
    """1 + the largest offset of a layout (of mode `mode`)."""
    return _call("cosize", _descend(a, mode))


def rank(a, mode=()):
    return _call("rank", _descend(a, mode))


def depth(a, mode=()):
    return _call("depth", _descend(a, mode))


def get(a, mode):
    """Mode `mode` of a layout or tuple: an index, or a list of indices (a path)."""
    if isinstance(mode, int):
        return _call("get", a, mode)
    return _descend(a, mode)


def flatten(a):
    return _call("flatten", a)


def idx2crd(idx, shape):
    """The coordinate of index `idx` in `shape` (column-major)."""
    return _call("idx2crd", idx, shape)


def crd2idx(coord, layout, stride=None):
    """The offset of `coord` in `layout` (or in the layout `layout`:`stride` for a shape)."""
    if stride is None:
        return _call("crd2idx", coord, layout)
    return _call("crd2idx", coord, layout, stride)


def slice_(src, coord):
    """The sub-layout of the modes where `coord` holds None (CuTe's underscore)."""
    return _call("slice", src, coord)


def shape(a):
    return _call("shape", a)


def stride(a):
    return _call("stride", a)


def equal_as_functions(a, b, limit=1 << 24):
    """True when a and b have the same size and a(i) == b(i) for every index (layouts or
    swizzled layouts; at most `limit` elements are compared)."""
    return _core.equal_as_functions(a, b, limit)


def functions():
    """(name, signature, summary) of every function `tessera eval` knows."""
    return [tuple(f) for f in _core.functions()]


# Methods, where CuTe (or CuTe DSL) has them on the object.
def _caller(evaluate):
    def __call__(self, *coord):
        """L(i), L(coord) or L(i, j, ...): the offset (crd2idx); with None in the coordinate
        (CuTe's underscore), the slice."""
        if _has_none(coord):
            return slice_(self, coord[0] if len(coord) == 1 else coord)
        return evaluate(self, *coord)
    return __call__


def _has_none(t):
    return any(x is None or (isinstance(x, tuple) and _has_none(x)) for x in t)


def _getitem(self, key):
    """L[i]: mode i; L[(None, 2)]: the slice."""
    if isinstance(key, int) and not isinstance(key, bool):
        r = rank(self)
        return _call("get", self, key + r if key < 0 else key)
    if isinstance(key, tuple) or key is None:
        return slice_(self, key)
    raise TypeError("index a layout with a mode number or a coordinate holding None")


def _install_methods():
    for cls in (Layout, ComposedLayout):
        cls.__getitem__ = _getitem
        cls.size = size
        cls.cosize = cosize
        cls.rank = rank
        cls.depth = depth
        cls.coalesce = coalesce
        cls.filter = filter
        cls.composition = composition
        cls.complement = complement
        cls.right_inverse = right_inverse
        cls.left_inverse = left_inverse
        cls.logical_divide = logical_divide
        cls.zipped_divide = zipped_divide
        cls.tiled_divide = tiled_divide
        cls.flat_divide = flat_divide
        cls.logical_product = logical_product
        cls.zipped_product = zipped_product
        cls.tiled_product = tiled_product
        cls.flat_product = flat_product
        cls.blocked_product = blocked_product
        cls.raked_product = raked_product
        cls.tile_to_shape = tile_to_shape
        cls.upcast = upcast
        cls.downcast = downcast
        cls.flatten = flatten
        cls.equal_as_functions = equal_as_functions
        cls.__repr__ = lambda self: f"{type(self).__name__}('{self}')"
    Layout.__call__ = _caller(Layout.__call__)
    ComposedLayout.__call__ = _caller(ComposedLayout.__call__)
    Swizzle.__repr__ = lambda self: f"Swizzle({self.num_bits}, {self.num_base}, {self.num_shft})"
    Tiler.__repr__ = lambda self: f"Tiler('{self}')"
