// The two GPU-array protocols tessera.gemm reads (tessera/_arrays.py), each into one flat
// tuple: a `__cuda_array_interface__` dict (versions 0 to 3) and a DLPack capsule
// ("dltensor", "dltensor_versioned"). Their rules and refusals live here and only here; the
// Python side turns the tuple into an ArrayView. In C++ because a call reads two to five
// arrays: the same reading in Python cost 4-15 us per array (the capsule through ctypes the
// most), here well under one.
//
// The tuple: (ptr, shape, strides, dtype, itemsize, device, device_id, stream, readonly, span):
// ptr the first element's address; shape and strides (in elements) tuples; dtype a name
// (float32, float16, bfloat16, ...); device DLPack's device type (CUDA for the interface);
// device_id None where the protocol does not say; stream the interface's v3 stream (None, or a
// handle: 1, the legacy default stream, becomes 0); readonly a bool; span the [first, last]
// byte addresses the array touches (None when empty), for overlap checks.
#pragma once

#include <pybind11/pybind11.h>

#include <climits>
#include <cstdint>
#include <string>
#include <utility>

namespace tessera::python {

namespace py = pybind11;

namespace protocols {

// ---- integers, as Python reads them: bools refused, __index__ taken, a range checked ---------

enum class Range { Signed, NonNegative, Unsigned };  // [-INT64_MAX, INT64_MAX], [0, INT64_MAX], [0, UINT64_MAX]

inline std::string type_name(py::handle v) { return py::str(py::handle(reinterpret_cast<PyObject*>(Py_TYPE(v.ptr()))).attr("__name__")); }
inline std::string repr_of(py::handle v) { return py::repr(v); }
inline std::string str_of(py::handle v) { return py::str(v); }

// `value` as an integer in `range`; `what` (a callable giving the message's subject) is only
// called to refuse. Unsigned values come back as their 64 bits.
template <class What>
std::uint64_t read_int(py::handle value, What&& what, Range range) {
  PyObject* v = value.ptr();
  if (PyBool_Check(v)) throw py::type_error(what() + " is a bool, not an integer");
  py::object owned;
  if (!PyLong_CheckExact(v)) {  // (an int subclass too: its value, as operator.index gives it, names it in refusals)
    PyObject* index = PyNumber_Index(v);
    if (index == nullptr) {
      if (!PyErr_ExceptionMatches(PyExc_TypeError)) throw py::error_already_set();
      PyErr_Clear();
      throw py::type_error(what() + " is " + type_name(value) + " " + repr_of(value) + ", not an integer");
    }
    owned = py::reinterpret_steal<py::object>(index);
    v = index;
  }
  int overflow = 0;
  const long long s = PyLong_AsLongLongAndOverflow(v, &overflow);
  if (overflow == 0 && s == -1 && PyErr_Occurred()) throw py::error_already_set();
  bool ok = false;
  std::uint64_t bits = static_cast<std::uint64_t>(s);
  switch (range) {
    case Range::Signed: ok = overflow == 0 && s != LLONG_MIN; break;
    case Range::NonNegative: ok = overflow == 0 && s >= 0; break;
    case Range::Unsigned:
      if (overflow == 0) ok = s >= 0;
      else if (overflow > 0) {
        bits = PyLong_AsUnsignedLongLong(v);
        ok = !(bits == ~std::uint64_t(0) && PyErr_Occurred());
        if (!ok) PyErr_Clear();
      }
      break;
  }
  if (!ok) {
    const char* bounds = range == Range::Signed        ? "[-9223372036854775807, 9223372036854775807]"
                         : range == Range::NonNegative ? "[0, 9223372036854775807]"
                                                       : "[0, 18446744073709551615]";
    throw py::value_error(what() + " = " + str_of(v) + " lies outside " + bounds);
  }
  return bits;
}

// Row-major strides in elements (what an absent `strides` means in both protocols), into
// `steps` and as a tuple.
inline py::tuple compact_strides(const std::int64_t* shape, Py_ssize_t rank, std::int64_t* steps) {
  py::tuple strides(rank);
  std::int64_t step = 1;
  for (Py_ssize_t i = rank - 1; i >= 0; --i) {
    steps[i] = step;
    PyTuple_SET_ITEM(strides.ptr(), i, PyLong_FromLongLong(step));
    step *= shape[i] > 1 ? shape[i] : 1;  // (wraps only past any real array, where the span is exact anyway)
  }
  return strides;
}

// [first, last]: the byte addresses the array touches, or None when it is empty (the overlap
// checks' input). Exact for any extents and strides: 128-bit arithmetic, and Python integers
// where even that would overflow.
inline py::object span_of(std::uint64_t ptr, const std::int64_t* shape, const std::int64_t* steps, Py_ssize_t rank,
                          std::int64_t itemsize) {
  for (Py_ssize_t i = 0; i < rank; ++i)
    if (shape[i] == 0) return py::none();
  __int128 lo = 0, hi = 0, first = 0, last = 0;
  bool overflow = false;
  for (Py_ssize_t i = 0; i < rank; ++i) {
    const __int128 reach = static_cast<__int128>(shape[i] - 1) * steps[i];  // |reach| < 2^126
    overflow = overflow || __builtin_add_overflow(steps[i] > 0 ? hi : lo, reach, steps[i] > 0 ? &hi : &lo);
  }
  overflow = overflow || __builtin_mul_overflow(lo, static_cast<__int128>(itemsize), &first) ||
             __builtin_add_overflow(first, static_cast<__int128>(ptr), &first) ||
             __builtin_add_overflow(hi, static_cast<__int128>(1), &last) ||
             __builtin_mul_overflow(last, static_cast<__int128>(itemsize), &last) ||
             __builtin_add_overflow(last, static_cast<__int128>(ptr) - 1, &last);
  auto fits = [](__int128 v) { return v >= INT64_MIN && v <= static_cast<__int128>(UINT64_MAX); };
  auto as_int = [](__int128 v) {
    return py::reinterpret_steal<py::object>(v <= INT64_MAX ? PyLong_FromLongLong(static_cast<long long>(v))
                                                            : PyLong_FromUnsignedLongLong(static_cast<unsigned long long>(v)));
  };
  if (!overflow && fits(first) && fits(last)) return py::make_tuple(as_int(first), as_int(last));
  py::object lo_p = py::int_(0), hi_p = py::int_(0);
  for (Py_ssize_t i = 0; i < rank; ++i) {
    const py::object reach = py::int_(shape[i] - 1) * py::int_(steps[i]);
    if (steps[i] > 0) hi_p = hi_p + reach;
    else lo_p = lo_p + reach;
  }
  const py::object p = py::reinterpret_steal<py::object>(PyLong_FromUnsignedLongLong(ptr)), size = py::int_(itemsize);
  return py::make_tuple(p + lo_p * size, p + (hi_p + py::int_(1)) * size - py::int_(1));
}

inline py::object int_or_none(bool present, std::uint64_t v) {
  return present ? py::reinterpret_steal<py::object>(PyLong_FromUnsignedLongLong(v)) : py::none();
}

constexpr int kMaxRank = 64;  // more modes than any array library allows
constexpr int kDLCuda = 2;    // DLPack's kDLCUDA: the memory the CUDA Array Interface describes

// ---- the CUDA Array Interface -------------------------------------------------------------------

// Python strings made once: the interface's keys (looked up by object, hash cached) and the
// dtype names a GEMM reads. Never released (module-lifetime constants).
inline PyObject* interned(const char* s) {
  PyObject* o = PyUnicode_InternFromString(s);
  if (o == nullptr) throw py::error_already_set();
  return o;
}
struct CaiKeys {
  PyObject *shape = interned("shape"), *typestr = interned("typestr"), *data = interned("data"),
           *version = interned("version"), *strides = interned("strides"), *mask = interned("mask"),
           *stream = interned("stream");
};
inline const CaiKeys& cai_keys() {
  static const CaiKeys* keys = new CaiKeys;
  return *keys;
}

// A name as a Python string; the common ones made once.
inline py::object dtype_object(const std::string& name) {
  static PyObject* const f16 = interned("float16");
  static PyObject* const f32 = interned("float32");
  static PyObject* const bf16 = interned("bfloat16");
  static PyObject* const f64 = interned("float64");
  for (PyObject* known : {f16, f32, bf16, f64})
    if (name == PyUnicode_AsUTF8(known)) return py::reinterpret_borrow<py::object>(known);
  return py::str(name);
}

// (dtype name, bytes) of a typestr. "<V2" (2 opaque little-endian bytes) is bfloat16: PyTorch
// (torch/_tensor.py's table, where <V2 is bfloat16 alone) and ml_dtypes (JAX) write bfloat16 so,
// numpy having no such type; numpy's own void type, "|V2" (no byte order), is not.
template <class What>
std::pair<std::string, std::int64_t> typestr_dtype(py::handle typestr, What&& what) {
  auto refuse = [&] {
    return py::value_error(what() + ": typestr " + repr_of(typestr) + " is not a numpy type string such as '<f4'");
  };
  if (!PyUnicode_Check(typestr.ptr())) throw refuse();
  Py_ssize_t n = 0;
  const char* s = PyUnicode_AsUTF8AndSize(typestr.ptr(), &n);
  if (s == nullptr) throw py::error_already_set();
  if (n < 3 || (s[0] != '<' && s[0] != '>' && s[0] != '|' && s[0] != '=')) throw refuse();
  const char order = s[0], kind = s[1];
  if (n - 2 > 9) throw refuse();
  std::int64_t bytes = 0;
  for (Py_ssize_t i = 2; i < n; ++i) {
    if (s[i] < '0' || s[i] > '9') throw refuse();
    bytes = 10 * bytes + (s[i] - '0');
  }
  if (order == '>' && bytes > 1)
    throw py::value_error(what() + ": typestr " + repr_of(typestr) + " is big-endian; GPU memory is little-endian");
  if (kind == 'V' && bytes == 2 && order != '|') return {"bfloat16", 2};
  const char* name = kind == 'f' ? "float" : kind == 'i' ? "int" : kind == 'u' ? "uint" : kind == 'c' ? "complex"
                     : kind == 'b'                                                   ? "bool"
                                                                                     : nullptr;
  if (name == nullptr || bytes == 0) return {std::string(s + 1, std::size_t(n - 1)), bytes > 1 ? bytes : 1};
  return {kind == 'b' ? std::string("bool") : name + std::to_string(8 * bytes), bytes};
}

// A tuple or list as a tuple (a list copied: reading its items calls __index__, which could
// change the list under the reader).
inline py::tuple as_tuple(py::handle seq) {
  if (PyTuple_Check(seq.ptr())) return py::reinterpret_borrow<py::tuple>(seq);
  return py::reinterpret_steal<py::tuple>(PyList_AsTuple(seq.ptr()));
}

inline py::handle cai_item(PyObject* cai, PyObject* key) {
  PyObject* v = PyDict_GetItemWithError(cai, key);  // borrowed; null when absent
  if (v == nullptr && PyErr_Occurred()) throw py::error_already_set();
  return v;
}

// The tuple (above) of a __cuda_array_interface__ dict; `what` names the array in refusals.
inline py::tuple read_cuda_array_interface(py::handle cai_h, py::handle what_h) {
  PyObject* cai = cai_h.ptr();
  const CaiKeys& key = cai_keys();
  auto what = [&] { return str_of(what_h); };
  if (!PyDict_Check(cai))
    throw py::type_error(what() + ": __cuda_array_interface__ is " + type_name(cai_h) + ", not a dict");
  for (PyObject* k : {key.shape, key.typestr, key.data})
    if (!cai_item(cai, k))
      throw py::value_error(what() + ": __cuda_array_interface__ has no '" + PyUnicode_AsUTF8(k) + "'");
  py::handle version_h = cai_item(cai, key.version);
  const std::uint64_t version =
      version_h ? read_int(version_h, [&] { return what() + ": __cuda_array_interface__['version']"; }, Range::NonNegative) : 0;
  if (version > 3)
    throw py::value_error(what() + ": __cuda_array_interface__ version " + std::to_string(version) +
                          " is newer than the 3 tessera reads");

  py::handle shape_item = cai_item(cai, key.shape);
  if (!PyTuple_Check(shape_item.ptr()) && !PyList_Check(shape_item.ptr()))
    throw py::type_error(what() + ": __cuda_array_interface__['shape'] is " + type_name(shape_item) + ", not a tuple");
  const py::tuple shape_in = as_tuple(shape_item);
  const Py_ssize_t rank = PyTuple_GET_SIZE(shape_in.ptr());
  if (rank > kMaxRank) throw py::value_error(what() + ": " + std::to_string(rank) + " modes are more than tessera reads");
  std::int64_t extents[kMaxRank], steps[kMaxRank];
  bool empty = false, plain = PyTuple_CheckExact(shape_in.ptr());  // plain: an exact tuple of exact ints
  for (Py_ssize_t i = 0; i < rank; ++i) {
    PyObject* e = PyTuple_GET_ITEM(shape_in.ptr(), i);
    plain = plain && PyLong_CheckExact(e);
    extents[i] = std::int64_t(read_int(e, [&] { return what() + ": shape[" + std::to_string(i) + "]"; }, Range::NonNegative));
    empty = empty || extents[i] == 0;
  }
  // The producer's tuple itself when it is one of plain ints (immutable: the same value).
  py::tuple shape = plain ? shape_in : py::tuple(rank);
  if (!plain)
    for (Py_ssize_t i = 0; i < rank; ++i) PyTuple_SET_ITEM(shape.ptr(), i, PyLong_FromLongLong(extents[i]));
  const auto [dtype, itemsize] = typestr_dtype(cai_item(cai, key.typestr), what);

  py::handle data_item = cai_item(cai, key.data);
  if ((!PyTuple_Check(data_item.ptr()) && !PyList_Check(data_item.ptr())) || PySequence_Fast_GET_SIZE(data_item.ptr()) != 2)
    throw py::value_error(what() + ": __cuda_array_interface__['data'] is " + repr_of(data_item) + ", not (pointer, read_only)");
  const py::tuple data = as_tuple(data_item);
  const std::uint64_t ptr = read_int(PyTuple_GET_ITEM(data.ptr(), 0), [&] { return what() + ": data pointer"; }, Range::Unsigned);
  const int readonly = PyObject_IsTrue(PyTuple_GET_ITEM(data.ptr(), 1));
  if (readonly < 0) throw py::error_already_set();
  if (py::handle mask = cai_item(cai, key.mask); mask && !mask.is_none())
    throw py::value_error(what() + ": masked arrays (__cuda_array_interface__['mask']) are not read");

  py::handle strides_item = cai_item(cai, key.strides);
  py::tuple strides;
  if (!strides_item || strides_item.is_none()) {
    strides = compact_strides(extents, rank, steps);
  } else {
    if ((!PyTuple_Check(strides_item.ptr()) && !PyList_Check(strides_item.ptr())) ||
        PySequence_Fast_GET_SIZE(strides_item.ptr()) != rank)
      throw py::value_error(what() + ": strides " + repr_of(strides_item) + " do not match shape " + repr_of(shape));
    const py::tuple strides_in = as_tuple(strides_item);
    strides = py::tuple(rank);
    for (Py_ssize_t i = 0; i < rank; ++i) {
      const auto s = std::int64_t(read_int(PyTuple_GET_ITEM(strides_in.ptr(), i),
                                           [&] { return what() + ": strides[" + std::to_string(i) + "]"; }, Range::Signed));
      if (s % itemsize != 0)
        throw py::value_error(what() + ": strides[" + std::to_string(i) + "] = " + std::to_string(s) +
                              " bytes is not a multiple of the " + std::to_string(itemsize) + "-byte " + dtype +
                              " elements");
      steps[i] = s / itemsize;
      PyTuple_SET_ITEM(strides.ptr(), i, PyLong_FromLongLong(steps[i]));
    }
  }

  // The v3 stream: None (no synchronisation asked), 1 (the legacy default stream, here 0), 2
  // (the per-thread default stream) or a cudaStream_t; 0 is forbidden (it would be ambiguous).
  bool has_stream = false;
  std::uint64_t stream = 0;
  if (version >= 3)
    if (py::handle s = cai_item(cai, key.stream); s && !s.is_none()) {
      stream = read_int(s, [&] { return what() + ": __cuda_array_interface__['stream']"; }, Range::Unsigned);
      if (stream == 0)
        throw py::value_error(what() + ": __cuda_array_interface__['stream'] is 0, which the interface forbids "
                                       "(1 is the legacy default stream, 2 the per-thread one)");
      has_stream = true;
      if (stream == 1) stream = 0;
    }
  if (ptr == 0 && !empty) throw py::value_error(what() + ": the data pointer is null for a non-empty array");
  return py::make_tuple(int_or_none(true, ptr), shape, strides, dtype_object(dtype), itemsize, kDLCuda, py::none(),
                        int_or_none(has_stream, stream), readonly != 0, span_of(ptr, extents, steps, rank, itemsize));
}

// ---- DLPack -------------------------------------------------------------------------------------

// dlpack.h's ABI (v1.x), the parts read here.
struct DLDevice {
  std::int32_t device_type, device_id;
};
struct DLDataType {
  std::uint8_t code, bits;
  std::uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;
  std::uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor*);
};
struct DLPackVersion {
  std::uint32_t major, minor;
};
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned*);
  std::uint64_t flags;
  DLTensor dl_tensor;
};
constexpr std::uint64_t kDLFlagReadOnly = 1;

