#pragma once
// TMA: the arguments of cuTensorMapEncodeTiled derived from the global tensor's layout and
// the shared-memory tile it fills, or the rule of the driver/TMA that makes it impossible.
//
// The model. A tiled tensor map has dims 0..rank-1 with dim 0 contiguous in global memory
// (its stride is the element; the others are given in bytes). One copy moves a box of
// boxDim[0] x boxDim[1] x ... elements and writes it to shared memory densely, dim 0 fastest:
// box element x lands at byte (x0 + b0*(x1 + b1*(x2 + ...))) * element bytes from the box's
// start, then the swizzle mode permutes 16-byte chunks by the absolute address (the same
// Sw<B, log2(16 bytes / element), 3> as the GMMA atoms, 32/64/128-byte rows).
//
// The derivation. Dim 0 is the gmem mode of stride 1, the other dims the other gmem modes
// in order. Tile mode i covers gmem mode i (modes the tile lacks get box 1). Box dims are
// taken greedily in dim order: b_d is the largest divisor of the tile's extent along d, at
// most 256 (and for d = 0 at most the swizzle row), over which the smem layout advances by
// exactly the box pitch b0*...*b_{d-1}. The tile must then be whole boxes: every element at
// its box's start plus its dense offset in the box. What fails names the rule.
//
// A constexpr core on flat arrays: both tiers use it (the CLI through src/analysis/tma.cpp).
#include <cstdint>

#include "tessera/composed_layout.hpp"
#include "tessera/config.hpp"
#include "tessera/layout.hpp"

