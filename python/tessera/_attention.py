"""tessera.attention: the C++ attention host API (tessera::attention, docs/attention.md) on GPU
arrays of any library that speaks the CUDA Array Interface or DLPack. This file maps the
arrays onto AttentionArguments (sizes, strides, GQA, varlen offsets, the LSE) and checks what
Python can check; the argument checks are the C++ API's own (``_core.check_attention_arguments``
is its check_arguments, ``_gemm_cuda.run_attention`` its can_implement and attention), so a
refusal carries the C++ reason. The launch lives in the ``tessera._gemm_cuda`` extension with
tessera.gemm's, imported on the first call.
"""
import math

from . import _arrays, _core, _gemm
from ._errors import AttentionError, raise_status

ELEMENTS = {"float16": "f16", "bfloat16": "bf16"}
_INT_MAX = 2**31 - 1
_FLT_MAX = 3.4028234663852886e38
SPEC_FIELDS = _core.ATTENTION_SPEC_FIELDS
GRIDS = _core.ATTENTION_GRIDS  # ("auto", "persistent", "per_tile"): AttentionGrid's Auto, Persistent, PerTile
COUNTER_BYTES = _core.ATTENTION_COUNTER_BYTES  # the tile counter (attention_counter_bytes)
_WHAT = {name: f"tessera.attention: {name}"
         for name in ("q", "k", "v", "out", "cu_seqlens_q", "cu_seqlens_k", "workspace")}


def _check_status(status, message):
    raise_status("tessera.attention", AttentionError, status, message)


def spec_dict(spec):
    """A description (AttentionPlan.spec) as a dict of SPEC_FIELDS, for reading it."""
    return dict(zip(SPEC_FIELDS, spec))


class AttentionPlan:
    """What attention() hands the C++ API: ``spec`` (AttentionArguments, flat: a tuple of
    SPEC_FIELDS), the launch ``stream``, the producer streams it ``waits`` for, the shapes of
    the outputs it allocates (``out_shape``, ``lse_shape``), the inputs' ``dtype``, whether the
    module lends the stream's tile counter (``auto_workspace``: workspace="auto") and the
    ``views`` (kept alive until the launch)."""

    __slots__ = ("spec", "stream", "waits", "out_shape", "lse_shape", "dtype", "auto_workspace", "views")

    def __init__(self, spec, stream, waits, out_shape, lse_shape, dtype, auto_workspace, views):
        self.spec, self.stream, self.waits = spec, stream, waits
        self.out_shape, self.lse_shape, self.dtype, self.views = out_shape, lse_shape, dtype, views
        self.auto_workspace = auto_workspace


def _grid(grid):
    if not isinstance(grid, str):
        raise TypeError(f"tessera.attention: grid is {type(grid).__name__} {grid!r}, not one of {', '.join(GRIDS)}")
    if grid not in GRIDS:
        raise ValueError(f"tessera.attention: grid = {grid!r} is none of {', '.join(map(repr, GRIDS))}")
    return grid


def attention_workspace_size(*, causal=False, varlen=False, grid="auto"):
    """Bytes of workspace tessera.attention can use for a call with this mask, varlen or not,
    and grid: the C++ ``attention_workspace_size`` (8, the tile counter, where the grid takes
    tiles from a counter: ``grid="persistent"`` under a causal mask or varlen, ``"auto"`` under
    a causal mask without varlen; else 0). For a workspace of your own (``workspace=``), e.g.
    ``torch.zeros(tessera.attention_workspace_size(causal=True), dtype=torch.uint8,
    device="cuda")``. RuntimeError without tessera's CUDA part."""
    if causal is not True and causal is not False:
        raise TypeError(f"tessera.attention_workspace_size: causal is {type(causal).__name__}, not a bool")
    if varlen is not True and varlen is not False:
        raise TypeError(f"tessera.attention_workspace_size: varlen is {type(varlen).__name__}, not a bool")
    grid = _grid(grid)
    return _gemm._cuda("tessera.attention_workspace_size", "attention").attention_workspace_size(grid, causal, varlen)


