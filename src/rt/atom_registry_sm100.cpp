// The Blackwell (SM100) atoms by name: tcgen05.mma (f16/bf16, tf32, i8, f8f6f4 and the
// block-scaled mxf8f6f4, mxf4, mxf4nvf4; 1 CTA and CTA pair; A from shared memory, _SS, or
// tensor memory, _TS) and tcgen05.ld/st. Names are CuTe's op with
// the shape and types spelled out, as CuTe's SM90 aliases do:
//   SM100_MMA_F16BF16_SS_128x256x16_F32BF16BF16  = SM100_MMA_F16BF16_SS<bfloat16_t, bfloat16_t, float, 128, 256, K, K>
//   SM100_MMA_MXF4_SS_128x64x64_F32E2M1E2M1_UE4M3x16 = SM100_MMA_MXF4_SS<e2m1, e2m1, float, ue4m3, 128, 64, 16, K, K>
//   SM100_TMEM_LOAD_32dp32b8x                    = CuTe's SM100_TMEM_LOAD_32dp32b8x
// The narrow kinds' layouts do not depend on A's and B's types, so those atoms are listed by
// looping over the types' codes (UMMA::instr_desc*, the functions the static descriptors use),
// not by instantiating an atom per type pair.
// Every layout comes from the static atom (tessera/atom/mma_sm100.hpp, copy_sm100.hpp).
#include "atom_registry_sm100.hpp"

#include <cctype>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "tessera/atom/copy_sm100.hpp"
#include "tessera/atom/mma_sm100.hpp"
#include "tessera/rt/to_runtime.hpp"

