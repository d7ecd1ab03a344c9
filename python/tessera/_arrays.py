"""GPU arrays of other libraries, read through their own protocols: the CUDA Array Interface
(``__cuda_array_interface__``, versions 2 and 3, strides and ``stream`` included) and DLPack
(``__dlpack__`` / ``__dlpack_device__``). Nothing here imports PyTorch or CuPy: an array is
whatever object speaks one of the protocols, so neither is a dependency of the module.

Both protocols are read into an ``ArrayView``: a pointer, a shape, strides in elements, a
dtype name, the device and, for the CUDA Array Interface, the stream its producer last used.
The dict and the capsule are read in C++ (``_core.read_cuda_array_interface``,
``_core.read_dlpack_capsule``: python/src/array_protocols.hpp), where the protocols' rules and
refusals live; this file calls the producers and decides which protocol to read.
"""
import operator
import sys

from . import _core

INT64_MAX = 2**63 - 1
UINT64_MAX = 2**64 - 1

# DLPack's device types (dlpack.h: DLDeviceType), the ones messages name.
DL_CPU, DL_CUDA, DL_CUDA_HOST, DL_CUDA_MANAGED = 1, 2, 3, 13
DEVICE_NAMES = {1: "CPU", 2: "CUDA", 3: "CUDA host (pinned)", 4: "OpenCL", 7: "Vulkan", 8: "Metal", 9: "VPI",
                10: "ROCm", 11: "ROCm host", 12: "ExtDev", 13: "CUDA managed", 14: "oneAPI", 15: "WebGPU",
                16: "Hexagon", 17: "MAIA"}
GPU_DEVICES = (DL_CUDA, DL_CUDA_MANAGED)

ITEMSIZE = {"float16": 2, "bfloat16": 2, "float32": 4, "float64": 8}


def _int(value, what, lo=-INT64_MAX, hi=INT64_MAX):
    """A Python integer within [lo, hi]; bools and floats are refused, never converted."""
    if isinstance(value, bool):
        raise TypeError(f"{what} is a bool, not an integer")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{what} is {type(value).__name__} {value!r}, not an integer") from None
    if not lo <= v <= hi:
        raise ValueError(f"{what} = {v} lies outside [{lo}, {hi}]")
    return v


class ArrayView:
    """One array as tessera reads it: ``ptr`` (the first element's address), ``shape``,
    ``strides`` (in elements), ``dtype`` (a name: float32, float16, bfloat16, ...),
    ``itemsize``, ``device`` (DLPack's device type, CUDA for the CUDA Array Interface),
    ``device_id`` (None where the protocol does not say), ``stream`` (the CUDA Array
    Interface's v3 stream: None, or a handle), ``readonly``, ``span`` (span_bytes()),
    ``protocol`` ("cai" or "dlpack"). ``keep`` holds what must stay alive while the memory is
    used (a DLPack capsule). The readers' tuple (array_protocols.hpp) is the arguments up to
    ``span``."""

    __slots__ = ("ptr", "shape", "strides", "dtype", "itemsize", "device", "device_id", "stream", "readonly",
                 "span", "protocol", "keep")

    def __init__(self, ptr, shape, strides, dtype, itemsize, device, device_id, stream, readonly, span, protocol,
                 keep=None):
        self.ptr, self.shape, self.strides = ptr, shape, strides
        self.dtype, self.itemsize = dtype, itemsize
        self.device, self.device_id, self.stream = device, device_id, stream
        self.readonly, self.span, self.protocol, self.keep = readonly, span, protocol, keep

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def device_name(self):
        return DEVICE_NAMES.get(self.device, f"device type {self.device}")

    def span_bytes(self):
        """[first, last] byte addresses the array touches (empty arrays: None)."""
        return self.span

    def __repr__(self):
        return (f"ArrayView(ptr={self.ptr:#x}, shape={self.shape}, strides={self.strides}, dtype={self.dtype}, "
                f"device={self.device_name}, stream={self.stream}, protocol={self.protocol})")


def compact_strides(shape):
    """Row-major (C) strides in elements: what an absent ``strides`` means in both protocols."""
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def allocate_like(like, shape, strides, dtype, what, hint):
    """(an array of ``shape`` with element ``strides``, its address) from the library ``like``
    comes from (PyTorch or CuPy, found by the array's type, imported by the caller already), on
    ``like``'s device: the outputs that tessera.gemm and tessera.attention allocate for out=None.
    The address is the library's own (what its protocols would say, at no cost). ``what`` names
    the call and ``hint`` ends the refusal of any other library."""
    lib = type(like).__module__.split(".")[0]
    if lib == "torch" and hasattr(like, "new_empty_strided"):
        torch = sys.modules["torch"]
        x = like.new_empty_strided(tuple(shape), tuple(strides), dtype=getattr(torch, dtype))
        return x, x.data_ptr()
    if lib == "cupy" and "cupy" in sys.modules:
        cupy = sys.modules["cupy"]
        if dtype == "bfloat16":
            raise TypeError(f"{what}: out=None cannot allocate a bfloat16 CuPy array; pass out=")
        with cupy.cuda.Device(like.device.id):
            # (one run that covers the strided span, viewed with the strides)
            flat = cupy.empty(1 + sum((n - 1) * s for n, s in zip(shape, strides)) if all(shape) else 0, dtype=dtype)
        x = cupy.lib.stride_tricks.as_strided(flat, tuple(shape), tuple(s * flat.itemsize for s in strides))
        return x, x.data.ptr
    raise TypeError(f"{what}: out=None allocates with PyTorch or CuPy, the libraries it knows; {hint}")


