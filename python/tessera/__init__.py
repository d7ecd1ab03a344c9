"""tessera: CuTe's layout algebra, eagerly, with the diagrams and atoms of the tessera CLI.

    >>> import tessera as ts
    >>> L = ts.make_layout((8, 8), stride=(1, 8))
    >>> print(ts.logical_divide(L, (4, 2)))
    ((4,2),(2,4)):((1,4),(8,16))

Every function is the `tessera eval` function of the same name (same results, same refusals),
with CuTe DSL's names and argument order; see docs/python.md.
"""
from . import _core
from ._core import ComposedLayout, CopyAtom, Layout, MmaAtom, Swizzle, TiledCopy, TiledMma, Tiler
from ._errors import AttentionError, Error, GemmError, InadmissibleError, IntegerOverflowError, ParseError
from ._int_tuple import IntTuple

_core._install(Error, ParseError, InadmissibleError, IntegerOverflowError, IntTuple)

from ._algebra import (  # noqa: E402  (after the error classes are installed)
    blocked_product, coalesce, complement, composition, cosize, crd2idx, depth, downcast, equal_as_functions, eval,
    filter, flat_divide, flat_product, flatten, functions, get, idx2crd, left_inverse, logical_divide,
    logical_product, make_composed_layout, make_layout, make_swizzle, max_common_layout, max_common_vector, parse,
    raked_product, rank, right_inverse, shape, size, slice_, stride, tile_to_shape, tiled_divide, tiled_product,
    upcast, zipped_divide, zipped_product)
from ._atoms import (  # noqa: E402
    copy_atom, copy_atom_names, gmma_layout_atom, make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B,
    make_tiled_copy_C, make_tiled_mma, mma_atom, mma_atom_names)
from ._analysis import (  # noqa: E402
    BankConflicts, Coalescing, Diff, EpilogueCheck, EpilogueCheckResult, EpilogueTree, Explanation, TmaArguments,
    Verification, banks, diff, epilogue_tree, explain, gmem, tma, verify)
from ._draw import TvMap, draw  # noqa: E402
from ._interop import from_cute_dsl, from_f2, from_pycute, to_cute_dsl, to_f2, to_numpy, to_pycute  # noqa: E402
from ._gemm import gemm, gemm_tune, GemmTuneResult  # noqa: E402
from ._attention import attention, attention_workspace_size  # noqa: E402
from ._gemm_grouped import gemm_grouped  # noqa: E402
from ._json import to_dict  # noqa: E402
from .testing import (  # noqa: E402
    assert_bijective, assert_compact, assert_covers_tile_once, assert_equal_as_functions, assert_equals_exactly,
    assert_has_cosize, assert_injective, assert_surjective_onto)
from . import _algebra, _atoms, _attention, _draw, _gemm, _interop, _json, testing  # noqa: E402

slice = slice_  # tessera eval's name (CuTe DSL's is slice_, as `slice` is Python's)

__version__ = _core.__version__
has_cairo = _core.has_cairo
has_cuda = _gemm.has_cuda()  # the CUDA part of tessera.gemm was built (a GPU is another matter)

_algebra._install_methods()
_atoms._install()
_draw._install()
_json._install()
for _cls in (Layout, ComposedLayout):
    _cls.to_numpy = _interop.to_numpy
    _cls.to_f2 = _interop.to_f2
Layout.to_pycute = _interop.to_pycute

__all__ = [
    "AttentionError", "attention", "attention_workspace_size",
    "BankConflicts", "Coalescing", "Diff", "EpilogueCheck", "EpilogueCheckResult", "EpilogueTree", "epilogue_tree",
    "Explanation", "diff", "Verification", "explain", "verify", "assert_bijective", "assert_compact", "assert_covers_tile_once",
    "assert_equal_as_functions", "assert_equals_exactly", "assert_has_cosize", "assert_injective",
    "assert_surjective_onto", "ComposedLayout", "CopyAtom", "Error", "GemmError", "InadmissibleError", "IntTuple", "IntegerOverflowError", "Layout",
    "MmaAtom", "ParseError", "Swizzle", "TiledCopy", "TiledMma", "Tiler", "TmaArguments", "TvMap", "banks", "blocked_product", "coalesce",
    "complement", "composition", "copy_atom", "copy_atom_names", "cosize", "crd2idx", "depth", "downcast", "draw",
    "equal_as_functions", "eval", "filter", "flat_divide", "flat_product", "flatten", "from_cute_dsl", "from_f2", "from_pycute", "functions", "gemm", "gemm_grouped", "gemm_tune", "GemmTuneResult", "get", "gmem",
    "gmma_layout_atom", "idx2crd", "left_inverse", "logical_divide", "logical_product", "make_composed_layout",
    "make_layout", "make_swizzle", "make_tiled_copy", "make_tiled_copy_A", "make_tiled_copy_B",
    "make_tiled_copy_C", "make_tiled_mma", "max_common_layout", "max_common_vector", "mma_atom", "mma_atom_names",
    "parse", "raked_product", "rank", "right_inverse", "shape", "size", "slice", "slice_", "stride", "tile_to_shape",
    "tiled_divide", "tiled_product", "tma", "to_cute_dsl", "to_dict", "to_f2", "to_numpy", "to_pycute", "upcast", "zipped_divide", "zipped_product",
]