def _strides(v, name):
    """The (batch, row, head) strides in elements of a (batch, rows, heads, dim) or a varlen
    (rows, heads, dim) view, head_dim contiguous. A mode of extent 1 is never stepped over,
    so its stride is left to the C++ default (0)."""
    if v.strides[-1] != 1 and v.shape[-1] > 1:
        raise ValueError(f"tessera.attention: {name} has stride {v.strides[-1]} along head_dim (strides {v.strides} "
                         "elements); the kernel reads head_dim contiguous (stride 1): pass a contiguous copy")
    modes = list(zip(v.shape[:-1], v.strides[:-1]))
    if len(modes) == 2:
        modes.insert(0, (1, 0))  # varlen: no batch mode (the C++ API ignores its stride)
    out = []
    for (extent, stride), what in zip(modes, ("batch", "sequence", "head")):
        if extent == 1:
            out.append(0)
            continue
        if stride <= 0:
            raise ValueError(f"tessera.attention: {name} has stride {stride} along its {what} mode (strides {v.strides} "
                             "elements); the kernel reads positive strides (no broadcast, no reversed views): pass a "
                             "contiguous copy")
        out.append(stride)
    return out


def _size(value, what, lo):
    """A size as the C++ API's int holds it: refused beyond, never truncated."""
    return _arrays._int(value, f"tessera.attention: {what}", lo, _INT_MAX)


