"""tessera.gemm: the C++ GEMM host API (tessera::gemm, docs/gemm.md) on GPU arrays of any
library that speaks the CUDA Array Interface or DLPack. This file maps arrays onto
GemmArguments (sizes, element types, majors and leading dimensions from the strides, batch
strides, the fused epilogue) and checks what Python can check; the argument checks and the
kernel choice are the C++ API's own (``_core.check_gemm_arguments`` is its check_arguments,
``_gemm_cuda`` its can_implement and gemm), so a refusal carries the C++ reason.

The CUDA part is a second extension, ``tessera._gemm_cuda``, built only where the build has
CUDA; it is imported on the first call, so ``import tessera`` does not load the CUDA runtime.
"""
import importlib
import importlib.util
import math
import sys

from . import _arrays, _core
from ._errors import GemmError, raise_status

ELEMENTS = {"float32": "f32", "float16": "f16", "bfloat16": "bf16"}
# The 8-bit floats (inputs only), by the names PyTorch and ml_dtypes give them: OCP e4m3 (no
# infinities, PyTorch's float8_e4m3fn) and e5m2.
FP8_ELEMENTS = {"float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2"}
_FP8_NAMES = {"e4m3": "float8_e4m3fn", "float8_e4m3fn": "float8_e4m3fn", "e5m2": "float8_e5m2",
              "float8_e5m2": "float8_e5m2"}
SCALE_MODES = {"tensor": "per-tensor", "rowwise": "rowwise", "block": "block"}
_SCALE_BLOCK = 128  # ScaleMode::Block's k-group and weight block (tessera::kernels::scale_block)
ACTIVATIONS = ("identity", "relu", "gelu", "gelu_tanh", "silu")
_FLT_MAX = 3.4028234663852886e38
# The C++ statuses that are not about the arguments (tessera/kernels/gemm_arguments.hpp).

_cuda_module = None


def has_cuda():
    """Whether this build has the CUDA part of tessera.gemm (it need not have a GPU)."""
    return importlib.util.find_spec("tessera._gemm_cuda") is not None


def _cuda(what="tessera.gemm", kernels="GEMM"):
    global _cuda_module
    if _cuda_module is None:
        if not has_cuda():
            raise RuntimeError(f"{what}: this tessera was built without CUDA (TESSERA_ENABLE_CUDA=OFF, or no nvcc), "
                               f"so it has no {kernels} kernels; build it with CUDA (docs/python.md, 'GEMM')")
        _cuda_module = importlib.import_module("tessera._gemm_cuda")
    return _cuda_module


def _scalar(x, name):
    """alpha or beta as the f32 the epilogue computes with; refused when it does not fit."""
    if isinstance(x, (bool, complex)) or not isinstance(x, (int, float)) and not hasattr(x, "__float__"):
        raise TypeError(f"tessera.gemm: {name} is {type(x).__name__} {x!r}, not a real number")
    v = float(x)
    if math.isfinite(v) and abs(v) > _FLT_MAX:
        raise ValueError(f"tessera.gemm: {name} = {v!r} does not fit in f32, the type the epilogue computes in")
    return v


def stream_handle(stream, what="stream"):
    """A stream argument as a cudaStream_t handle (an integer; 0 is the legacy default
    stream): an int, an object with ``__cuda_stream__`` (CUDA Python's protocol), with
    ``cuda_stream`` (PyTorch's Stream) or with ``ptr`` (CuPy's Stream)."""
    if type(stream) is int and 0 <= stream <= _arrays.UINT64_MAX:
        return stream
    if hasattr(stream, "__cuda_stream__"):
        s = stream.__cuda_stream__()
        if not isinstance(s, tuple) or len(s) != 2:
            raise TypeError(f"tessera.gemm: {what}.__cuda_stream__() returned {s!r}, not (version, handle)")
        value = s[1]
    elif hasattr(stream, "cuda_stream"):
        value = stream.cuda_stream
    elif hasattr(stream, "ptr") and not isinstance(stream, int):
        value = stream.ptr
    else:
        value = stream
    return _arrays._int(value, f"tessera.gemm: {what}", 0, _arrays.UINT64_MAX)


def _matrix(v, name, rows, cols, prefer=None):
    """(major, ld) of the last two modes of `v` (a rows x cols matrix): row-major when its
    column stride is 1, column-major when its row stride is 1; a mode of extent 1 has no
    stride to speak of, so a vector is either. `prefer` picks between two that fit."""
    s_row, s_col = v.strides[-2], v.strides[-1]
    if s_row < 0 or s_col < 0:
        raise ValueError(f"tessera.gemm: {name} has a negative stride {v.strides}: reversed views are not read")
    row = cols == 1 or s_col == 1
    col = rows == 1 or s_row == 1
    if not (row or col):
        raise ValueError(f"tessera.gemm: {name} ({rows}x{cols}, strides {tuple(v.strides[-2:])} elements) has neither "
                         "mode contiguous: the kernels read row- or column-major matrices (one stride 1); pass a "
                         "contiguous copy")
    major = prefer if (prefer == "row" and row) or (prefer == "col" and col) else ("row" if row else "col")
    if major == "row":
        return major, s_row if rows > 1 else cols
    return major, s_col if cols > 1 else rows