# ---- the CUDA Array Interface ----------------------------------------------------------------

def from_cuda_array_interface(cai, what="array"):
    """An ArrayView of a ``__cuda_array_interface__`` dict (versions 0 to 3). ``<V2`` (2 opaque
    little-endian bytes) is bfloat16, as PyTorch and ml_dtypes write it (numpy's ``|V2`` is
    not); the v3 ``stream`` 1 (the legacy default stream) becomes 0."""
    return ArrayView(*_core.read_cuda_array_interface(cai, what), "cai")


# ---- DLPack -----------------------------------------------------------------------------------

def dlpack_device(obj, what="array"):
    """``obj.__dlpack_device__()`` as (device type, device id), checked."""
    dev = obj.__dlpack_device__()
    if not isinstance(dev, tuple) or len(dev) != 2:
        raise ValueError(f"{what}: __dlpack_device__() returned {dev!r}, not (device_type, device_id)")
    return (_int(dev[0], f"{what}: DLPack device type", 0, 2**31 - 1),
            _int(dev[1], f"{what}: DLPack device id", 0, 2**31 - 1))


def from_capsule(capsule, what="array"):
    """An ArrayView of a DLPack capsule ("dltensor" or "dltensor_versioned"). The capsule is
    kept in the view and not renamed: its destructor, the producer's, releases the tensor
    when the view goes, as the protocol says an unconsumed capsule does."""
    return ArrayView(*_core.read_dlpack_capsule(capsule, what), "dlpack", capsule)


def dlpack_stream_argument(stream):
    """The ``stream`` argument ``__dlpack__`` takes for a CUDA consumer: 1 for the legacy
    default stream (0 is forbidden there), else the handle."""
    return 1 if stream == 0 else stream


def read_cai(obj, what="array"):
    """The first step of reading `obj`: its CUDA Array Interface, read once. (view, None) when
    it has one; (None, error) when it has none to read (error: the producer's own refusal, e.g.
    PyTorch's for a tensor that requires grad, else None). An ArrayView is its own view."""
    if type(obj) is ArrayView:
        return obj, None
    try:
        cai = obj.__cuda_array_interface__
    except AttributeError:
        return None, None
    except Exception as e:  # the producer's own refusal (e.g. a tensor that requires grad)
        return None, e
    return ArrayView(*_core.read_cuda_array_interface(cai, what), "cai"), None


def read_dlpack(obj, what="array", stream=None, cai_error=None):
    """The second step: `obj` through DLPack, its producer handed `stream` (the consumer's
    stream handle) so that it orders its work before it; refused when `obj` has no DLPack
    (naming `cai_error`, the CUDA Array Interface's refusal, when there was one)."""
    if not (hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__")):
        if cai_error is not None:
            raise TypeError(f"{what}: {type(obj).__name__}.__cuda_array_interface__ refused: {cai_error}") \
                from cai_error
        raise TypeError(f"{what}: {type(obj).__name__} is not a GPU array: it has neither __cuda_array_interface__ "
                        "nor __dlpack__/__dlpack_device__")
    device, _ = dlpack_device(obj, what)
    try:
        if device in GPU_DEVICES and stream is not None:
            capsule = obj.__dlpack__(stream=dlpack_stream_argument(stream))
        else:
            capsule = obj.__dlpack__()
    except Exception as e:
        raise TypeError(f"{what}: {type(obj).__name__}.__dlpack__() refused: {e}") from e
    return ArrayView(*_core.read_dlpack_capsule(capsule, what), "dlpack", capsule)


def read_arrays(named, what, launch, caller):
    """The views of several arrays of one call, each protocol read once (a producer may build
    its interface at every read, as PyTorch's does): ``named`` holds (name, object) pairs
    (None skipped), ``what[name]`` each one's description for errors. CUDA Array Interface
    views are read first: their v3 streams decide the launch stream when ``launch`` (a stream
    handle) is None; then the DLPack ones, whose producers are handed the launch stream. Every
    array must be in CUDA device memory, all on one GPU (``caller`` names the function in the
    errors). Returns (views by name, the launch stream, the producers' other streams: those
    the launch must wait for)."""
    views, later = {}, []
    for name, x in named:
        if x is None:
            continue
        v, cai_error = read_cai(x, what[name])
        if v is not None:
            views[name] = v
        else:
            later.append((name, x, cai_error))
    producers = []
    for v in views.values():
        if v.stream is not None and v.stream not in producers:
            producers.append(v.stream)
    if launch is None:
        launch = producers[0] if producers else 0
    for name, x, cai_error in later:
        views[name] = read_dlpack(x, what[name], launch, cai_error)
    ids = set()
    for name, v in views.items():
        if v.device not in GPU_DEVICES:
            raise ValueError(f"{caller}: {name} is in {v.device_name} memory; it reads CUDA device memory")
        if v.device_id is not None:
            ids.add(v.device_id)
    if len(ids) > 1:
        raise ValueError(f"{caller}: the arrays are on different GPUs ({sorted(ids)})")
    return views, launch, [s for s in producers if s != launch]


def view(obj, what="array", stream=None):
    """An ArrayView of any object speaking the CUDA Array Interface or DLPack, tried in this
    order (an object with both is read through its interface alone). ``stream``: the
    consumer's stream handle, passed to ``__dlpack__`` so that the producer orders its work
    before it."""
    if isinstance(obj, ArrayView):
        return obj
    v, cai_error = read_cai(obj, what)
    return v if v is not None else read_dlpack(obj, what, stream, cai_error)