def plan(q, k, v, out=None, *, causal=False, scale=None, cu_seqlens_q=None, cu_seqlens_k=None, max_seqlen_q=None,
         max_seqlen_k=None, return_lse=False, stream=None, grid="auto", persistent_ctas=None, workspace="auto"):
    """attention()'s arguments mapped onto the C++ API's, checked as far as Python can (shapes,
    dtypes, strides, devices, streams), without the C++ checks and without launching."""
    grid = _grid(grid)
    if persistent_ctas is None:
        ctas = 0  # (the C++ default: as many as the device holds at once)
    else:
        ctas = _size(persistent_ctas, "persistent_ctas", 1)
        if grid == "per_tile":
            raise ValueError("tessera.attention: persistent_ctas caps a persistent grid; grid='per_tile' has a CTA per "
                             "work tile")
    auto_workspace = isinstance(workspace, str) and workspace == "auto"
    if isinstance(workspace, str) and not auto_workspace:
        raise ValueError(f"tessera.attention: workspace = {workspace!r} is none of 'auto', None or a GPU array")
    if causal is not True and causal is not False:
        raise TypeError(f"tessera.attention: causal is {type(causal).__name__}, not a bool")
    if return_lse is not True and return_lse is not False:
        raise TypeError(f"tessera.attention: return_lse is {type(return_lse).__name__}, not a bool")
    if scale is None:
        softmax_scale = 0.0  # the C++ API's 1/sqrt(head_dim)
    else:
        if isinstance(scale, (bool, complex)) or not isinstance(scale, (int, float)) and not hasattr(scale, "__float__"):
            raise TypeError(f"tessera.attention: scale is {type(scale).__name__} {scale!r}, not a real number")
        softmax_scale = float(scale)
        if not (math.isfinite(softmax_scale) and 0.0 < softmax_scale <= _FLT_MAX):
            raise ValueError(f"tessera.attention: scale = {softmax_scale!r}; it is a finite positive f32 (None: "
                             "1/sqrt(head_dim))")
    varlen = cu_seqlens_q is not None or cu_seqlens_k is not None
    if varlen and (cu_seqlens_q is None or cu_seqlens_k is None):
        raise ValueError("tessera.attention: give both cu_seqlens_q and cu_seqlens_k, or neither")
    if not varlen and (max_seqlen_q is not None or max_seqlen_k is not None):
        raise ValueError("tessera.attention: max_seqlen_q and max_seqlen_k go with cu_seqlens_q and cu_seqlens_k "
                         "(without them the lengths are the tensors')")
    if varlen and (max_seqlen_q is None or max_seqlen_k is None):
        raise ValueError("tessera.attention: varlen (cu_seqlens_q/k) needs max_seqlen_q and max_seqlen_k, the longest "
                         "sequences (the offsets live on the GPU: reading them would wait for it)")

    views, launch, waits = _arrays.read_arrays(
        (("q", q), ("k", k), ("v", v), ("out", out), ("cu_seqlens_q", cu_seqlens_q), ("cu_seqlens_k", cu_seqlens_k),
         ("workspace", None if auto_workspace else workspace)), _WHAT,
        None if stream is None else _gemm.stream_handle(stream), "tessera.attention")
    vq, vk, vv, vo = views["q"], views["k"], views["v"], views.get("out")
    rank = 3 if varlen else 4
    layout = "(total, heads, head_dim)" if varlen else "(batch, seqlen, heads, head_dim)"
    for name, x in (("q", vq), ("k", vk), ("v", vv), ("out", vo)):
        if x is not None and x.ndim != rank:
            raise ValueError(f"tessera.attention: {name} has shape {x.shape}; it is {layout}" +
                             (" with cu_seqlens" if varlen else ""))
    for name, x in (("k", vk), ("v", vv), ("out", vo)):
        if x is not None and x.dtype != vq.dtype:
            raise ValueError(f"tessera.attention: q is {vq.dtype} and {name} {x.dtype}; q, k, v and out share one type")
    if vq.dtype not in ELEMENTS:
        raise ValueError(f"tessera.attention: q, k and v are {vq.dtype}; the kernel takes float16 or bfloat16")
    if vk.shape != vv.shape:
        raise ValueError(f"tessera.attention: k has shape {vk.shape} and v {vv.shape}; they are the same shape")
    if vo is not None:
        if vo.shape != vq.shape:
            raise ValueError(f"tessera.attention: out has shape {vo.shape}; it is q's, {vq.shape}")
        if vo.readonly:
            raise ValueError("tessera.attention: out is read-only")
        for name in ("q", "k", "v"):
            if _gemm._overlap(vo, views[name]):
                raise ValueError(f"tessera.attention: out overlaps {name}: the kernel reads {name} while writing out")
    workspace_ptr = workspace_bytes = 0
    vw = views.get("workspace")
    if vw is not None:
        if vw.strides != _arrays.compact_strides(vw.shape):
            raise ValueError(f"tessera.attention: workspace has strides {vw.strides}; it is contiguous")
        if vw.readonly:
            raise ValueError("tessera.attention: workspace is read-only; the kernel counts tiles in it")
        workspace_bytes = vw.itemsize
        for e in vw.shape:
            workspace_bytes *= e
        if workspace_bytes < COUNTER_BYTES:
            raise ValueError(f"tessera.attention: workspace has {workspace_bytes} bytes; the tile counter takes "
                             f"{COUNTER_BYTES} (tessera.attention_workspace_size)")
        for name in ("q", "k", "v", "out", "cu_seqlens_q", "cu_seqlens_k"):
            if name in views and _gemm._overlap(vw, views[name]):
                raise ValueError(f"tessera.attention: workspace overlaps {name}: the kernel writes the workspace")
        workspace_ptr = vw.ptr
    head_dim = vq.shape[-1]
    if vk.shape[-1] != head_dim:
        raise ValueError(f"tessera.attention: q's head_dim is {head_dim} and k's {vk.shape[-1]}; they are the same")
    heads, kv_heads = vq.shape[-2], vk.shape[-2]
    if varlen:
        cus = []
        for name in ("cu_seqlens_q", "cu_seqlens_k"):
            c = views[name]
            if c.ndim != 1 or c.shape[0] < 2:
                raise ValueError(f"tessera.attention: {name} has shape {c.shape}; it is (batch + 1,) offsets, the first 0")
            if c.dtype != "int32":
                raise ValueError(f"tessera.attention: {name} is {c.dtype}; the offsets are int32")
            if c.strides[0] != 1:
                raise ValueError(f"tessera.attention: {name} has stride {c.strides[0]}; the offsets are contiguous")
            cus.append(c)
        if cus[0].shape != cus[1].shape:
            raise ValueError(f"tessera.attention: cu_seqlens_q has {cus[0].shape[0]} offsets and cu_seqlens_k "
                             f"{cus[1].shape[0]}; both are batch + 1")
        batch = cus[0].shape[0] - 1
        total_q, total_k = _size(vq.shape[0], "total_q (q's rows)", 1), _size(vk.shape[0], "total_k (k's rows)", 1)
        seqlen_q = _size(max_seqlen_q, "max_seqlen_q", 1)
        seqlen_k = _size(max_seqlen_k, "max_seqlen_k", 0)
        if seqlen_q > total_q or seqlen_k > total_k:
            raise ValueError(f"tessera.attention: max_seqlen_q = {seqlen_q}, max_seqlen_k = {seqlen_k} exceed the "
                             f"packed rows ({total_q}, {total_k})")
        cu_q, cu_k = cus[0].ptr, cus[1].ptr
        lse_shape = (heads, total_q)
    else:
        batch, seqlen_q = vq.shape[0], vq.shape[1]
        if vk.shape[0] != batch:
            raise ValueError(f"tessera.attention: q has {batch} batches and k {vk.shape[0]}")
        seqlen_k = vk.shape[1]
        total_q = total_k = 0
        cu_q = cu_k = 0
        if seqlen_q < 1:
            raise ValueError(f"tessera.attention: q has shape {vq.shape}: no query rows")
        lse_shape = (batch, heads, seqlen_q)
    for what, value in (("batch", batch), ("heads", heads), ("kv_heads", kv_heads), ("head_dim", head_dim),
                        ("seqlen_q", seqlen_q), ("seqlen_k", seqlen_k)):
        _size(value, what, 0)
    strides = []
    for name, x in (("q", vq), ("k", vk), ("v", vv)):
        strides += _strides(x, name)
    if vo is not None:
        strides += _strides(vo, "out")
        o_ptr = vo.ptr
    else:
        strides += [0, 0, 0]  # (the packed allocation: the defaults)
        o_ptr = 256  # a stand-in for the checks before anything is allocated (aligned, as the allocation)
    spec = (ELEMENTS[vq.dtype], batch, heads, kv_heads, head_dim, seqlen_q, seqlen_k,
            vq.ptr, vk.ptr, vv.ptr, o_ptr, 256 if return_lse else 0, *strides,
            cu_q, cu_k, total_q, total_k, softmax_scale, causal, grid, ctas, workspace_ptr, workspace_bytes)
    return AttentionPlan(spec, launch, waits, tuple(vq.shape), lse_shape if return_lse else None, vq.dtype,
                         auto_workspace, views)


