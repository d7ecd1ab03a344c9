"""tessera.gemm_grouped: the C++ grouped GEMM (tessera::gemm_grouped, docs/gemm_grouped.md) in
its contiguous ("MoE") form, on GPU arrays of any library that speaks the CUDA Array Interface
or DLPack, with torch._grouped_mm's 2D x 3D arguments: one ``a`` of every token sorted by
expert, one weight tensor per expert, int32 cumulative offsets on the GPU.

This file maps the arrays onto GemmGroupedArguments (sizes, the weight's layout from its
strides, leading dimensions) and checks what Python can see (dtypes, shapes, strides); the
argument checks are the C++ API's own (``_core.check_grouped_arguments`` is
check_grouped_arguments, ``_gemm_cuda.run_grouped`` checks again, allocates the workspace on the
stream and launches), so a refusal carries the C++ reason. The offsets are never read on the
host: MoE routing computes them on the GPU, and reading them would synchronise.
"""
import array
import math

from . import _arrays, _core, _gemm
from ._errors import GemmError, raise_status

ELEMENTS = {"float16": "f16", "bfloat16": "bf16"}
SPEC_FIELDS = _core.GROUPED_SPEC_FIELDS
_D_PTR = SPEC_FIELDS.index("d_ptr")
_CALLER = "tessera.gemm_grouped"
_WHAT = {name: f"{_CALLER}: {name}" for name in ("a", "b", "offs", "c", "out", "bias")}
_FLT_MAX = 3.4028234663852886e38


def _scalar(x, name):
    """alpha or beta as the f32 the epilogue computes with; refused when it is no real number or
    does not fit."""
    if isinstance(x, (bool, complex)) or not isinstance(x, (int, float)) and not hasattr(x, "__float__"):
        raise TypeError(f"{_CALLER}: {name} is {type(x).__name__} {x!r}, not a real number")
    v = float(x)
    if math.isfinite(v) and abs(v) > _FLT_MAX:
        raise ValueError(f"{_CALLER}: {name} = {v!r} does not fit in f32, the type the epilogue computes in")
    return v


def _fits(v, expected):
    """Whether `v`'s strides are `expected` on every mode of extent > 1 (a mode of extent 1 has
    no stride to speak of)."""
    return all(n <= 1 or s == e for n, s, e in zip(v.shape, v.strides, expected))


def _check_row_major(v, name, rows, cols):
    """Refuses a rows x cols matrix `v` whose strides are negative or whose columns are not
    contiguous (what both forms' leading-dimension readers require)."""
    if any(s < 0 for s in v.strides):
        raise ValueError(f"{_CALLER}: {name} has a negative stride {tuple(v.strides)}: reversed views are not read")
    if cols > 1 and v.strides[1] != 1:
        raise ValueError(f"{_CALLER}: {name} ({rows}x{cols}, strides {tuple(v.strides)} elements) is not row-major: "
                         "the grouped kernels read and write rows (stride 1 along the last mode); pass a contiguous "
                         "copy")


def _rows(v, name, rows, cols):
    """The leading dimension of a row-major rows x cols matrix `v` (0: dense, where the row
    stride says nothing); refused when its columns are not contiguous."""
    if len(v.shape) != 2 or tuple(v.shape) != (rows, cols):
        raise ValueError(f"{_CALLER}: {name} has shape {tuple(v.shape)}; it is (tokens, N) = ({rows}, {cols})")
    _check_row_major(v, name, rows, cols)
    return v.strides[0] if rows > 1 else 0


def _activation(activation):
    """The C++ name of ``activation`` (tessera.gemm's: None, "relu", "gelu", "gelu_tanh", "silu")."""
    if activation is None:
        return "identity"
    if not isinstance(activation, str) or activation not in _gemm.ACTIVATIONS:
        raise ValueError(f"{_CALLER}: activation {activation!r} is none of None, " +
                         ", ".join(repr(x) for x in _gemm.ACTIVATIONS[1:]))
    return activation