namespace tessera::tma {

inline constexpr int kMaxRank = 5;   // tensorRank <= 5
inline constexpr int kMaxModes = 8;  // modes accepted in, to name a rank error precisely

enum class Swizzle : int { none = 0, b32 = 1, b64 = 2, b128 = 3 };              // CU_TENSOR_MAP_SWIZZLE_*
enum class L2Promotion : int { none = 0, b64 = 1, b128 = 2, b256 = 3 };        // CU_TENSOR_MAP_L2_PROMOTION_*

enum class Rule : int {
  ok = 0,
  element_bits,          // TMA elements are 1, 2, 4 or 8 bytes here
  gmem_rank,             // tensorRank in [1, 5]
  global_dim_range,      // globalDim[i] in [1, 2^32]
  no_contiguous_mode,    // dim 0 is contiguous: one gmem mode must have stride 1
  global_stride_alignment,  // globalStrides[i] a multiple of 16 bytes
  global_stride_range,   // globalStrides[i] in [0, 2^40)
  smem_rank,             // the tile has at most as many modes as the gmem tensor
  smem_swizzle,          // the smem swizzle must be none or Sw<B, log2(16/bytes), 3>, B = 1..3
  not_contiguous,        // the tile is not contiguous along gmem's contiguous mode (TMA does not transpose)
  inner_box_bytes,       // boxDim[0] * element bytes a multiple of 16
  inner_box_swizzle,     // boxDim[0] * element bytes <= the swizzle row (32/64/128 bytes)
  box_dim_range,         // boxDim[i] in [1, 256]
  box_divides_tile,      // a requested box dim must divide the tile's extent
  not_boxes,             // the tile is not made of whole dense boxes
  box_smem_alignment,    // each box's smem start a multiple of 128 bytes
  boxes_overlap,         // two boxes of the tile share shared-memory bytes
  divided_mode_residue,  // a gmem mode divided into dims must be a multiple of its inner dims' extents
};

inline const char* to_string(Rule r) {
  switch (r) {
    case Rule::ok: return "ok";
    case Rule::element_bits: return "TMA moves elements of 8, 16, 32 or 64 bits";
    case Rule::gmem_rank: return "a tiled tensor map has rank 1 to 5 (tensorRank <= 5)";
    case Rule::global_dim_range: return "globalDim[i] must lie in [1, 2^32]";
    case Rule::no_contiguous_mode: return "the global tensor needs a contiguous mode (stride 1): it becomes dim 0";
    case Rule::global_stride_alignment: return "globalStrides[i] must be a multiple of 16 bytes";
    case Rule::global_stride_range: return "globalStrides[i] must lie in [0, 2^40) bytes";
    case Rule::smem_rank: return "the smem tile has more modes than the global tensor";
    case Rule::smem_swizzle:
      return "the smem swizzle must be none or Sw<B, log2(16 bytes / element), 3> with B = 1, 2, 3 (32B, 64B, 128B)";
    case Rule::not_contiguous:
      return "the smem tile is not contiguous along the global tensor's contiguous mode (TMA writes box dim 0 "
             "contiguously; it does not transpose)";
    case Rule::inner_box_bytes: return "boxDim[0] * element bytes must be a multiple of 16";
    case Rule::inner_box_swizzle: return "with a swizzle, boxDim[0] * element bytes must not exceed the swizzle's row";
    case Rule::box_dim_range: return "boxDim[i] must lie in [1, 256]";
    case Rule::box_divides_tile: return "each box dim must divide the tile's extent along it";
    case Rule::not_boxes: return "the smem tile is not made of whole dense boxes (TMA writes each box densely, dim 0 fastest)";
    case Rule::box_smem_alignment: return "each box's shared-memory start must be a multiple of 128 bytes";
    case Rule::boxes_overlap: return "two boxes of the smem tile overlap (one copy would overwrite another)";
    case Rule::divided_mode_residue:
      return "a gmem mode divided into several TMA dims must be a multiple of its inner dims' extents (else they would "
             "read past the mode instead of zero-filling)";
  }
  return "?";
}

struct Arguments {
  Rule rule = Rule::ok;
  int bad_mode = -1;                  // the gmem/tile mode the rule concerns, when one does
  int rank = 0;                       // tensorRank
  int mode_of_dim[kMaxRank] = {};     // TMA dim d is gmem mode mode_of_dim[d]
  int64_t global_dim[kMaxRank] = {};
  int64_t global_stride_bytes[kMaxRank] = {};  // [d] for d >= 1 (globalStrides[d-1])
  int64_t box_dim[kMaxRank] = {};
  int64_t element_strides[kMaxRank] = {};
  int element_bytes = 0;
  Swizzle swizzle = Swizzle::none;
  L2Promotion l2_promotion = L2Promotion::none;
  // (interleave: NONE; oobFill: NONE, i.e. zeros.)
  int64_t box_bytes = 0;              // bytes one copy moves
  int64_t boxes = 0;                  // copies per tile
  int64_t boxes_per_dim[kMaxRank] = {};
  // Divided modes (derive_divided_arguments): TMA dim d is a part of gmem mode mode_of_dim[d]:
  // one step along d is divisor[d] elements of the mode; sub_extent[d] is its extent when d is
  // an inner part (0: d runs to the mode's end, its global dim the mode's extent / divisor).
  // A coordinate c of the mode is, along d, (c / divisor[d]) % sub_extent[d] (no % for 0).
  int64_t divisor[kMaxRank] = {1, 1, 1, 1, 1};
  int64_t sub_extent[kMaxRank] = {};
};

// gmem: `modes` flat modes (extent, stride in elements); smem: `tile_modes` <= modes flat
// modes with extents `tile_extent` and unswizzled offsets `offset(coord)` (coord: an
// int64_t[tile_modes]), under Sw<swz_bits, swz_base, swz_shift> (swz_bits 0: none).
// `requested_box` (optional, per gmem mode; 0 = derive) forces box dims.
// The offsets must be a sum over groups of modes: offset(c) - offset(0) is the sum, over the
// groups, of offset(c restricted to the group's modes, the others 0) - offset(0). A layout's
// offsets are a sum over its modes (each mode its own group: `group_of_mode` null); the parts
// of a divided mode are one group (derive_divided_arguments). The box check then visits each
// group's coordinates with the other groups at 0 (the sum of the groups' sizes, not their
// product: the constant evaluation of a kernel's TMA plans depends on it).
template <class Offset>
TESSERA_HOST_DEVICE constexpr Arguments derive_arguments(int element_bits, int modes, const int64_t* gmem_extent,
                                                         const int64_t* gmem_stride, int tile_modes, const int64_t* tile_extent,
                                                         int swz_bits, int swz_base, int swz_shift, Offset const& offset,
                                                         const int64_t* requested_box = nullptr,
                                                         const int* group_of_mode = nullptr) {
  Arguments a;
  auto fail = [&](Rule r, int mode) { a.rule = r; a.bad_mode = mode; return a; };
  if (element_bits != 8 && element_bits != 16 && element_bits != 32 && element_bits != 64) return fail(Rule::element_bits, -1);
  const int64_t eb = element_bits / 8;
  a.element_bytes = int(eb);
  if (modes < 1 || modes > kMaxRank) return fail(Rule::gmem_rank, -1);
  a.rank = modes;
  for (int m = 0; m < modes; ++m)
    if (gmem_extent[m] < 1 || gmem_extent[m] > (int64_t(1) << 32)) return fail(Rule::global_dim_range, m);
  int contiguous = -1;
  for (int m = 0; m < modes && contiguous < 0; ++m)
    if (gmem_stride[m] == 1 && gmem_extent[m] > 1) contiguous = m;
  for (int m = 0; m < modes && contiguous < 0; ++m)
    if (gmem_stride[m] == 1) contiguous = m;
  if (contiguous < 0) return fail(Rule::no_contiguous_mode, -1);
  a.mode_of_dim[0] = contiguous;
  for (int m = 0, d = 1; m < modes; ++m)
    if (m != contiguous) a.mode_of_dim[d++] = m;
  for (int d = 0; d < modes; ++d) {
    const int m = a.mode_of_dim[d];
    a.global_dim[d] = gmem_extent[m];
    a.element_strides[d] = 1;
    if (d == 0) continue;
    const int64_t s = gmem_stride[m];
    if (s < 0 || s >= ((int64_t(1) << 40) / eb)) return fail(Rule::global_stride_range, m);
    if ((s * eb) % 16 != 0) return fail(Rule::global_stride_alignment, m);
    a.global_stride_bytes[d] = s * eb;
  }
  if (tile_modes < 1 || tile_modes > modes) return fail(Rule::smem_rank, -1);
  int64_t span = 0;  // swizzle row in bytes, 0 without swizzle
  if (swz_bits != 0) {
    int base = 0;
    while ((int64_t(1) << base) < 16 / eb) ++base;
    if (swz_bits > 3 || swz_shift != 3 || swz_base != base || eb > 8) return fail(Rule::smem_swizzle, -1);
    span = int64_t(16) << swz_bits;
    a.swizzle = Swizzle(swz_bits);
  }
  int64_t ext[kMaxModes] = {};
  for (int m = 0; m < modes; ++m) ext[m] = m < tile_modes ? tile_extent[m] : 1;

  int64_t coord[kMaxModes] = {};
  auto at = [&]() { return int64_t(offset(static_cast<const int64_t*>(coord))); };
  const int64_t origin = at();
  int64_t pitch = 1;
  for (int d = 0; d < modes; ++d) {
    const int m = a.mode_of_dim[d];
    // the run over which the tile advances by `pitch` along mode m
    int64_t run = 1;
    while (run < ext[m]) {
      coord[m] = run;
      const bool dense = at() - origin == run * pitch;
      coord[m] = 0;
      if (!dense) break;
      ++run;
    }
    int64_t cap = run < 256 ? run : 256;
    if (d == 0 && span != 0 && cap * eb > span) cap = span / eb;
    int64_t b = 0;
    if (requested_box && requested_box[m] != 0) {
      b = requested_box[m];
      if (b < 1 || b > 256) return fail(Rule::box_dim_range, m);
      if (ext[m] % b != 0) return fail(Rule::box_divides_tile, m);
      if (d == 0 && span != 0 && b * eb > span) return fail(Rule::inner_box_swizzle, m);
      if (b > run) return fail(d == 0 && run == 1 && ext[m] > 1 ? Rule::not_contiguous : Rule::not_boxes, m);
    } else {
      for (b = cap; b > 1 && ext[m] % b != 0; --b) {}
    }
    if (d == 0 && (b * eb) % 16 != 0)
      return fail(run == 1 && ext[m] > 1 ? Rule::not_contiguous : Rule::inner_box_bytes, m);
    a.box_dim[d] = b;
    a.boxes_per_dim[d] = ext[m] / b;
    pitch *= b;
  }
  a.box_bytes = pitch * eb;
  a.boxes = 1;
  for (int d = 0; d < modes; ++d) a.boxes *= a.boxes_per_dim[d];

  // Every element at its box's start plus its dense offset in the box; box starts aligned.
  // Both sides are sums over the groups of modes (the offsets by contract, the dense offset
  // in the box by construction: a sum over dims), so they agree everywhere when they agree on
  // each group's coordinates with the other groups at 0.
  auto group = [&](int m) { return group_of_mode ? group_of_mode[m] : m; };
  auto in_its_box = [&]() {  // the element at `coord`
    const int64_t value = at();
    int64_t within = 0, p = 1;
    int64_t saved[kMaxModes] = {};
    for (int d = 0; d < modes; ++d) {
      const int m = a.mode_of_dim[d];
      saved[m] = coord[m];
      within += (coord[m] % a.box_dim[d]) * p;
      p *= a.box_dim[d];
      coord[m] -= coord[m] % a.box_dim[d];
    }
    const int64_t start = at();
    for (int m = 0; m < modes; ++m) coord[m] = saved[m];
    return value == start + within;
  };
  for (int g = 0; g < kMaxModes; ++g) {
    int64_t count = 0;
    for (int m = 0; m < modes; ++m)
      if (group(m) == g) count = (count == 0 ? 1 : count) * ext[m];
    for (int64_t i = 0; i < count; ++i) {
      int64_t rest = i;
      for (int m = 0; m < modes; ++m) {
        coord[m] = group(m) == g ? rest % ext[m] : 0;
        if (group(m) == g) rest /= ext[m];
      }
      if (!in_its_box()) return fail(Rule::not_boxes, -1);
    }
  }
  for (int m = 0; m < modes; ++m) coord[m] = 0;
  // Box starts aligned; boxes are dense runs of `pitch` elements from their starts: pairwise
  // disjoint runs.
  auto box_start = [&](int64_t q) {
    for (int d = 0; d < modes; ++d) {
      const int m = a.mode_of_dim[d];
      coord[m] = (q % a.boxes_per_dim[d]) * a.box_dim[d];
      q /= a.boxes_per_dim[d];
    }
    return at();
  };
  for (int64_t i = 0; i < a.boxes; ++i) {
    const int64_t si = box_start(i);
    if (((si - origin) * eb) % 128 != 0) return fail(Rule::box_smem_alignment, -1);
    for (int64_t j = i + 1; j < a.boxes; ++j) {
      const int64_t sj = box_start(j);
      if ((si <= sj ? sj - si : si - sj) < pitch) return fail(Rule::boxes_overlap, -1);
    }
  }
  const int64_t inner = a.box_dim[0] * eb;
  a.l2_promotion = inner >= 256 ? L2Promotion::b256 : inner >= 128 ? L2Promotion::b128 : inner >= 64 ? L2Promotion::b64
                                                                                                        : L2Promotion::none;
  return a;
}

// The same tile over another global tensor of the same modes and contiguous mode: the box
// geometry (which depends on the smem tile alone) is kept, the global dims and strides are
// the new tensor's, checked by the same rules. Kernels derive the boxes once and rebind
// them per problem (the derivation visits every element of the tile; this is O(rank)).
TESSERA_HOST_DEVICE constexpr Arguments rebind_gmem(Arguments a, int modes, const int64_t* gmem_extent,
                                                    const int64_t* gmem_stride) {
  auto fail = [&](Rule r, int mode) { a.rule = r; a.bad_mode = mode; return a; };
  if (a.rule != Rule::ok) return a;
  const int eb = a.element_bytes;
  int used[kMaxModes] = {};
  for (int d = 0; d < a.rank; ++d) used[a.mode_of_dim[d]] = 1;
  int given = 0;
  for (int m = 0; m < kMaxModes; ++m) given += used[m];
  if (modes != given) return fail(Rule::gmem_rank, -1);
  for (int d = 0; d < a.rank; ++d) {
    const int m = a.mode_of_dim[d];
    const int64_t div = a.divisor[d];
    if (gmem_extent[m] < 1 || gmem_extent[m] > (int64_t(1) << 32)) return fail(Rule::global_dim_range, m);
    if (a.sub_extent[d] != 0) {
      a.global_dim[d] = a.sub_extent[d];
    } else {
      if (gmem_extent[m] % div != 0) return fail(Rule::divided_mode_residue, m);
      a.global_dim[d] = gmem_extent[m] / div;
    }
    if (d == 0) {
      if (gmem_stride[m] != 1 || div != 1) return fail(Rule::no_contiguous_mode, m);
      continue;
    }
    const int64_t s = gmem_stride[m] * div;
    if (s < 0 || s >= ((int64_t(1) << 40) / eb)) return fail(Rule::global_stride_range, m);
    if ((s * eb) % 16 != 0) return fail(Rule::global_stride_alignment, m);
    a.global_stride_bytes[d] = s * eb;
  }
  return a;
}

// Divided modes: the tensor map's dims follow the smem tile's structure instead of the
// gmem modes one for one. Each tile mode is read as a layout of its own (its offsets along
// the mode, the others 0), coalesced: runs of constant stride, e.g. the MN mode of an
// MN-major tile whose 64-element atoms lie 4096 apart is (64, 2):(1, 4096). Gmem mode i is
// divided the same way ((64, E/64):(s, 64 s)), and the parts are ordered by their smem
// stride: with the K mode (64:64) between them the tile is one dense box (64, 64, 2)
// instead of two boxes (64, 64). A gmem mode the tile lacks (a batch) stays one dim, last.
// Refused where a divided mode's extent is not a multiple of its inner parts (their dims
// could not zero-fill what lies past the mode): rebind_gmem checks each problem.
template <class Offset>
TESSERA_HOST_DEVICE constexpr Arguments derive_divided_arguments(int element_bits, int modes, const int64_t* gmem_extent,
                                                                 const int64_t* gmem_stride, int tile_modes, const int64_t* tile_extent,
                                                                 int swz_bits, int swz_base, int swz_shift, Offset const& offset) {
  Arguments a;
  if (modes < 1 || modes > kMaxModes || tile_modes < 1 || tile_modes > modes) {
    a.rule = modes < 1 || modes > kMaxModes ? Rule::gmem_rank : Rule::smem_rank;
    return a;
  }
  // The parts: (tile mode, unit along it, extent, smem stride), at most kMaxModes.
  int part_mode[kMaxModes] = {};
  int64_t part_unit[kMaxModes] = {}, part_ext[kMaxModes] = {}, part_stride[kMaxModes] = {};
  bool part_last[kMaxModes] = {};
  int parts = 0;
  int64_t coord[kMaxModes] = {};
  auto at_mode = [&](int i, int64_t c) {
    coord[i] = c;
    const int64_t v = int64_t(offset(static_cast<const int64_t*>(coord)));
    coord[i] = 0;
    return v;
  };
  const int64_t origin = int64_t(offset(static_cast<const int64_t*>(coord)));
  for (int i = 0; i < modes; ++i) {
    const int64_t e = i < tile_modes ? tile_extent[i] : 1;
    int64_t unit = 1;
    do {
      if (parts == kMaxModes) { a.rule = Rule::gmem_rank; return a; }
      const int64_t rest = e / unit;
      int64_t run = 1;
      const int64_t step = rest > 1 ? at_mode(i, unit) - origin : 0;
      while (run < rest && at_mode(i, run * unit) - origin == run * step) ++run;
      int64_t r = run;
      while (rest % r != 0) --r;
      if (r == 1) r = rest;  // no run: the rest as one part (derive_arguments names what fails)
      part_mode[parts] = i, part_unit[parts] = unit, part_ext[parts] = r, part_stride[parts] = step;
      unit *= r;
      part_last[parts] = unit >= e;
      ++parts;
    } while (unit < e);
  }
  // Ordered by smem stride (stable; parts of extent 1 and modes the tile lacks keep their place last).
  int order[kMaxModes] = {};
  for (int p = 0; p < parts; ++p) order[p] = p;
  for (int p = 1; p < parts; ++p)
    for (int q = p; q > 0; --q) {
      auto key = [&](int x) { return part_ext[x] > 1 ? part_stride[x] : INT64_MAX; };
      if (key(order[q]) < key(order[q - 1])) { const int t = order[q]; order[q] = order[q - 1]; order[q - 1] = t; }
      else break;
    }
  int64_t ext[kMaxModes] = {}, str[kMaxModes] = {}, tile[kMaxModes] = {};
  for (int f = 0; f < parts; ++f) {
    const int p = order[f], m = part_mode[p];
    if (!part_last[p]) {
      ext[f] = part_ext[p];
    } else {
      if (gmem_extent[m] % part_unit[p] != 0) { a.rule = Rule::divided_mode_residue; a.bad_mode = m; return a; }
      ext[f] = gmem_extent[m] / part_unit[p];
    }
    str[f] = gmem_stride[m] * part_unit[p];
    tile[f] = part_ext[p];
  }
  // (the parts of one tile mode are one group: the offsets are a sum over the tile's modes,
  // not over the parts of a mode)
  int group_of_part[kMaxModes] = {};
  for (int f = 0; f < parts; ++f) group_of_part[f] = part_mode[order[f]];
  a = derive_arguments(element_bits, parts, ext, str, parts, tile, swz_bits, swz_base, swz_shift, [&](const int64_t* fc) {
    int64_t c[kMaxModes] = {};
    for (int f = 0; f < parts; ++f) c[part_mode[order[f]]] += fc[f] * part_unit[order[f]];
    return int64_t(offset(static_cast<const int64_t*>(c)));
  }, nullptr, group_of_part);
  if (a.bad_mode >= 0) a.bad_mode = part_mode[order[a.bad_mode]];
  if (a.rule != Rule::ok) return a;
  for (int d = 0; d < a.rank; ++d) {
    const int p = order[a.mode_of_dim[d]];
    a.mode_of_dim[d] = part_mode[p];
    a.divisor[d] = part_unit[p];
    a.sub_extent[d] = part_last[p] ? 0 : part_ext[p];
  }
  return a;
}

// The static tier's entry: gmem a layout with flat integer modes (static or dynamic extents
// and strides, as a kernel's host side has them), smem the static tile (a layout, or a
// swizzle over one) one copy fills. Usable in constant expressions when gmem is.
namespace detail {
template <class L>
TESSERA_HOST_DEVICE constexpr auto smem_parts(L const& l) {
  if constexpr (is_composed_layout_v<L>) {
    using Sw = std::remove_cvref_t<decltype(l.outer())>;
    static_assert(is_swizzle_v<Sw>, "tma::make_arguments: a composed smem tile must be a swizzle over a layout");
    struct { int b, m, s; } sw{Sw::num_bits, Sw::num_base, Sw::num_shft};
    return sw;
  } else {
    struct { int b, m, s; } sw{0, 0, 0};
    return sw;
  }
}
}  // namespace detail

namespace detail {
template <class Smem>
TESSERA_HOST_DEVICE constexpr auto smem_inner(Smem const& smem) {
  if constexpr (is_composed_layout_v<Smem>) return smem.inner();
  else return smem;
}

// What derive_arguments / derive_divided_arguments take from a gmem layout and a static smem
// tile: the gmem modes, the tile's extents and its swizzle's parts.
struct TmaInputs {
  int rank = 0, tile_rank = 0;
  int64_t extent[kMaxModes] = {}, stride[kMaxModes] = {}, tile[kMaxModes] = {};
  int b = 0, m = 0, s = 0;
};

template <class GS, class GD, class Smem>
TESSERA_HOST_DEVICE constexpr TmaInputs tma_inputs(Layout<GS, GD> const& gmem, Smem const& smem) {
  constexpr int R = rank_v<GS>;
  static_assert(R >= 1 && R <= kMaxModes, "tma arguments: the global tensor has 1 to 8 modes (TMA takes up to 5)");
  static_assert(decltype(depth(GS{}))::value <= 1, "tma arguments: the global tensor's modes must be flat integers");
  using Inner = std::remove_cvref_t<decltype(smem_inner(smem))>;
  static_assert(is_static_v<Inner>, "tma arguments: the smem tile must be static");
  constexpr int TR = Inner::rank;
  static_assert(TR <= R, "tma arguments: the smem tile has more modes than the global tensor");
  TmaInputs in;
  in.rank = R;
  in.tile_rank = TR;
  [&]<int... I>(std::integer_sequence<int, I...>) {
    ((in.extent[I] = int64_t(to_i64(get<I>(gmem.shape()))), in.stride[I] = int64_t(to_i64(get<I>(gmem.stride())))), ...);
  }(std::make_integer_sequence<int, R>{});
  [&]<int... I>(std::integer_sequence<int, I...>) { ((in.tile[I] = int64_t(size<I>(Inner{}))), ...); }(
      std::make_integer_sequence<int, TR>{});
  const auto sw = smem_parts(smem);
  in.b = sw.b;
  in.m = sw.m;
  in.s = sw.s;
  return in;
}

// The smem tile's (unswizzled) offset of a tile coordinate, one index per tile mode.
template <class Inner>
TESSERA_HOST_DEVICE constexpr int64_t tile_offset(const int64_t* c) {
  return [&]<int... I>(std::integer_sequence<int, I...>) {
    return (int64_t(0) + ... + int64_t(to_i64(layout<I>(Inner{})(c[I]))));
  }(std::make_integer_sequence<int, Inner::rank>{});
}
}  // namespace detail

template <int Bits, class GS, class GD, class Smem>
TESSERA_HOST_DEVICE constexpr Arguments make_arguments(Layout<GS, GD> const& gmem, Smem const& smem,
                                                       const int64_t* requested_box = nullptr) {
  using Inner = std::remove_cvref_t<decltype(detail::smem_inner(smem))>;
  const detail::TmaInputs in = detail::tma_inputs(gmem, smem);
  return derive_arguments(Bits, in.rank, in.extent, in.stride, in.tile_rank, in.tile, in.b, in.m, in.s,
                          [](const int64_t* c) { return detail::tile_offset<Inner>(c); }, requested_box);
}

// The divided arrangement from a kernel's gmem layout and static smem tile (as make_arguments).
template <int Bits, class GS, class GD, class Smem>
TESSERA_HOST_DEVICE constexpr Arguments make_divided_arguments(Layout<GS, GD> const& gmem, Smem const& smem) {
  using Inner = std::remove_cvref_t<decltype(detail::smem_inner(smem))>;
  const detail::TmaInputs in = detail::tma_inputs(gmem, smem);
  return derive_divided_arguments(Bits, in.rank, in.extent, in.stride, in.tile_rank, in.tile, in.b, in.m, in.s,
                                  [](const int64_t* c) { return detail::tile_offset<Inner>(c); });
}

}  // namespace tessera::tma
