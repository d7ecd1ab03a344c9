"""tessera.gemm on the host, no GPU: reading arrays through the CUDA Array Interface (fake
producers) and DLPack (numpy's, and capsules built here), the mapping of shapes and strides
onto the C++ API's GemmArguments, and every refusal: Python's own and the C++
check_arguments' (raised as GemmError with its reason). The launch is test_gemm_gpu.py's."""
import ctypes
import enum
import sys

import numpy as np
import pytest

import tessera as ts
from tessera import _arrays, _gemm


class Cai:
    """A GPU array as far as the CUDA Array Interface says: nothing behind the pointer."""

    def __init__(self, shape, typestr="<f4", ptr=0x100000, strides=None, version=3, stream=None, readonly=False,
                 **extra):
        self.__cuda_array_interface__ = dict(shape=shape, typestr=typestr, data=(ptr, readonly), strides=strides,
                                             version=version, **extra)
        if version >= 3:
            self.__cuda_array_interface__["stream"] = stream


def row(shape, ptr, itemsize=4, **kw):
    return Cai(shape, ptr=ptr, **kw)


def col(rows, cols, ptr, itemsize=4, typestr="<f4", **kw):
    """A column-major rows x cols matrix (a transposed row-major one)."""
    return Cai((rows, cols), typestr=typestr, ptr=ptr, strides=(itemsize, rows * itemsize), **kw)


A, B, C, D, BIAS = 0x100000, 0x200000, 0x300000, 0x400000, 0x500000


def no_gpu():
    if not ts.has_cuda:
        return True
    from tessera import _gemm_cuda
    return _gemm_cuda.device_count() == 0


# ---- the CUDA Array Interface ---------------------------------------------------------------

def test_cai_compact_strides_are_row_major():
    v = _arrays.view(Cai((3, 4, 5), version=2))
    assert (v.ptr, v.shape, v.strides, v.dtype, v.itemsize) == (A, (3, 4, 5), (20, 5, 1), "float32", 4)
    assert v.device == _arrays.DL_CUDA and v.stream is None and v.protocol == "cai"


def test_cai_strides_in_bytes_become_elements():
    v = _arrays.view(Cai((4, 6), typestr="<f2", strides=(2, 16)))
    assert v.strides == (1, 8) and v.dtype == "float16"


@pytest.mark.parametrize("typestr, dtype", [("<f4", "float32"), ("<f2", "float16"), ("<V2", "bfloat16"), ("|V2", "V2"),
                                            ("<f8", "float64"), ("|i1", "int8"), ("<u2", "uint16"),
                                            ("|b1", "bool"), ("<c8", "complex64")])
def test_cai_typestr(typestr, dtype):
    assert _arrays.view(Cai((2, 2), typestr=typestr)).dtype == dtype


@pytest.mark.parametrize("stream, handle", [(None, None), (1, 0), (2, 2), (0xABC0, 0xABC0)])
def test_cai_v3_stream(stream, handle):
    assert _arrays.view(Cai((2, 2), stream=stream)).stream == handle


def test_cai_v2_has_no_stream():
    cai = Cai((2, 2), version=2)
    cai.__cuda_array_interface__["stream"] = 5   # not part of version 2: ignored
    assert _arrays.view(cai).stream is None


@pytest.mark.parametrize("cai, error, text", [
    (Cai((2, 2), stream=0), ValueError, "forbids"),
    (Cai((2, 2), typestr="<f4", strides=(6, 4)), ValueError, "not a multiple of the 4-byte"),
    (Cai((2, 2), typestr=">f4"), ValueError, "big-endian"),
    (Cai((2, 2), typestr="f4"), ValueError, "not a numpy type string"),
    (Cai((2, 2), mask=object()), ValueError, "masked"),
    (Cai((2, 2), version=4), ValueError, "newer than the 3"),
    (Cai((2, True)), TypeError, "bool"),
    (Cai((2, 2.0)), TypeError, "not an integer"),
    (Cai((2, 2**63)), ValueError, "outside"),
    (Cai((2, -1)), ValueError, "outside"),
    (Cai((2, 2), ptr=2**64), ValueError, "outside"),
    (Cai((2, 2), ptr=0), ValueError, "null"),
    (Cai((2, 2), strides=(4,)), ValueError, "do not match"),
    (Cai((2, 2), stream=-1), ValueError, "outside"),
    (Cai((2, enum.IntEnum("Huge", {"N": 2**63}).N)), ValueError, r"shape\[1\] = 9223372036854775808 lies outside"),
])
def test_cai_refusals(cai, error, text):
    with pytest.raises(error, match=text):
        _arrays.view(cai, "x")


