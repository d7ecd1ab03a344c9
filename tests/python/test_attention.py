"""tessera.attention on the host, no GPU: the mapping of (batch, seqlen, heads, head_dim) arrays
(the CUDA Array Interface's fake producers, DLPack capsules built here) onto the C++ API's
AttentionArguments, and every refusal: Python's own (ValueError/TypeError) and the C++
check_arguments' (tessera.AttentionError with its reason). The launch is test_attention_gpu.py's."""
import inspect

import numpy as np
import pytest

import tessera as ts
from tessera import _attention
from test_gemm import Cai, FakeDlpack, no_gpu

Q, K, V, O, CUQ, CUK, W = 0x100000, 0x200000, 0x300000, 0x400000, 0x500000, 0x600000, 0x700000
BF16 = dict(typestr="<V2")


def t(shape, ptr, typestr="<V2", strides=None, **kw):
    """A bf16 (by default) array; strides in elements."""
    item = 4 if typestr in ("<f4", "<i4") else 2
    return Cai(shape, typestr=typestr, ptr=ptr, strides=None if strides is None else tuple(s * item for s in strides),
               **kw)


def qkvo(b=2, sq=100, sk=70, h=8, hkv=8, d=128, **kw):
    return dict(q=t((b, sq, h, d), Q, **kw), k=t((b, sk, hkv, d), K, **kw), v=t((b, sk, hkv, d), V, **kw),
                out=t((b, sq, h, d), O, **kw))


def spec(**kw):
    args = qkvo()
    args.update(kw)
    return _attention.spec_dict(_attention.plan(**args).spec)


def test_signature():
    p = inspect.signature(ts.attention).parameters
    assert list(p)[:4] == ["q", "k", "v", "out"] and p["out"].default is None
    keyword_only = [n for n, x in p.items() if x.kind is inspect.Parameter.KEYWORD_ONLY]
    assert keyword_only == ["causal", "scale", "cu_seqlens_q", "cu_seqlens_k", "max_seqlen_q", "max_seqlen_k",
                            "return_lse", "stream", "grid", "persistent_ctas", "workspace"]
    assert (p["grid"].default, p["persistent_ctas"].default, p["workspace"].default) == ("auto", None, "auto")
    assert issubclass(ts.AttentionError, ValueError) and ts.attention.__doc__


def test_packed_layout_maps_onto_the_arguments():
    s = spec()
    assert (s["element"], s["batch"], s["heads"], s["kv_heads"], s["head_dim"], s["seqlen_q"], s["seqlen_k"]) == \
        ("bf16", 2, 8, 8, 128, 100, 70)
    assert (s["q_ptr"], s["k_ptr"], s["v_ptr"], s["o_ptr"], s["lse_ptr"]) == (Q, K, V, O, 0)
    assert (s["q_batch_stride"], s["q_row_stride"], s["q_head_stride"]) == (100 * 8 * 128, 8 * 128, 128)
    assert (s["k_batch_stride"], s["k_row_stride"], s["k_head_stride"]) == (70 * 8 * 128, 8 * 128, 128)
    assert (s["cu_seqlens_q_ptr"], s["cu_seqlens_k_ptr"], s["total_q"], s["total_k"]) == (0, 0, 0, 0)
    assert (s["softmax_scale"], s["causal"]) == (0.0, False), "scale None is the C++ default, 1/sqrt(head_dim)"
    assert _attention.plan(**qkvo()).views["q"].ptr == Q


def test_f16_gqa_causal_scale():
    s = spec(**qkvo(h=8, hkv=2, d=64, typestr="<f2"), causal=True, scale=0.25)
    assert (s["element"], s["heads"], s["kv_heads"], s["head_dim"], s["causal"], s["softmax_scale"]) == \
        ("f16", 8, 2, 64, True, 0.25)


def test_views_of_a_packed_qkv_tensor_keep_their_strides():
    # qkv (B, S, 3, H, D): q = qkv[:, :, 0] etc. are (B, S, H, D) views with row stride 3*H*D.
    b, s_, h, d = 2, 64, 4, 128
    strides = (s_ * 3 * h * d, 3 * h * d, d, 1)
    plane = h * d * 2  # bytes between q's, k's and v's heads in a row
    args = dict(q=t((b, s_, h, d), Q, strides=strides), k=t((b, s_, h, d), Q + plane, strides=strides),
                v=t((b, s_, h, d), Q + 2 * plane, strides=strides), out=t((b, s_, h, d), O))
    s = _attention.spec_dict(_attention.plan(**args).spec)
    assert (s["q_batch_stride"], s["q_row_stride"], s["q_head_stride"]) == strides[:3]
    assert (s["v_batch_stride"], s["v_row_stride"], s["v_head_stride"]) == strides[:3]
    assert (s["k_ptr"], s["v_ptr"]) == (Q + plane, Q + 2 * plane)
    assert _attention._core.check_attention_arguments(_attention.plan(**args).spec) == ("", "")


