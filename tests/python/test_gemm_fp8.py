"""tessera.gemm's FP8 inputs on the host, no GPU: how e4m3/e5m2 arrays are recognised (DLPack 1.1's
codes, PyTorch's float8 tensors as uint8 views, the a_dtype=/b_dtype= override on one-byte
arrays), how the scales of each scale_mode map onto GemmArguments (scale_a, scale_b,
scale_mode, ld_scale_a), and every refusal: Python's and the C++ check_arguments'. The launch
is test_gemm_fp8_gpu.py's."""
import inspect
import types

import pytest

import tessera as ts
from tessera import _arrays, _gemm
from test_gemm import Cai, FakeDlpack

A, B, D, SA, SB, SD, AMAX = 0x100000, 0x200000, 0x300000, 0x400000, 0x500000, 0x600000, 0x700000
U8 = "|u1"
M, N, K = 64, 48, 256


def a8(m=M, k=K, ptr=A, **kw):
    """An FP8 A as a uint8 row-major (M, K) array."""
    return Cai((m, k), typestr=U8, ptr=ptr, **kw)


def b8(k=K, n=N, ptr=B, **kw):
    """An FP8 B as a column-major (K, N) uint8 array (the transpose of a row-major (N, K) one)."""
    return Cai((k, n), typestr=U8, ptr=ptr, strides=(1, k), **kw)


def d16(m=M, n=N, ptr=D, typestr="<V2", **kw):
    return Cai((m, n), typestr=typestr, ptr=ptr, **kw)


def f32(shape, ptr, strides=None):
    return Cai(shape, typestr="<f4", ptr=ptr, strides=None if strides is None else tuple(4 * s for s in strides))


def spec(**kw):
    args = dict(a=a8(), b=b8(), out=d16(), a_dtype="e4m3", b_dtype="e4m3")
    args.update(kw)
    a, b, out = args.pop("a"), args.pop("b"), args.pop("out")
    return _gemm.spec_dict(_gemm.plan(a, b, out, **args).spec)


def test_signature_has_the_fp8_keywords():
    for f in (ts.gemm, ts.gemm_tune):
        p = inspect.signature(f).parameters
        for name, default in (("scale_a", None), ("scale_b", None), ("scale_mode", "tensor"), ("ld_scale_a", None),
                              ("a_dtype", None), ("b_dtype", None), ("scale_d", None), ("amax_d", None)):
            assert p[name].kind is inspect.Parameter.KEYWORD_ONLY and p[name].default == default
    assert "scale_mode" in ts.gemm.__doc__ and "float8_e4m3fn" in ts.gemm.__doc__ and "amax_d" in ts.gemm.__doc__


def test_dlpack_float8_codes():
    # DLPack 1.1: kDLFloat8_e4m3fn = 10, kDLFloat8_e5m2 = 12; kDLFloat8_e4m3 (8, with infinities) is another format
    for code, name in ((10, "float8_e4m3fn"), (12, "float8_e5m2"), (8, "code8_8")):
        v = _arrays.view(FakeDlpack((4, 4), code=code, bits=8), "a")
        assert (v.dtype, v.itemsize) == (name, 1)


def test_dlpack_float8_operands_need_no_override():
    s = _gemm.spec_dict(_gemm.plan(FakeDlpack((M, K), code=10, bits=8, ptr=A),
                                   FakeDlpack((K, N), strides=(1, K), code=12, bits=8, ptr=B), d16()).spec)
    assert (s["element"], s["element_b"], s["a_major"], s["b_major"], s["b_ld"]) == ("e4m3", "e5m2", "row", "col", K)


def test_override_names_the_type_of_one_byte_arrays():
    s = spec()
    assert (s["element"], s["element_b"], s["output"]) == ("e4m3", "", "bf16")
    assert (s["scale_a_ptr"], s["scale_b_ptr"], s["scale_mode"], s["ld_scale_a"]) == (0, 0, "per-tensor", 0)
    s = spec(a_dtype="float8_e5m2", b_dtype="e4m3", b=Cai((K, N), typestr="|i1", ptr=B, strides=(1, K)))
    assert (s["element"], s["element_b"]) == ("e5m2", "e4m3")


def test_fp8_d_is_bf16_unless_told():
    assert spec(out=d16(typestr="<f4"))["output"] == "f32"
    p = _gemm.plan(a8(), b8(), None, a_dtype="e4m3", b_dtype="e4m3", out_dtype="float16")
    assert p.dtype == "float16"
    assert _gemm.plan(a8(), b8(), None, a_dtype="e4m3", b_dtype="e4m3").dtype == "bfloat16"