// The tuple (above) of a DLPack capsule. The capsule is neither renamed nor released: the
// caller keeps it while the memory is used, and its destructor, the producer's, releases the
// tensor, as the protocol says an unconsumed capsule does.
inline py::tuple read_dlpack_capsule(py::handle capsule, py::handle what_h) {
  auto what = [&] { return str_of(what_h); };
  PyObject* c = capsule.ptr();
  if (!PyCapsule_CheckExact(c))
    throw py::type_error(what() + ": __dlpack__() returned " + type_name(capsule) + ", not a DLPack capsule");
  const DLTensor* t = nullptr;
  bool readonly = false;
  if (PyCapsule_IsValid(c, "dltensor")) {
    t = &static_cast<DLManagedTensor*>(PyCapsule_GetPointer(c, "dltensor"))->dl_tensor;
  } else if (PyCapsule_IsValid(c, "dltensor_versioned")) {
    const auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(c, "dltensor_versioned"));
    if (m->version.major != 1)
      throw py::value_error(what() + ": DLPack version " + std::to_string(m->version.major) + "." +
                            std::to_string(m->version.minor) + " is not 1.x");
    t = &m->dl_tensor;
    readonly = (m->flags & kDLFlagReadOnly) != 0;
  } else {
    const char* name = PyCapsule_GetName(c);
    PyErr_Clear();
    throw py::value_error(what() + ": a capsule named " + (name ? repr_of(py::bytes(name)) : std::string("None")) +
                          " is not an unconsumed DLPack tensor ('dltensor')");
  }
  const std::int32_t rank = t->ndim;
  if (rank < 0) throw py::value_error(what() + ": DLPack ndim = " + std::to_string(rank));
  if (rank > kMaxRank) throw py::value_error(what() + ": " + std::to_string(rank) + " modes are more than tessera reads");
  py::tuple shape(rank);
  bool negative = false;
  for (std::int32_t i = 0; i < rank; ++i) {
    negative = negative || t->shape[i] < 0;
    PyTuple_SET_ITEM(shape.ptr(), i, PyLong_FromLongLong(t->shape[i]));
  }
  if (negative) throw py::value_error(what() + ": DLPack shape " + repr_of(shape) + " has a negative extent");
  py::tuple strides;
  std::int64_t steps[kMaxRank];
  if (t->strides != nullptr) {
    strides = py::tuple(rank);
    for (std::int32_t i = 0; i < rank; ++i) {
      steps[i] = t->strides[i];
      PyTuple_SET_ITEM(strides.ptr(), i, PyLong_FromLongLong(t->strides[i]));
    }
  } else {
    strides = compact_strides(t->shape, rank, steps);
  }
  const DLDataType dt = t->dtype;
  if (dt.lanes != 1)
    throw py::value_error(what() + ": DLPack dtype with " + std::to_string(dt.lanes) + " lanes (vector elements) is not read");
  static const char* const codes[] = {"int", "uint", "float", nullptr, "bfloat", "complex"};
  std::string dtype;
  // DLPack 1.1's 8-bit floats, named as PyTorch and ml_dtypes name them: kDLFloat8_e4m3fn (10,
  // OCP e4m3: no infinities) and kDLFloat8_e5m2 (12), the two Hopper's wgmma reads. (Code 8,
  // kDLFloat8_e4m3, is IEEE-like e4m3 with infinities: another format, left by its code.)
  if (dt.code == 6) dtype = "bool";
  else if (dt.code == 10 && dt.bits == 8) dtype = "float8_e4m3fn";
  else if (dt.code == 12 && dt.bits == 8) dtype = "float8_e5m2";
  else if (dt.code < 6 && codes[dt.code] != nullptr) dtype = codes[dt.code] + std::to_string(dt.bits);
  else dtype = "code" + std::to_string(dt.code) + "_" + std::to_string(dt.bits);
  const int itemsize = (dt.bits + 7) / 8 > 1 ? (dt.bits + 7) / 8 : 1;
  const std::uint64_t ptr = reinterpret_cast<std::uintptr_t>(t->data) + t->byte_offset;
  return py::make_tuple(int_or_none(true, ptr), shape, strides, dtype_object(dtype), itemsize, t->device.device_type,
                        t->device.device_id, py::none(), readonly, span_of(ptr, t->shape, steps, rank, itemsize));
}

}  // namespace protocols

}  // namespace tessera::python