def test_cai_missing_keys_and_kinds():
    class NoShape:
        __cuda_array_interface__ = {"typestr": "<f4", "data": (A, False)}

    class NotADict:
        __cuda_array_interface__ = [1, 2]

    with pytest.raises(ValueError, match="no 'shape'"):
        _arrays.view(NoShape())
    with pytest.raises(TypeError, match="not a dict"):
        _arrays.view(NotADict())


def test_an_empty_array_may_have_a_null_pointer():
    assert _arrays.view(Cai((0, 4), ptr=0)).ptr == 0


def test_a_producer_that_refuses_is_named():
    class Refuses:
        @property
        def __cuda_array_interface__(self):
            raise RuntimeError("Can't get __cuda_array_interface__ on Variable that requires grad")

    with pytest.raises(TypeError, match="requires grad"):
        _arrays.view(Refuses(), "a")
    with pytest.raises(TypeError, match="neither __cuda_array_interface__ nor __dlpack__"):
        _arrays.view(object(), "a")


# ---- DLPack -----------------------------------------------------------------------------------

def numpy_strides(arr):
    return tuple(s // arr.itemsize for s in arr.strides)


@pytest.mark.parametrize("make", [lambda x: x, lambda x: x.T, lambda x: x[1:, ::2], lambda x: x[::-1],
                                  lambda x: x.reshape(2, 3, 4)[:, 1:, :], lambda x: x.astype(np.float16)])
def test_dlpack_reads_numpy_as_numpy_does(make):
    arr = make(np.arange(24, dtype=np.float32).reshape(6, 4))
    v = _arrays.view(arr, "a")
    assert v.protocol == "dlpack" and v.device == _arrays.DL_CPU
    assert v.ptr == arr.ctypes.data
    assert v.shape == arr.shape and v.strides == numpy_strides(arr)
    assert v.dtype == str(arr.dtype) and v.itemsize == arr.itemsize


# dlpack.h's structs, as a producer written in Python lays them out (tessera reads them in
# C++: python/src/array_protocols.hpp).
class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p),
                ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


PyCapsule_New = ctypes.pythonapi.PyCapsule_New
PyCapsule_New.restype = ctypes.py_object
PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class FakeDlpack:
    """A DLPack producer on a CUDA device whose tensor lives in Python memory: records the
    stream the consumer hands it."""

    def __init__(self, shape, strides=None, code=2, bits=32, device=(2, 0), ptr=0x700000, offset=0,
                 versioned=False, readonly=False, name=b"dltensor", lanes=1, version=(1, 0)):
        self.shape = (ctypes.c_int64 * len(shape))(*shape)
        self.strides = (ctypes.c_int64 * len(shape))(*strides) if strides else None
        t = DLTensor(ptr, DLDevice(*device), len(shape), DLDataType(code, bits, lanes), self.shape, self.strides,
                     offset)
        if versioned:
            self.managed = DLManagedTensorVersioned(DLPackVersion(*version), None, None, 1 if readonly else 0, t)
            name = b"dltensor_versioned"
        else:
            self.managed = DLManagedTensor(t, None, None)
        self.name = name
        self.device = device
        self.streams = []

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return PyCapsule_New(ctypes.addressof(self.managed), self.name, None)


