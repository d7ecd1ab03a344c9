// The sinks of an epilogue tree: nodes that pass their child's value on unchanged and also
// write it somewhere.
//   AuxStore<T, Child>             D_aux(m, n) = T(child): an (M, N) matrix beside D (e.g. the
//                                  pre-activation a backward pass needs)
//   RowReduction<Op, Child>        r[n] = Op over the rows m of column n: a row vector (N)
//   ColumnReduction<Op, Child>     r[m] = Op over the columns n of row m: a column vector (M)
//   ScalarReduction<Op, Child[, Presence]>  r = Op over every element (e.g. amax for FP8 output
//                                  scaling; Presence::Optional: a null result pointer reduces nothing)
// (Row and Column name the result's shape, as RowBroadcast / ColumnBroadcast name the vector
// read: a RowReduction's result is what a RowBroadcast reads.)
// Reductions, in f32, one result per batch (batch_stride floats apart; 0: one for all batches):
//   absolute_maximum   max |x|         atomic max of the bits of |x| (non-negative floats order
//                                      as their bits): exact and the same whatever the order;
//                                      NaN wins (its bits exceed infinity's)
//   maximum_value      max x           max.NaN in registers; an atomic max of the bits where
//                                      x >= 0, an atomic min of the unsigned bits where x < 0
//                                      (floats of one sign order as those): the same whatever the
//                                      order (up to the sign of a zero); a NaN is stored as the
//                                      positive NaN 0x7fffffff, and so wins (NaN propagates)
//   sum                sum x           atomic adds: the order of the additions, and so the
//                                      rounding, changes from run to run (not deterministic)
// A reduction combines into what its output holds: set it to the identity before the launch
// (0 for absolute_maximum and sum, -inf for maximum_value), or keep a running value across
// launches (a running amax).
// Where a reduction combines: each thread keeps a partial per column it holds (RowReduction),
// per row (ColumnReduction) or one (ScalarReduction) in registers over the tile's elements
// (State); at the tile's end the lanes of a warp that hold the same column (row) meet by
// shuffles (the lanes the TileFrame names, from the accumulator partition's thread layout; all
// 32 lanes for a scalar), and one lane per group issues one atomic per column (row, scalar):
// an atomic per warp and column, row or tile instead of one per element.
#pragma once

#include <cmath>
#include <limits>

#include "tessera/kernels/epilogue_tree/node.hpp"

