// What every node of an epilogue tree shares: the problem it runs over, the coordinate of the
// element it is evaluated at, the part of a tile one thread holds, how children are held, and
// the checks of its arguments.
//
// A node is a type with
//   Arguments                                   what the user passes at run time
//   Params                                      what the kernel reads (trivially copyable)
//   can_implement(shape, arguments, at)         GemmResult: ok, or what is wrong with the node at `at`
//   workspace_size(shape, arguments)            bytes of device workspace it needs (every node here: 0)
//   to_underlying_arguments(shape, arguments, workspace) -> Params
//   State<Rows, Cols>                           what a thread keeps across one tile's elements, for a
//                                               thread that holds Rows rows and Cols columns of the
//                                               tile (registers: a broadcast's values at those rows or
//                                               columns, a reduction's partials; NoState for most nodes)
//   begin_tile(params, state, frame)            before a thread's first element of a tile: frame
//                                               (TileFrame) names its rows and columns, so that a
//                                               node loads once per tile what its elements share
//   visit(params, state, coord, acc)            its value at D(coord.m, coord.n) of batch coord.l,
//                                               given that element's accumulator (host and device);
//                                               coord.row / coord.col: the element's row and column
//                                               among the frame's
//   end_tile(params, state, frame)              after a thread's last element of a tile (every thread
//                                               of the warp together, on the device: reductions meet
//                                               across the lanes the frame names)
// Stateless gives the State, begin_tile and end_tile of a node that keeps nothing.
// `at` is the node's position from the root ("root", "root.1", "root.1.0": child 1, then its
// child 0), so that a refusal names the node. The epilogue visits a tree only at elements inside
// the problem (a residue tile's elements past M or N are never visited), so leaves read and
// sinks write only there -- except a register-only tree (registers_only, below), which may be
// evaluated anywhere and its value dropped; begin_tile reads only rows and columns inside the
// problem.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "tessera/atom/numeric.hpp"
#include "tessera/config.hpp"
#include "tessera/kernels/gemm_arguments.hpp"

