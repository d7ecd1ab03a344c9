// AttentionArguments from the flat description tessera/_attention.py builds out of the arrays:
// a tuple of the fields kAttentionFields names, in that order (_core.ATTENTION_SPEC_FIELDS gives
// Python the same list). Shared by _core (check_arguments, no CUDA) and _gemm_cuda
// (can_implement and the launch), so that both read one description the same way.
#pragma once

#include <pybind11/pybind11.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <string>

#include "tessera/kernels/attention.hpp"

namespace tessera::python {

namespace py = pybind11;

enum AttentionField : int {
  kAttElement, kAttBatch, kAttHeads, kAttKvHeads, kAttHeadDim, kAttSeqlenQ, kAttSeqlenK,
  kAttQ, kAttK, kAttV, kAttO, kAttLse,
  kAttQStrides, kAttKStrides = kAttQStrides + 3, kAttVStrides = kAttKStrides + 3, kAttOStrides = kAttVStrides + 3,
  kAttCuQ = kAttOStrides + 3, kAttCuK, kAttTotalQ, kAttTotalK, kAttScale, kAttCausal,
  kAttGrid, kAttPersistentCtas, kAttWorkspace, kAttWorkspaceBytes,
  kAttFieldCount
};
inline constexpr const char* kAttentionFields[kAttFieldCount] = {
    "element", "batch", "heads", "kv_heads", "head_dim", "seqlen_q", "seqlen_k",
    "q_ptr", "k_ptr", "v_ptr", "o_ptr", "lse_ptr",
    "q_batch_stride", "q_row_stride", "q_head_stride", "k_batch_stride", "k_row_stride", "k_head_stride",
    "v_batch_stride", "v_row_stride", "v_head_stride", "o_batch_stride", "o_row_stride", "o_head_stride",
    "cu_seqlens_q_ptr", "cu_seqlens_k_ptr", "total_q", "total_k", "softmax_scale", "causal",
    "grid", "persistent_ctas", "workspace_ptr", "workspace_bytes"};

inline py::tuple attention_field_names() {
  py::tuple names(static_cast<int>(kAttFieldCount));
  for (int i = 0; i < kAttFieldCount; ++i) names[i] = py::str(kAttentionFields[i]);
  return names;
}

struct AttentionSpecReader {
  PyObject* spec;

  PyObject* item(int f) const { return PyTuple_GET_ITEM(spec, f); }
  [[noreturn]] void wrong(int f, const std::string& kind) const {
    PyErr_Clear();
    throw py::type_error(std::string("attention description: ") + kAttentionFields[f] + " is not " + kind);
  }
  long long integer(int f) const {
    const long long v = PyLong_AsLongLong(item(f));
    if (v == -1 && PyErr_Occurred()) wrong(f, "a 64-bit integer");
    return v;
  }
  // The C++ API's int fields: a value beyond int is refused, never truncated.
  int small(int f) const {
    const long long v = integer(f);
    if (v < INT_MIN || v > INT_MAX)
      throw py::value_error(std::string("tessera.attention: ") + kAttentionFields[f] + " = " + std::to_string(v) +
                            " does not fit in the C++ API's int");
    return static_cast<int>(v);
  }
  const char* text(int f) const {
    const char* s = PyUnicode_Check(item(f)) ? PyUnicode_AsUTF8(item(f)) : nullptr;
    if (s == nullptr) wrong(f, "a string");
    return s;
  }
  const void* pointer(int f) const {
    const unsigned long long v = PyLong_AsUnsignedLongLong(item(f));
    if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) wrong(f, "an address");
    return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(v));
  }
};

// AttentionGrid by the names Python gives it (tessera.attention's `grid`).
inline constexpr const char* kAttentionGrids[3] = {"auto", "persistent", "per_tile"};

inline tessera::kernels::AttentionGrid attention_grid_of(const char* name) {
  namespace k = tessera::kernels;
  if (std::strcmp(name, "auto") == 0) return k::AttentionGrid::Auto;
  if (std::strcmp(name, "persistent") == 0) return k::AttentionGrid::Persistent;
  if (std::strcmp(name, "per_tile") == 0) return k::AttentionGrid::PerTile;
  throw py::value_error(std::string("tessera.attention: grid = '") + name + "' is none of 'auto', 'persistent', 'per_tile'");
}