def test_per_tensor_scales():
    s = spec(scale_a=f32((1,), SA), scale_b=f32((), SB))
    assert (s["scale_a_ptr"], s["scale_b_ptr"], s["scale_mode"]) == (SA, SB, "per-tensor")
    assert s["ld_scale_a"] == 0


def test_rowwise_scales_take_torchs_shapes():
    s = spec(scale_a=f32((M, 1), SA), scale_b=f32((1, N), SB), scale_mode="rowwise")
    assert (s["scale_a_ptr"], s["scale_b_ptr"], s["scale_mode"]) == (SA, SB, "rowwise")
    assert spec(scale_a=f32((M,), SA), scale_b=f32((N,), SB), scale_mode="rowwise")["scale_mode"] == "rowwise"


def test_block_scales_ld_from_the_stride():
    kb = K // 128
    nb = -(-N // 128)
    # scale_a (M, KB) M-major with its k-groups 68 apart (M = 64 padded to 68): a transposed (KB, 68) array
    s = spec(scale_a=f32((M, kb), SA, strides=(1, 68)), scale_b=f32((nb, kb), SB), scale_mode="block")
    assert (s["scale_mode"], s["ld_scale_a"], s["scale_a_ptr"], s["scale_b_ptr"]) == ("block", 68, SA, SB)
    s = spec(scale_a=f32((M, kb), SA, strides=(1, 68)), scale_b=f32((nb, kb), SB), scale_mode="block", ld_scale_a=68)
    assert s["ld_scale_a"] == 68
    # one k-group: no stride to read; ld_scale_a as given, else the C++ default (0)
    s = spec(a=a8(k=100), b=b8(k=100), scale_a=f32((M, 1), SA), scale_b=f32((nb, 1), SB), scale_mode="block")
    assert s["ld_scale_a"] == 0


def test_the_fp8_spec_passes_the_cxx_checks():
    for kw in (dict(), dict(scale_a=f32((1,), SA), scale_b=f32((1,), SB)),
               dict(scale_a=f32((M, 1), SA), scale_b=f32((1, N), SB), scale_mode="rowwise"),
               dict(scale_a=f32((M, 2), SA, strides=(1, M)), scale_b=f32((1, 2), SB), scale_mode="block"),
               dict(b_dtype="e5m2")):
        args = dict(a=a8(), b=b8(), out=d16(), a_dtype="e4m3", b_dtype="e4m3")
        args.update(kw)
        p = _gemm.plan(args.pop("a"), args.pop("b"), args.pop("out"), **args)
        assert _gemm._core.check_gemm_arguments(p.spec) == ("", ""), kw


class FakeTorchTensor:
    """What _gemm reads of a PyTorch float8 tensor: its dtype and view(torch.uint8)."""
    __module__ = "torch"

    def __init__(self, dtype, cai):
        self.dtype, self._cai = dtype, cai

    @property
    def __cuda_array_interface__(self):
        raise TypeError("no typestr for float8")  # (as PyTorch: no float8 in the interface)

    def view(self, dtype):
        assert dtype == "uint8"
        return self._cai


@pytest.fixture
def fake_torch(monkeypatch):
    """A stand-in `torch` module with the float8 dtypes, installed for one test (the float8
    types' detection reset so that it finds this one)."""
    fake = types.SimpleNamespace(uint8="uint8", float8_e4m3fn=object(), float8_e5m2=object(), bfloat16=object())
    monkeypatch.setitem(__import__("sys").modules, "torch", fake)
    monkeypatch.setattr(_gemm, "_torch_fp8", None)
    return fake


def test_torch_float8_tensors_are_read_as_uint8_views(fake_torch):
    fake = fake_torch
    a = FakeTorchTensor(fake.float8_e4m3fn, a8())
    b = FakeTorchTensor(fake.float8_e5m2, b8())
    s = _gemm.spec_dict(_gemm.plan(a, b, d16()).spec)
    assert (s["element"], s["element_b"], s["a_ptr"], s["b_ptr"], s["b_major"]) == ("e4m3", "e5m2", A, B, "col")
    with pytest.raises(ValueError, match="b_dtype = 'e4m3', but b is float8_e5m2"):
        _gemm.plan(a, b, d16(), b_dtype="e4m3")
    # (a PyTorch tensor of another type is read as it is, no view)
    other = FakeTorchTensor(fake.bfloat16, a8())
    assert _gemm._torch_fp8_bytes(other) == (other, None)


@pytest.mark.parametrize("kwargs, error, text", [
    (dict(a_dtype="e4m3fnuz"), ValueError, "none of 'e4m3'"),
    (dict(a=Cai((M, K), typestr="<f2", ptr=A), a_dtype="e4m3"), ValueError, "override applies to one-byte"),
    (dict(b_dtype=None), ValueError, "a is float8_e4m3fn and b is uint8"),
    (dict(a=Cai((M, K), typestr="<V2", ptr=A), a_dtype=None), ValueError, "a is bfloat16 and b is float8_e4m3fn"),
    (dict(out=d16(typestr=U8)), ValueError, "D in uint8"),
    (dict(out=d16(typestr=U8), out_dtype="e4m3", scale_d=f32((2,), SD)), ValueError, "scale_d is float32 of shape \\(2,\\)"),
    (dict(out=d16(typestr=U8), out_dtype="e4m3", scale_d=Cai((1,), typestr="<f2", ptr=SD)), ValueError,
     "scale_d is float16 .* one float32"),
    (dict(out=d16(typestr=U8), out_dtype="e4m3", amax_d=Cai((1,), typestr="<f4", ptr=AMAX, readonly=True)), ValueError,
     "amax_d is read-only"),
    (dict(out=d16(), out_dtype="e4m3"), ValueError, "out_dtype = e4m3 but out is bfloat16"),
    (dict(out=d16(typestr=U8), out_dtype="e4m3", beta=1.0, c=d16()), ValueError, "c is bfloat16 and D float8_e4m3fn"),
    (dict(scale_mode="row"), ValueError, "scale_mode = 'row' is none of"),
    (dict(scale_mode=None), ValueError, "scale_mode = None"),
    (dict(ld_scale_a=64), ValueError, "ld_scale_a is scale_mode='block''s"),
    (dict(scale_a=Cai((1,), typestr="<f2", ptr=SA)), ValueError, "scale_a is float16; the scales are float32"),
    (dict(scale_a=f32((2,), SA)), ValueError, "scale_mode='tensor' takes one value"),
    (dict(scale_a=f32((M - 1, 1), SA), scale_b=f32((1, N), SB), scale_mode="rowwise"), ValueError,
     "scale_a has shape .*one per row of a"),
    (dict(scale_a=f32((M, 1), SA), scale_b=f32((N, 2), SB), scale_mode="rowwise"), ValueError,
     "scale_b has shape .*one per column of b"),
    (dict(scale_a=f32((M,), SA, strides=(2,)), scale_b=f32((N,), SB), scale_mode="rowwise"), ValueError,
     "scale_a has stride 2"),
    (dict(scale_a=f32((M, 2), SA), scale_b=f32((1, 2), SB), scale_mode="block"), ValueError, "M-major"),
    (dict(scale_a=f32((2, M), SA), scale_b=f32((1, 2), SB), scale_mode="block"), ValueError,
     r"scale_mode='block' takes \(M, ceil\(K/128\)\) = \(64, 2\)"),
    (dict(scale_a=f32((M, 2), SA, strides=(1, M)), scale_b=f32((2, 2), SB), scale_mode="block"), ValueError,
     r"scale_b has shape \(2, 2\).*\(1, 2\)"),
    (dict(scale_a=f32((M, 2), SA, strides=(1, M)), scale_b=f32((1, 2), SB, strides=(2, 2)), scale_mode="block"),
     ValueError, "dense row-major"),
    (dict(scale_a=f32((M, 2), SA, strides=(1, 68)), scale_b=f32((1, 2), SB), scale_mode="block", ld_scale_a=64),
     ValueError, "ld_scale_a = 64 but scale_a's k-groups lie 68 apart"),
    (dict(ld_scale_a=0, scale_mode="block"), ValueError, "ld_scale_a = 0 lies outside"),
    (dict(out=d16(ptr=SA - 64), scale_a=f32((1,), SA)), ValueError, "out overlaps scale_a"),
])
def test_python_refusals(kwargs, error, text):
    args = dict(a=a8(), b=b8(), out=d16(), a_dtype="e4m3", b_dtype="e4m3")
    args.update(kwargs)
    with pytest.raises(error, match=text):
        ts.gemm(**args)


@pytest.mark.parametrize("kwargs, status, text", [
    (dict(a=Cai((M, K), typestr=U8, ptr=A, strides=(1, M))), "unsupported", "A \\(e4m3\\) is column-major"),
    (dict(a=a8(k=40), b=b8(k=40)), "misaligned operand", "ldA = 40 is not a multiple of 16"),
    (dict(out_dtype="float8_e5m2", out=None), "unsupported", "e5m2"),
    (dict(out=d16(typestr=U8), out_dtype="e4m3", scale_a=f32((M, 1), SA), scale_b=f32((1, N), SB), scale_mode="rowwise"),
     "unsupported", "per-tensor scales only"),
    (dict(amax_d=f32((1,), AMAX)), "unsupported", "quantize an e4m3 D"),
    (dict(a=Cai((M, K), typestr="<V2", ptr=A), b=Cai((K, N), typestr="<V2", ptr=B, strides=(2, 2 * K)), a_dtype=None,
          b_dtype=None, out=Cai((M, N), typestr=U8, ptr=D), out_dtype="e4m3"), "unsupported", "needs FP8 inputs"),
    (dict(scale_a=f32((M, 1), SA), scale_mode="rowwise"), "null pointer", "scale_b is a null pointer"),
    (dict(a=Cai((M, K), typestr="<V2", ptr=A), b=Cai((K, N), typestr="<V2", ptr=B, strides=(2, 2 * K)), a_dtype=None,
          b_dtype=None, scale_a=f32((1,), SA)), "unsupported", "fold a scale into alpha"),
    (dict(scale_a=f32((M, 2), SA, strides=(1, M)), scale_b=f32((1, 2), SB), scale_mode="block",
          out=Cai((M, N), typestr="<V2", ptr=D, strides=(2, 2 * M))), "unsupported", "needs a row-major D"),
])
def test_cxx_refusals_are_gemm_errors_with_the_reason(kwargs, status, text):
    args = dict(a=a8(), b=b8(), out=d16(), a_dtype="e4m3", b_dtype="e4m3")
    args.update(kwargs)
    with pytest.raises(ts.GemmError, match=text) as e:
        ts.gemm(**args)
    assert e.value.status == status, e.value


def test_an_e4m3_d_with_its_scale_and_amax():
    out = Cai((M, N), typestr=U8, ptr=D)
    p = _gemm.plan(a8(), b8(), out, a_dtype="e4m3", b_dtype="e4m3", out_dtype="e4m3", scale_a=f32((1,), SA),
                   scale_b=f32((1,), SB), scale_d=f32((1,), SD), amax_d=f32((1,), AMAX))
    s = _gemm.spec_dict(p.spec)
    assert (s["output"], s["scale_d_ptr"], s["amax_d_ptr"], s["d_ptr"], s["d_ld"]) == ("e4m3", SD, AMAX, D, N)
    assert p.dtype == "float8_e4m3fn"
    assert _gemm._core.check_gemm_arguments(p.spec) == ("", "")
    # without scale_d and amax_d: 0 (a scale of 1, no amax); C in D's type (beta reads it)
    s = spec(out=out, out_dtype="float8_e4m3fn", beta=0.5, c=out)
    assert (s["output"], s["scale_d_ptr"], s["amax_d_ptr"], s["c_ptr"]) == ("e4m3", 0, 0, D)
    # out=None: D allocated in float8_e4m3fn by the inputs' library
    assert _gemm.plan(a8(), b8(), None, a_dtype="e4m3", b_dtype="e4m3", out_dtype="float8_e4m3fn").dtype == "float8_e4m3fn"


def test_torch_float8_out_is_read_as_a_uint8_view(fake_torch):
    fake = fake_torch
    a = FakeTorchTensor(fake.float8_e4m3fn, a8())
    b = FakeTorchTensor(fake.float8_e4m3fn, b8())
    out = FakeTorchTensor(fake.float8_e4m3fn, Cai((M, N), typestr=U8, ptr=D))
    s = _gemm.spec_dict(_gemm.plan(a, b, out, amax_d=f32((1,), AMAX)).spec)
    assert (s["output"], s["d_ptr"], s["amax_d_ptr"]) == ("e4m3", D, AMAX)
    with pytest.raises(ValueError, match="out_dtype = float16 but out is float8_e4m3fn"):
        _gemm.plan(a, b, out, out_dtype="float16")