def test_modes_of_extent_one_take_the_default_stride():
    # (B = 1, Sq = 1: torch may give such modes any stride; the kernel never steps over them)
    s = spec(q=t((1, 1, 8, 128), Q, strides=(7, 3, 128, 1)), k=t((1, 70, 8, 128), K), v=t((1, 70, 8, 128), V),
             out=t((1, 1, 8, 128), O))
    assert (s["q_batch_stride"], s["q_row_stride"], s["q_head_stride"]) == (0, 0, 128)


def test_varlen_maps_offsets_and_totals():
    args = dict(q=t((300, 8, 128), Q), k=t((250, 2, 128), K), v=t((250, 2, 128), V), out=t((300, 8, 128), O),
                cu_seqlens_q=t((4,), CUQ, typestr="<i4"), cu_seqlens_k=t((4,), CUK, typestr="<i4"),
                max_seqlen_q=120, max_seqlen_k=100)
    p = _attention.plan(**args, return_lse=True)
    s = _attention.spec_dict(p.spec)
    assert (s["batch"], s["seqlen_q"], s["seqlen_k"], s["total_q"], s["total_k"]) == (3, 120, 100, 300, 250)
    assert (s["cu_seqlens_q_ptr"], s["cu_seqlens_k_ptr"]) == (CUQ, CUK)
    assert (s["q_row_stride"], s["q_head_stride"], s["k_row_stride"]) == (8 * 128, 128, 2 * 128)
    assert p.lse_shape == (8, 300) and p.out_shape == (300, 8, 128)
    assert _attention._core.check_attention_arguments(p.spec) == ("", "")


def test_lse_shape():
    assert _attention.plan(**qkvo(), return_lse=True).lse_shape == (2, 8, 100)
    assert _attention.plan(**qkvo()).lse_shape is None


def test_dlpack_operands_are_handed_the_launch_stream():
    x = FakeDlpack((1, 16, 2, 64), code=4, bits=16, ptr=Q)
    args = dict(q=x, k=t((1, 16, 2, 64), K), v=t((1, 16, 2, 64), V, stream=0x5000), out=t((1, 16, 2, 64), O))
    p = _attention.plan(**args)
    assert p.stream == 0x5000 and x.streams == [0x5000], "the arrays' stream, handed to the DLPack producer"
    p = _attention.plan(**args, stream=0x7000)
    assert p.stream == 0x7000 and p.waits == [0x5000], "an explicit stream waits for the producers' streams"


def test_grid_and_workspace_map_onto_the_arguments():
    s = spec()
    assert (s["grid"], s["persistent_ctas"], s["workspace_ptr"], s["workspace_bytes"]) == ("auto", 0, 0, 0)
    assert _attention.plan(**qkvo()).auto_workspace, "by default the module lends the stream's counter"
    assert not _attention.plan(**qkvo(), workspace=None).auto_workspace
    for grid in ("auto", "persistent", "per_tile"):
        assert spec(grid=grid)["grid"] == grid
    assert spec(grid="persistent", persistent_ctas=3)["persistent_ctas"] == 3
    p = _attention.plan(**qkvo(), causal=True, workspace=t((2,), W, typestr="<i4"))
    s = _attention.spec_dict(p.spec)
    assert (s["workspace_ptr"], s["workspace_bytes"]) == (W, 8) and not p.auto_workspace
    s = spec(workspace=t((64,), W, typestr="|u1"))
    assert s["workspace_bytes"] == 64, "bytes are the array's, whatever its dtype"
    assert _attention._core.check_attention_arguments(p.spec) == ("", "")


def test_the_workspace_stream_is_waited_for():
    p = _attention.plan(**qkvo(), workspace=t((2,), W, typestr="<i4", stream=0x9000), stream=0x7000)
    assert p.stream == 0x7000 and p.waits == [0x9000], "zeroed on another stream: the launch waits for it"