def _batch(v, name, batch):
    """The batch stride of `v` (elements): 0 for a 2-D operand or a batch of 1 (broadcast)."""
    if v.ndim == 2 or v.shape[0] == 1:
        return 0
    if v.shape[0] != batch:
        raise ValueError(f"tessera.gemm: {name} has {v.shape[0]} batches where the product has {batch}")
    return v.strides[0]


def _allocate(like, shape, dtype, major):
    """(the output, its address) for out=None: D in ``major`` order, batches apart, from the
    inputs' library on their device (_arrays.allocate_like)."""
    rows, cols = shape[-2], shape[-1]
    strides = ((rows * cols, cols, 1) if major == "row" else (rows * cols, 1, rows))[-len(shape):]
    return _arrays.allocate_like(like, shape, strides, dtype, "tessera.gemm",
                                 f"a is {type(like).__module__}.{type(like).__name__}: pass out=")


def _overlap(x, y):
    a, b = x.span, y.span
    return a is not None and b is not None and a[0] <= b[1] and b[0] <= a[1]


def _check_status(status, message):
    raise_status("tessera.gemm", GemmError, status, message)


# The description the C++ API reads (python/src/gemm_spec.hpp): a tuple of these fields, in
# this order. A tuple, not a dict, so that building and reading it costs next to nothing.
SPEC_FIELDS = _core.GEMM_SPEC_FIELDS
_D_PTR = SPEC_FIELDS.index("d_ptr")
_WHAT = {name: f"tessera.gemm: {name}"
         for name in ("a", "b", "c", "out", "bias", "scale_a", "scale_b", "scale_d", "amax_d")}


_torch_fp8 = None  # {torch.float8_e4m3fn: "float8_e4m3fn", ...}, made on the first PyTorch operand


def _torch_fp8_bytes(x):
    """(x, None), or for a PyTorch float8 tensor (x viewed as uint8, its dtype's name): PyTorch
    exports float8 through neither __cuda_array_interface__ (no typestr for it) nor, before
    DLPack 1.1's codes, DLPack, so tessera reads the same bytes as uint8 and keeps the type.
    PyTorch is found by the tensor's type, never imported here. (A dict lookup of the dtype
    object: the 16-bit path pays next to nothing for it.)"""
    global _torch_fp8
    if not type(x).__module__.startswith("torch"):
        return x, None
    if _torch_fp8 is None:
        torch = sys.modules.get("torch")
        _torch_fp8 = {getattr(torch, n): n for n in FP8_ELEMENTS if hasattr(torch, n)}
    name = _torch_fp8.get(getattr(x, "dtype", None))
    if name is None:
        return x, None
    return x.view(sys.modules["torch"].uint8), name


def _dtype_name(d):
    """A dtype given by name or as a library's dtype object (torch.float8_e4m3fn, a numpy dtype)."""
    return d if isinstance(d, str) else str(d).replace("torch.", "")


def _input_dtype(v, override, fp8_name, name):
    """The element type of operand `name`: its own, or the 8-bit float `override` names (for
    one-byte integer views of FP8 data: uint8 or int8, as libraries without float8 hold it)."""
    own = fp8_name if fp8_name is not None else v.dtype
    if override is None:
        return own
    want = _FP8_NAMES.get(_dtype_name(override))
    if want is None:
        raise ValueError(f"tessera.gemm: {name}_dtype = {override!r} is none of 'e4m3' (float8_e4m3fn) and 'e5m2' "
                         "(float8_e5m2): the override names the 8-bit float a one-byte array holds")
    if own not in ("uint8", "int8", want):
        raise ValueError(f"tessera.gemm: {name}_dtype = {override!r}, but {name} is {own}; the override applies to "
                         "one-byte (uint8 or int8) arrays")
    return want


def _vector(v, name, length, what):
    """The stride of a vector of `length` f32 given as any shape whose extents other than 1 are
    [length] ((M,), (M, 1), (1, N) ...)."""
    modes = [(e, st) for e, st in zip(v.shape, v.strides) if e != 1]
    size = 1
    for e in v.shape:
        size *= e
    if size != length or len(modes) > 1:
        raise ValueError(f"tessera.gemm: {name} has shape {v.shape}; scale_mode='rowwise' takes {what} ({length} "
                         "values: (M,) or (M, 1) for scale_a, (N,) or (1, N) for scale_b)")
    if modes and modes[0][1] != 1:
        raise ValueError(f"tessera.gemm: {name} has stride {modes[0][1]}; the scales are read contiguous")