def _empty(like, shape, dtype):
    """(a contiguous array, its address) from q's library on its device (_arrays.allocate_like)."""
    return _arrays.allocate_like(like, shape, _arrays.compact_strides(shape), dtype, "tessera.attention",
                                 f"q is {type(like).__module__}.{type(like).__name__}: pass out= (and return_lse=False)")


_O_PTR = SPEC_FIELDS.index("o_ptr")
_LSE_PTR = SPEC_FIELDS.index("lse_ptr")


def attention(q, k, v, out=None, *, causal=False, scale=None, cu_seqlens_q=None, cu_seqlens_k=None,
              max_seqlen_q=None, max_seqlen_k=None, return_lse=False, stream=None, grid="auto", persistent_ctas=None,
              workspace="auto"):
    """O = softmax(Q K^T * scale [+ causal mask]) V on the GPU, with tessera's SM90 attention
    kernel (the C++ host API ``tessera::attention``: docs/attention.md); returns ``out``, or
    ``(out, lse)`` with ``return_lse=True``.

    q, k, v, out: GPU arrays of any library with ``__cuda_array_interface__`` (v2/v3) or DLPack,
      laid out as FlashAttention's and PyTorch's ``(batch, seqlen, heads, head_dim)``: q and out
      ``(batch, seqlen_q, heads, head_dim)``, k and v ``(batch, seqlen_k, kv_heads, head_dim)``.
      (torch's scaled_dot_product_attention takes ``(batch, heads, seqlen, head_dim)``: pass
      ``x.transpose(1, 2)``, a view, no copy.) head_dim is contiguous (stride 1); the other
      strides are free (views of a packed QKV tensor are read in place) but must be positive
      multiples of 8 elements with 16-byte aligned data (TMA's rule: the C++ reason otherwise).
    dtypes: float16 or bfloat16, the same for all four; head_dim 64, 128 or 256.
    Grouped-query attention: heads a multiple of kv_heads; query head h reads KV head
      h // (heads // kv_heads).
    causal: the mask aligned to the bottom-right corner (FlashAttention's): query row i of a
      sequence of sq queries over sk keys sees keys j <= i + sk - sq; a row that sees no key
      gets O = 0 and LSE = -inf. (torch's SDPA aligns is_causal to the top-left: the same when
      sq == sk.)
    scale: the softmax scale, a positive real; None is 1/sqrt(head_dim).
    Varlen: cu_seqlens_q and cu_seqlens_k, int32 device arrays of batch + 1 offsets (the first
      0, non-decreasing), with max_seqlen_q and max_seqlen_k (Python ints: the longest
      sequences; the offsets are not read on the host). q and out are then
      ``(total_q, heads, head_dim)`` and k, v ``(total_k, kv_heads, head_dim)``; sequence b is
      rows cu[b] .. cu[b+1]-1. The offsets and maxima are the caller's promise, as in
      FlashAttention's varlen API.
    return_lse: also return the log-sum-exp of each row's scaled logits (natural log), float32
      ``(batch, heads, seqlen_q)``, varlen ``(heads, total_q)``, allocated with q's library.
    out: where O goes; None allocates it (q's shape and dtype, contiguous) with q's library
      (PyTorch or CuPy) on q's device.
    stream: as tessera.gemm's: an int (cudaStream_t) or a stream object; by default the stream
      the arrays' ``__cuda_array_interface__`` names, else the legacy default stream; the
      launch waits for every other stream an array names.

    Raises TypeError for objects that are not GPU arrays; ValueError for dtypes, shapes,
    strides and devices that do not fit; tessera.AttentionError (a ValueError, with ``status``)
    when the C++ API refuses (its check_arguments / can_implement reason: head_dim, the GQA
    ratio, misaligned strides or pointers, memory that is not the device's ...); RuntimeError
    without a CUDA build, without an sm_90 GPU, or when the launch fails.
    """
    p = plan(q, k, v, out, causal=causal, scale=scale, cu_seqlens_q=cu_seqlens_q, cu_seqlens_k=cu_seqlens_k,
             max_seqlen_q=max_seqlen_q, max_seqlen_k=max_seqlen_k, return_lse=return_lse, stream=stream, grid=grid,
             persistent_ctas=persistent_ctas, workspace=workspace)
    _check_status(*_core.check_attention_arguments(p.spec))
    cuda = _gemm._cuda("tessera.attention", "attention")
    spec = list(p.spec)
    if out is None:
        out, spec[_O_PTR] = _empty(q, p.out_shape, p.dtype)
    lse = None
    if return_lse:
        lse, spec[_LSE_PTR] = _empty(q, p.lse_shape, "float32")
    _check_status(*cuda.run_attention(tuple(spec), p.stream, p.waits, p.auto_workspace))
    return (out, lse) if return_lse else out