def test_dlpack_capsule_fields():
    x = FakeDlpack((3, 5), strides=(1, 3), code=4, bits=16, ptr=0x700000, offset=64)
    v = _arrays.view(x, "a", stream=0)
    assert (v.ptr, v.shape, v.strides, v.dtype, v.itemsize) == (0x700000 + 64, (3, 5), (1, 3), "bfloat16", 2)
    assert (v.device, v.device_id, v.readonly) == (_arrays.DL_CUDA, 0, False)
    assert x.streams == [1], "the legacy default stream is 1 in DLPack (0 is forbidden there)"
    _arrays.view(x, "a", stream=0x5000)
    assert x.streams[-1] == 0x5000


def test_dlpack_without_strides_is_row_major_and_versioned_read_only():
    v = _arrays.view(FakeDlpack((2, 3, 4), versioned=True, readonly=True), "a", stream=0)
    assert v.strides == (12, 4, 1) and v.readonly


@pytest.mark.parametrize("fake, text", [(FakeDlpack((2, 2), name=b"used_dltensor"), "not an unconsumed"),
                                        (FakeDlpack((2, 2), code=2, bits=32, device=(2, 0)), None)])
def test_dlpack_capsule_names(fake, text):
    if text is None:
        assert _arrays.view(fake, "a", stream=0).dtype == "float32"
    else:
        with pytest.raises(ValueError, match=text):
            _arrays.view(fake, "a", stream=0)


@pytest.mark.parametrize("fake, error, text", [
    (FakeDlpack((2, 2), versioned=True, version=(2, 0)), ValueError, "DLPack version 2.0 is not 1.x"),
    (FakeDlpack((2, 2), lanes=4), ValueError, "4 lanes"),
    (FakeDlpack((2, -2)), ValueError, r"shape \(2, -2\) has a negative extent"),
])
def test_dlpack_refusals(fake, error, text):
    with pytest.raises(error, match=text):
        _arrays.view(fake, "a", stream=0)


def test_dlpack_dtype_names():
    for code, bits, name in [(0, 8, "int8"), (1, 16, "uint16"), (2, 16, "float16"), (4, 16, "bfloat16"),
                             (5, 64, "complex64"), (6, 8, "bool"), (3, 64, "code3_64"), (9, 8, "code9_8")]:
        assert _arrays.view(FakeDlpack((2,), code=code, bits=bits), "a").dtype == name


def test_a_dunder_dlpack_that_returns_no_capsule_is_refused():
    class NotACapsule(FakeDlpack):
        def __dlpack__(self, stream=None):
            return object()

    with pytest.raises(TypeError, match="returned object, not a DLPack capsule"):
        _arrays.view(NotACapsule((2, 2)), "a", stream=0)


def test_cai_lists_read_as_tuples():
    v = _arrays.view(Cai([4, 6], typestr="<f2", strides=[2, 8]))
    assert (v.shape, v.strides) == ((4, 6), (1, 4))
    c = Cai((2, 3))
    c.__cuda_array_interface__["data"] = [A, True]
    assert _arrays.view(c).readonly


def span_reference(v):
    if any(n == 0 for n in v.shape):
        return None
    lo = sum((n - 1) * s for n, s in zip(v.shape, v.strides) if s <= 0)
    hi = sum((n - 1) * s for n, s in zip(v.shape, v.strides) if s > 0)
    return v.ptr + lo * v.itemsize, v.ptr + (hi + 1) * v.itemsize - 1


@pytest.mark.parametrize("array", [
    Cai((4, 6)), Cai((4, 6), typestr="<f2", strides=(2, 8)), Cai((3, 4, 5), typestr="<f8"),
    Cai((4, 6), strides=(-24, 4), ptr=A + 3 * 24), Cai((4, 6), strides=(0, -4), ptr=A + 5 * 4), Cai((0, 6)),
    Cai((2**40, 2**40), typestr="<f8", strides=(2**60, 8)),          # past 64 bits: exact all the same
    Cai((2**40, 2**40), typestr="<f8", strides=(-2**60, -8), ptr=8), # below 0
    Cai((), ptr=A), FakeDlpack((5, 3), strides=(-3, 1), ptr=A + 4 * 12), FakeDlpack((2, 3, 4))])
