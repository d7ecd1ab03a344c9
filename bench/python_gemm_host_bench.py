"""The host work of one tessera.gemm call, on any machine: no GPU, no PyTorch, no CUDA build.

The launch (tessera._gemm_cuda.run) is replaced by a stand-in that returns at once, and the
arrays are fakes that behave as their libraries' do where it costs time:
  torch-like  a tensor whose ``__cuda_array_interface__`` is a property building its dict at
              every access, step for step as torch/_tensor.py does (version 2, no stream;
              bfloat16 as "<V2"), with torch's ``__dlpack__`` (the stream handshake: the
              default stream or an external one, compared with the current stream) and
              ``__dlpack_device__`` (an IntEnum device type); module "torch", so that
              out=None allocates through ``new_empty_strided``;
  cupy-like   a property building a version-3 dict with the array's stream;
  dlpack-only a producer of "dltensor" capsules on a CUDA device (numpy's protocol, CUDA's
              device type), nothing else.
Each call is timed twice: with the torch-like fakes, whose costs are included as torch's are in
a real call, and with the same tensors whose protocols cost nothing (their dict, device and
allocation made once: "tessera alone", tessera's own Python and C++ work). Best of --repeat
rounds of --calls calls, in microseconds per call.

usage: PYTHONPATH=build/python python3 bench/python_gemm_host_bench.py [--calls 10000] [--repeat 5]
           [--profile SCENARIO [--alone]]"""
import argparse
import ctypes
import cProfile
import enum
import pstats
import sys
import timeit
import types

import tessera as ts
from tessera import _gemm

M = N = K = 1000


# ---- a torch-like tensor ------------------------------------------------------------------------

class _Dtype:
    def __init__(self, name, itemsize, code, bits):
        self.name, self.itemsize, self.code, self.bits = name, itemsize, code, bits

    def __repr__(self):
        return f"torch.{self.name}"


bfloat16, float16, float32 = _Dtype("bfloat16", 2, 4, 16), _Dtype("float16", 2, 2, 16), _Dtype("float32", 4, 2, 32)
_fake_torch = types.ModuleType("torch")
_fake_torch.bfloat16, _fake_torch.float16, _fake_torch.float32 = bfloat16, float16, float32
_fake_torch.strided = object()


class _Device:
    type, index = "cuda", 0


class _Stream:
    def __init__(self, handle):
        self.cuda_stream = handle

    def __eq__(self, other):
        return isinstance(other, _Stream) and self.cuda_stream == other.cuda_stream

    def wait_event(self, event):
        pass


class _Event:
    def record(self, stream):
        pass


def _current_stream():
    return _Stream(0)


class DLDeviceType(enum.IntEnum):
    kDLCPU = 1
    kDLGPU = 2


# dlpack.h's structs, as a producer lays them out.
class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


