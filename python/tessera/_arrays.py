"""GPU arrays of other libraries, read through their own protocols: the CUDA Array Interface
(``__cuda_array_interface__``, versions 2 and 3, strides and ``stream`` included) and DLPack
(``__dlpack__`` / ``__dlpack_device__``). Nothing here imports PyTorch or CuPy: an array is
whatever object speaks one of the protocols, so neither is a dependency of the module.

Both protocols are read into an ``ArrayView``: a pointer, a shape, strides in elements, a
dtype name, the device and, for the CUDA Array Interface, the stream its producer last used.
"""
import ctypes
import operator

INT64_MAX = 2**63 - 1
UINT64_MAX = 2**64 - 1

# DLPack's device types (dlpack.h: DLDeviceType), the ones messages name.
DL_CPU, DL_CUDA, DL_CUDA_HOST, DL_CUDA_MANAGED = 1, 2, 3, 13
DEVICE_NAMES = {1: "CPU", 2: "CUDA", 3: "CUDA host (pinned)", 4: "OpenCL", 7: "Vulkan", 8: "Metal", 9: "VPI",
                10: "ROCm", 11: "ROCm host", 12: "ExtDev", 13: "CUDA managed", 14: "oneAPI", 15: "WebGPU",
                16: "Hexagon", 17: "MAIA"}
GPU_DEVICES = (DL_CUDA, DL_CUDA_MANAGED)

