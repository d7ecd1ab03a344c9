// The leaves of an epilogue tree: what an element's value is computed from.
//   Accumulator          the element's f32 accumulator (sum_k A(m, k) B(k, n))
//   SourceC<T>           C(m, n) of batch l, an (M, N) matrix of T
//   Scalar<T>            one value for the whole problem: given, or read from device memory
//                        (e.g. alpha, FP8 scales a quantization step wrote; per batch with a
//                        batch stride)
//   RowBroadcast<T>      v[n]: a row vector (N elements) repeated down the rows (a bias per
//                        output feature when D = x W^T, a per-column scale)
//   ColumnBroadcast<T>   v[m]: a column vector (M elements) repeated across the columns (a
//                        per-row scale or bias)
//   Constant<Num, Den>   Num / Den, known at compile time (0, 1, 448: e4m3's largest value)
// Broadcast vectors and scalar pointers: one per batch, batch_stride elements apart (0: one for
// every batch).
// Cost per tile and thread: a Scalar in memory is one load (begin_tile), a broadcast one load per
// row (ColumnBroadcast) or column (RowBroadcast) the thread holds, kept in registers (State);
// an element's visit reads registers only. SourceC loads per element (its offset at the
// thread's origin computed once per tile).
#pragma once

#include "tessera/kernels/epilogue_tree/node.hpp"