namespace tessera::kernels::tree {

// A reduction op: the value an element contributes (element), two contributions combined (of,
// associative and commutative), its identity, and combine(r, v): v into *r, atomically on the
// device.
struct absolute_maximum {
  static constexpr const char* name = "absolute_maximum";
  static constexpr float identity = 0.0f;
  TESSERA_HOST_DEVICE TESSERA_INLINE static float element(float x) { return ::fabsf(x); }
  // non-negative floats order as their bits, as signed 32-bit integers too (NaN's exceed
  // infinity's): the device's atomicMax on the bits
  TESSERA_HOST_DEVICE TESSERA_INLINE static float of(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __int_as_float(::max(__float_as_int(a), __float_as_int(b)));  // (one integer max)
#else
    return std::int32_t(tessera::detail::float_bits(a)) < std::int32_t(tessera::detail::float_bits(b)) ? b : a;
#endif
  }
  TESSERA_HOST_DEVICE TESSERA_INLINE static void combine(float* r, float v) {
#if defined(__CUDA_ARCH__)
    atomicMax(reinterpret_cast<int*>(r), __float_as_int(v));
#else
    *r = of(*r, v);
#endif
  }
};
struct maximum_value {
  static constexpr const char* name = "maximum_value";
  static constexpr float identity = -std::numeric_limits<float>::infinity();
  TESSERA_HOST_DEVICE TESSERA_INLINE static float element(float x) { return x; }
  // (on the device max.NaN: one instruction, a NaN operand gives the canonical NaN; the host's
  // keeps the NaN operand; both are the larger operand otherwise, up to the sign of a zero)
  TESSERA_HOST_DEVICE TESSERA_INLINE static float of(float a, float b) {
#if defined(__CUDA_ARCH__)
    float r;
    asm("max.NaN.f32 %0, %1, %2;\n" : "=f"(r) : "f"(a), "f"(b));
    return r;
#else
    return a != a ? a : b != b ? b : a < b ? b : a;
#endif
  }
  TESSERA_HOST_DEVICE TESSERA_INLINE static void combine(float* r, float v) {
#if defined(__CUDA_ARCH__)
    // non-negative floats order as their bits as signed integers, negative ones reversed as
    // unsigned integers, and every non-negative pattern is below every negative one unsigned:
    // max on the signed bits for v >= 0, min on the unsigned bits for v < 0 (one atomic, no loop)
    if (v != v) v = __int_as_float(0x7fffffff);  // any NaN as the largest positive pattern: it wins
    if (__float_as_int(v) >= 0) atomicMax(reinterpret_cast<int*>(r), __float_as_int(v));
    else atomicMin(reinterpret_cast<unsigned int*>(r), __float_as_uint(v));
#else
    *r = of(*r, v);
#endif
  }
};
struct sum {
  static constexpr const char* name = "sum";
  static constexpr float identity = 0.0f;
  TESSERA_HOST_DEVICE TESSERA_INLINE static float element(float x) { return x; }
  TESSERA_HOST_DEVICE TESSERA_INLINE static float of(float a, float b) { return a + b; }
  TESSERA_HOST_DEVICE TESSERA_INLINE static void combine(float* r, float v) {
#if defined(__CUDA_ARCH__)
    atomicAdd(r, v);
#else
    *r += v;
#endif
  }
};

template <class T, class Child>
struct AuxStore {
  struct Arguments {
    Arguments() = default;
    Arguments(T* ptr_, std::int64_t stride_m_, std::int64_t stride_n_, std::int64_t batch_stride_,
              typename Child::Arguments const& child_ = {})
        : ptr(ptr_), stride_m(stride_m_), stride_n(stride_n_), batch_stride(batch_stride_), child(child_) {}
    T* ptr = nullptr;
    std::int64_t stride_m = 0, stride_n = 0, batch_stride = 0;  // elements
    typename Child::Arguments child;
  };
  // (the strides also in bytes: an element's address is the origin's plus constant multiples
  // of them, no scaling per element)
  struct Params {
    T* ptr;
    std::int64_t stride_m, stride_n, batch_stride;
    std::int64_t stride_m_bytes, stride_n_bytes;
    typename Child::Params child;
  };
  // The byte offset of the frame's origin (m0, n0) of batch l, once per tile (never dereferenced
  // itself).
  template <int Rows, int Cols>
  struct State {
    std::int64_t origin = 0;
    typename Child::template State<Rows, Cols> child;
  };
  static GemmResult can_implement(TreeShape const& s, Arguments const& a, std::string const& at) {
    if (auto r = detail::check_matrix<T>(s, a.ptr, a.stride_m, a.stride_n, a.batch_stride, at, "AuxStore"); !r) return r;
    if (s.l > 1 && a.batch_stride < (a.stride_m == 1 ? a.stride_n * s.n : a.stride_m * s.m))
      return detail::refuse(GemmStatus::InvalidBatchStride, at, "AuxStore",
                            "batch_stride " + std::to_string(a.batch_stride) + " makes the batches' matrices overlap");
    // the kernel addresses elements in bytes: the last byte offset fits too
    std::int64_t last = 0, last_bytes = 0;
    if (!detail::offset_fits(last, s.m, a.stride_m) || !detail::offset_fits(last, s.n, a.stride_n) ||
        !detail::offset_fits(last, s.l, a.batch_stride) || __builtin_mul_overflow(last + 1, std::int64_t(sizeof(T)), &last_bytes))
      return detail::refuse(GemmStatus::Overflow, at, "AuxStore", "the matrix's last byte offset does not fit in 64 bits");
    return Child::can_implement(s, a.child, detail::child_at(at, 0));
  }
  static std::size_t workspace_size(TreeShape const& s, Arguments const& a) { return Child::workspace_size(s, a.child); }
  static Params to_underlying_arguments(TreeShape const& s, Arguments const& a, void* workspace) {
    // (can_implement bounded the last offset in bytes)
    const auto bytes = std::int64_t(sizeof(T));
    return {a.ptr, a.stride_m, a.stride_n, a.batch_stride, a.stride_m * bytes, a.stride_n * bytes,
            Child::to_underlying_arguments(s, a.child, workspace)};
  }
  template <class Frame>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void begin_tile(Params const& p, State<Frame::rows, Frame::cols>& s, Frame const& f) {
    s.origin = (f.l * p.batch_stride + f.m0 * p.stride_m + f.n0 * p.stride_n) * std::int64_t(sizeof(T));
    Child::begin_tile(p.child, s.child, f);
  }
  // (the element's byte offset from the origin: constant multiples of the byte strides)
  template <class S>
  TESSERA_HOST_DEVICE TESSERA_INLINE static float visit(Params const& p, S& s, TreeCoord const& c, float acc) {
    const float x = Child::visit(p.child, s.child, c, acc);
    const std::int64_t at = s.origin + std::int64_t(c.dm) * p.stride_m_bytes + std::int64_t(c.dn) * p.stride_n_bytes;
    *reinterpret_cast<T*>(reinterpret_cast<char*>(p.ptr) + at) = from_float<T>(x);
    return x;
  }
  template <class Frame>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void end_tile(Params const& p, State<Frame::rows, Frame::cols>& s, Frame const& f) {
    Child::end_tile(p.child, s.child, f);
  }
};

namespace detail {
// x combined by Op with the x of the lanes of this warp whose index differs from this one's by
// XOR with bits of `lanes` (the same mask in every lane; on the host, a frame is one thread's
// and nothing is shared).
template <class Op>
TESSERA_HOST_DEVICE TESSERA_INLINE float over_lanes(float x, unsigned lanes) {
#if defined(__CUDA_ARCH__)
#pragma unroll
  for (unsigned b = 1; b < 32u; b *= 2u)
    if ((lanes & b) != 0u) x = Op::of(x, __shfl_xor_sync(0xffffffffu, x, int(b)));
#else
  (void)lanes;
#endif
  return x;
}
// This lane speaks for its group (the lanes over_lanes combined): none of `lanes`' bits set.
TESSERA_HOST_DEVICE TESSERA_INLINE bool lane_leads(unsigned lanes) {
#if defined(__CUDA_ARCH__)
  return (threadIdx.x & 31u & lanes) == 0u;
#else
  (void)lanes;
  return true;
#endif
}
// Where a reduction's element lands: r[n] (Row), r[m] (Column), r (Scalar).
enum class Reduced { Row, Column, Scalar };
template <Reduced R, class Op, class Child, Presence P = Presence::Required>
struct Reduction {
  struct Arguments {
    Arguments() = default;
    Arguments(float* ptr_, std::int64_t batch_stride_ = 0, typename Child::Arguments const& child_ = {})
        : ptr(ptr_), batch_stride(batch_stride_), child(child_) {}
    float* ptr = nullptr;
    std::int64_t batch_stride = 0;  // floats (0: one result for every batch)
    typename Child::Arguments child;
  };
  struct Params {
    float* ptr;
    std::int64_t batch_stride;
    typename Child::Params child;
  };
  // The thread's partials over its elements of the tile: one per column it holds (Row), per row
  // (Column), one (Scalar).
  template <int Rows, int Cols>
  struct State {
    static constexpr int slots = R == Reduced::Row ? Cols : R == Reduced::Column ? Rows : 1;
    float partial[slots] = {};
    typename Child::template State<Rows, Cols> child;
  };
  static constexpr const char* name =
      R == Reduced::Row ? "RowReduction" : R == Reduced::Column ? "ColumnReduction" : "ScalarReduction";
  static std::int64_t length(TreeShape const& s) { return R == Reduced::Row ? s.n : R == Reduced::Column ? s.m : 1; }
  static GemmResult can_implement(TreeShape const& s, Arguments const& a, std::string const& at) {
    if (P == Presence::Optional && a.ptr == nullptr) return Child::can_implement(s, a.child, child_at(at, 0));
    if (auto r = check_vector<float>(s, a.ptr, length(s), a.batch_stride, at, name,
                                     R == Reduced::Row ? "N" : R == Reduced::Column ? "M" : "1");
        !r)
      return r;
    if (s.l > 1 && a.batch_stride != 0 && a.batch_stride < length(s))
      return refuse(GemmStatus::InvalidBatchStride, at, name,
                    "batch_stride " + std::to_string(a.batch_stride) + " makes the batches' results overlap (0: one for all)");
    return Child::can_implement(s, a.child, child_at(at, 0));
  }
  static std::size_t workspace_size(TreeShape const& s, Arguments const& a) { return Child::workspace_size(s, a.child); }
  static Params to_underlying_arguments(TreeShape const& s, Arguments const& a, void* workspace) {
    return {a.ptr, a.batch_stride, Child::to_underlying_arguments(s, a.child, workspace)};
  }
  template <class Frame>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void begin_tile(Params const& p, State<Frame::rows, Frame::cols>& s, Frame const& f) {
#pragma unroll
    for (int i = 0; i < State<Frame::rows, Frame::cols>::slots; ++i) s.partial[i] = Op::identity;
    Child::begin_tile(p.child, s.child, f);
  }
  template <class S>
  TESSERA_HOST_DEVICE TESSERA_INLINE static float visit(Params const& p, S& s, TreeCoord const& c, float acc) {
    const float x = Child::visit(p.child, s.child, c, acc);
    const int i = R == Reduced::Row ? c.col : R == Reduced::Column ? c.row : 0;
    s.partial[i] = Op::of(s.partial[i], Op::element(x));
    return x;
  }
  // The partials of the lanes that share a slot meet by shuffles; the lane of the group whose
  // index has none of the shared bits issues the slot's atomic, inside the problem only.
  template <class Frame>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void end_tile(Params const& p, State<Frame::rows, Frame::cols>& s, Frame const& f) {
    Child::end_tile(p.child, s.child, f);
    if constexpr (P == Presence::Optional)
      if (p.ptr == nullptr) return;  // (the same for every thread: no lane waits on a shuffle)
    float* out = p.ptr + f.l * p.batch_stride;
    if constexpr (R == Reduced::Scalar) {
      const float x = over_lanes<Op>(s.partial[0], 31u);  // every lane's elements differ
      if (lane_leads(31u)) Op::combine(out, x);
    } else {
      const unsigned lanes = R == Reduced::Row ? f.same_columns : f.same_rows;
#pragma unroll
      for (int i = 0; i < State<Frame::rows, Frame::cols>::slots; ++i) {
        const float x = over_lanes<Op>(s.partial[i], lanes);
        const bool in = R == Reduced::Row ? f.col_inside(i) : f.row_inside(i);
        if (in && lane_leads(lanes)) Op::combine(out + (R == Reduced::Row ? f.n(i) : f.m(i)), x);
      }
    }
  }
};
}  // namespace detail

template <class Op, class Child>
struct RowReduction : detail::Reduction<detail::Reduced::Row, Op, Child> {};
template <class Op, class Child>
struct ColumnReduction : detail::Reduction<detail::Reduced::Column, Op, Child> {};
// (Presence::Optional: a null ptr is admitted and the reduction writes nothing)
template <class Op, class Child, Presence P = Presence::Required>
struct ScalarReduction : detail::Reduction<detail::Reduced::Scalar, Op, Child, P> {};

}  // namespace tessera::kernels::tree