def test_workspace_size_follows_the_grid_rule():
    if not ts.has_cuda:
        with pytest.raises(RuntimeError, match="built without CUDA"):
            ts.attention_workspace_size(causal=True)
        return
    sizes = {(g, c, v): ts.attention_workspace_size(grid=g, causal=c, varlen=v)
             for g in _attention.GRIDS for c in (False, True) for v in (False, True)}
    assert set(sizes.values()) == {0, _attention.COUNTER_BYTES}
    for (g, c, v), size in sizes.items():
        # A counter where tiles differ in cost (causal, varlen) and a persistent grid takes
        # them: always under "persistent", under "auto" only causal with one length.
        counter = g == "persistent" and (c or v) or g == "auto" and c and not v
        assert size == (_attention.COUNTER_BYTES if counter else 0), (g, c, v)
    assert ts.attention_workspace_size() == sizes[("auto", False, False)]
    assert ts.attention_workspace_size(causal=True) == sizes[("auto", True, False)]


@pytest.mark.parametrize("kwargs, error, text", [
    (dict(grid="Persistent"), ValueError, "is none of 'auto', 'persistent', 'per_tile'"),
    (dict(grid=None), TypeError, "grid is NoneType"),
    (dict(causal=1), TypeError, "causal is int"),
    (dict(varlen="no"), TypeError, "varlen is str"),
])
def test_workspace_size_refusals(kwargs, error, text):
    with pytest.raises(error, match=text):
        ts.attention_workspace_size(**kwargs)


def test_descriptions_with_a_bad_grid_or_workspace_size_are_refused():
    spec_ = list(_attention.plan(**qkvo()).spec)
    bad = list(spec_)
    bad[_attention.SPEC_FIELDS.index("grid")] = "fastest"
    with pytest.raises(ValueError, match="grid = 'fastest' is none of"):
        _attention._core.check_attention_arguments(tuple(bad))
    bad = list(spec_)
    bad[_attention.SPEC_FIELDS.index("workspace_bytes")] = -8
    with pytest.raises(ValueError, match="workspace_bytes = -8 < 0"):
        _attention._core.check_attention_arguments(tuple(bad))
    bad = list(spec_)
    bad[_attention.SPEC_FIELDS.index("workspace_bytes")] = 8  # (and no pointer)
    assert _attention._core.check_attention_arguments(tuple(bad)) == \
        ("invalid argument", "workspace is a null pointer while workspace_bytes = 8")


# ---- refusals: Python's own ----------------------------------------------------------------------

CU = dict(cu_seqlens_q=t((3,), CUQ, typestr="<i4"), cu_seqlens_k=t((3,), CUK, typestr="<i4"))
VARLEN = dict(q=t((100, 8, 128), Q), k=t((80, 8, 128), K), v=t((80, 8, 128), V), out=t((100, 8, 128), O))