def _bias_vector(v, name, n, dtype):
    """Checks one group's bias ``v`` (N_g,) in D's type, contiguous."""
    if len(v.shape) != 1 or v.shape[0] != n:
        raise ValueError(f"{_CALLER}: {name} has shape {tuple(v.shape)}; it is (N,) = ({n},), one per column of the "
                         "group's product")
    if v.dtype != dtype:
        raise ValueError(f"{_CALLER}: {name} is {v.dtype} and D {dtype}; the bias is read in D's type")
    if n > 1 and v.strides[0] != 1:
        raise ValueError(f"{_CALLER}: {name} has stride {v.strides[0]}; the kernels read a contiguous vector")


def _overlap(x, y):
    a, b = x.span, y.span
    return a is not None and b is not None and a[0] <= b[1] and b[0] <= a[1]


class GroupedPlan:
    """What gemm_grouped() hands the C++ API: ``spec`` (a tuple of GROUPED_SPEC_FIELDS), the
    launch ``stream``, the producer streams it ``waits`` for, D's ``shape``/``dtype``, whether
    there is anything to compute (``empty``: no row or no column of D), and the ``views`` (kept
    alive until the launch)."""

    __slots__ = ("spec", "stream", "waits", "shape", "dtype", "empty", "views")

    def __init__(self, spec, stream, waits, shape, dtype, empty, views):
        self.spec, self.stream, self.waits, self.shape = spec, stream, waits, shape
        self.dtype, self.empty, self.views = dtype, empty, views