namespace tessera::kernels::tree {

// D's extent: M rows, N columns, L batches.
struct TreeShape {
  std::int64_t m = 0, n = 0, l = 1;
};
// One element of D: row m, column n, batch l (global: the tile's origin included); row and col:
// its slots in the visiting thread's TileFrame, dm and dn its offsets from the frame's origin
// (m = m0 + dm, n = n0 + dn; compile-time constants on the device, so that a node addressing a
// matrix adds constant multiples of its strides to an offset it computed once per tile; all 0
// where a frame holds one element).
struct TreeCoord {
  std::int64_t m = 0, n = 0, l = 0;
  int row = 0, col = 0;
  int dm = 0, dn = 0;
};
TESSERA_HOST_DEVICE inline bool inside(TreeShape const& s, TreeCoord const& c) {
  return c.m >= 0 && c.m < s.m && c.n >= 0 && c.n < s.n && c.l >= 0 && c.l < s.l;
}

// The part of a tile one thread holds: the elements (m(i), n(j)) for its Rows row slots i and
// Cols column slots j (every pair of them, inside the problem or not: begin_tile reads at a slot
// only where row_inside(i) / col_inside(j)), batch l. A slot is an offset (dm[i], dn[j]) from the
// thread's origin (m0, n0): on the device the offsets are compile-time constants (the C
// partition of thread 0), so a slot's coordinate and its residue test cost an immediate, not a
// register per slot. On the device, the lanes of the thread's warp that hold the same columns
// are those whose lane index differs from its own by XOR with bits of same_columns (a column's
// values are spread over them), likewise same_rows: the accumulator partition's thread layout
// gives both (tree/fragment.hpp). 0: no other lane shares (the host's emulation, or a frame of
// one thread's whole tile).
template <int Rows, int Cols>
struct TileFrame {
  static_assert(Rows >= 1 && Cols >= 1, "TileFrame<Rows, Cols>: a thread holds at least one row and one column");
  static constexpr int rows = Rows, cols = Cols;
  std::int64_t m0 = 0, n0 = 0;
  int dm[Rows] = {}, dn[Cols] = {};
  std::int64_t l = 0;
  // the problem's extent from the origin: M - m0, N - n0 (a slot is inside where its offset is
  // below them)
  std::int64_t resid_m = 0, resid_n = 0;
  unsigned same_columns = 0, same_rows = 0;
  TESSERA_HOST_DEVICE TESSERA_INLINE std::int64_t m(int i) const { return m0 + dm[i]; }
  TESSERA_HOST_DEVICE TESSERA_INLINE std::int64_t n(int j) const { return n0 + dn[j]; }
  TESSERA_HOST_DEVICE TESSERA_INLINE bool row_inside(int i) const { return dm[i] < resid_m; }  // (m0 + dm[i] >= 0: a tile's)
  TESSERA_HOST_DEVICE TESSERA_INLINE bool col_inside(int j) const { return dn[j] < resid_n; }
};
// The frame of a single element (m, n, l): what a host loop over elements passes.
TESSERA_HOST_DEVICE inline TileFrame<1, 1> element_frame(TreeShape const& s, TreeCoord const& c) {
  TileFrame<1, 1> f;
  f.m0 = c.m;
  f.n0 = c.n;
  f.l = c.l;
  f.resid_m = s.m - c.m;
  f.resid_n = s.n - c.n;
  return f;
}

// The state of a node that keeps none, and the start and end of a tile for it.
struct NoState {};

// Whether a node's pointer must be given (Required: null is refused by can_implement) or may be
// null (Optional: a SourceC without a matrix reads 0, a reduction without an output reduces
// nothing), for a prebuilt tree whose parts the caller may leave out at run time (beta = 0
// without C, no amax): one kernel for both, at one uniform test per element or tile.
enum class Presence { Required, Optional };
// Whether a node's visit reads registers only and writes nothing (no load, no store, no
// reduction): its value at any element, inside the problem or not, costs arithmetic alone and
// may be computed and dropped. An epilogue then evaluates every element of a fragment with no
// branch around each element's visit (branches that keep ptxas from interleaving the elements'
// dependent chains): the TMA-store tree epilogue stages such values past M or N and the TMA
// store clips them. false unless a node says so
// (each register-only node specializes it where it is defined): a node that reads or writes
// memory is visited only inside the problem.
template <class Node>
struct registers_only : std::false_type {};
template <class Node>
inline constexpr bool registers_only_v = registers_only<Node>::value;

struct Stateless {
  template <int Rows, int Cols>
  using State = NoState;
  template <class Params, class Frame>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void begin_tile(Params const&, NoState&, Frame const&) {}
  template <class Params, class Frame>
  TESSERA_HOST_DEVICE TESSERA_INLINE static void end_tile(Params const&, NoState&, Frame const&) {}
};

// A node's children (their Arguments, Params or State), held by position: Pack<A, B>{a, b};
// child<I>(pack) is the I-th.
template <int I, class T>
struct Slot {
  T value{};
};
template <class Seq, class... T>
struct PackOf;
template <int... I, class... T>
struct PackOf<std::integer_sequence<int, I...>, T...> : Slot<I, T>... {
  PackOf() = default;
  TESSERA_HOST_DEVICE constexpr PackOf(T const&... t) : Slot<I, T>{t}... {}
};
template <class... T>
using Pack = PackOf<std::make_integer_sequence<int, int(sizeof...(T))>, T...>;
template <int I, class T>
TESSERA_HOST_DEVICE constexpr T const& child(Slot<I, T> const& s) {
  return s.value;
}
template <int I, class T>
TESSERA_HOST_DEVICE constexpr T& child(Slot<I, T>& s) {
  return s.value;
}

// Element type names for messages.
template <class T>
constexpr const char* element_name() {
  if constexpr (std::is_same_v<T, float>) return "f32";
  else if constexpr (std::is_same_v<T, bfloat16_t>) return "bf16";
  else if constexpr (std::is_same_v<T, half_t>) return "f16";
  else if constexpr (std::is_same_v<T, float_e4m3_t>) return "e4m3";
  else if constexpr (std::is_same_v<T, float_e5m2_t>) return "e5m2";
  else return "element";
}
// f32 <-> an element type: round to nearest even (numeric.hpp's on the host; on the device the
// hardware's cvt.rn for bf16 and f16, one instruction where numeric.hpp's portable rounding is a
// dozen per element: the same value for every non-NaN input, a NaN becomes the canonical NaN).
template <class T>
TESSERA_HOST_DEVICE TESSERA_INLINE float to_float(T x) {
  if constexpr (std::is_same_v<T, float>) {
    return x;
  } else {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<T, half_t>) {
      float f;
      asm("cvt.f32.f16 %0, %1;\n" : "=f"(f) : "h"(x.bits));
      return f;
    }
#endif
    return x.to_float();
  }
}
template <class T>
TESSERA_HOST_DEVICE TESSERA_INLINE T from_float(float x) {
  if constexpr (std::is_same_v<T, float>) {
    return x;
  } else {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<T, bfloat16_t> || std::is_same_v<T, half_t>) {
      std::uint16_t b;
      if constexpr (std::is_same_v<T, bfloat16_t>) asm("cvt.rn.bf16.f32 %0, %1;\n" : "=h"(b) : "f"(x));
      else asm("cvt.rn.f16.f32 %0, %1;\n" : "=h"(b) : "f"(x));
      return T::from_bits(b);
    }
#endif
    return T::from_float(x);
  }
}