def _compact(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class Tensor:
    """What tessera reads of a torch.Tensor, at about the cost torch's Python code has."""

    def __init__(self, shape, strides, dtype, ptr):
        self.shape, self._strides, self.dtype, self._ptr = tuple(shape), tuple(strides), dtype, ptr
        self.is_cuda, self.is_sparse, self.requires_grad = True, False, False
        self.device, self.layout = _Device(), _fake_torch.strided
        self._managed = None

    def _capsule(self):
        if self._managed is None:   # the DLPack struct, built once (torch builds one per export, in C++)
            shape, strides = self.shape, self._strides
            self._shape_c = (ctypes.c_int64 * len(shape))(*shape)
            self._strides_c = (ctypes.c_int64 * len(shape))(*strides)
            self._managed = _DLManagedTensor(
                _DLTensor(self._ptr, _DLDevice(2, 0), len(shape), _DLDataType(self.dtype.code, self.dtype.bits, 1),
                          self._shape_c, self._strides_c, 0), None, None)
        return _capsule_new(ctypes.addressof(self._managed), b"dltensor", None)

    def element_size(self):
        return self.dtype.itemsize

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self._ptr

    def numel(self):
        n = 1
        for e in self.shape:
            n *= e
        return n

    def is_contiguous(self):
        return self._strides == _compact(self.shape)

    def is_conj(self):
        return False

    def t(self):
        return type(self)(self.shape[::-1], self._strides[::-1], self.dtype, self._ptr)

    def new_empty_strided(self, shape, strides, dtype=None):
        Tensor._next += 1 << 24
        return type(self)(shape, strides, dtype or self.dtype, Tensor._next)

    _next = 0x7f0000000000

    @property
    def __cuda_array_interface__(self):
        # torch/_tensor.py: checks, the dtype table (a dict literal per call), a dict per call.
        if not self.is_cuda:
            raise AttributeError("Can't get __cuda_array_interface__ on non-CUDA tensor type")
        if self.is_sparse:
            raise AttributeError("Can't get __cuda_array_interface__ on sparse type")
        if self.requires_grad:
            raise RuntimeError("Can't get __cuda_array_interface__ on Variable that requires grad")
        typestr = {bfloat16: "<V2", float16: "<f2", float32: "<f4", "complex64": "<c8", "complex128": "<c16",
                   "float64": "<f8", "uint8": "|u1", "int8": "|i1", "uint16": "<u2", "int16": "<i2",
                   "uint32": "<u4", "int32": "<i4", "uint64": "<u8", "int64": "<i8", "bool": "|b1"}[self.dtype]
        itemsize = self.element_size()
        shape = tuple(self.shape)
        if self.is_contiguous():
            strides = None
        else:
            strides = tuple(s * itemsize for s in self.stride())
        data_ptr = self.data_ptr() if self.numel() > 0 else 0
        data = (data_ptr, False)
        return dict(typestr=typestr, shape=shape, strides=strides, data=data, version=2)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if self.requires_grad:
            raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
        if self.is_conj():
            raise BufferError("Can't export tensors with the conjugate bit set")
        if self.layout is not _fake_torch.strided:
            raise BufferError("Can't export tensors with layout other than torch.strided")
        if stream is not None and type(stream) is not int:
            raise TypeError("stream must be ``int`` or ``none``")
        elif self.device.type == "cuda" and stream != -1:
            stream = _Stream(0) if stream is None or stream == 1 else _Stream(stream)
            current = _current_stream()
            if stream != current:
                event = _Event()
                event.record(current)
                stream.wait_event(event)
        return self._capsule()

    def __dlpack_device__(self):
        device = self.device
        idx = device.index if device.index is not None else 0
        if device.type == "cuda":
            return (DLDeviceType.kDLGPU, idx)
        return (DLDeviceType.kDLCPU, idx)


class FreeTensor(Tensor):
    """The same tensor whose protocols cost nothing (what they return is made once): a call on
    these times tessera's own work alone."""

    _allocated = {}

    def __init__(self, shape, strides, dtype, ptr):
        super().__init__(shape, strides, dtype, ptr)
        self._cai = Tensor.__cuda_array_interface__.fget(self)
        self._device = Tensor.__dlpack_device__(self)

    @property
    def __cuda_array_interface__(self):
        return self._cai

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        return self._capsule()

    def __dlpack_device__(self):
        return self._device

    def new_empty_strided(self, shape, strides, dtype=None):
        key = (shape, strides, dtype)
        if key not in FreeTensor._allocated:
            FreeTensor._allocated[key] = Tensor.new_empty_strided(self, shape, strides, dtype)
        return FreeTensor._allocated[key]


Tensor.__module__ = FreeTensor.__module__ = "torch"


# ---- a CuPy-like array (version 3, a stream) and a DLPack-only producer -------------------------

class CupyLike:
    def __init__(self, shape, strides_bytes, typestr, ptr, stream=None):
        self.shape, self.strides, self.typestr, self.ptr, self.stream = shape, strides_bytes, typestr, ptr, stream

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.typestr, "descr": [("", self.typestr)],
                "data": (self.ptr, False), "strides": self.strides, "version": 3, "stream": self.stream}


class DlpackOnly:
    def __init__(self, shape, strides, code, bits, ptr):
        self._shape_c = (ctypes.c_int64 * len(shape))(*shape)
        self._strides_c = (ctypes.c_int64 * len(shape))(*strides)
        self._managed = _DLManagedTensor(
            _DLTensor(ptr, _DLDevice(2, 0), len(shape), _DLDataType(code, bits, 1),
                              self._shape_c, self._strides_c, 0), None, None)

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, stream=None):
        return _capsule_new(ctypes.addressof(self._managed), b"dltensor", None)


# ---- the scenarios ------------------------------------------------------------------------------

class _NoLaunch:
    """_gemm_cuda without a GPU: run() accepts and returns at once."""

    @staticmethod
    def run(*args):
        return "", ""