@pytest.mark.parametrize("kwargs, error, text", [
    (qkvo(typestr="<f4"), ValueError, "float16 or bfloat16"),
    (dict(k=t((2, 70, 8, 128), K, typestr="<f2")), ValueError, "q is bfloat16 and k float16"),
    (dict(out=t((2, 100, 8, 128), O, typestr="<f2")), ValueError, "q is bfloat16 and out float16"),
    (dict(v=t((2, 71, 8, 128), V)), ValueError, "k has shape .* and v"),
    (dict(out=t((2, 99, 8, 128), O)), ValueError, "out has shape"),
    (dict(q=t((2, 100, 8, 64), Q), out=t((2, 100, 8, 64), O)), ValueError, "head_dim is 64 and k's 128"),
    (dict(k=t((3, 70, 8, 128), K), v=t((3, 70, 8, 128), V)), ValueError, "2 batches and k 3"),
    (dict(q=t((100, 8, 128), Q)), ValueError, r"q has shape \(100, 8, 128\); it is \(batch, seqlen"),
    (dict(q=t((2, 0, 8, 128), Q), out=t((2, 0, 8, 128), O)), ValueError, "no query rows"),
    (dict(q=t((2, 100, 8, 128), Q, strides=(100 * 8 * 256, 8 * 256, 256, 2))), ValueError,
     "stride 2 along head_dim"),
    (dict(k=t((2, 70, 8, 128), K, strides=(0, 8 * 128, 128, 1))), ValueError, "stride 0 along its batch mode"),
    (dict(out=t((2, 100, 8, 128), O, readonly=True)), ValueError, "read-only"),
    (dict(out=t((2, 100, 8, 128), Q + 256)), ValueError, "out overlaps q"),
    (dict(out=np.zeros((2, 100, 8, 128), np.float16)), ValueError, "CPU memory"),
    (dict(q=FakeDlpack((2, 100, 8, 128), code=4, bits=16, ptr=Q, device=(2, 1)),
          k=FakeDlpack((2, 70, 8, 128), code=4, bits=16, ptr=K, device=(2, 0))), ValueError, "different GPUs"),
    (dict(q=object()), TypeError, "not a GPU array"),
    (dict(causal=1), TypeError, "causal"),
    (dict(return_lse="yes"), TypeError, "return_lse"),
    (dict(scale=0.0), ValueError, "finite positive"),
    (dict(scale=-1.0), ValueError, "finite positive"),
    (dict(scale=float("nan")), ValueError, "finite positive"),
    (dict(scale=1e39), ValueError, "finite positive"),
    (dict(scale=True), TypeError, "real number"),
    (dict(scale="0.1"), TypeError, "real number"),
    (dict(max_seqlen_q=100, max_seqlen_k=70), ValueError, "go with cu_seqlens"),
    (dict(VARLEN, cu_seqlens_q=CU["cu_seqlens_q"], max_seqlen_q=50, max_seqlen_k=40), ValueError, "give both"),
    (dict(VARLEN, **CU), ValueError, "needs max_seqlen_q and max_seqlen_k"),
    (dict(VARLEN, **CU, max_seqlen_q=50, max_seqlen_k=40, q=t((2, 100, 8, 128), Q)), ValueError,
     r"\(total, heads, head_dim\) with cu_seqlens"),
    (dict(VARLEN, cu_seqlens_q=t((3,), CUQ, typestr="<i8"), cu_seqlens_k=CU["cu_seqlens_k"], max_seqlen_q=50,
          max_seqlen_k=40), ValueError, "int64; the offsets are int32"),
    (dict(VARLEN, cu_seqlens_q=t((4,), CUQ, typestr="<i4"), cu_seqlens_k=CU["cu_seqlens_k"], max_seqlen_q=50,
          max_seqlen_k=40), ValueError, "4 offsets and cu_seqlens_k 3"),
    (dict(VARLEN, cu_seqlens_q=t((1,), CUQ, typestr="<i4"), cu_seqlens_k=t((1,), CUK, typestr="<i4"),
          max_seqlen_q=50, max_seqlen_k=40), ValueError, "batch \\+ 1"),
    (dict(VARLEN, cu_seqlens_q=t((3,), CUQ, typestr="<i4", strides=(2,)), cu_seqlens_k=CU["cu_seqlens_k"],
          max_seqlen_q=50, max_seqlen_k=40), ValueError, "offsets are contiguous"),
    (dict(VARLEN, **CU, max_seqlen_q=101, max_seqlen_k=40), ValueError, "exceed the packed rows"),
    (dict(VARLEN, **CU, max_seqlen_q=0, max_seqlen_k=40), ValueError, "max_seqlen_q = 0 lies outside"),
    (dict(VARLEN, **CU, max_seqlen_q=50.0, max_seqlen_k=40), TypeError, "max_seqlen_q is float"),
    (dict(stream="s"), TypeError, "stream"),
    (dict(grid="dynamic"), ValueError, "grid = 'dynamic' is none of 'auto', 'persistent', 'per_tile'"),
    (dict(grid=0), TypeError, "grid is int"),
    (dict(persistent_ctas=0), ValueError, "persistent_ctas = 0 lies outside"),
    (dict(persistent_ctas=-1), ValueError, "persistent_ctas = -1 lies outside"),
    (dict(persistent_ctas=True), TypeError, "persistent_ctas is a bool"),
    (dict(persistent_ctas=2**31), ValueError, "persistent_ctas = 2147483648 lies outside"),
    (dict(grid="per_tile", persistent_ctas=4), ValueError, "grid='per_tile' has a CTA per work tile"),
    (dict(workspace="none"), ValueError, "workspace = 'none' is none of 'auto', None or a GPU array"),
    (dict(workspace=t((1,), W, typestr="<i4")), ValueError, "workspace has 4 bytes; the tile counter takes 8"),
    (dict(workspace=t((4,), W, typestr="<i4", strides=(2,))), ValueError, "workspace has strides"),
    (dict(workspace=t((2,), W, typestr="<i4", readonly=True)), ValueError, "workspace is read-only"),
    (dict(workspace=t((2,), O + 64, typestr="<i4")), ValueError, "workspace overlaps out"),
    (dict(workspace=t((2,), K, typestr="<i4")), ValueError, "workspace overlaps k"),
    (dict(workspace=np.zeros(2, np.int32)), ValueError, "workspace is in CPU memory"),
    (dict(workspace=object()), TypeError, "workspace.*not a GPU array"),
])
def test_python_refusals(kwargs, error, text):
    args = qkvo()
    args.update(kwargs)
    with pytest.raises(error, match=text):
        ts.attention(**args)