def test_the_span_is_the_bytes_the_array_touches(array):
    v = _arrays.view(array, "a", stream=0)
    assert v.span_bytes() == span_reference(v)


def test_bfloat16_in_the_interface_is_read_there_alone():
    """PyTorch's interface writes bfloat16 as <V2 (the only type its table writes so): read as
    bfloat16 from the interface, as float16 is, without a second read through DLPack."""
    class Both(FakeDlpack):
        __cuda_array_interface__ = dict(shape=(2, 2), typestr="<V2", data=(0x700000, False), version=2)

    x = Both((2, 2), code=4, bits=16)
    v = _arrays.view(x, "a", stream=0)
    assert (v.protocol, v.dtype, x.streams) == ("cai", "bfloat16", [])


# ---- gemm: arguments onto GemmArguments -------------------------------------------------------

def test_array_views_are_operands_as_they_are():
    va = _arrays.view(row((64, 32), A))
    assert _gemm.plan(va, row((32, 16), B), row((64, 16), D)).views["a"] is va

def spec(*args, **kw):
    return _gemm.spec_dict(_gemm.plan(*args, **kw).spec)


def test_row_major_operands():
    s = spec(row((64, 32), A), row((32, 16), B), row((64, 16), D))
    assert (s["m"], s["n"], s["k"], s["batch"], s["element"]) == (64, 16, 32, 1, "f32")
    assert (s["a_major"], s["a_ld"], s["b_major"], s["b_ld"], s["c_major"], s["d_ld"]) == ("row", 32, "row", 16,
                                                                                            "row", 16)
    assert (s["a_ptr"], s["b_ptr"], s["d_ptr"], s["c_ptr"], s["bias_ptr"]) == (A, B, D, 0, 0)


def test_transposed_views_are_the_other_major():
    # torch.matmul(x.T, y.T) with x 32x64 and y 16x32 row-major: both operands column-major.
    s = spec(col(64, 32, A), col(32, 16, B), col(64, 16, D))
    assert (s["a_major"], s["a_ld"], s["b_major"], s["b_ld"], s["c_major"], s["d_ld"]) == ("col", 64, "col", 32,
                                                                                            "col", 64)


def test_padded_leading_dimensions():
    s = spec(Cai((64, 30), strides=(40 * 4, 4), ptr=A), Cai((30, 16), strides=(4, 32 * 4), ptr=B), row((64, 16), D))
    assert (s["a_major"], s["a_ld"], s["b_major"], s["b_ld"]) == ("row", 40, "col", 32)


def test_vectors_take_either_major():
    # a 1 x K row against a K x N column-major B, out 1 x N: every stride of extent 1 is free.
    s = spec(Cai((1, 32), strides=(999 * 4, 4), ptr=A), col(32, 8, B), Cai((1, 8), strides=(4, 4), ptr=D))
    assert s["a_major"] == "row" and s["a_ld"] == 32
    assert s["c_major"] == "row" and s["d_ld"] == 8


def test_batches_and_broadcast():
    s = spec(row((3, 64, 32), A), row((32, 16), B), row((3, 64, 16), D), beta=1.0, c=row((64, 16), C))
    assert (s["batch"], s["a_batch_stride"], s["b_batch_stride"], s["c_batch_stride"], s["d_batch_stride"]) == \
        (3, 64 * 32, 0, 0, 64 * 16)
    s = spec(row((1, 64, 32), A), row((3, 32, 16), B), row((3, 64, 16), D))
    assert (s["batch"], s["a_batch_stride"], s["b_batch_stride"]) == (3, 0, 32 * 16)


def test_c_may_be_out():
    s = spec(row((64, 32), A), row((32, 16), B), row((64, 16), D), beta=1.0, c=row((64, 16), D))
    assert s["c_ptr"] == s["d_ptr"] == D and s["c_ld"] == s["d_ld"] == 16