def _scales(views, mode, m, n, k, ld_scale_a):
    """(scale_a address, scale_b address, the C++ ScaleMode's name, ld_scale_a) of the FP8
    scales, their shapes checked against the mode (docs/gemm.md, 'FP8 scale modes')."""
    if not isinstance(mode, str) or mode not in SCALE_MODES:
        raise ValueError(f"tessera.gemm: scale_mode = {mode!r} is none of 'tensor', 'rowwise' and 'block'")
    if ld_scale_a is not None and mode != "block":
        raise ValueError("tessera.gemm: ld_scale_a is scale_mode='block''s (the distance between scale_a's k-groups)")
    ld = 0 if ld_scale_a is None else _arrays._int(ld_scale_a, "tessera.gemm: ld_scale_a", 1)
    ptrs = []
    for name in ("scale_a", "scale_b"):
        v = views.get(name)
        if v is None:
            ptrs.append(0)
            continue
        if v.dtype != "float32":
            raise ValueError(f"tessera.gemm: {name} is {v.dtype}; the scales are float32")
        size = 1
        for e in v.shape:
            size *= e
        if mode == "tensor":
            if size != 1:
                raise ValueError(f"tessera.gemm: {name} has shape {v.shape}; scale_mode='tensor' takes one value "
                                 "(shape () or (1,)); 'rowwise' and 'block' take more")
        elif mode == "rowwise":
            _vector(v, name, m if name == "scale_a" else n, "one per row of a" if name == "scale_a" else
                    "one per column of b")
        else:
            kb = -(-k // _SCALE_BLOCK)
            if name == "scale_a":
                if v.ndim != 2 or v.shape != (m, kb):
                    raise ValueError(f"tessera.gemm: scale_a has shape {v.shape}; scale_mode='block' takes (M, ceil(K/128)) "
                                     f"= ({m}, {kb}), stored M-major (stride 1 along M: the transpose of a "
                                     "(ceil(K/128), ld_scale_a) array)")
                if m > 1 and v.strides[0] != 1:
                    raise ValueError(f"tessera.gemm: scale_a has strides {v.strides}; the block scales are M-major "
                                     "(stride 1 along M)")
                if kb > 1:
                    if ld_scale_a is not None and ld != v.strides[1]:
                        raise ValueError(f"tessera.gemm: ld_scale_a = {ld} but scale_a's k-groups lie {v.strides[1]} "
                                         "apart")
                    ld = v.strides[1]
            else:
                nb = -(-n // _SCALE_BLOCK)
                if v.ndim != 2 or v.shape != (nb, kb):
                    raise ValueError(f"tessera.gemm: scale_b has shape {v.shape}; scale_mode='block' takes "
                                     f"(ceil(N/128), ceil(K/128)) = ({nb}, {kb}), one per 128 x 128 block of b")
                if (kb > 1 and v.strides[1] != 1) or (nb > 1 and v.strides[0] != kb):
                    raise ValueError(f"tessera.gemm: scale_b has strides {v.strides}; the block scales are a dense "
                                     f"row-major ({nb}, {kb}) matrix")
        ptrs.append(v.ptr)
    return ptrs[0], ptrs[1], SCALE_MODES[mode], ld


def spec_dict(spec):
    """A description (Plan.spec) as a dict of SPEC_FIELDS, for reading it."""
    return dict(zip(SPEC_FIELDS, spec))


class Plan:
    """What gemm() hands the C++ API: ``spec`` (GemmArguments, flat: a tuple of SPEC_FIELDS),
    the launch ``stream``, the producer streams it ``waits`` for, D's ``shape``/``dtype``/
    ``major`` (for out=None), whether split-K scratch is ``auto``, and the ``views`` (kept alive
    until the launch)."""

    __slots__ = ("spec", "stream", "waits", "shape", "dtype", "major", "auto_workspace", "views")

    def __init__(self, spec, stream, waits, shape, dtype, major, auto_workspace, views):
        self.spec, self.stream, self.waits, self.shape = spec, stream, waits, shape
        self.dtype, self.major, self.auto_workspace, self.views = dtype, major, auto_workspace, views


_BYTE_VIEWS = ("uint8", "int8")  # (how a library without float8 holds FP8 bytes)


def _output_dtype(vo, out_fp8, out_dtype, default):
    """D's dtype: out's (a PyTorch float8 tensor's own; a one-byte array's as ``out_dtype``
    names it, 'e4m3' or 'float8_e4m3fn'), else ``out_dtype``, else ``default``."""
    named = None if out_dtype is None else str(out_dtype).replace("torch.", "")
    if named is not None and named in _FP8_NAMES:
        named = _FP8_NAMES[named]
    if vo is not None:
        have = out_fp8 or (named if named in FP8_ELEMENTS and vo.dtype in _BYTE_VIEWS else vo.dtype)
        if named is not None and named != have:
            raise ValueError(f"tessera.gemm: out_dtype = {out_dtype} but out is {have}")
        d_type = have
    else:
        d_type = named if named is not None else default
    if d_type not in ELEMENTS and d_type not in FP8_ELEMENTS:
        raise ValueError(f"tessera.gemm: D in {d_type}: the kernels write float32, float16, bfloat16 and, from FP8 "
                         "inputs, float8_e4m3fn")
    return d_type


def _quantization(views):
    """(scale_d address, amax_d address) of an 8-bit D: one float32 each (scale_d read, amax_d
    written by the kernel); 0 where not given. The C++ checks refuse them with any other D."""
    ptrs = []
    for name in ("scale_d", "amax_d"):
        v = views.get(name)
        if v is None:
            ptrs.append(0)
            continue
        size = 1
        for e in v.shape:
            size *= e
        if v.dtype != "float32" or size != 1:
            raise ValueError(f"tessera.gemm: {name} is {v.dtype} of shape {v.shape}; it is one float32 (shape () or (1,))")
        if name == "amax_d" and v.readonly:
            raise ValueError("tessera.gemm: amax_d is read-only; the kernel writes D's amax there")
        ptrs.append(v.ptr)
    return ptrs


def plan(a, b, out=None, alpha=1.0, beta=0.0, c=None, bias=None, activation=None, *, out_dtype=None,
         allow_tf32=False, stream=None, workspace="auto", scale_a=None, scale_b=None, scale_mode="tensor",
         ld_scale_a=None, a_dtype=None, b_dtype=None, scale_d=None, amax_d=None):
    """gemm()'s arguments mapped onto the C++ API's, checked as far as Python can (shapes,
    dtypes, strides, streams), without the C++ checks and without launching. Each array's
    protocol is read once."""
    if activation is None:
        activation = "identity"
    elif activation not in ACTIVATIONS:
        raise ValueError(f"tessera.gemm: activation {activation!r} is none of None, " +
                         ", ".join(repr(x) for x in ACTIVATIONS[1:]))
    # (the common cases without a call: a float that fits in f32; _scalar says why another does not)
    if not (type(alpha) is float and -_FLT_MAX <= alpha <= _FLT_MAX):
        alpha = _scalar(alpha, "alpha")
    if not (type(beta) is float and -_FLT_MAX <= beta <= _FLT_MAX):
        beta = _scalar(beta, "beta")
    if allow_tf32 is not False and allow_tf32 is not True:
        raise TypeError(f"tessera.gemm: allow_tf32 is {type(allow_tf32).__name__}, not a bool")
    if beta != 0.0 and c is None:
        raise ValueError(f"tessera.gemm: beta = {beta!r} reads c, but c is None (pass c=, which may be out)")

    # PyTorch's float8 tensors, as the uint8 views both protocols read.
    a, a_fp8 = _torch_fp8_bytes(a)
    b, b_fp8 = _torch_fp8_bytes(b)
    out, out_fp8 = _torch_fp8_bytes(out)
    c, c_fp8 = _torch_fp8_bytes(c)
    # The stream first: DLPack producers are told it when they export.
    views, launch, waits = _arrays.read_arrays(
        (("a", a), ("b", b), ("c", c), ("out", out), ("bias", bias), ("scale_a", scale_a), ("scale_b", scale_b),
         ("scale_d", scale_d), ("amax_d", amax_d)), _WHAT,
        None if stream is None else stream_handle(stream), "tessera.gemm")

    va, vb = views["a"], views["b"]
    for name, v in (("a", va), ("b", vb)):
        if len(v.shape) != 2 and len(v.shape) != 3:
            raise ValueError(f"tessera.gemm: {name} has {v.ndim} modes; it is a matrix (2) or a batch of matrices (3)")
    m, k = va.shape[-2:]
    k_b, n = vb.shape[-2:]
    if k != k_b:
        raise ValueError(f"tessera.gemm: a is {m}x{k} and b is {k_b}x{n}: their inner extents differ ({k} != {k_b})")
    batch = max(va.shape[0] if len(va.shape) == 3 else 1, vb.shape[0] if len(vb.shape) == 3 else 1)
    if a_fp8 is None and b_fp8 is None and a_dtype is None and b_dtype is None:
        ta, tb = va.dtype, vb.dtype  # (the common case: no 8-bit float in sight)
    else:
        ta = _input_dtype(va, a_dtype, a_fp8, "a")
        tb = _input_dtype(vb, b_dtype, b_fp8, "b")
    fp8 = ta in FP8_ELEMENTS or tb in FP8_ELEMENTS
    if fp8:
        if ta not in FP8_ELEMENTS or tb not in FP8_ELEMENTS:
            raise ValueError(f"tessera.gemm: a is {ta} and b is {tb}; an 8-bit float goes with another 8-bit float "
                             "(float8_e4m3fn or float8_e5m2)")
        element_a, element_b = FP8_ELEMENTS[ta], ("" if tb == ta else FP8_ELEMENTS[tb])
    else:
        if ta != tb:
            raise ValueError(f"tessera.gemm: a is {ta} and b is {tb}; the kernels take both in one type")
        if ta not in ELEMENTS:
            raise ValueError(f"tessera.gemm: a and b are {ta}; the kernels take float32, float16 or bfloat16, "
                             "and the 8-bit floats float8_e4m3fn and float8_e5m2 (or a one-byte array with "
                             "a_dtype=/b_dtype=)")
        element_a, element_b = ELEMENTS[ta], ""

    vo = views.get("out")
    d_type = _output_dtype(vo, out_fp8, out_dtype, "bfloat16" if fp8 else ta)
    if scale_a is None and scale_b is None and scale_mode == "tensor" and ld_scale_a is None:
        scale_a_ptr = scale_b_ptr = ld = 0
        mode = "per-tensor"
    else:
        scale_a_ptr, scale_b_ptr, mode, ld = _scales(views, scale_mode, m, n, k, ld_scale_a)
    vc = views.get("c")
    if vc is not None:
        if len(vc.shape) not in (2, 3) or vc.shape[-2:] != (m, n):
            raise ValueError(f"tessera.gemm: c has shape {vc.shape}; the product is {m}x{n}")
        c_type = c_fp8 or (d_type if d_type in FP8_ELEMENTS and vc.dtype in _BYTE_VIEWS else vc.dtype)
        if c_type != d_type:
            raise ValueError(f"tessera.gemm: c is {c_type} and D {d_type}; C is read in D's type")

    # D's major: out's own; for out=None c's, else row-major.
    if vo is not None:
        if len(vo.shape) not in (2, 3) or vo.shape[-2:] != (m, n):
            raise ValueError(f"tessera.gemm: out has shape {vo.shape}; the product is {m}x{n}")
        if batch > 1 and (len(vo.shape) != 3 or vo.shape[0] != batch):
            raise ValueError(f"tessera.gemm: out has shape {vo.shape}; the product is {batch} batches of {m}x{n}")
        if len(vo.shape) == 3 and vo.shape[0] != batch:
            raise ValueError(f"tessera.gemm: out has {vo.shape[0]} batches where the product has {batch}")
        if vo.readonly:
            raise ValueError("tessera.gemm: out is read-only")
        d_major, d_ld = _matrix(vo, "out", m, n, prefer=None if vc is None else _matrix(vc, "c", m, n)[0])
    else:
        d_major = "row" if vc is None else _matrix(vc, "c", m, n)[0]
    if vc is not None:
        c_major, c_ld = _matrix(vc, "c", m, n, prefer=d_major)
        if c_major != d_major:
            raise ValueError(f"tessera.gemm: c is {c_major}-major and out {d_major}-major; C and D share a major")

    # Bias: a vector along N (shape (N,), (1, N)) or along M ((M, 1)), one for every batch.
    bias_mode, bias_ptr = "none", 0
    vbias = views.get("bias")
    if vbias is not None:
        shape = list(vbias.shape)
        strides = list(vbias.strides)
        while len(shape) > 1 and shape[0] == 1:
            shape.pop(0)
            strides.pop(0)
        if len(shape) == 1 and shape[0] == n:
            bias_mode, step = "per-column", strides[0]
        elif len(shape) == 2 and shape == [1, n]:
            bias_mode, step = "per-column", strides[1]
        elif len(shape) == 2 and shape == [m, 1]:
            bias_mode, step = "per-row", strides[0]
        else:
            raise ValueError(f"tessera.gemm: bias has shape {vbias.shape}; it is (N,) = ({n},) or (1, N) for a bias "
                             f"per column, or (M, 1) = ({m}, 1) for a bias per row, one for every batch")
        if step != 1 and (n if bias_mode == "per-column" else m) > 1:
            raise ValueError(f"tessera.gemm: bias has stride {step}; the kernels read a contiguous vector")
        if vbias.dtype != d_type:
            raise ValueError(f"tessera.gemm: bias is {vbias.dtype} and D {d_type}; the bias is read in D's type")
        bias_ptr = vbias.ptr

    a_major, a_ld = _matrix(va, "a", m, k)
    b_major, b_ld = _matrix(vb, "b", k, n)
    a_batch = 0 if len(va.shape) == 2 else _batch(va, "a", batch)
    b_batch = 0 if len(vb.shape) == 2 else _batch(vb, "b", batch)
    if vc is not None:
        c_ptr, c_batch = vc.ptr, _batch(vc, "c", batch)
    else:
        c_ptr = c_ld = c_batch = 0

    if vo is not None:
        for name in ("a", "b", "bias", "scale_a", "scale_b"):
            if name in views and _overlap(vo, views[name]):
                raise ValueError(f"tessera.gemm: out overlaps {name}: the kernels read {name} while writing out")
        # C may be D itself (each element is read where it is then written), not part of it.
        if vc is not None and _overlap(vo, vc) and (vc.ptr, vc.shape[-2:], vc.strides[-2:]) != \
                (vo.ptr, vo.shape[-2:], vo.strides[-2:]):
            raise ValueError("tessera.gemm: c overlaps out without being out: C may be D itself, element for element, "
                             "or apart from it")
    vw = None
    workspace_ptr = workspace_bytes = 0
    if workspace is not None and not (isinstance(workspace, str) and workspace == "auto"):
        if isinstance(workspace, str):
            raise ValueError(f"tessera.gemm: workspace = {workspace!r} is none of 'auto', None or a GPU array")
        vw = _arrays.view(workspace, "tessera.gemm: workspace", stream=launch)
        if vw.device not in _arrays.GPU_DEVICES:
            raise ValueError(f"tessera.gemm: workspace is in {vw.device_name} memory")
        if vw.strides != _arrays.compact_strides(vw.shape):
            raise ValueError("tessera.gemm: workspace is not contiguous")
        size = 1
        for e in vw.shape:
            size *= e
        workspace_ptr, workspace_bytes = vw.ptr, size * vw.itemsize
        views["workspace"] = vw

    # D's pointer: out's, or a stand-in for the checks before anything is allocated (the
    # allocation is compact and aligned, so it passes whatever a stand-in passes).
    d_shape = (batch, m, n) if batch > 1 or len(va.shape) == 3 or len(vb.shape) == 3 else (m, n)
    if vo is not None:
        d_ptr, d_batch = vo.ptr, _batch(vo, "out", batch)
    else:
        d_ptr, d_ld, d_batch = 256, (n if d_major == "row" else m), (m * n if batch > 1 else 0)
    # In SPEC_FIELDS order.
    spec = (m, n, k, batch, element_a,
            va.ptr, a_major, a_ld, a_batch,
            vb.ptr, b_major, b_ld, b_batch,
            c_ptr, d_major, c_ld, c_batch,
            d_ptr, d_ld, d_batch,
            alpha, beta, activation, bias_mode, bias_ptr, ELEMENTS.get(d_type) or FP8_ELEMENTS[d_type], allow_tf32,
            workspace_ptr, workspace_bytes,
            element_b, scale_a_ptr, scale_b_ptr, mode, ld, *_quantization(views))
    return Plan(spec, launch, waits, d_shape, d_type, d_major, workspace is not None and vw is None, views)


def gemm(a, b, out=None, alpha=1.0, beta=0.0, c=None, bias=None, activation=None, *, out_dtype=None,
         allow_tf32=False, stream=None, workspace="auto", scale_a=None, scale_b=None, scale_mode="tensor",
         ld_scale_a=None, a_dtype=None, b_dtype=None, scale_d=None, amax_d=None):
    """D = activation(alpha * a @ b + beta * c + bias) on the GPU, with tessera's GEMM kernels
    (the C++ host API ``tessera::gemm``: docs/gemm.md); returns ``out``.

    a, b, c, out, bias: GPU arrays of any library with ``__cuda_array_interface__`` (v2/v3) or
      DLPack (PyTorch, CuPy, JAX ...). ``a`` is M x K, ``b`` K x N, ``c`` and ``out`` M x N;
      each matrix is row- or column-major (one of its two strides 1; a transposed view is the
      other major, no copy), with a leading dimension from the other stride. A leading batch
      mode (L x M x K ...) runs L products in one launch; an operand with no batch mode or a
      batch of 1 is shared by all (batch stride 0). ``c`` and ``out`` share a major.
    dtypes: a and b float32, float16 or bfloat16 (the same); out in their type or float32
      (``out_dtype`` when out is None); c and bias in out's type. float32 runs in exact f32
      unless ``allow_tf32=True`` (TF32 tensor cores, as torch.backends.cuda.matmul.allow_tf32).
    alpha, beta: real numbers (computed in f32); beta != 0 needs ``c`` (which may be ``out``).
    bias: a vector in out's type added to every row (shape (N,) or (1, N), nn.Linear's) or to
      every column (shape (M, 1)).
    activation: None, "relu", "gelu" (erf), "gelu_tanh" or "silu", applied last. A bias, an
      activation or out in another type is a fused epilogue, which the sm_90 kernels run.
    out: where D goes; None allocates it with a's library (PyTorch or CuPy), on a's device,
      row-major (column-major when c is).
    stream: where it runs: an int (a cudaStream_t; 0 is the legacy default stream) or a stream
      object (``__cuda_stream__``, PyTorch's ``cuda_stream``, CuPy's ``ptr``). By default the
      stream the arrays' ``__cuda_array_interface__`` names, else the legacy default stream.
      The launch waits for every other stream an array names (an event per stream), and DLPack
      producers are handed the stream, as both protocols ask.
    FP8 (sm_90): a and b float8_e4m3fn or float8_e5m2 (e4m3 x e4m3, e4m3 x e5m2, e5m2 x e4m3),
      ``a`` row-major and ``b`` column-major (TN: torch._scaled_mm's ``b = w.t()``); D bfloat16
      unless ``out``/``out_dtype`` say float16 or float32. PyTorch's float8 tensors are read as
      they are; an array of a library without float8 is a uint8 (or int8) view of the bytes with
      ``a_dtype=``/``b_dtype=`` 'e4m3' or 'e5m2'. The dequantization scales are float32 device
      arrays, read when the kernel runs:
      scale_mode='tensor' (default): ``scale_a``, ``scale_b`` one value each (None: 1),
        D = alpha * scale_a * scale_b * a @ b (+ beta c + bias, activation);
      'rowwise': ``scale_a`` M values ((M,) or (M, 1)), ``scale_b`` N values ((N,) or (1, N)),
        D(m, n) = alpha * scale_a[m] * scale_b[n] * (a @ b)(m, n), torch._scaled_mm's rowwise;
      'block' (DeepSeek-V3's): ``scale_a`` (M, ceil(K/128)) M-major (stride 1 along M; the k-groups
        ``ld_scale_a`` apart, taken from its stride), one per row and 128-k group of a;
        ``scale_b`` (ceil(N/128), ceil(K/128)) row-major, one per 128 x 128 block of b; e4m3 only,
        D bfloat16 row-major, one batch. The C++ API says what else it refuses (docs/gemm.md).
      An 8-bit D (e4m3 x e4m3, per-tensor scales, TN): ``out`` a float8_e4m3fn tensor (or a
      one-byte array with ``out_dtype='e4m3'``; out=None with ``out_dtype='float8_e4m3fn'``),
      D = e4m3(clamp(z * scale_d, -448, 448)) rounded to nearest even, z = alpha * scale_a *
      scale_b * a @ b (+ beta c, c e4m3 too); ``scale_d`` one float32 (None: 1) and ``amax_d``
      one float32 the kernel sets to max |z| over all of D (before scale_d: what the next
      scale_d = 448 / amax comes from; the library zeroes it first). No bias or activation.
    workspace: "auto" lets the kernels share the last waves' tiles along K where that pays
      (Stream-K on sm_90, split-K of the last wave on sm_80), with scratch from CUDA's
      stream-ordered allocator; None never shares; a GPU array is used as the scratch. The
      result is the same up to rounding either way, and deterministic: the same call gives
      the same bits every time.

    Raises TypeError for objects that are not GPU arrays; ValueError for shapes, dtypes and
    strides that do not make a product; tessera.GemmError (a ValueError, with ``status``) when
    the C++ API refuses the arguments (its check_arguments / can_implement reason: a
    misaligned pointer, a combination no kernel runs ...); RuntimeError without a CUDA build,
    without a GPU, or when a launch fails.
    """
    p = plan(a, b, out, alpha, beta, c, bias, activation, out_dtype=out_dtype, allow_tf32=allow_tf32, stream=stream,
             workspace=workspace, scale_a=scale_a, scale_b=scale_b, scale_mode=scale_mode, ld_scale_a=ld_scale_a,
             a_dtype=a_dtype, b_dtype=b_dtype, scale_d=scale_d, amax_d=amax_d)
    cuda = _cuda_module
    if cuda is None or out is None:
        # The C++ checks without a launch: in a build without CUDA (which stops here), and before
        # out=None allocates. Otherwise run() makes them itself, first.
        _check_status(*_core.check_gemm_arguments(p.spec))
        cuda = _cuda()
    if out is None:
        out, d_ptr = _allocate(a, p.shape, p.dtype, p.major)
        p.spec = p.spec[:_D_PTR] + (d_ptr,) + p.spec[_D_PTR + 1:]
    _check_status(*cuda.run(p.spec, p.stream, p.waits, p.auto_workspace))
    # The DLPack capsules (the views' `keep`) lived until here: past the launch, as the
    # protocol asks of a consumer.
    return out


class GemmTuneResult:
    """What tessera.gemm_tune measured: ``chosen`` (the configuration chosen, as the dispatch
    names it: the fastest, or ``rule`` where none beat it in three rounds of four),
    ``microseconds`` (its median), ``timings`` (every configuration's median, a dict in the order
    timed), ``cache_file`` (where the record went; "" when not written), ``note`` (why it was not
    written), ``rule`` (the configuration the dispatch's rule runs; "" when not among those
    timed) and ``rounds`` (the timed rounds)."""

    __slots__ = ("chosen", "microseconds", "timings", "cache_file", "note", "rule", "rounds")

    def __init__(self, chosen, microseconds, timings, cache_file, note, rule="", rounds=0):
        self.chosen, self.microseconds, self.timings = chosen, microseconds, dict(timings)
        self.cache_file, self.note = cache_file, note
        self.rule, self.rounds = rule, rounds

    def __repr__(self):
        return f"GemmTuneResult(chosen={self.chosen!r}, microseconds={self.microseconds:.1f}, timings={self.timings!r})"


def gemm_tune(a, b, out=None, alpha=1.0, beta=0.0, c=None, bias=None, activation=None, *, out_dtype=None,
              allow_tf32=False, stream=None, reps=20, record=True, cache_file=None, scale_a=None, scale_b=None,
              scale_mode="tensor", ld_scale_a=None, a_dtype=None, b_dtype=None, scale_d=None, amax_d=None):
    """Times every configuration of the sm90 GEMM kernel (CTA tile, cluster, whole tiles or
    Stream-K) that can run ``tessera.gemm`` with these arguments, on this GPU, and makes the
    fastest the one tessera.gemm runs for this problem (sizes, dtypes, majors, whether the
    operands' rows start on 32-byte sectors, epilogue) from
    now on: in this process, and with ``record`` in the tuning cache file (``cache_file``, else
    $TESSERA_TUNING_CACHE, else the user's cache directory) that later processes on the same
    GPU model and tessera version read. The C++ API's ``tessera::gemm_tune`` (docs/scheduling.md).

    The arguments are tessera.gemm's (``out`` only gives D's layout: the timed runs write a
    scratch copy, nothing of the caller's changes); at least ``reps`` timed rounds (at most
    2000; more for short kernels, until each configuration is timed for 5 ms) after 25 ms of
    warm-up, each launching every configuration once on ``stream`` in a balanced order (each
    configuration at every place of a round and behind every other equally often). The rule's
    configuration stays unless another was faster in three rounds of four (docs/scheduling.md).
    Returns a GemmTuneResult.
    Tuning changes results by floating-point reassociation at most; every configuration is
    deterministic.

    Raises tessera.GemmError (with ``status``) where the C++ API refuses, including
    "unsupported" off the sm90 kernel (no sm_90 GPU, or arguments another kernel runs: there
    is nothing to choose); the errors of tessera.gemm otherwise.
    """
    if isinstance(reps, bool) or not isinstance(reps, int) or not 1 <= reps <= 2000:
        raise ValueError(f"tessera.gemm_tune: reps is {reps!r}, not an int in [1, 2000]")
    if cache_file is not None and not isinstance(cache_file, str):
        cache_file = str(cache_file)  # (a path object)
    p = plan(a, b, out, alpha, beta, c, bias, activation, out_dtype=out_dtype, allow_tf32=allow_tf32, stream=stream,
             workspace=None, scale_a=scale_a, scale_b=scale_b, scale_mode=scale_mode, ld_scale_a=ld_scale_a,
             a_dtype=a_dtype, b_dtype=b_dtype, scale_d=scale_d, amax_d=amax_d)
    _check_status(*_core.check_gemm_arguments(p.spec))
    cuda = _cuda()
    if out is None:  # (D's layout for the scratch copy: a real array to describe, never written)
        out, d_ptr = _allocate(a, p.shape, p.dtype, p.major)
        p.spec = p.spec[:_D_PTR] + (d_ptr,) + p.spec[_D_PTR + 1:]
    status, message, chosen, us, timings, written, note, rule, rounds = cuda.tune(p.spec, p.stream, reps, bool(record),
                                                                                 cache_file or "")
    _check_status(status, message)
    return GemmTuneResult(chosen, us, timings, written, note, rule, rounds)