# ---- refusals: the C++ API's check_arguments -------------------------------------------------------

@pytest.mark.parametrize("kwargs, status, text", [
    (qkvo(d=96), "unsupported", r"head_dim must be 64, 128 or 256 \(got 96\)"),
    (qkvo(d=192), "unsupported", r"head_dim must be 64, 128 or 256 \(got 192\)"),
    (qkvo(d=32), "unsupported", r"head_dim must be 64, 128 or 256 \(got 32\)"),
    (qkvo(h=6, hkv=4), "invalid argument", r"heads \(6\) must be a multiple of kv_heads \(4\)"),
    (qkvo(h=0, hkv=0), "invalid argument", "heads and kv_heads must be >= 1"),
    (dict(q=t((2, 100, 8, 128), Q + 2)), "misaligned operand", "16-byte aligned"),
    (dict(k=t((2, 70, 8, 128), K, strides=(70 * 8 * 132, 8 * 132, 132, 1))), "misaligned operand",
     "multiples of 8 elements"),
    (dict(workspace=t((8,), W + 2, typestr="|u1")), "misaligned operand", "workspace must be 4-byte aligned"),
])
def test_cxx_refusals_are_attention_errors_with_the_reason(kwargs, status, text):
    args = qkvo()
    args.update(kwargs)
    with pytest.raises(ts.AttentionError, match=text) as e:
        ts.attention(**args)
    assert e.value.status == status and isinstance(e.value, ValueError)
    assert str(e.value) == f"{status}: {e.value.message}"


def test_the_cxx_check_accepts_what_the_kernel_runs():
    for kw in (dict(), dict(d=64), dict(d=256), dict(d=256, typestr="<f2"), dict(h=16, hkv=4), dict(sk=0),
               dict(typestr="<f2")):
        assert _attention._core.check_attention_arguments(_attention.plan(**qkvo(**kw)).spec) == ("", "")


def test_sizes_beyond_int_are_refused_not_truncated():
    with pytest.raises(ValueError, match="max_seqlen_q = 2147483648 lies outside"):
        ts.attention(**VARLEN, **CU, max_seqlen_q=2**31, max_seqlen_k=40)
    spec = list(_attention.plan(**qkvo()).spec)
    spec[_attention.SPEC_FIELDS.index("seqlen_q")] = 2**31
    with pytest.raises(ValueError, match="seqlen_q = 2147483648 does not fit in the C\\+\\+ API's int"):
        _attention._core.check_attention_arguments(tuple(spec))


def test_half_given_varlen_is_refused_by_the_cxx_check_too():
    # (Python refuses it first; the C++ check holds on its own for a description without cu_seqlens_k)
    p = _attention.plan(**VARLEN, **CU, max_seqlen_q=50, max_seqlen_k=40)
    spec = list(p.spec)
    spec[_attention.SPEC_FIELDS.index("cu_seqlens_k_ptr")] = 0
    status, message = _attention._core.check_attention_arguments(tuple(spec))
    assert status == "invalid argument" and "give both cu_seqlens_q and cu_seqlens_k" in message


def test_description_of_the_wrong_length_is_refused():
    with pytest.raises(TypeError, match="ATTENTION_SPEC_FIELDS"):
        _attention._core.check_attention_arguments((1, 2))


# ---- past the host checks -----------------------------------------------------------------------

@pytest.mark.skipif(not no_gpu(), reason="a GPU is present: fake pointers would reach it")
def test_valid_arguments_without_cuda_or_gpu_raise_runtime_error():
    with pytest.raises(RuntimeError, match="built without CUDA" if not ts.has_cuda else "no CUDA device"):
        ts.attention(**qkvo())


def test_out_none_needs_a_library_that_allocates():
    if not ts.has_cuda:
        pytest.skip("without CUDA the call stops before allocating")
    args = qkvo()
    del args["out"]
    with pytest.raises(TypeError, match="pass out="):
        ts.attention(**args)
