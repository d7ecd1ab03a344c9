// The Blackwell (SM100) atoms by name: tcgen05.mma (f16/bf16, tf32, i8; 1 CTA and CTA pair;
// A from shared memory, _SS, or tensor memory, _TS) and tcgen05.ld/st. Names are CuTe's op with
// the shape and types spelled out, as CuTe's SM90 aliases do:
//   SM100_MMA_F16BF16_SS_128x256x16_F32BF16BF16  = SM100_MMA_F16BF16_SS<bfloat16_t, bfloat16_t, float, 128, 256, K, K>
//   SM100_TMEM_LOAD_32dp32b8x                    = CuTe's SM100_TMEM_LOAD_32dp32b8x
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