def torch_operands(dtype, kind=Tensor):
    """bench/python_gemm_bench.py's TN: A row-major M x K, B the transpose of a row-major N x K,
    D column-major."""
    a = kind((M, K), (K, 1), dtype, 0x7000_0000_0000)
    b = kind((N, K), (K, 1), dtype, 0x7100_0000_0000).t()
    d = kind((N, M), (M, 1), dtype, 0x7200_0000_0000).t()
    return a, b, d


def scenarios(kind):
    """name -> (call with producers of `kind`); kind: Tensor (torch's costs) or FreeTensor."""
    a16, b16, d16 = torch_operands(float16, kind)
    abf, bbf, dbf = torch_operands(bfloat16, kind)
    ca = CupyLike((M, K), None, "<f2", 0x7000_0000_0000, stream=0x1000)
    cb = CupyLike((K, N), (2, 2 * K), "<f2", 0x7100_0000_0000, stream=0x1000)
    cd = CupyLike((M, N), (2, 2 * M), "<f2", 0x7200_0000_0000, stream=0x1000)
    da = DlpackOnly((M, K), (K, 1), 2, 16, 0x7000_0000_0000)
    db = DlpackOnly((K, N), (1, K), 2, 16, 0x7100_0000_0000)
    dd = DlpackOnly((M, N), (1, M), 2, 16, 0x7200_0000_0000)
    cases = {
        "torch f16  gemm(a, b)": lambda: ts.gemm(a16, b16),
        "torch f16  gemm(a, b, out)": lambda: ts.gemm(a16, b16, d16),
        "torch f16  gemm(a, b, out, stream=0)": lambda: ts.gemm(a16, b16, d16, stream=0),
        "torch bf16 gemm(a, b)": lambda: ts.gemm(abf, bbf),
        "torch bf16 gemm(a, b, out)": lambda: ts.gemm(abf, bbf, dbf),
    }
    if kind is Tensor:
        cases["cupy-like f16 v3 gemm(a, b, out)"] = lambda: ts.gemm(ca, cb, cd)
        cases["dlpack-only f16 gemm(a, b, out)"] = lambda: ts.gemm(da, db, dd)
    return cases


def producer_costs(calls, repeat):
    """What the torch-like fakes cost per use here (the H200 host's torch 2.11, for scale:
    __cuda_array_interface__ 3.2 us, __dlpack_device__ 1.3 us, __dlpack__(stream=1) 11.4 us,
    new_empty_strided 2.1 us)."""
    a, _, _ = torch_operands(float16)
    abf, _, _ = torch_operands(bfloat16)
    uses = {"__cuda_array_interface__": lambda: a.__cuda_array_interface__,
            "__dlpack_device__": abf.__dlpack_device__,
            "__dlpack__(stream=1)": lambda: abf.__dlpack__(stream=1),
            "new_empty_strided": lambda: a.new_empty_strided((M, N), (1, M), float16)}
    return {name: min(timeit.repeat(f, number=calls, repeat=repeat)) / calls for name, f in uses.items()}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--calls", type=int, default=10000)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--profile", help="cProfile the scenario whose name starts with this")
    p.add_argument("--alone", action="store_true", help="profile it with the producers that cost nothing")
    args = p.parse_args()
    sys.modules.setdefault("torch", _fake_torch)
    _gemm._cuda_module = _NoLaunch()
    cases = scenarios(Tensor)
    free = scenarios(FreeTensor)
    for f in list(cases.values()) + list(free.values()):
        f()
    if args.profile:
        chosen = free if args.alone else cases
        name = next(n for n in chosen if n.startswith(args.profile))
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(args.calls):
            chosen[name]()
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return 0
    print(f"tessera {ts.__version__}, Python {sys.version.split()[0]}; best of {args.repeat} x {args.calls} calls, "
          f"launch stubbed, {M}x{N}x{K}")
    costs = producer_costs(args.calls, args.repeat)
    print("the torch-like fakes, per use: " + ", ".join(f"{k} {v * 1e6:.2f} us" for k, v in costs.items()))
    print(f"  {'':<38} {'us/call':>9} {'tessera alone':>14}")
    for name, f in cases.items():
        best = min(timeit.repeat(f, number=args.calls, repeat=args.repeat)) / args.calls
        own = ""
        if name in free:
            alone = min(timeit.repeat(free[name], number=args.calls, repeat=args.repeat)) / args.calls
            own = f"{alone * 1e6:14.2f}"
        print(f"  {name:<38} {best * 1e6:9.2f} {own}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