# Element types by name, as (kind, bytes): the names are numpy's and PyTorch's.
_TYPESTR_KINDS = {"f": "float", "i": "int", "u": "uint", "c": "complex", "b": "bool"}
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
    Interface's v3 stream: None, or a handle), ``readonly``, ``protocol`` ("cai" or
    "dlpack"). ``keep`` holds what must stay alive while the memory is used (a DLPack
    capsule)."""

    __slots__ = ("ptr", "shape", "strides", "dtype", "itemsize", "device", "device_id", "stream", "readonly",
                 "protocol", "keep")

    def __init__(self, ptr, shape, strides, dtype, itemsize, device, device_id, stream, readonly, protocol, keep=None):
        self.ptr, self.shape, self.strides = ptr, shape, strides
        self.dtype, self.itemsize = dtype, itemsize
        self.device, self.device_id, self.stream = device, device_id, stream
        self.readonly, self.protocol, self.keep = readonly, protocol, keep

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def device_name(self):
        return DEVICE_NAMES.get(self.device, f"device type {self.device}")

    def span_bytes(self):
        """[first, last] byte addresses the array touches (empty arrays: None)."""
        if any(s == 0 for s in self.shape):
            return None
        lo = hi = 0
        for n, s in zip(self.shape, self.strides):
            if s > 0:
                hi += (n - 1) * s
            else:
                lo += (n - 1) * s
        return self.ptr + lo * self.itemsize, self.ptr + (hi + 1) * self.itemsize - 1

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


# ---- the CUDA Array Interface ----------------------------------------------------------------

def _typestr_dtype(typestr, what):
    """(name, bytes) of a CUDA Array Interface typestr. ``<V2`` (2 opaque bytes) is bfloat16:
    PyTorch and ml_dtypes write bfloat16 so, numpy having no such type."""
    if not isinstance(typestr, str) or len(typestr) < 3 or typestr[0] not in "<>|=":
        raise ValueError(f"{what}: typestr {typestr!r} is not a numpy type string such as '<f4'")
    order, kind, size = typestr[0], typestr[1], typestr[2:]
    if not size.isdigit():
        raise ValueError(f"{what}: typestr {typestr!r} is not a numpy type string such as '<f4'")
    nbytes = int(size)
    if order == ">" and nbytes > 1:
        raise ValueError(f"{what}: typestr {typestr!r} is big-endian; GPU memory is little-endian")
    if kind == "V" and nbytes == 2:
        return "bfloat16", 2
    if kind not in _TYPESTR_KINDS or nbytes == 0:
        return f"{typestr[1:]}", max(nbytes, 1)
    return f"{_TYPESTR_KINDS[kind]}{8 * nbytes}" if kind != "b" else "bool", nbytes


def cai_stream(value, what):
    """The v3 ``stream`` entry as a stream handle: None (no synchronisation asked), 1 (the
    legacy default stream, here 0), 2 (the per-thread default stream) or a cudaStream_t. The
    interface forbids 0 (it would be ambiguous)."""
    if value is None:
        return None
    v = _int(value, f"{what}: __cuda_array_interface__['stream']", 0, UINT64_MAX)
    if v == 0:
        raise ValueError(f"{what}: __cuda_array_interface__['stream'] is 0, which the interface forbids "
                         "(1 is the legacy default stream, 2 the per-thread one)")
    return 0 if v == 1 else v


def from_cuda_array_interface(cai, what="array"):
    """An ArrayView of a ``__cuda_array_interface__`` dict (versions 0 to 3)."""
    if not isinstance(cai, dict):
        raise TypeError(f"{what}: __cuda_array_interface__ is {type(cai).__name__}, not a dict")
    for key in ("shape", "typestr", "data"):
        if key not in cai:
            raise ValueError(f"{what}: __cuda_array_interface__ has no '{key}'")
    version = _int(cai.get("version", 0), f"{what}: __cuda_array_interface__['version']", 0, INT64_MAX)
    if version > 3:
        raise ValueError(f"{what}: __cuda_array_interface__ version {version} is newer than the 3 tessera reads")
    shape_in = cai["shape"]
    if not isinstance(shape_in, (tuple, list)):
        raise TypeError(f"{what}: __cuda_array_interface__['shape'] is {type(shape_in).__name__}, not a tuple")
    shape = tuple(_int(n, f"{what}: shape[{i}]", 0, INT64_MAX) for i, n in enumerate(shape_in))
    dtype, itemsize = _typestr_dtype(cai["typestr"], what)
    data = cai["data"]
    if not isinstance(data, (tuple, list)) or len(data) != 2:
        raise ValueError(f"{what}: __cuda_array_interface__['data'] is {data!r}, not (pointer, read_only)")
    ptr = _int(data[0], f"{what}: data pointer", 0, UINT64_MAX)
    readonly = bool(data[1])
    if cai.get("mask") is not None:
        raise ValueError(f"{what}: masked arrays (__cuda_array_interface__['mask']) are not read")
    strides_in = cai.get("strides")
    if strides_in is None:
        strides = compact_strides(shape)
    else:
        if not isinstance(strides_in, (tuple, list)) or len(strides_in) != len(shape):
            raise ValueError(f"{what}: strides {strides_in!r} do not match shape {shape}")
        strides = []
        for i, s in enumerate(strides_in):
            s = _int(s, f"{what}: strides[{i}]")
            if s % itemsize != 0:
                raise ValueError(f"{what}: strides[{i}] = {s} bytes is not a multiple of the {itemsize}-byte "
                                 f"{dtype} elements")
            strides.append(s // itemsize)
        strides = tuple(strides)
    stream = cai_stream(cai.get("stream"), what) if version >= 3 else None
    if ptr == 0 and all(n > 0 for n in shape):
        raise ValueError(f"{what}: the data pointer is null for a non-empty array")
    return ArrayView(ptr, shape, strides, dtype, itemsize, DL_CUDA, None, stream, readonly, "cai")


# ---- DLPack -----------------------------------------------------------------------------------

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


class _DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class _DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", _DLPackVersion), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p),
                ("flags", ctypes.c_uint64), ("dl_tensor", _DLTensor)]


_DL_FLAG_READ_ONLY = 1
_DL_CODES = {0: "int", 1: "uint", 2: "float", 4: "bfloat", 5: "complex", 6: "bool"}

_capsule_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_get_pointer.restype = ctypes.c_void_p
_capsule_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_get_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_get_name.restype = ctypes.c_char_p
_capsule_get_name.argtypes = [ctypes.py_object]
_capsule_is_valid = ctypes.pythonapi.PyCapsule_IsValid
_capsule_is_valid.restype = ctypes.c_int
_capsule_is_valid.argtypes = [ctypes.py_object, ctypes.c_char_p]


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
    if type(capsule).__name__ != "PyCapsule":
        raise TypeError(f"{what}: __dlpack__() returned {type(capsule).__name__}, not a DLPack capsule")
    if _capsule_is_valid(capsule, b"dltensor"):
        managed = _DLManagedTensor.from_address(_capsule_get_pointer(capsule, b"dltensor"))
        tensor, readonly = managed.dl_tensor, False
    elif _capsule_is_valid(capsule, b"dltensor_versioned"):
        managed = _DLManagedTensorVersioned.from_address(_capsule_get_pointer(capsule, b"dltensor_versioned"))
        if managed.version.major != 1:
            raise ValueError(f"{what}: DLPack version {managed.version.major}.{managed.version.minor} is not 1.x")
        tensor, readonly = managed.dl_tensor, bool(managed.flags & _DL_FLAG_READ_ONLY)
    else:
        raise ValueError(f"{what}: a capsule named {_capsule_get_name(capsule)!r} is not an unconsumed DLPack "
                         "tensor ('dltensor')")
    ndim = tensor.ndim
    if ndim < 0:
        raise ValueError(f"{what}: DLPack ndim = {ndim}")
    shape = tuple(tensor.shape[i] for i in range(ndim))
    if any(n < 0 for n in shape):
        raise ValueError(f"{what}: DLPack shape {shape} has a negative extent")
    strides = tuple(tensor.strides[i] for i in range(ndim)) if tensor.strides else compact_strides(shape)
    code, bits, lanes = tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes
    if lanes != 1:
        raise ValueError(f"{what}: DLPack dtype with {lanes} lanes (vector elements) is not read")
    dtype = f"{_DL_CODES.get(code, f'code{code}_')}{bits}" if code != 6 else "bool"
    itemsize = max((bits + 7) // 8, 1)
    ptr = (tensor.data or 0) + tensor.byte_offset
    return ArrayView(ptr, shape, strides, dtype, itemsize, tensor.device.device_type, tensor.device.device_id, None,
                     readonly, "dlpack", keep=capsule)


def dlpack_stream_argument(stream):
    """The ``stream`` argument ``__dlpack__`` takes for a CUDA consumer: 1 for the legacy
    default stream (0 is forbidden there), else the handle."""
    return 1 if stream == 0 else stream


def cuda_array_interface(obj):
    """``obj.__cuda_array_interface__``, or None when it has none. A producer whose property
    raises (PyTorch for a CPU tensor, or one that requires grad) has none for this use; the
    error is returned so that a refusal can name it."""
    try:
        return obj.__cuda_array_interface__, None
    except AttributeError:
        return None, None
    except Exception as e:  # the producer's own refusal (e.g. a tensor that requires grad)
        return None, e


def view(obj, what="array", stream=None):
    """An ArrayView of any object speaking the CUDA Array Interface or DLPack (tried in this
    order; a bfloat16 array whose interface says only "<V2" is read through DLPack when it has
    that too, which names the type). ``stream``: the consumer's stream handle, passed to
    ``__dlpack__`` so that the producer orders its work before it."""
    if isinstance(obj, ArrayView):
        return obj
    cai, cai_error = cuda_array_interface(obj)
    has_dlpack = hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__")
    if cai is not None:
        v = from_cuda_array_interface(cai, what)
        if not (v.dtype == "bfloat16" and has_dlpack):
            return v
    if has_dlpack:
        device, _ = dlpack_device(obj, what)
        try:
            if device in GPU_DEVICES and stream is not None:
                capsule = obj.__dlpack__(stream=dlpack_stream_argument(stream))
            else:
                capsule = obj.__dlpack__()
        except Exception as e:
            raise TypeError(f"{what}: {type(obj).__name__}.__dlpack__() refused: {e}") from e
        return from_capsule(capsule, what)
    if cai_error is not None:
        raise TypeError(f"{what}: {type(obj).__name__}.__cuda_array_interface__ refused: {cai_error}") from cai_error
    raise TypeError(f"{what}: {type(obj).__name__} is not a GPU array: it has neither __cuda_array_interface__ "
                    "nor __dlpack__/__dlpack_device__")