namespace tessera::kernels::tree {

struct Accumulator : Stateless {
  struct Arguments {};
  struct Params {};
  static GemmResult can_implement(TreeShape const&, Arguments const&, std::string const&) { return {}; }
  static std::size_t workspace_size(TreeShape const&, Arguments const&) { return 0; }
  static Params to_underlying_arguments(TreeShape const&, Arguments const&, void*) { return {}; }
  TESSERA_HOST_DEVICE TESSERA_INLINE static float visit(Params const&, NoState&, TreeCoord const&, float acc) { return acc; }
};

template <int Num, int Den = 1>
struct Constant : Stateless {
  static_assert(Den != 0, "Constant<Num, Den>: Den is not 0");
  struct Arguments {};
  struct Params {};
  static constexpr float value = float(Num) / float(Den);
  static GemmResult can_implement(TreeShape const&, Arguments const&, std::string const&) { return {}; }
  static std::size_t workspace_size(TreeShape const&, Arguments const&) { return 0; }
  static Params to_underlying_arguments(TreeShape const&, Arguments const&, void*) { return {}; }
  TESSERA_HOST_DEVICE TESSERA_INLINE static float visit(Params const&, NoState&, TreeCoord const&, float) { return value; }
};

// `value`, or *ptr (per batch: ptr[l * batch_stride]) where ptr is set: read once per tile.
template <class T = float>
struct Scalar {
  struct Arguments {
    float value = 0.0f;
    const T* ptr = nullptr;
    std::int64_t batch_stride = 0;
  };
  using Params = Arguments;
  static GemmResult can_implement(TreeShape const& s, Arguments const& a, std::string const& at) {
    if (a.ptr == nullptr) return {};
    return detail::check_vector<T>(s, a.ptr, 1, a.batch_stride, at, "Scalar", "1");
  }
  static std::size_t workspace_size(TreeShape const&, Arguments const&) { return 0; }
  static Params to_underlying_arguments(TreeShape const&, Arguments const& a, void*) { return a; }
  template <int Rows, int Cols>
  struct State {
    float value = 0.0f;
  };
  template <class Frame>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void begin_tile(Params const& p, State<Frame::rows, Frame::cols>& s, Frame const& f) {
    s.value = p.ptr != nullptr ? to_float(p.ptr[f.l * p.batch_stride]) : p.value;
  }
  template <class S>
  TESSERA_HOST_DEVICE TESSERA_INLINE static float visit(Params const&, S const& s, TreeCoord const&, float) {
    return s.value;
  }
  template <class S, class Frame>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void end_tile(Params const&, S&, Frame const&) {}
};

namespace detail {
// A vector along one mode of D: v[m] (AlongM) or v[n]. The thread's rows' (columns') values
// are loaded at the tile's start; an element reads its row's (column's) register.
template <class T, bool AlongM>
struct Broadcast {
  struct Arguments {
    const T* ptr = nullptr;
    std::int64_t batch_stride = 0;
  };
  using Params = Arguments;
  static constexpr const char* name = AlongM ? "ColumnBroadcast" : "RowBroadcast";
  static GemmResult can_implement(TreeShape const& s, Arguments const& a, std::string const& at) {
    return check_vector<T>(s, a.ptr, AlongM ? s.m : s.n, a.batch_stride, at, name, AlongM ? "M" : "N");
  }
  static std::size_t workspace_size(TreeShape const&, Arguments const&) { return 0; }
  static Params to_underlying_arguments(TreeShape const&, Arguments const& a, void*) { return a; }
  template <int Rows, int Cols>
  struct State {
    float v[AlongM ? Rows : Cols] = {};
  };
  template <class Frame>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void begin_tile(Params const& p, State<Frame::rows, Frame::cols>& s, Frame const& f) {
    const T* base = p.ptr + f.l * p.batch_stride;
    constexpr int slots = AlongM ? Frame::rows : Frame::cols;
    // (loads predicated on the problem: a residue tile's rows or columns past it are not read)
#pragma unroll
    for (int i = 0; i < slots; ++i) {
      const bool in = AlongM ? f.row_inside(i) : f.col_inside(i);
      s.v[i] = in ? to_float(base[AlongM ? f.m(i) : f.n(i)]) : 0.0f;
    }
  }
  template <class S>
  TESSERA_HOST_DEVICE TESSERA_INLINE static float visit(Params const&, S const& s, TreeCoord const& c, float) {
    return s.v[AlongM ? c.row : c.col];
  }
  template <class S, class Frame>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void end_tile(Params const&, S&, Frame const&) {}
};
}  // namespace detail

template <class T>
struct RowBroadcast : detail::Broadcast<T, false> {};
template <class T>
struct ColumnBroadcast : detail::Broadcast<T, true> {};

// Register-only leaves (node.hpp): the accumulator, a constant, a scalar (read in begin_tile),
// a broadcast (its held values read in begin_tile, 0 at slots past the problem). SourceC loads
// per element: not register-only.
template <>
struct registers_only<Accumulator> : std::true_type {};
template <int Num, int Den>
struct registers_only<Constant<Num, Den>> : std::true_type {};
template <class T>
struct registers_only<Scalar<T>> : std::true_type {};
template <class T>
struct registers_only<RowBroadcast<T>> : std::true_type {};
template <class T>
struct registers_only<ColumnBroadcast<T>> : std::true_type {};

// C(m, n): the thread's offset at its frame's origin computed once per tile; an element adds its
// offset from there (constant multiples of the strides) and loads. Presence::Optional: a null
// pointer is admitted and reads 0.
template <class T, Presence P = Presence::Required>
struct SourceC {
  struct Arguments {
    const T* ptr = nullptr;
    std::int64_t stride_m = 0, stride_n = 0, batch_stride = 0;  // elements
  };
  using Params = Arguments;
  static GemmResult can_implement(TreeShape const& s, Arguments const& a, std::string const& at) {
    if (P == Presence::Optional && a.ptr == nullptr) return {};
    return detail::check_matrix<T>(s, a.ptr, a.stride_m, a.stride_n, a.batch_stride, at, "SourceC");
  }
  static std::size_t workspace_size(TreeShape const&, Arguments const&) { return 0; }
  static Params to_underlying_arguments(TreeShape const&, Arguments const& a, void*) { return a; }
  template <int Rows, int Cols>
  struct State {
    std::int64_t origin = 0;  // the offset of (m0, n0) of batch l (never dereferenced itself)
  };
  template <class Frame>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void begin_tile(Params const& p, State<Frame::rows, Frame::cols>& s, Frame const& f) {
    s.origin = f.l * p.batch_stride + f.m0 * p.stride_m + f.n0 * p.stride_n;
  }
  template <class S>
  TESSERA_HOST_DEVICE TESSERA_INLINE static float visit(Params const& p, S const& s, TreeCoord const& c, float) {
    if constexpr (P == Presence::Optional)
      if (p.ptr == nullptr) return 0.0f;
    return to_float(p.ptr[s.origin + std::int64_t(c.dm) * p.stride_m + std::int64_t(c.dn) * p.stride_n]);
  }
  template <class S, class Frame>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void end_tile(Params const&, S&, Frame const&) {}
};

}  // namespace tessera::kernels::tree
