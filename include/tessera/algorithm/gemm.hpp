// gemm: C += A * B over one thread's MMA fragments, in CuTe's order of modes:
//
//   gemm(tiled_mma_or_atom, A, B, C)
//     A (V,M,K) x B (V,N,K) -> C (V,M,N)   for each k: the (V,M) x (V,N) case
//     A (V,M)   x B (V,N)   -> C (V,M,N)   one instruction per (m, n), n serpentine over m
//                                          (consecutive instructions share A or B)
//     A (V)     x B (V)     -> C (V)       one instruction
//   V = one atom's values of the operand (partition_fragment_A/B/C's mode 0).
//
// One instruction (mma_atom_call): the V values of A, B and C packed into the register
// arrays the instruction takes (in the order of the atom's value index), the instruction
// issued, D unpacked into C.  With register fragments and static layouts every index is a
// constant: the packing is register moves.
//
// wgmma atoms (Hopper) take their shared-memory operands as descriptors and accumulate in
// place, with a scale-d that says whether D = A*B or D = A*B + D:
//
//   gemm(tiled_mma, tCrA, tCrB, tCrC [, GMMA::ScaleOut scale = One])
//     tCrA (1,M,K) descriptors (partition_fragment_A of the smem tensor: SS atoms) or
//          (V,M,K) registers (RS atoms); tCrB (1,N,K) descriptors -> tCrC (V,M,N) registers
//     one wgmma per (k, m, n), k outermost; `scale` is the first k-block's scale-d, the
//     others accumulate: ScaleOut::Zero computes C = A*B over this call's K, One C += A*B.
//
// The accumulators are the instruction's "+f"/"+r" operands where C(_, m, n) is contiguous
// and of the register type (f32 accumulators from partition_fragment_C): the wgmma then
// reads and writes C's own registers, nothing is copied; otherwise they are packed and
// unpacked around it. Only wgmma atoms take a ScaleOut.
//
// On the host (no __CUDA_ARCH__) a one-thread atom (UniversalFMA) runs as it is; a warp
// atom (mma.sync) is emulated from its TV layouts through tessera::host_warp: thread t's
// value v of D is  sum_k A(m,k) * B(n,k) + C(m,n)  with (m,n) = CLayout(t,v) and A(m,k),
// B(n,k) read from the lane and value that ALayout / BLayout place them at.  (Sums in
// double, or int64 for integer atoms, then converted to D's type: exact for the small
// integers the tests use; the hardware's fp32 sum order is not modelled.)  tessera's wgmma
// atoms with f32 accumulators are emulated too, inside host_warp::launch: each thread
// computes its own accumulators, reading the shared-memory operands through their
// descriptors from the buffer host_warp::set_shared_memory names (host_wgmma_ss), and A of
// RS atoms from the registers of the lanes of its warp that ALayout places it in
// (host_wgmma_rs: a warp-collective step); other wgmma atoms stop loudly.
#pragma once

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include "tessera/algorithm/detail/atom_operands.hpp"
#include "tessera/algorithm/host_warp.hpp"
#include "tessera/atom/gmma_descriptor_iterator.hpp"
#include "tessera/atom/mma.hpp"