def test_epilogue_fields():
    s = spec(Cai((64, 32), typestr="<V2", ptr=A), Cai((32, 16), typestr="<V2", ptr=B), row((64, 16), D),
             alpha=0.5, beta=2, c=row((64, 16), C), bias=row((16,), BIAS), activation="gelu_tanh")
    assert (s["element"], s["output"], s["alpha"], s["beta"]) == ("bf16", "f32", 0.5, 2.0)
    assert (s["bias"], s["bias_ptr"], s["activation"], s["c_ptr"], s["c_ld"]) == ("per-column", BIAS, "gelu_tanh",
                                                                                  C, 16)
    assert spec(row((64, 32), A), row((32, 16), B), row((64, 16), D), bias=row((64, 1), BIAS))["bias"] == "per-row"
    assert spec(row((64, 32), A), row((32, 16), B), row((64, 16), D), bias=row((1, 16), BIAS))["bias"] == \
        "per-column"


@pytest.mark.parametrize("activation", [None, "relu", "gelu", "gelu_tanh", "silu"])
def test_activations_pass_the_cxx_checks(activation):
    p = _gemm.plan(Cai((64, 32), typestr="<f2", ptr=A), Cai((32, 16), typestr="<f2", ptr=B),
                   Cai((64, 16), typestr="<f2", ptr=D), activation=activation, bias=Cai((16,), typestr="<f2", ptr=BIAS))
    assert ts._core.check_gemm_arguments(p.spec) == ("", "")


def test_streams():
    p = _gemm.plan(row((8, 8), A), row((8, 8), B), row((8, 8), D))
    assert (p.stream, p.waits) == (0, [])       # nothing said: the legacy default stream
    p = _gemm.plan(row((8, 8), A, stream=0x50), row((8, 8), B, stream=0x60), row((8, 8), D, stream=0x50))
    assert (p.stream, p.waits) == (0x50, [0x60])  # the first producer's; waits for the others

    class TorchLike:
        cuda_stream = 0x70

    class CupyLike:
        ptr = 0x80

    class CudaPython:
        def __cuda_stream__(self):
            return (0, 0x90)

    for s, handle in [(0x10, 0x10), (TorchLike(), 0x70), (CupyLike(), 0x80), (CudaPython(), 0x90), (0, 0)]:
        p = _gemm.plan(row((8, 8), A, stream=0x50), row((8, 8), B), row((8, 8), D), stream=s)
        assert p.stream == handle and p.waits == ([0x50] if handle != 0x50 else [])


@pytest.mark.parametrize("stream, error", [(True, TypeError), (-1, ValueError), (2**64, ValueError),
                                           ("0", TypeError), (1.0, TypeError)])
def test_stream_refusals(stream, error):
    with pytest.raises(error):
        _gemm.plan(row((8, 8), A), row((8, 8), B), row((8, 8), D), stream=stream)


def test_dlpack_operands_are_handed_the_launch_stream():
    a = FakeDlpack((8, 8), ptr=A)
    _gemm.plan(a, row((8, 8), B, stream=0x40), row((8, 8), D))
    assert a.streams == [0x40]


# ---- refusals: Python's ------------------------------------------------------------------------

F16 = dict(typestr="<f2")