namespace detail {
inline GemmResult refuse(GemmStatus s, std::string const& at, const char* node, std::string const& what) {
  return {s, "epilogue tree at " + at + " (" + node + "): " + what};
}
inline std::string child_at(std::string const& at, int i) { return at + "." + std::to_string(i); }

// A pointer the element type can address (its alignment), not null.
template <class T>
GemmResult check_pointer(const void* p, std::string const& at, const char* node, std::string const& what) {
  if (p == nullptr) return refuse(GemmStatus::NullPointer, at, node, "null pointer for " + what);
  if (reinterpret_cast<std::uintptr_t>(p) % alignof(T) != 0)
    return refuse(GemmStatus::Misaligned, at, node,
                  what + " is not aligned to its element type " + element_name<T>() + " (" + std::to_string(alignof(T)) + " bytes)");
  return {};
}
// The largest offset, (count - 1) * stride summed over the modes, fits in 64 bits.
inline bool offset_fits(std::int64_t& total, std::int64_t count, std::int64_t stride) {
  std::int64_t term = 0;
  if (count <= 0) return true;
  if (__builtin_mul_overflow(count - 1, stride, &term)) return false;
  return !__builtin_add_overflow(total, term, &total);
}
// A vector of `length` elements per batch, batch_stride apart (0: one vector for every batch).
template <class T>
GemmResult check_vector(TreeShape const& s, const void* p, std::int64_t length, std::int64_t batch_stride, std::string const& at,
                        const char* node, const char* index) {
  const std::string what = std::string("a vector of ") + index + " = " + std::to_string(length) + " " + element_name<T>() + " elements";
  if (auto r = check_pointer<T>(p, at, node, what); !r) return r;
  if (batch_stride < 0) return refuse(GemmStatus::InvalidBatchStride, at, node, "batch_stride " + std::to_string(batch_stride) + " < 0");
  std::int64_t total = 0;
  if (!offset_fits(total, length, 1) || !offset_fits(total, s.l, batch_stride))
    return refuse(GemmStatus::Overflow, at, node, "the vector's last offset does not fit in 64 bits");
  return {};
}
// An (M, N) matrix per batch with strides (stride_m, stride_n), one of them 1 and the other at
// least the contiguous extent (row- or column-major), batch_stride apart.
template <class T>
GemmResult check_matrix(TreeShape const& s, const void* p, std::int64_t stride_m, std::int64_t stride_n, std::int64_t batch_stride,
                        std::string const& at, const char* node) {
  const std::string what = std::string("an M x N = ") + std::to_string(s.m) + " x " + std::to_string(s.n) + " matrix of " +
                           element_name<T>();
  if (auto r = check_pointer<T>(p, at, node, what); !r) return r;
  const bool col = stride_m == 1 && stride_n >= s.m, row = stride_n == 1 && stride_m >= s.n;
  if (!col && !row)
    return refuse(GemmStatus::InvalidLeadingDim, at, node,
                  "strides (" + std::to_string(stride_m) + ", " + std::to_string(stride_n) +
                      ") are neither column-major (1, ld >= M) nor row-major (ld >= N, 1)");
  if (batch_stride < 0) return refuse(GemmStatus::InvalidBatchStride, at, node, "batch_stride " + std::to_string(batch_stride) + " < 0");
  std::int64_t total = 0;
  if (!offset_fits(total, s.m, stride_m) || !offset_fits(total, s.n, stride_n) || !offset_fits(total, s.l, batch_stride))
    return refuse(GemmStatus::Overflow, at, node, "the matrix's last offset does not fit in 64 bits");
  return {};
}
}  // namespace detail

}  // namespace tessera::kernels::tree