namespace tessera {

namespace detail {
template <class M> inline constexpr bool is_mma_like_v = requires {
  typename std::remove_cvref_t<M>::Operation;
  typename std::remove_cvref_t<M>::ALayout;
  typename std::remove_cvref_t<M>::BLayout;
  typename std::remove_cvref_t<M>::CLayout;
  typename std::remove_cvref_t<M>::Shape_MNK;
};
template <class Tn> inline constexpr int tensor_rank_v = std::remove_cvref_t<Tn>::rank;

#if !defined(__CUDA_ARCH__)
// Host: element index -> (thread, value) of a TV layout, first match (built once per layout).
template <class TV>
std::vector<std::array<int, 2>> const& tv_inverse() {
  static const std::vector<std::array<int, 2>> table = [] {
    TV tv{};
    int64_t extent = 0;
    for (int t = 0; t < int(size<0>(tv)); ++t)
      for (int v = 0; v < int(size<1>(tv)); ++v) extent = std::max<int64_t>(extent, tv(t, v) + 1);
    std::vector<std::array<int, 2>> inv(std::size_t(extent), std::array<int, 2>{-1, -1});
    for (int t = 0; t < int(size<0>(tv)); ++t)
      for (int v = 0; v < int(size<1>(tv)); ++v)
        if (inv[std::size_t(tv(t, v))][0] < 0) inv[std::size_t(tv(t, v))] = {t, v};
    return inv;
  }();
  return table;
}
// Host: lane -> (atom thread, lane of the atom's thread 0): the warp's lanes are the atom's
// ThrID shifted by the offsets of complement(ThrID, 32) (one atom per offset).
template <class ThrID>
std::array<int, 2> atom_thread_of(int lane) {
  ThrID thr{};
  auto offsets = complement(thr, C<32>{});
  for (int q = 0; q < int(size(offsets.shape())); ++q)
    for (int t = 0; t < int(size(thr.shape())); ++t)
      if (int(thr(t)) + int(offsets(q)) == lane) return {t, int(offsets(q))};
  return {-1, -1};
}
#endif

// Issue the instruction on the values packed into its registers.
template <class Op, class DTn, class ATn, class BTn, class CTn>
TESSERA_HOST_DEVICE TESSERA_INLINE void mma_issue(DTn&& D, ATn const& A, BTn const& B, CTn const& Cc) {
  typename Op::DRegisters d;
  typename Op::ARegisters a;
  typename Op::BRegisters b;
  typename Op::CRegisters c;
  pack_values(a, A);
  pack_values(b, B);
  pack_values(c, Cc);
  Op::fma(d, a, b, c);
  unpack_values(d, D);
}

// A wgmma operand as the instruction takes it: a descriptor fragment's one descriptor (an
// operand in shared memory), or the thread's values packed into registers (A of RS atoms).
template <class AtomTV, class Regs, class Tn>
TESSERA_HOST_DEVICE TESSERA_INLINE void wgmma_operand(Regs& regs, Tn const& t) {
  constexpr bool shared = operand_is_shared<AtomTV>();
  if constexpr (GMMA::is_descriptor_fragment_v<Tn>) {
    static_assert(shared, "gemm: this wgmma atom reads the operand from registers (A of an RS atom): give partition_fragment_A's registers, not descriptors");
    static_assert(decltype(size(t.layout()))::value == 1,
                  "gemm: a descriptor fragment's mode 0 is one descriptor (partition_fragment_A/B of the shared-memory tensor)");
    static_assert(sizeof(Regs) == sizeof(uint64_t), "gemm: a wgmma takes one 64-bit descriptor per shared-memory operand");
    regs[0] = t[0].desc;
  } else if constexpr (shared) {
    static_assert(!shared, "gemm: this atom reads its operands from shared memory (wgmma): it takes descriptors, not register "
                           "fragments (partition_fragment_A/B of the shared-memory tensor)");
  } else {
    static_assert(decltype(size(t.layout()))::value == decltype(size<1>(AtomTV{}))::value,
                  "gemm: each fragment's mode 0 must hold one atom's values of its operand (partition_fragment_A/B/C)");
    pack_values(regs, t);
  }
}
// Run f on the accumulator registers of C: C's own storage where its values lie contiguously
// and have the registers' type (then the instruction's "+f" operands are C's registers),
// else a packed copy written back after.
template <class Regs, class Tn, class F>
TESSERA_HOST_DEVICE TESSERA_INLINE void with_accumulators(Tn&& t, F&& f) {
  using V = tensor_value_t<Tn>;
  using R = std::remove_extent_t<Regs>;
  using L = std::remove_cvref_t<decltype(t.layout())>;
  if constexpr (std::is_same_v<V, R> && std::is_pointer_v<std::remove_cvref_t<decltype(t.data())>> && values_contiguous<L>()) {
    static_assert(sizeof(Regs) == decltype(size(t.layout()))::value * sizeof(V),
                  "gemm: each fragment's mode 0 must hold one atom's values of its operand (partition_fragment_C)");
    f(*reinterpret_cast<Regs*>(&t[0]));
  } else {
    Regs r;
    pack_values(r, t);
    f(r);
    unpack_values(r, t);
  }
}
#if !defined(__CUDA_ARCH__)
// What every host wgmma shares: the atom's traits, its M and K, and the calling thread's index
// in its warpgroup (stopping loudly outside host_warp::launch).
template <class Op>
struct HostWgmma {
  using Traits = MMA_Traits<Op>;
  static_assert(std::is_same_v<typename Traits::ValTypeC, float>, "gemm on the host: the wgmma emulation covers f32 accumulators");
  using Shape = typename Traits::Shape_MNK;
  static constexpr int M = int(std::remove_cvref_t<decltype(get<0>(Shape{}))>::value);
  static constexpr int K = int(std::remove_cvref_t<decltype(get<2>(Shape{}))>::value);
  static int thread() {
    host_warp::Lane const& me = host_warp::this_lane();
    if (me.block == nullptr) {
      std::fprintf(stderr, "tessera: %s on the host runs only inside tessera::host_warp::launch\n", Traits::name);
      std::abort();
    }
    return me.thread % GMMA::warpgroup_threads;
  }
};

// Host: the calling thread's accumulators of one wgmma whose operands both lie in shared memory
// (SS atoms, f32 accumulators), read through their descriptors (GMMA::descriptor_address) from
// host_warp's shared memory: value v of D is sum_k A(m,k) B(n,k) (+ D) at (m,n) = CLayout(t, v),
// t the thread's index in its warpgroup. (No exchange between threads: each reads smem.)
template <class Op, class Regs>
void host_wgmma_ss(uint64_t desc_a, uint64_t desc_b, Regs& d, GMMA::ScaleOut scale) {
  using W = HostWgmma<Op>;
  using Traits = typename W::Traits;
  using TA = typename Traits::ValTypeA;
  using TB = typename Traits::ValTypeB;
  constexpr int M = W::M, K = W::K;
  typename Traits::CLayout cl{};
  const int t = W::thread();
  auto load = [](auto tag, uint32_t address) {
    using V = typename decltype(tag)::type;
    V v;
    std::memcpy(&v, host_warp::shared_byte(address, sizeof(V)), sizeof(V));
    return convert_to<double>(v);
  };
  for (int v = 0; v < int(decltype(size<1>(cl))::value); ++v) {
    const int64_t mn = cl(t, v);
    const int64_t m = mn % M, n = mn / M;
    double acc = scale == GMMA::ScaleOut::One ? double(d[v]) : 0.0;
    for (int64_t k = 0; k < K; ++k)
      acc += load(std::type_identity<TA>{}, GMMA::descriptor_address(GMMA::GmmaDescriptor{desc_a}, Traits::major_A, sizeof_bits_v<TA>, m, k)) *
             load(std::type_identity<TB>{}, GMMA::descriptor_address(GMMA::GmmaDescriptor{desc_b}, Traits::major_B, sizeof_bits_v<TB>, n, k));
    d[v] = float(acc);
  }
}

// Host: the calling thread's accumulators of one wgmma whose A lies in registers (RS atoms, f32
// accumulators): A(m,k) is value va of the lane that ALayout's inverse names (an RS atom's rows
// of warp q are held by warp q's lanes, so the warp's published fragments are enough: a layout
// that placed them elsewhere stops loudly), B(n,k) read through its descriptor as in
// host_wgmma_ss. `A`: this thread's fragment of the atom's values (every lane's has one type).
template <class Op, class ALayout, class ATn, class Regs>
void host_wgmma_rs(ATn const& A, uint64_t desc_b, Regs& d, GMMA::ScaleOut scale) {
  using W = HostWgmma<Op>;
  using Traits = typename W::Traits;
  using TB = typename Traits::ValTypeB;
  constexpr int M = W::M, K = W::K;
  typename Traits::CLayout cl{};
  const int t = W::thread();
  auto const& ainv = tv_inverse<ALayout>();
  host_warp::collective(Traits::name, {&A, nullptr, nullptr, nullptr}, [&](int, auto const& published) {
    for (int v = 0; v < int(decltype(size<1>(cl))::value); ++v) {
      const int64_t mn = cl(t, v);
      const int64_t m = mn % M, n = mn / M;
      double acc = scale == GMMA::ScaleOut::One ? double(d[v]) : 0.0;
      for (int64_t k = 0; k < K; ++k) {
        const auto [ta, va] = ainv[std::size_t(m + M * k)];
        if (ta < 0 || ta / host_warp::warp_size != t / host_warp::warp_size) {
          std::fprintf(stderr, "tessera: %s on the host: A(%d,%d) lies outside the warp of thread %d\n", Traits::name, int(m),
                       int(k), t);
          std::abort();
        }
        auto const& a = *static_cast<ATn const*>(published[std::size_t(ta % host_warp::warp_size)][0]);
        const uint32_t address = GMMA::descriptor_address(GMMA::GmmaDescriptor{desc_b}, Traits::major_B, sizeof_bits_v<TB>, n, k);
        TB b;
        std::memcpy(&b, host_warp::shared_byte(address, sizeof(TB)), sizeof(TB));
        acc += convert_to<double>(a[va]) * convert_to<double>(b);
      }
      d[v] = float(acc);
    }
  });
}
#endif

// One wgmma: C = A * B + (scale == One ? C : 0), C in place. On the host, the atoms with f32
// accumulators are emulated (host_wgmma_ss, host_wgmma_rs); the others stop loudly.
template <class Atom, class ATn, class BTn, class CTn>
TESSERA_HOST_DEVICE TESSERA_INLINE void wgmma_atom_call(ATn const& A, BTn const& B, CTn&& Cc, GMMA::ScaleOut scale) {
  using Op = typename Atom::Operation;
  typename Op::ARegisters a;
  typename Op::BRegisters b;
  wgmma_operand<typename Atom::ALayout>(a, A);
  wgmma_operand<typename Atom::BLayout>(b, B);
#if !defined(__CUDA_ARCH__)
  if constexpr (GMMA::is_instruction_v<Op> && operand_is_shared<typename Atom::ALayout>() &&
                std::is_same_v<typename MMA_Traits<Op>::ValTypeC, float>) {
    with_accumulators<typename Op::DRegisters>(Cc, [&](typename Op::DRegisters& d) { host_wgmma_ss<Op>(a[0], b[0], d, scale); });
    return;
  }
  if constexpr (GMMA::is_instruction_v<Op> && !operand_is_shared<typename Atom::ALayout>() &&
                std::is_same_v<typename MMA_Traits<Op>::ValTypeC, float>) {
    with_accumulators<typename Op::DRegisters>(
        Cc, [&](typename Op::DRegisters& d) { host_wgmma_rs<Op, typename Atom::ALayout>(A, b[0], d, scale); });
    return;
  }
#endif
  with_accumulators<typename Op::DRegisters>(Cc, [&](typename Op::DRegisters& d) { Op::fma(d, a, b, scale); });
}

// One instruction of Atom: D = A * B + C on the thread's V values of each.
template <class Atom, class DTn, class ATn, class BTn, class CTn>
TESSERA_HOST_DEVICE TESSERA_INLINE void mma_atom_call(DTn&& D, ATn const& A, BTn const& B, CTn const& Cc) {
  using Op = typename Atom::Operation;
  static_assert(!GMMA::is_descriptor_fragment_v<ATn> && !GMMA::is_descriptor_fragment_v<BTn>,
                "gemm: descriptor fragments are wgmma operands; this atom takes register fragments");
  using ThrID = typename Atom::ThrID;
  static_assert(decltype(size(A.layout()))::value == decltype(size<1>(typename Atom::ALayout{}))::value &&
                    decltype(size(B.layout()))::value == decltype(size<1>(typename Atom::BLayout{}))::value &&
                    decltype(size(Cc.layout()))::value == decltype(size<1>(typename Atom::CLayout{}))::value,
                "gemm: each fragment's mode 0 must hold one atom's values of its operand (partition_fragment_A/B/C)");
  constexpr bool one_thread = decltype(size(ThrID{}.shape()))::value == 1;
  // (ARegisters etc. exist only for register operands: wgmma SS reads A and B from smem.)
  static_assert(requires { typename Op::ARegisters; typename Op::BRegisters; },
                "gemm: this atom reads its operands from shared memory (wgmma): it takes descriptors, not register fragments");
  if constexpr (one_thread) {
    mma_issue<Op>(D, A, B, Cc);
  } else {
#if defined(__CUDA_ARCH__)
    mma_issue<Op>(D, A, B, Cc);
#else
    using AL = typename Atom::ALayout;
    using BL = typename Atom::BLayout;
    using CL = typename Atom::CLayout;
    using Shape = typename Atom::Shape_MNK;
    constexpr int M = int(std::remove_cvref_t<decltype(get<0>(Shape{}))>::value);
    constexpr int N = int(std::remove_cvref_t<decltype(get<1>(Shape{}))>::value);
    constexpr int K = int(std::remove_cvref_t<decltype(get<2>(Shape{}))>::value);
    constexpr int64_t vc = decltype(size<1>(CL{}))::value;
    using Acc = std::conditional_t<std::is_integral_v<typename Atom::ValTypeC>, int64_t, double>;
    host_warp::collective(Atom::name(), {&A, &B, nullptr, nullptr}, [&](int lane, auto const& published) {
      const auto [t, base] = atom_thread_of<ThrID>(lane);
      ThrID thr{};
      CL cl{};
      auto const& ainv = tv_inverse<AL>();
      auto const& binv = tv_inverse<BL>();
      Acc result[vc];
      for (int v = 0; v < int(vc); ++v) {
        const int64_t mn = cl(t, v);
        const int m = int(mn % M), n = int(mn / M);
        Acc acc = convert_to<Acc>(Cc[v]);
        for (int k = 0; k < K; ++k) {
          auto [ta, va] = ainv[std::size_t(m + M * k)];
          auto [tb, vb] = binv[std::size_t(n + N * k)];
          auto const& a = *static_cast<ATn const*>(published[std::size_t(base + int(thr(ta)))][0]);
          auto const& b = *static_cast<BTn const*>(published[std::size_t(base + int(thr(tb)))][1]);
          acc += convert_to<Acc>(a[va]) * convert_to<Acc>(b[vb]);
        }
        result[v] = acc;
      }
      for (int v = 0; v < int(vc); ++v) D[v] = convert_to<tensor_value_t<DTn>>(result[v]);
    });
#endif
  }
}
}  // namespace detail

namespace detail {
// gemm's dispatch over the modes; `scale` (wgmma atoms) is the first k-block's scale-d.
template <class MMA, class ATn, class BTn, class CTn>
TESSERA_HOST_DEVICE TESSERA_INLINE void gemm_modes(MMA const& mma, ATn const& A, BTn const& B, CTn&& Cc, GMMA::ScaleOut scale) {
  using Atom = MMA_Atom<typename MMA::Operation>;
  constexpr bool wgmma = GMMA::is_wgmma_v<typename MMA::Operation>;
  constexpr int RA = detail::tensor_rank_v<ATn>, RB = detail::tensor_rank_v<BTn>, RC = detail::tensor_rank_v<CTn>;
  if constexpr (RA == 1 && RB == 1 && RC == 1) {
    if constexpr (wgmma) detail::wgmma_atom_call<Atom>(A, B, Cc, scale);
    else detail::mma_atom_call<Atom>(Cc, A, B, Cc);
  } else if constexpr (RA == 2 && RB == 2 && RC == 3) {
    constexpr int64_t M = decltype(size<1>(A.layout()))::value;
    constexpr int64_t N = decltype(size<1>(B.layout()))::value;
    static_assert(M == decltype(size<1>(Cc.layout()))::value && N == decltype(size<2>(Cc.layout()))::value,
                  "gemm: A (V,M) x B (V,N) -> C (V,M,N): C's M and N must be A's M and B's N");
    detail::static_for<M>([&](auto m) {
      detail::static_for<N>([&](auto n_) {
        constexpr int64_t n = (decltype(m)::value % 2 == 0) ? decltype(n_)::value : N - 1 - decltype(n_)::value;
        if constexpr (wgmma) detail::wgmma_atom_call<Atom>(A(_, m), B(_, C<n>{}), Cc(_, m, C<n>{}), scale);
        else detail::mma_atom_call<Atom>(Cc(_, m, C<n>{}), A(_, m), B(_, C<n>{}), Cc(_, m, C<n>{}));
      });
    });
  } else if constexpr (RA == 3 && RB == 3 && RC == 3) {
    constexpr int64_t K = decltype(size<2>(A.layout()))::value;
    static_assert(K == decltype(size<2>(B.layout()))::value, "gemm: A (V,M,K) and B (V,N,K) must have the same K");
    detail::static_for<K>([&](auto k) {
      gemm_modes(mma, A(_, _, k), B(_, _, k), Cc, decltype(k)::value == 0 ? scale : GMMA::ScaleOut::One);
    });
  } else {
    static_assert(RA == 3 && RB == 3 && RC == 3,
                  "gemm: expects (V,M,K) x (V,N,K) -> (V,M,N), (V,M) x (V,N) -> (V,M,N) or (V) x (V) -> (V) fragments");
  }
}
}  // namespace detail

namespace GMMA {
// warpgroup_fence_operand over a register fragment (the f32 accumulators of
// partition_fragment_C): each register pinned in place around the wgmmas that read and write it.
template <class Tn>
  requires is_tensor_v<std::remove_cvref_t<Tn>>
TESSERA_HOST_DEVICE TESSERA_INLINE void warpgroup_fence_operand(Tn& fragment) {
  static_assert(std::is_same_v<tessera::detail::tensor_value_t<Tn>, float>, "warpgroup_fence_operand: f32 accumulator fragments");
#if defined(__CUDA_ARCH__)
  constexpr int n = int(decltype(size(fragment.layout()))::value);
#pragma unroll
  for (int i = 0; i < n; ++i) asm volatile("" : "+f"(fragment(i))::"memory");
#else
  (void)fragment;
#endif
}
}  // namespace GMMA

template <class MMA, class ATn, class BTn, class CTn>
  requires(detail::is_mma_like_v<MMA> && is_tensor_v<ATn> && is_tensor_v<BTn> && is_tensor_v<CTn>)
TESSERA_HOST_DEVICE TESSERA_INLINE void gemm(MMA const& mma, ATn const& A, BTn const& B, CTn&& Cc) {
  detail::gemm_modes(mma, A, B, Cc, GMMA::ScaleOut::One);
}
// wgmma atoms: `scale` is the scale-d of the first k-block (ScaleOut::Zero: C = A*B over this
// call's K, the accumulators' old values ignored; One: C += A*B).
template <class MMA, class ATn, class BTn, class CTn>
  requires(detail::is_mma_like_v<MMA> && is_tensor_v<ATn> && is_tensor_v<BTn> && is_tensor_v<CTn>)
TESSERA_HOST_DEVICE TESSERA_INLINE void gemm(MMA const& mma, ATn const& A, BTn const& B, CTn&& Cc, GMMA::ScaleOut scale) {
  static_assert(GMMA::is_wgmma_v<typename MMA::Operation>,
                "gemm: only wgmma atoms take a ScaleOut (their scale-d); other atoms accumulate into C: clear(C) first");
  detail::gemm_modes(mma, A, B, Cc, scale);
}

}  // namespace tessera