@pytest.mark.parametrize("kwargs, error, text", [
    (dict(b=row((31, 16), B)), ValueError, "inner extents differ"),
    (dict(a=row((64,), A)), ValueError, "1 modes"),
    (dict(a=row((2, 2, 64, 32), A)), ValueError, "4 modes"),
    (dict(a=Cai((64, 32), ptr=A, **F16)), ValueError, "a is float16 and b is float32"),
    (dict(a=Cai((64, 32), ptr=A, typestr="<f8"), b=Cai((32, 16), ptr=B, typestr="<f8")), ValueError,
     "float32, float16 or bfloat16"),
    (dict(a=Cai((64, 32), ptr=A, typestr="|i1"), b=Cai((32, 16), ptr=B, typestr="|i1")), ValueError, "int8"),
    (dict(out=row((64, 15), D)), ValueError, "out has shape"),
    (dict(out=Cai((64, 16), ptr=D, typestr="<f8")), ValueError, "D in float64"),
    (dict(out=Cai((64, 16), ptr=D, readonly=True)), ValueError, "read-only"),
    (dict(a=Cai((64, 32), ptr=A, strides=(256, 8))), ValueError, "neither mode contiguous"),
    (dict(a=Cai((64, 32), ptr=A + 63 * 128, strides=(-128, 4))), ValueError, "negative stride"),
    (dict(beta=1.0), ValueError, "c is None"),
    (dict(beta=1.0, c=row((64, 8), C)), ValueError, "c has shape"),
    (dict(beta=1.0, c=Cai((64, 16), ptr=C, **F16)), ValueError, "C is read in D's type"),
    (dict(beta=1.0, c=col(64, 16, C)), ValueError, "share a major"),
    (dict(alpha=1j), TypeError, "real number"),
    (dict(alpha=True), TypeError, "real number"),
    (dict(alpha="1"), TypeError, "real number"),
    (dict(alpha=1e39), ValueError, "does not fit in f32"),
    (dict(activation="tanh"), ValueError, "activation 'tanh'"),
    (dict(allow_tf32=1), TypeError, "allow_tf32"),
    (dict(bias=row((15,), BIAS)), ValueError, "bias has shape"),
    (dict(bias=row((2, 16), BIAS)), ValueError, "bias has shape"),
    (dict(bias=Cai((16,), ptr=BIAS, strides=(8,))), ValueError, "contiguous vector"),
    (dict(bias=Cai((16,), ptr=BIAS, **F16)), ValueError, "bias is float16"),
    (dict(out=row((64, 16), A + 64)), ValueError, "out overlaps a"),
    (dict(beta=1.0, c=row((64, 16), D + 64)), ValueError, "c overlaps out without being out"),
    (dict(a=row((3, 64, 32), A), b=row((2, 32, 16), B), out=row((3, 64, 16), D)), ValueError, "2 batches"),
    (dict(a=row((3, 64, 32), A)), ValueError, "3 batches of 64x16"),
    (dict(out=np.zeros((64, 16), np.float32)), ValueError, "CPU memory"),
    (dict(a=object()), TypeError, "not a GPU array"),
    (dict(workspace="big"), ValueError, "workspace"),
    (dict(out_dtype="float64"), ValueError, "out_dtype"),
])
def test_python_refusals(kwargs, error, text):
    args = dict(a=row((64, 32), A), b=row((32, 16), B), out=row((64, 16), D))
    args.update(kwargs)
    with pytest.raises(error, match=text):
        ts.gemm(**args)


# ---- refusals: the C++ API's check_arguments ---------------------------------------------------

@pytest.mark.parametrize("kwargs, status, text", [
    (dict(out=row((64, 16), D + 2)), "misaligned operand", "D = .* is not aligned to its 4-byte f32 elements"),
    (dict(a=Cai((64, 32), ptr=A, strides=(8, 4))), "invalid leading dimension", "ldA = 2 is smaller than K = 32"),
    (dict(a=row((64, 0), A), b=row((0, 16), B)), "invalid size", "K = 0"),
    (dict(a=row((3, 64, 32), A), out=Cai((3, 64, 16), ptr=D, strides=(0, 64, 4))), "invalid batch stride",
     "batches of the output would overlap"),
    (dict(a=Cai((64, 32), ptr=A + 1, **F16), b=Cai((32, 16), ptr=B, **F16), out=Cai((64, 16), ptr=D, **F16)),
     "misaligned operand", "A = .* 2-byte f16"),
])
def test_cxx_refusals_are_gemm_errors_with_the_reason(kwargs, status, text):
    args = dict(a=row((64, 32), A), b=row((32, 16), B), out=row((64, 16), D))
    args.update(kwargs)
    with pytest.raises(ts.GemmError, match=text) as e:
        ts.gemm(**args)
    assert e.value.status == status and isinstance(e.value, ValueError)
    assert str(e.value) == f"{status}: {e.value.message}"