namespace tessera::rt::detail {

namespace {

template <class T> const char* tag() {
  if constexpr (std::is_same_v<T, float>) return "F32";
  else if constexpr (std::is_same_v<T, half_t>) return "F16";
  else if constexpr (std::is_same_v<T, bfloat16_t>) return "BF16";
  else if constexpr (std::is_same_v<T, tfloat32_t>) return "TF32";
  else if constexpr (std::is_same_v<T, int8_t>) return "S8";
  else if constexpr (std::is_same_v<T, uint8_t>) return "U8";
  else return "S32";
}
[[gnu::noinline]] std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The runtime layouts of one shape, shared by the atoms of every type and operand form that
// have it (the traits' layouts depend on cta_group, M, N and K only; the static_assert in
// add_atom holds each atom to that).
template <int CtaGroup, int M, int N, int K>
[[gnu::noinline]] const MmaAtomInfo& shape_info() {
  static const MmaAtomInfo info = [] {
    using L = UMMA::tv_layouts<CtaGroup, M, N, K>;
    MmaAtomInfo i;
    i.m = M;
    i.n = N;
    i.thr_id = rt::to_runtime(typename L::ThrID{});
    i.a_tv = rt::to_runtime(typename L::ALayout{});
    i.b_tv = rt::to_runtime(typename L::BLayout{});
    i.c_tv = rt::to_runtime(typename L::CLayout{});
    i.tmem_c = rt::to_runtime(UMMA::TmemLayoutC<CtaGroup, M, N>{});
    return i;
  }();
  return info;
}

// One atom's entry from its shape's layouts and its constants (not a template: the per-atom
// template below only names them, which keeps this TU cheap to compile).
[[gnu::noinline]] void push_atom(std::vector<MmaAtomInfo>& v, const MmaAtomInfo& shape, const char* op_name, int k,
                                 const char* d, const char* a, const char* b, int a_bits, int cta_group, bool ts,
                                 std::uint32_t idesc) {
  MmaAtomInfo i = shape;
  i.name = std::string(op_name) + "_" + std::to_string(i.m) + "x" + std::to_string(i.n) + "x" + std::to_string(k) + "_" +
           d + a + b;
  i.arch = "SM100a";
  i.types = "D=" + lower(d) + " A=" + lower(a) + " B=" + lower(b) + " C=" + lower(d);
  i.k = k;
  i.a_bits = i.b_bits = a_bits;
  i.cta_group = cta_group;
  i.a_tmem = ts;
  i.idesc = idesc;
  v.push_back(std::move(i));
}

template <template <class, class, class, int, int, UMMA::Major, UMMA::Major, UMMA::ScaleIn, UMMA::ScaleIn> class Op,
          bool TS, class A, class B, class D, int M, int N>
void add_atom(std::vector<MmaAtomInfo>& v, const char* op_name) {
  using T = MMA_Traits<Op<A, B, D, M, N, UMMA::Major::K, UMMA::Major::K, UMMA::ScaleIn::One, UMMA::ScaleIn::One>>;
  constexpr int K = 256 / sizeof_bits_v<A>;
  using L = UMMA::tv_layouts<T::cta_group, M, N, K>;
  static_assert(std::is_same_v<typename T::ThrID, typename L::ThrID> &&
                std::is_same_v<typename T::ALayout, typename L::ALayout> &&
                std::is_same_v<typename T::BLayout, typename L::BLayout> &&
                std::is_same_v<typename T::CLayout, typename L::CLayout> &&
                std::is_same_v<typename T::TmemLayoutC, UMMA::TmemLayoutC<T::cta_group, M, N>>);
  static_assert(sizeof_bits_v<A> == sizeof_bits_v<B>);
  push_atom(v, shape_info<T::cta_group, M, N, K>(), op_name, K, tag<D>(), tag<A>(), tag<B>(), int(sizeof_bits_v<A>),
            T::cta_group, TS, T::idesc.desc);
}

// Every N of the ISA's (and, for TS, CuTe's) shape table for M, in increasing order.
template <template <class, class, class, int, int, UMMA::Major, UMMA::Major, UMMA::ScaleIn, UMMA::ScaleIn> class Op,
          int CtaGroup, bool I8, bool TS, class A, class B, class D, int M, int N>
void add_if_shape(std::vector<MmaAtomInfo>& v, const char* op_name) {
  if constexpr (tessera::detail::umma_shape_ok<CtaGroup, M, N, I8, TS>()) add_atom<Op, TS, A, B, D, M, N>(v, op_name);
}
template <template <class, class, class, int, int, UMMA::Major, UMMA::Major, UMMA::ScaleIn, UMMA::ScaleIn> class Op,
          int CtaGroup, bool I8, bool TS, class A, class B, class D, int M>
void add_m(std::vector<MmaAtomInfo>& v, const char* op_name) {
  [&]<int... I>(std::integer_sequence<int, I...>) {
    (add_if_shape<Op, CtaGroup, I8, TS, A, B, D, M, 8 * (I + 1)>(v, op_name), ...);
  }(std::make_integer_sequence<int, 32>{});
}

template <template <class, class, class, int, int, UMMA::Major, UMMA::Major, UMMA::ScaleIn, UMMA::ScaleIn> class Op,
          int CtaGroup, bool I8, bool TS, class D, class A, class B>
void add_types(std::vector<MmaAtomInfo>& v, const char* op_name) {
  add_m<Op, CtaGroup, I8, TS, A, B, D, CtaGroup == 1 ? 64 : 128>(v, op_name);
  add_m<Op, CtaGroup, I8, TS, A, B, D, CtaGroup == 1 ? 128 : 256>(v, op_name);
}

struct Format {
  const char* tag;
  int code;
  int bits;
};
constexpr Format f8f6f4_formats[] = {{"E4M3", int(UMMA::F8F6F4Format::E4M3), 8},
                                     {"E5M2", int(UMMA::F8F6F4Format::E5M2), 8},
                                     {"E2M3", int(UMMA::F8F6F4Format::E2M3), 6},
                                     {"E3M2", int(UMMA::F8F6F4Format::E3M2), 6},
                                     {"E2M1", int(UMMA::F8F6F4Format::E2M1), 4}};

// The shapes of one op, in increasing M then N: the static table's rules.
template <int CtaGroup, int M, int K, int VS, bool BlockScaled, bool MXF8F6F4, bool TS, int N>
void narrow_shape(std::vector<const MmaAtomInfo*>& out) {
  constexpr bool ok = BlockScaled ? tessera::detail::umma_block_scaled_shape_ok<CtaGroup, M, N, MXF8F6F4>()
                                  : tessera::detail::umma_shape_ok<CtaGroup, M, N, false, TS>();
  if constexpr (ok) {
    static const MmaAtomInfo info = [] {
      MmaAtomInfo i = shape_info<CtaGroup, M, N, K>();
      i.k = K;
      if constexpr (BlockScaled) {
        i.sf_vec = VS;
        i.sfa_tv = i.a_tv;  // the scale factor of (m, k) comes with row m (UMMA::block_scaled_traits)
        i.sfb_tv = i.b_tv;
        i.sf_atom = rt::to_runtime(UMMA::SfKMajorAtom<VS>{});
        using S = UMMA::tmem_scale_factors<CtaGroup, M, N, K, VS>;
        i.tmem_sfa = rt::to_runtime(typename S::TmemLayoutSFA{});
        i.tmem_sfb = rt::to_runtime(typename S::TmemLayoutSFB{});
      }
      return i;
    }();
    out.push_back(&info);
  }
}
template <int CtaGroup, int K, int VS, bool BlockScaled, bool MXF8F6F4, bool TS>
[[gnu::noinline]] std::vector<const MmaAtomInfo*> narrow_shapes() {
  std::vector<const MmaAtomInfo*> out;
  [&]<int... I>(std::integer_sequence<int, I...>) {
    constexpr int m0 = CtaGroup == 1 ? 64 : 128, m1 = CtaGroup == 1 ? 128 : 256;
    (narrow_shape<CtaGroup, m0, K, VS, BlockScaled, MXF8F6F4, TS, 8 * (I + 1)>(out), ...);
    (narrow_shape<CtaGroup, m1, K, VS, BlockScaled, MXF8F6F4, TS, 8 * (I + 1)>(out), ...);
  }(std::make_integer_sequence<int, 32>{});
  return out;
}

[[gnu::noinline]] void push_narrow(std::vector<MmaAtomInfo>& v, const MmaAtomInfo& shape, const char* op_name,
                                   const char* d, const Format& a, const Format& b, const char* sf,
                                   int cta_group, bool ts, std::uint32_t idesc) {
  MmaAtomInfo i = shape;
  i.name = std::string(op_name) + "_" + std::to_string(i.m) + "x" + std::to_string(i.n) + "x" + std::to_string(i.k) +
           "_" + d + a.tag + b.tag;
  i.arch = "SM100a";
  i.types = "D=" + lower(d) + " A=" + lower(a.tag) + " B=" + lower(b.tag) + " C=" + lower(d);
  if (sf) {
    i.name += std::string("_") + sf + "x" + std::to_string(i.sf_vec);
    i.sf_type = lower(sf);
  }
  i.a_bits = a.bits;
  i.b_bits = b.bits;
  i.cta_group = cta_group;
  i.a_tmem = ts;
  i.idesc = idesc;
  v.push_back(std::move(i));
}

// .kind::f8f6f4: D f16 or f32, A and B any of the five formats.
void add_f8f6f4(std::vector<MmaAtomInfo>& v, const char* op_name, int cta_group, bool ts,
                const std::vector<const MmaAtomInfo*>& shapes) {
  for (const char* d : {"F16", "F32"})
    for (const Format& a : f8f6f4_formats)
      for (const Format& b : f8f6f4_formats)
        for (const MmaAtomInfo* s : shapes)
          push_narrow(v, *s, op_name, d, a, b, nullptr, cta_group, ts,
                      UMMA::instr_desc(std::string(d) == "F16" ? int(UMMA::CFormat::F16) : int(UMMA::CFormat::F32),
                                       a.code, b.code, int(s->m), int(s->n))
                          .desc);
}
void add_mxf8f6f4(std::vector<MmaAtomInfo>& v, const char* op_name, int cta_group,
                  const std::vector<const MmaAtomInfo*>& shapes) {
  for (const Format& a : f8f6f4_formats)
    for (const Format& b : f8f6f4_formats)
      for (const MmaAtomInfo* s : shapes)
        push_narrow(v, *s, op_name, "F32", a, b, "UE8M0", cta_group, false,
                    UMMA::instr_desc_block_scaled(a.code, b.code, int(UMMA::ScaleFormat::UE8M0), int(s->m), int(s->n))
                        .desc);
}
// .kind::mxf4 (VS 32, ue8m0) and .kind::mxf4nvf4 (VS 16, ue8m0 or ue4m3): A and B e2m1, two a byte.
void add_mxf4(std::vector<MmaAtomInfo>& v, const char* op_name, int cta_group, const char* sf,
              const std::vector<const MmaAtomInfo*>& shapes) {
  constexpr Format e2m1{"E2M1", int(UMMA::F4Format::E2M1), 4};
  const int sf_code = std::string(sf) == "UE4M3" ? int(UMMA::ScaleFormat::UE4M3) : int(UMMA::ScaleFormat::UE8M0);
  for (const MmaAtomInfo* s : shapes)
    push_narrow(v, *s, op_name, "F32", e2m1, e2m1, sf, cta_group, false,
                UMMA::instr_desc_block_scaled(e2m1.code, e2m1.code, sf_code, int(s->m), int(s->n)).desc);
}

// The registry's layouts are the static traits' (one representative of each op; the tests hold
// every descriptor to CuTe's and to the static make_instr_desc*).
template <class T, int CtaGroup, int M, int N, int K>
constexpr bool same_layouts = std::is_same_v<typename T::ThrID, typename UMMA::tv_layouts<CtaGroup, M, N, K>::ThrID> &&
                              std::is_same_v<typename T::ALayout, typename UMMA::tv_layouts<CtaGroup, M, N, K>::ALayout> &&
                              std::is_same_v<typename T::BLayout, typename UMMA::tv_layouts<CtaGroup, M, N, K>::BLayout> &&
                              std::is_same_v<typename T::CLayout, typename UMMA::tv_layouts<CtaGroup, M, N, K>::CLayout>;
using UMMA::Major;
static_assert(same_layouts<MMA_Traits<SM100_MMA_F8F6F4_SS<float_e2m1_t, float_e4m3_t, float, 128, 64, Major::K, Major::K>>, 1, 128, 64, 32>);
static_assert(same_layouts<MMA_Traits<SM100_MMA_F8F6F4_2x1SM_TS<float_e3m2_t, float_e2m3_t, half_t, 256, 64, Major::K, Major::K>>, 2, 256, 64, 32>);
static_assert(same_layouts<MMA_Traits<SM100_MMA_MXF8F6F4_SS<float_e5m2_t, float_e2m1_t, float, float_ue8m0_t, 128, 24, Major::K, Major::K>>, 1, 128, 24, 32>);
static_assert(same_layouts<MMA_Traits<SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t, float_e2m1_t, float, float_ue4m3_t, 128, 48, 16, Major::K, Major::K>>, 2, 128, 48, 64>);

}  // namespace

void append_sm100_mma(std::vector<MmaAtomInfo>& v) {
#define TESSERA_ADD_F16(OP, G, TS)                                    \
  add_types<OP, G, false, TS, half_t, half_t, half_t>(v, #OP);         \
  add_types<OP, G, false, TS, float, half_t, half_t>(v, #OP);          \
  add_types<OP, G, false, TS, float, bfloat16_t, bfloat16_t>(v, #OP);
  TESSERA_ADD_F16(SM100_MMA_F16BF16_SS, 1, false)
  TESSERA_ADD_F16(SM100_MMA_F16BF16_TS, 1, true)
  TESSERA_ADD_F16(SM100_MMA_F16BF16_2x1SM_SS, 2, false)
  TESSERA_ADD_F16(SM100_MMA_F16BF16_2x1SM_TS, 2, true)
#undef TESSERA_ADD_F16
  add_types<SM100_MMA_TF32_SS, 1, false, false, float, tfloat32_t, tfloat32_t>(v, "SM100_MMA_TF32_SS");
  add_types<SM100_MMA_TF32_TS, 1, false, true, float, tfloat32_t, tfloat32_t>(v, "SM100_MMA_TF32_TS");
  add_types<SM100_MMA_TF32_2x1SM_SS, 2, false, false, float, tfloat32_t, tfloat32_t>(v, "SM100_MMA_TF32_2x1SM_SS");
  add_types<SM100_MMA_TF32_2x1SM_TS, 2, false, true, float, tfloat32_t, tfloat32_t>(v, "SM100_MMA_TF32_2x1SM_TS");
#define TESSERA_ADD_S8(OP, G, TS)                                  \
  add_types<OP, G, true, TS, int32_t, int8_t, int8_t>(v, #OP);      \
  add_types<OP, G, true, TS, int32_t, uint8_t, uint8_t>(v, #OP);
  TESSERA_ADD_S8(SM100_MMA_S8_SS, 1, false)
  TESSERA_ADD_S8(SM100_MMA_S8_TS, 1, true)
  TESSERA_ADD_S8(SM100_MMA_S8_2x1SM_SS, 2, false)
  TESSERA_ADD_S8(SM100_MMA_S8_2x1SM_TS, 2, true)
#undef TESSERA_ADD_S8
  // The narrow kinds: their shapes first, so that the list grows once (an entry is 2.6 kB and
  // these are most of them), with room for as many atoms again as the blocks before this one
  // (the registry appends SM120's, AMD's and Intel's after it).
  const auto f8_ss = narrow_shapes<1, 32, 0, false, false, false>(), f8_ts = narrow_shapes<1, 32, 0, false, false, true>(),
             f8_2ss = narrow_shapes<2, 32, 0, false, false, false>(), f8_2ts = narrow_shapes<2, 32, 0, false, false, true>();
  const auto mx = narrow_shapes<1, 32, 32, true, true, false>(), mx2 = narrow_shapes<2, 32, 32, true, true, false>();
  const auto f4 = narrow_shapes<1, 64, 32, true, false, false>(), nvf4 = narrow_shapes<1, 64, 16, true, false, false>();
  const auto f4_2 = narrow_shapes<2, 64, 32, true, false, false>(), nvf4_2 = narrow_shapes<2, 64, 16, true, false, false>();
  constexpr std::size_t f8f6f4_types = 2 * 25, mxf8f6f4_types = 25;
  v.reserve(2 * v.size() + f8f6f4_types * (f8_ss.size() + f8_ts.size() + f8_2ss.size() + f8_2ts.size()) +
            mxf8f6f4_types * (mx.size() + mx2.size()) + f4.size() + 2 * nvf4.size() + f4_2.size() + 2 * nvf4_2.size());
  add_f8f6f4(v, "SM100_MMA_F8F6F4_SS", 1, false, f8_ss);
  add_f8f6f4(v, "SM100_MMA_F8F6F4_TS", 1, true, f8_ts);
  add_f8f6f4(v, "SM100_MMA_F8F6F4_2x1SM_SS", 2, false, f8_2ss);
  add_f8f6f4(v, "SM100_MMA_F8F6F4_2x1SM_TS", 2, true, f8_2ts);
  add_mxf8f6f4(v, "SM100_MMA_MXF8F6F4_SS", 1, mx);
  add_mxf8f6f4(v, "SM100_MMA_MXF8F6F4_2x1SM_SS", 2, mx2);
  add_mxf4(v, "SM100_MMA_MXF4_SS", 1, "UE8M0", f4);
  add_mxf4(v, "SM100_MMA_MXF4_SS", 1, "UE8M0", nvf4);
  add_mxf4(v, "SM100_MMA_MXF4_SS", 1, "UE4M3", nvf4);
  add_mxf4(v, "SM100_MMA_MXF4_2x1SM_SS", 2, "UE8M0", f4_2);
  add_mxf4(v, "SM100_MMA_MXF4_2x1SM_SS", 2, "UE8M0", nvf4_2);
  add_mxf4(v, "SM100_MMA_MXF4_2x1SM_SS", 2, "UE4M3", nvf4_2);
}

namespace {

template <class Op>
[[gnu::noinline]] CopyAtomInfo tmem_copy_info(const char* name, bool load) {
  using T = Copy_Traits<Op>;
  CopyAtomInfo i;
  i.name = name;
  i.arch = "SM100a";
  i.smem_side = "none";
  i.default_bits = 32;
  i.thr_id = rt::to_runtime(typename T::ThrID{});
  i.src_bits = rt::to_runtime(typename T::SrcLayout{});
  i.dst_bits = rt::to_runtime(typename T::DstLayout{});
  i.ref_bits = rt::to_runtime(typename T::RefLayout{});
  i.ref_is_dst = !load;
  i.val_id = rt::to_runtime(typename T::ValID{});
  i.tmem_src = load;
  i.tmem_dst = !load;
  return i;
}

}  // namespace

void append_sm100_copy(std::vector<CopyAtomInfo>& v) {
  // Loads, then stores; per shape .num 1, 2, 4, ... as the ISA allows, each plain then 16b.
#define TESSERA_TMEM_ONE(DIR, SHAPE, N, LOAD)                                                           \
  v.push_back(tmem_copy_info<SM100_TMEM_##DIR##_##SHAPE##N##x>("SM100_TMEM_" #DIR "_" #SHAPE #N "x", LOAD)); \
  v.push_back(tmem_copy_info<SM100_TMEM_##DIR##_##SHAPE##N##x_16b>("SM100_TMEM_" #DIR "_" #SHAPE #N "x_16b", LOAD));
#define TESSERA_TMEM_32(DIR, SHAPE, LOAD)                                                                   \
  TESSERA_TMEM_ONE(DIR, SHAPE, 1, LOAD) TESSERA_TMEM_ONE(DIR, SHAPE, 2, LOAD) TESSERA_TMEM_ONE(DIR, SHAPE, 4, LOAD) \
  TESSERA_TMEM_ONE(DIR, SHAPE, 8, LOAD) TESSERA_TMEM_ONE(DIR, SHAPE, 16, LOAD) TESSERA_TMEM_ONE(DIR, SHAPE, 32, LOAD)
#define TESSERA_TMEM_DIR(DIR, LOAD)                                                                         \
  TESSERA_TMEM_32(DIR, 32dp32b, LOAD) TESSERA_TMEM_ONE(DIR, 32dp32b, 64, LOAD) TESSERA_TMEM_ONE(DIR, 32dp32b, 128, LOAD) \
  TESSERA_TMEM_32(DIR, 16dp64b, LOAD) TESSERA_TMEM_ONE(DIR, 16dp64b, 64, LOAD) TESSERA_TMEM_ONE(DIR, 16dp64b, 128, LOAD) \
  TESSERA_TMEM_32(DIR, 16dp128b, LOAD) TESSERA_TMEM_ONE(DIR, 16dp128b, 64, LOAD)                                         \
  TESSERA_TMEM_32(DIR, 16dp256b, LOAD)                                                                                  \
  TESSERA_TMEM_32(DIR, 16dp32b, LOAD) TESSERA_TMEM_ONE(DIR, 16dp32b, 64, LOAD) TESSERA_TMEM_ONE(DIR, 16dp32b, 128, LOAD)
  TESSERA_TMEM_DIR(LOAD, true)
  TESSERA_TMEM_DIR(STORE, false)
#undef TESSERA_TMEM_DIR
#undef TESSERA_TMEM_32
#undef TESSERA_TMEM_ONE
}

}  // namespace tessera::rt::detail