def plan(a, b, offs, out=None, alpha=1.0, beta=0.0, c=None, bias=None, activation=None, *, stream=None):
    """gemm_grouped()'s arguments mapped onto the C++ API's contiguous form, checked as far as
    Python can (shapes, dtypes, strides, devices), without the C++ checks and without launching."""
    activation = _activation(activation)
    alpha = _scalar(alpha, "alpha")
    beta = _scalar(beta, "beta")
    if beta != 0.0 and c is None:
        raise ValueError(f"{_CALLER}: beta = {beta!r} reads c, but c is None (pass c=, which may be out)")
    if offs is None:
        raise ValueError(f"{_CALLER}: offs is None; the contiguous form needs the groups' cumulative ends "
                         "(int32, on the GPU)")
    views, launch, waits = _arrays.read_arrays(
        (("a", a), ("b", b), ("offs", offs), ("c", c), ("out", out), ("bias", bias)), _WHAT,
        None if stream is None else _gemm.stream_handle(stream), _CALLER)
    va, vb, vo_offs = views["a"], views["b"], views["offs"]

    if len(va.shape) != 2:
        raise ValueError(f"{_CALLER}: a has {va.ndim} modes; it is (tokens, K), every group's rows one after another")
    if len(vb.shape) != 3:
        raise ValueError(f"{_CALLER}: b has {vb.ndim} modes; it is (G, K, N), one weight per group")
    tokens, k = va.shape
    groups, k_b, n = vb.shape
    if k != k_b:
        raise ValueError(f"{_CALLER}: a is (tokens, K) = {tuple(va.shape)} and b (G, K, N) = {tuple(vb.shape)}: their "
                         f"K differ ({k} != {k_b})")
    if va.dtype not in ELEMENTS:
        raise ValueError(f"{_CALLER}: a is {va.dtype}; the grouped kernels take float16 or bfloat16")
    if vb.dtype != va.dtype:
        raise ValueError(f"{_CALLER}: a is {va.dtype} and b is {vb.dtype}; the kernels take both in one type")
    if groups < 1:
        raise ValueError(f"{_CALLER}: b has shape {tuple(vb.shape)}: no group (G = 0)")

    # offs: G int32 cumulative ends, contiguous; its values are the device's (never read here).
    if vo_offs.dtype != "int32":
        raise ValueError(f"{_CALLER}: offs is {vo_offs.dtype}; the offsets are int32 (torch._grouped_mm's)")
    if len(vo_offs.shape) != 1 or vo_offs.shape[0] != groups:
        raise ValueError(f"{_CALLER}: offs has shape {tuple(vo_offs.shape)}; it is (G,) = ({groups},), one cumulative "
                         "end per group of b")
    if groups > 1 and vo_offs.strides[0] != 1:
        raise ValueError(f"{_CALLER}: offs has stride {vo_offs.strides[0]}; the kernel reads a contiguous vector")

    # The weight: dense, either (G, N, K) seen transposed (B_g column-major, K-major: "col")
    # or (G, K, N) itself (B_g row-major: "row"). Where both fit (K or N of 1), "col": every
    # element type has that kernel.
    if k == 0 or n == 0 or _fits(vb, (n * k, 1, k)):  # (a weight without elements has any strides)
        b_major = "col"
    elif _fits(vb, (n * k, n, 1)):
        b_major = "row"
    else:
        raise ValueError(f"{_CALLER}: b (G, K, N) = {tuple(vb.shape)} has strides {tuple(vb.strides)} elements; the "
                         "kernels read a dense weight per group: (G, N, K) viewed transposed (strides "
                         f"({n * k}, 1, {k}), a Linear's weight.transpose(-2, -1)) or (G, K, N) (strides "
                         f"({n * k}, {n}, 1)); pass a contiguous copy")

    if any(s < 0 for s in va.strides):
        raise ValueError(f"{_CALLER}: a has a negative stride {tuple(va.strides)}: reversed views are not read")
    if k > 1 and va.strides[1] != 1:
        raise ValueError(f"{_CALLER}: a ({tokens}x{k}, strides {tuple(va.strides)} elements) is not row-major: the "
                         "kernels read the tokens' rows (stride 1 along K); pass a contiguous copy")
    lda = va.strides[0] if tokens > 1 and k > 0 else 0  # (K = 0: A is not read, its row stride says nothing)

    d_type = va.dtype
    vc, vo = views.get("c"), views.get("out")
    if vc is not None:
        if vc.dtype != d_type:
            raise ValueError(f"{_CALLER}: c is {vc.dtype} and D {d_type}; C is read in D's type (the inputs')")
        ldc = _rows(vc, "c", tokens, n)
    else:
        ldc = 0
    if vo is not None:
        if vo.dtype != d_type:
            raise ValueError(f"{_CALLER}: out is {vo.dtype}; D is written in the inputs' type ({d_type})")
        if vo.readonly:
            raise ValueError(f"{_CALLER}: out is read-only")
        ldd = _rows(vo, "out", tokens, n)
        for name in ("a", "b", "offs"):
            if _overlap(vo, views[name]):
                raise ValueError(f"{_CALLER}: out overlaps {name}: the kernel reads {name} while writing out")
        # C may be D itself (each element is read where it is then written), not part of it.
        if vc is not None and _overlap(vo, vc) and (vc.ptr, vc.shape, vc.strides) != (vo.ptr, vo.shape, vo.strides):
            raise ValueError(f"{_CALLER}: c overlaps out without being out: C may be D itself, element for element, "
                             "or apart from it")
        if "bias" in views and _overlap(vo, views["bias"]):
            raise ValueError(f"{_CALLER}: out overlaps bias: the kernel reads bias while writing out")
        d_ptr = vo.ptr
    else:
        # A stand-in for the checks before anything is allocated (the allocation is dense and
        # aligned, so it passes whatever the stand-in passes).
        d_ptr, ldd = 256, 0
    # The bias: (G, N) in D's type, row g group g's (nn.Linear's bias of each expert), rows
    # bias_stride apart (0: dense), each row contiguous.
    vbias = views.get("bias")
    bias_mode, bias_ptr, bias_stride = "none", 0, 0
    if vbias is not None:
        if len(vbias.shape) != 2 or tuple(vbias.shape) != (groups, n):
            raise ValueError(f"{_CALLER}: bias has shape {tuple(vbias.shape)}; it is (G, N) = ({groups}, {n}), a bias "
                             "per column of each group's product")
        if vbias.dtype != d_type:
            raise ValueError(f"{_CALLER}: bias is {vbias.dtype} and D {d_type}; the bias is read in D's type")
        _check_row_major(vbias, "bias", groups, n)
        if groups > 1 and n > 0 and vbias.strides[0] < n:
            raise ValueError(f"{_CALLER}: bias has strides {tuple(vbias.strides)} elements: its rows overlap (a "
                             "broadcast view?); the kernels read G rows of N apart; pass a contiguous copy")
        bias_mode, bias_ptr = "per-column", vbias.ptr
        bias_stride = vbias.strides[0] if groups > 1 else 0
    spec = (groups, ELEMENTS[d_type], b_major, alpha, beta, tokens, n, k,
            vo_offs.ptr, va.ptr, vb.ptr, 0 if vc is None else vc.ptr, d_ptr, lda, ldc, ldd,
            activation, bias_mode, bias_ptr, bias_stride)
    return GroupedPlan(spec, launch, waits, (tokens, n), d_type, tokens == 0 or n == 0, views)