# ---- what one call costs, structurally ----------------------------------------------------------
# (bench/python_gemm_host_bench.py times it; these tests hold the structure that makes it cheap)

class Counting:
    """A producer whose interface is a property building its dict at every read, as PyTorch's
    is; counts the reads (and, with `dlpack`, the DLPack exports)."""

    def __init__(self, shape, ptr, typestr="<f2", strides=None, dlpack=None):
        self.cai = dict(shape=shape, typestr=typestr, data=(ptr, False), strides=strides, version=2)
        self.reads = 0
        self.dlpack = dlpack
        if dlpack is not None:
            self.__dlpack__ = dlpack.__dlpack__
            self.__dlpack_device__ = dlpack.__dlpack_device__

    @property
    def __cuda_array_interface__(self):
        self.reads += 1
        return dict(self.cai)


class Launches:
    """_gemm_cuda as far as gemm() sees it: records each run()."""

    def __init__(self):
        self.calls = []

    def run(self, spec, stream, waits, auto_workspace):
        self.calls.append((spec, stream, waits, auto_workspace))
        return "", ""


@pytest.fixture
def launches(monkeypatch):
    fake = Launches()
    monkeypatch.setattr(_gemm, "_cuda_module", fake)
    return fake


@pytest.fixture
def cxx_checks(monkeypatch):
    """Counts the calls of _core.check_gemm_arguments (the checks without a launch)."""
    calls = []
    check = ts._core.check_gemm_arguments

    def counted(spec):
        calls.append(spec)
        return check(spec)
    monkeypatch.setattr(ts._core, "check_gemm_arguments", counted)
    return calls


def test_each_interface_is_read_once_per_call(launches):
    a, b, out = Counting((64, 32), A), Counting((32, 16), B), Counting((64, 16), D)
    c, bias = Counting((64, 16), C), Counting((16,), BIAS)
    ts.gemm(a, b, out, beta=1.0, c=c, bias=bias)
    assert [x.reads for x in (a, b, out, c, bias)] == [1, 1, 1, 1, 1]
    ts.gemm(a, b, out)
    assert [x.reads for x in (a, b, out)] == [2, 2, 2]


def test_a_bfloat16_interface_is_read_once_and_dlpack_not_at_all(launches):
    x = [FakeDlpack(shape, code=4, bits=16, ptr=p) for shape, p in (((64, 32), A), ((32, 16), B), ((64, 16), D))]
    a, b, out = (Counting(tuple(f.shape), f.managed.dl_tensor.data, typestr="<V2", dlpack=f) for f in x)
    ts.gemm(a, b, out)
    assert [v.reads for v in (a, b, out)] == [1, 1, 1]
    assert [f.streams for f in x] == [[], [], []], "no export: the interface said it all"
    assert launches.calls[-1][0][SPEC["element"]] == "bf16"


def test_an_array_that_refuses_its_interface_is_read_through_dlpack_once(launches):
    class Refuses(FakeDlpack):     # PyTorch's interface for a dtype its table lacks raises KeyError
        @property
        def __cuda_array_interface__(self):
            raise KeyError("torch.float8_e4m3fn")

    a = Refuses((64, 32), code=2, bits=16, ptr=A)
    ts.gemm(a, Counting((32, 16), B), Counting((64, 16), D))
    assert a.streams == [1], "one export, handed the launch stream (the legacy default: 1)"


SPEC = {name: i for i, name in enumerate(_gemm.SPEC_FIELDS)}


def test_the_launch_gets_one_flat_tuple(launches):
    out = Counting((64, 16), D, strides=(2, 128))
    ts.gemm(Counting((64, 32), A), Counting((32, 16), B), out, stream=0x40)
    (spec, stream, waits, auto_workspace), = launches.calls
    assert type(spec) is tuple and len(spec) == len(_gemm.SPEC_FIELDS) == len(ts._core.GEMM_SPEC_FIELDS)
    assert all(type(v) in (int, float, str, bool) for v in spec), "no dict, no objects: fields the C++ side reads as is"
    assert (spec[SPEC["m"]], spec[SPEC["n"]], spec[SPEC["k"]], spec[SPEC["d_ptr"]], spec[SPEC["c_major"]]) == \
        (64, 16, 32, D, "col")
    assert (stream, list(waits), auto_workspace) == (0x40, [], True)
    assert ts._core.check_gemm_arguments(spec) == ("", "")