inline tessera::kernels::AttentionArguments attention_arguments_of(py::handle spec) {
  namespace k = tessera::kernels;
  if (!PyTuple_Check(spec.ptr()) || PyTuple_GET_SIZE(spec.ptr()) != kAttFieldCount)
    throw py::type_error("attention description: a tuple of the " + std::to_string(int(kAttFieldCount)) +
                         " fields of ATTENTION_SPEC_FIELDS");
  const AttentionSpecReader r{spec.ptr()};
  k::AttentionArguments a;
  const char* e = r.text(kAttElement);
  if (std::strcmp(e, "bf16") == 0) a.element = k::AttentionElement::BF16;
  else if (std::strcmp(e, "f16") == 0) a.element = k::AttentionElement::F16;
  else throw py::value_error(std::string("unknown attention element '") + e + "'");
  a.batch = r.small(kAttBatch);
  a.heads = r.small(kAttHeads);
  a.kv_heads = r.small(kAttKvHeads);
  a.head_dim = r.small(kAttHeadDim);
  a.seqlen_q = r.small(kAttSeqlenQ);
  a.seqlen_k = r.small(kAttSeqlenK);
  a.q = r.pointer(kAttQ);
  a.k = r.pointer(kAttK);
  a.v = r.pointer(kAttV);
  a.o = const_cast<void*>(r.pointer(kAttO));
  a.lse = static_cast<float*>(const_cast<void*>(r.pointer(kAttLse)));
  std::int64_t* strides[4][3] = {{&a.q_batch_stride, &a.q_row_stride, &a.q_head_stride},
                                 {&a.k_batch_stride, &a.k_row_stride, &a.k_head_stride},
                                 {&a.v_batch_stride, &a.v_row_stride, &a.v_head_stride},
                                 {&a.o_batch_stride, &a.o_row_stride, &a.o_head_stride}};
  for (int t = 0; t < 4; ++t)
    for (int i = 0; i < 3; ++i) *strides[t][i] = r.integer(kAttQStrides + 3 * t + i);
  a.cu_seqlens_q = static_cast<const int*>(r.pointer(kAttCuQ));
  a.cu_seqlens_k = static_cast<const int*>(r.pointer(kAttCuK));
  a.total_q = r.small(kAttTotalQ);
  a.total_k = r.small(kAttTotalK);
  const double scale = PyFloat_AsDouble(r.item(kAttScale));
  if (scale == -1.0 && PyErr_Occurred()) r.wrong(kAttScale, "a real number");
  a.softmax_scale = static_cast<float>(scale);
  if (!PyBool_Check(r.item(kAttCausal))) r.wrong(kAttCausal, "a bool");
  a.mask = r.item(kAttCausal) == Py_True ? k::AttentionMask::Causal : k::AttentionMask::None;
  a.grid = attention_grid_of(r.text(kAttGrid));
  a.persistent_ctas = r.small(kAttPersistentCtas);
  a.workspace = const_cast<void*>(r.pointer(kAttWorkspace));
  const long long workspace_bytes = r.integer(kAttWorkspaceBytes);
  if (workspace_bytes < 0) throw py::value_error("tessera.attention: workspace_bytes = " + std::to_string(workspace_bytes) + " < 0");
  a.workspace_bytes = static_cast<std::size_t>(workspace_bytes);
  return a;
}

// (status, message): ("", "") for success, else the C++ status's name and reason.
inline py::tuple attention_status_tuple(const tessera::kernels::AttentionResult& r) {
  return py::make_tuple(r ? "" : tessera::kernels::to_string(r.status), r.message);
}

// check_arguments on a description: (status, message).
inline py::tuple check_attention_arguments(py::handle spec) {
  return attention_status_tuple(tessera::kernels::check_arguments(attention_arguments_of(spec)));
}

}  // namespace tessera::python