# ---- the ptr-array form: lists of per-group arrays ----------------------------------------------

LIST_FIELDS = _core.GROUPED_LIST_FIELDS
_LIMIT = 2**31


def _ld(v, name, rows, cols, per16):
    """The leading dimension of a row-major rows x cols matrix `v` (a single row: its length
    rounded up to whole 16 bytes, any value being as good for one row)."""
    _check_row_major(v, name, rows, cols)
    return v.strides[0] if rows > 1 else -(-max(cols, 1) // per16) * per16


def _b_layouts(v, k, n, per16):
    """{major: ld} of the layouts B_g (K x N) fits: column-major (stride 1 along K, a weight
    (N, K) seen transposed) and row-major (stride 1 along N)."""
    s_k, s_n = v.strides
    if s_k < 0 or s_n < 0:
        return {}
    fits = {}
    if k <= 1 or s_k == 1:
        fits["col"] = s_n if n > 1 else -(-max(k, 1) // per16) * per16
    if n <= 1 or s_n == 1:
        fits["row"] = s_k if k > 1 else -(-max(n, 1) // per16) * per16
    return fits


def _aligned(ptr, ld, row, per16, what):
    """TMA's rule for one group's operand (grouped_group_admissible's, which on the device would
    leave the group out without a word): refused here with the reason."""
    if ptr % 16 != 0:
        raise GemmError("misaligned operand", f"gemm_grouped (ptr-array form): {what} = {ptr:#x} is not 16-byte "
                                              "aligned (TMA)")
    if ld % per16 != 0 or ld < row:
        raise GemmError("misaligned operand" if ld >= row else "invalid leading dimension",
                        f"gemm_grouped (ptr-array form): {what}'s leading dimension {ld} elements is "
                        + ("not a multiple of 16 bytes (TMA)" if ld >= row else f"shorter than its row ({row})"))


def plan_lists(a, b, out=None, alpha=1.0, beta=0.0, c=None, bias=None, activation=None, *, stream=None):
    """gemm_grouped()'s list form mapped onto the C++ ptr-array form: (header, records, launch
    stream, producer streams, D's shapes, dtype, views). Every group is checked here, TMA's
    alignment included: the device would leave a group it cannot read out, silently."""
    activation = _activation(activation)
    alpha = _scalar(alpha, "alpha")
    beta = _scalar(beta, "beta")
    groups = len(a)
    lists = {"a": a, "b": b, "out": out, "c": c, "bias": bias}
    for name, x in lists.items():
        if x is not None and not isinstance(x, (list, tuple)):
            raise TypeError(f"{_CALLER}: a is a list of per-group arrays, so {name} is one too (not "
                            f"{type(x).__name__})")
        if x is not None and len(x) != groups:
            raise ValueError(f"{_CALLER}: a holds {groups} groups and {name} {len(x)}")
    if groups < 1:
        raise ValueError(f"{_CALLER}: a is an empty list: no group")
    if beta != 0.0 and c is None:
        raise ValueError(f"{_CALLER}: beta = {beta!r} reads c, but c is None (pass c=, a list, which may be out)")
    named = []
    for name, x in lists.items():
        if x is not None:
            # (a bias entry may be None: that group has no bias)
            named += [(f"{name}[{g}]", x[g]) for g in range(groups) if name != "bias" or x[g] is not None]
    views, launch, waits = _arrays.read_arrays(named, {n: f"{_CALLER}: {n}" for n, _ in named},
                                               None if stream is None else _gemm.stream_handle(stream), _CALLER)
    dtype = views["a[0]"].dtype
    if dtype not in ELEMENTS:
        raise ValueError(f"{_CALLER}: a[0] is {dtype}; the grouped kernels take float16 or bfloat16")
    per16 = 8
    shapes, ptrs, lds, fits, d_shapes = [], [[], [], [], []], [[], [], [], []], [], []
    for g in range(groups):
        va, vb = views[f"a[{g}]"], views[f"b[{g}]"]
        for name, v in ((f"a[{g}]", va), (f"b[{g}]", vb)):
            if len(v.shape) != 2:
                raise ValueError(f"{_CALLER}: {name} has {v.ndim} modes; each group's operand is a matrix")
            if v.dtype != dtype:
                raise ValueError(f"{_CALLER}: {name} is {v.dtype} and a[0] {dtype}; the kernels take one type")
        m, k = va.shape
        k_b, n = vb.shape
        if k != k_b:
            raise ValueError(f"{_CALLER}: a[{g}] is {m}x{k} and b[{g}] {k_b}x{n}: their K differ ({k} != {k_b})")
        if max(m, n, k) >= _LIMIT:
            raise GemmError("invalid size", f"gemm_grouped (ptr-array form): group {g} is {m}x{n}x{k}; each extent "
                                            "is below 2^31")
        layouts = _b_layouts(vb, k, n, per16)
        if not layouts:
            raise ValueError(f"{_CALLER}: b[{g}] ({k}x{n}, strides {tuple(vb.strides)} elements) has neither mode "
                             "contiguous: B_g is row- or column-major (one stride 1); pass a contiguous copy")
        fits.append(layouts)
        shapes += [m, n, k]
        d_shapes.append((m, n))
        ptrs[0].append(va.ptr)
        ptrs[1].append(vb.ptr)
        lds[0].append(_ld(va, f"a[{g}]", m, k, per16) if k > 0 else per16)
    # One major for all groups: column-major (every element type's kernel) unless a group
    # can only be read row-major.
    b_major = "col" if all("col" in f for f in fits) else "row"
    for g, f in enumerate(fits):
        if b_major not in f:
            raise ValueError(f"{_CALLER}: b[{g}] is column-major and another group's b row-major; one call reads "
                             "every B_g in one major")
        lds[1].append(f[b_major])
    for name, x, slot in (("c", c, 2), ("out", out, 3)):
        for g in range(groups):
            if x is None:
                ptrs[slot].append(0)
                lds[slot].append(0 if name == "c" else -(-max(d_shapes[g][1], 1) // per16) * per16)
                continue
            v = views[f"{name}[{g}]"]
            m, n = d_shapes[g]
            if len(v.shape) != 2 or tuple(v.shape) != (m, n):
                raise ValueError(f"{_CALLER}: {name}[{g}] has shape {tuple(v.shape)}; group {g}'s product is {m}x{n}")
            if v.dtype != dtype:
                raise ValueError(f"{_CALLER}: {name}[{g}] is {v.dtype}; D and C are in the inputs' type ({dtype})")
            if name == "out":
                if v.readonly:
                    raise ValueError(f"{_CALLER}: out[{g}] is read-only")
                for other in ("a", "b"):
                    if _overlap(v, views[f"{other}[{g}]"]):
                        raise ValueError(f"{_CALLER}: out[{g}] overlaps {other}[{g}]: the kernel reads it while "
                                         "writing out")
            ptrs[slot].append(v.ptr)
            lds[slot].append(_ld(v, f"{name}[{g}]", m, n, per16))
    # TMA's alignment, group by group, for the operands the kernel touches.
    for g, ((m, n), k) in enumerate(zip(d_shapes, shapes[2::3])):
        if m == 0 or n == 0:
            continue
        if n % per16 != 0:
            raise GemmError("misaligned operand",
                            f"gemm_grouped (ptr-array form): group {g}'s N = {n} is not a multiple of 16 bytes: D's TMA "
                            "stores write whole 16-byte chunks of a row, and past such an N they would write beyond "
                            f"out[{g}]")
        if out is not None:
            _aligned(ptrs[3][g], lds[3][g], n, per16, f"out[{g}]")
        if beta != 0.0:
            _aligned(ptrs[2][g], lds[2][g], n, per16, f"c[{g}]")
        if k > 0:
            _aligned(ptrs[0][g], lds[0][g], k, per16, f"a[{g}]")
            _aligned(ptrs[1][g], lds[1][g], k if b_major == "col" else n, per16, f"b[{g}]")
    # The bias: per group a vector (N_g,) in D's type, or None (no bias for that group).
    biases = [0] * groups
    if bias is not None:
        for g in range(groups):
            if bias[g] is None:
                continue
            v = views[f"bias[{g}]"]
            _bias_vector(v, f"bias[{g}]", d_shapes[g][1], dtype)
            if out is not None and _overlap(views[f"out[{g}]"], v):
                raise ValueError(f"{_CALLER}: out[{g}] overlaps bias[{g}]: the kernel reads it while writing out")
            biases[g] = v.ptr
    ptrs.append(biases)
    header = (groups, ELEMENTS[dtype], b_major, alpha, beta, activation, "none" if bias is None else "per-column")
    return header, shapes, ptrs, lds, launch, waits, d_shapes, dtype, views


def _records(shapes, ptrs, lds):
    """The groups' values packed as the launch copies them to the device (grouped_spec.hpp): the
    sizes, the pointers a, b, c, d, the leading dimensions, then the bias pointers (ptrs[4])."""
    return (array.array("i", shapes).tobytes() + array.array("Q", [p for x in ptrs[:4] for p in x]).tobytes()
            + array.array("q", [v for x in lds for v in x]).tobytes() + array.array("Q", ptrs[4]).tobytes())


def _gemm_grouped_lists(a, b, out, alpha, beta, c, bias, activation, stream):
    header, shapes, ptrs, lds, launch, waits, d_shapes, dtype, views = plan_lists(a, b, out, alpha, beta, c, bias,
                                                                                  activation, stream=stream)
    cuda = _gemm._cuda_module
    if cuda is None or out is None:
        _check_status(*_core.check_grouped_list_arguments(header))
        cuda = _gemm._cuda(_CALLER, "grouped GEMM")
    if out is None:
        out = []
        for g, (m, n) in enumerate(d_shapes):
            # (dense rows: every group that runs has an N of whole 16 bytes; ld stays 8 for N = 0)
            ld = -(-max(n, 1) // 8) * 8
            d, ptr = _arrays.allocate_like(a[g], (m, n), (ld, 1), dtype, _CALLER,
                                           f"a[{g}] is {type(a[g]).__module__}.{type(a[g]).__name__}: pass out=")
            out.append(d)
            ptrs[3][g] = ptr
            lds[3][g] = ld
    _check_status(*cuda.run_grouped_list(header, _records(shapes, ptrs, lds), launch, waits))
    return out


def spec_dict(spec):
    """A description (GroupedPlan.spec) as a dict of SPEC_FIELDS, for reading it."""
    return dict(zip(SPEC_FIELDS, spec))


def _check_status(status, message):
    raise_status(_CALLER, GemmError, status, message)


def gemm_grouped(a, b, offs=None, out=None, alpha=1.0, beta=0.0, c=None, bias=None, activation=None, *, stream=None):
    """G GEMMs in one launch, the Mixture-of-Experts layer's: for each group g,
    ``out[r] = activation(alpha * a[r] @ b[g] + beta * c[r] + bias[g])`` for the rows r in ``offs[g-1] .. offs[g]-1``
    (``offs[-1]`` = 0), with tessera's grouped SM90 kernel (the C++ host API
    ``tessera::gemm_grouped``, contiguous form: docs/gemm_grouped.md); returns ``out``. The
    arguments are torch._grouped_mm's 2D x 3D case: ``tessera.gemm_grouped(x, w, offs)`` computes
    what ``torch._grouped_mm(x, w, offs=offs)`` does.

    The ptr-array form takes lists instead, a group per entry, each group its own sizes:
    ``tessera.gemm_grouped([a_0, a_1, ...], [b_0, b_1, ...], out=[d_0, ...])`` computes
    ``d_g = alpha * a_g @ b_g + beta * c_g``, a_g (M_g, K_g) and d_g, c_g (M_g, N_g) row-major,
    b_g (K_g, N_g) row- or column-major (one major for all groups), each group's rows whole 16
    bytes and its data 16-byte aligned, N_g a multiple of 8 (D's TMA stores write whole 16-byte
    chunks of a row: past another N_g they would write beyond d_g) (refused otherwise, group by
    group: the kernel would leave such a group out). out=None allocates each d_g with a_g's library
    and returns the list. The groups' sizes, pointers and leading dimensions are copied to the
    GPU on the stream (from pageable memory: the copy may wait for the stream).

    Parameters
    ----------
    a : GPU array, (tokens, K)
        Every group's rows one after another (tokens sorted by expert), row-major (stride 1
        along K; the row stride may be larger). float16 or bfloat16.
    b : GPU array, (G, K, N)
        One weight per group, in a's dtype, dense in either layout: a (G, N, K) tensor viewed
        transposed (``w.transpose(-2, -1)``, a Linear's weight: strides (N K, 1, K)) or a
        (G, K, N) tensor (strides (N K, N, 1)). bfloat16 runs both; float16 the first.
    offs : GPU array, (G,) int32
        The cumulative end of each group's rows (torch._grouped_mm's ``offs``), on the GPU:
        read by the kernel, never by the host, so the call does not synchronise. An empty group
        repeats the previous end; offsets that run backwards or past ``tokens`` make a group
        empty (its rows are not written). Rows past ``offs[G-1]`` are not written.
    out : GPU array, (tokens, N), optional
        Where D goes, row-major, in a's dtype. None allocates it with a's library (PyTorch or
        CuPy) on a's device (rows past ``offs[G-1]`` then hold whatever the allocation held).
    alpha, beta : real numbers
        Computed in f32. beta != 0 reads ``c``.
    c : GPU array, (tokens, N), optional
        Row-major in a's dtype; may be ``out`` itself.
    bias : GPU array, (G, N), optional
        A bias per column of each group's product (an expert's nn.Linear bias), row g group g's,
        in out's dtype, each row contiguous (the row stride may be larger than N). The list form
        takes a list of G vectors (N_g,) or None entries (no bias for that group).
    activation : None, "relu", "gelu", "gelu_tanh" or "silu"
        Applied last, as tessera.gemm's (PyTorch's definitions; "gelu" is the erf form). A bias or
        an activation is the fused epilogue: bfloat16, weights (G, N, K) (the transposed view)
        and beta = 0 only; the C++ check refuses the rest with its reason (a GemmError).
    stream : int or stream object, optional
        As tessera.gemm's: by default the stream the arrays' ``__cuda_array_interface__``
        names, else the legacy default stream; the launch waits for every other stream an array
        names. The workspace (G records of the groups' tensor maps) is allocated and freed on
        this stream.

    Returns
    -------
    out

    Raises
    ------
    TypeError
        For objects that are not GPU arrays.
    ValueError
        For dtypes, shapes, strides and devices that do not make a grouped product (K of a and
        b differ, offs not int32 or not (G,), a weight that is not dense ...).
    tessera.GemmError
        (A ValueError, with ``status``) when the C++ API refuses the arguments with its reason
        (check_grouped_arguments: a leading dimension or weight row not a whole 16 bytes, a
        pointer not 16-byte aligned, sizes past 2^31, more than 65536 groups ...).
    RuntimeError
        Without a CUDA build, without an sm_90 GPU, or when the launch fails.
    """
    if isinstance(a, (list, tuple)):
        if offs is not None:
            raise ValueError(f"{_CALLER}: a is a list of per-group arrays (the ptr-array form): offs is the "
                             "contiguous form's, pass None")
        return _gemm_grouped_lists(a, b, out, alpha, beta, c, bias, activation, stream)
    p = plan(a, b, offs, out, alpha, beta, c, bias, activation, stream=stream)
    if p.empty:
        # No row or no column of D: nothing to compute and nothing launched (an empty array's
        # pointer may be null, which the C++ checks would refuse for a D that has elements).
        if out is None:
            out = _arrays.allocate_like(a, p.shape, (max(p.shape[1], 1), 1), p.dtype, _CALLER,
                                        f"a is {type(a).__module__}.{type(a).__name__}: pass out=")[0]
        return out
    cuda = _gemm._cuda_module
    if cuda is None or out is None:
        # The C++ checks without a launch: in a build without CUDA (which stops here), and
        # before out=None allocates. Otherwise run_grouped() makes them itself, first.
        _check_status(*_core.check_grouped_arguments(p.spec))
        cuda = _gemm._cuda(_CALLER, "grouped GEMM")
    if out is None:
        out, d_ptr = _arrays.allocate_like(a, p.shape, (p.shape[1], 1), p.dtype, _CALLER,
                                           f"a is {type(a).__module__}.{type(a).__name__}: pass out=")
        p.spec = p.spec[:_D_PTR] + (d_ptr,) + p.spec[_D_PTR + 1:]
    _check_status(*cuda.run_grouped(p.spec, p.stream, p.waits))
    return out