def test_the_checks_without_a_launch_run_only_where_needed(launches, cxx_checks, monkeypatch):
    # With the launch loaded and out given, run() checks (check_arguments first): no second pass.
    ts.gemm(Counting((64, 32), A), Counting((32, 16), B), Counting((64, 16), D))
    assert cxx_checks == []
    # Without the launch (a build without CUDA, or before the first call) they run here.
    monkeypatch.setattr(_gemm, "_cuda_module", None)
    monkeypatch.setattr(_gemm, "_cuda", lambda: launches)
    ts.gemm(Counting((64, 32), A), Counting((32, 16), B), Counting((64, 16), D))
    assert len(cxx_checks) == 1 and len(launches.calls) == 2


class TorchLike(Counting):
    """Enough of a torch.Tensor for out=None: the allocation and its address."""
    allocated = []

    def new_empty_strided(self, shape, strides, dtype):
        t = TorchLike(shape, 0x900000, strides=tuple(2 * s for s in strides))
        t.asked = (shape, strides, dtype)
        TorchLike.allocated.append(t)
        return t

    def data_ptr(self):
        return self.cai["data"][0]


TorchLike.__module__ = "torch"


def test_out_none_reads_nothing_of_the_output_it_allocates(launches, cxx_checks, monkeypatch):
    import types
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(float16="torch.float16"))
    a, b = TorchLike((64, 32), A), TorchLike((32, 16), B)
    d = ts.gemm(a, b)
    assert d is TorchLike.allocated[-1] and d.asked == ((64, 16), (16, 1), "torch.float16")
    assert (a.reads, b.reads, d.reads) == (1, 1, 0), "the address is the allocator's own"
    assert launches.calls[-1][0][SPEC["d_ptr"]] == 0x900000
    assert len(cxx_checks) == 1, "checked once, before the allocation"


# ---- past the host checks --------------------------------------------------------------------

@pytest.mark.skipif(not no_gpu(), reason="a GPU is present: fake pointers would reach it")
def test_valid_arguments_without_cuda_or_gpu_raise_runtime_error():
    with pytest.raises(RuntimeError, match="built without CUDA" if not ts.has_cuda else "no CUDA device"):
        ts.gemm(row((64, 32), A), row((32, 16), B), row((64, 16), D))


@pytest.mark.skipif(not no_gpu(), reason="a GPU is present: fake pointers would reach it")
def test_gemm_tune_without_cuda_or_gpu_raises_runtime_error():
    with pytest.raises(RuntimeError, match="built without CUDA" if not ts.has_cuda else "no CUDA device"):
        ts.gemm_tune(row((64, 32), A), row((32, 16), B), row((64, 16), D))


@pytest.mark.parametrize("reps", [0, -3, 2001, 2.5, True, "20"])
def test_gemm_tune_refuses_reps_that_are_not_positive_ints(reps):
    with pytest.raises(ValueError, match="reps"):
        ts.gemm_tune(row((64, 32), A), row((32, 16), B), row((64, 16), D), reps=reps)


def test_gemm_tune_refuses_what_gemm_refuses():
    with pytest.raises(ValueError):  # (K of a and b differ: no product)
        ts.gemm_tune(row((64, 32), A), row((31, 16), B), row((64, 16), D))


def test_out_none_needs_a_library_that_allocates():
    if not ts.has_cuda:
        pytest.skip("without CUDA the call stops before allocating")
    with pytest.raises(TypeError, match="pass out="):
        ts.gemm(row((64, 32), A), row((32, 16), B))


def test_has_cuda_says_whether_the_launch_was_built():
    import importlib.util
    assert ts.has_cuda == (importlib.util.find_spec("tessera._gemm_cuda") is not None)
