// Blackwell tensor-memory copy atoms, tcgen05.ld (LOAD) and tcgen05.st (STORE) (PTX ISA, tcgen05
// "Data Movement Shape", "Matrix fragments for shape .32x32b / .16x64b / .16x128b / .16x256b /
// .16x32bx2"), with CuTe's traits:
//   ThrID      the warp's 32 threads
//   ValID      the atom's logical bit -> tensor-memory bit address lane * DP_b + 32 * column + bit
//              (DP_b = 2^21: a lane is 2^16 columns of 32 bits apart)
//   SrcLayout  (thread, value) -> logical bit: the tensor-memory side (LOAD's source, STORE's
//              destination) gives every thread the whole block (stride 0), as an smem operand of
//              wgmma; the register side gives each thread its registers' bits
//   DstLayout  the other side
//   RefLayout  the tensor-memory side
// A logical bit is b + W * lane (lane of the atom's 32 or 16, b < W the bits the atom moves per
// lane), so ValID is (W, lanes):(1, DP_b); with .pack::16b / .unpack::16b each 16 bits take a
// 32-bit column of their own: ((16, W/16), lanes):((1, 32), DP_b).
// Registers (thread t = lane of the warp, W bits per lane):
//   .32x32b    thread t holds lane t: (32, W):(W, 1)
//   .16x32bx2  threads t and t+16 hold lane t's first and second halves: ((16,2),W/2):((W,W/2),1)
//   .16x64b    thread t: lane t/4 + 8 (t%2), 32 bits (t/2)%2 of each 64-bit repetition
//   .16x128b   thread t: lanes t/4 and t/4 + 8, 32-bit column t%4 of each 128-bit repetition
//   .16x256b   thread t: lanes t/4 and t/4 + 8, 64 bits (t%4) of each 256-bit repetition
#pragma once

#include <type_traits>

#include "tessera/atom/copy_atom.hpp"
#include "tessera/atom/detail/copy_ops_sm100.hpp"

namespace tessera {

namespace TMEM {
using DP_b = C<(1 << 21)>;  // a lane's stride in tensor-memory bit addresses

// The layouts of a LOAD of Lanes lanes and W bits per lane, given its register layout.
template <int Lanes, int W, bool Pack16, class Registers>
struct load_layouts {
  using ThrID = Layout<_32, _1>;
  using ValID = std::conditional_t<Pack16, Layout<tuple<tuple<_16, C<W / 16>>, C<Lanes>>, tuple<tuple<_1, _32>, DP_b>>,
                                   Layout<tuple<C<W>, C<Lanes>>, tuple<_1, DP_b>>>;
  using SrcLayout = Layout<tuple<_32, C<W * Lanes>>, tuple<_0, _1>>;
  using DstLayout = Registers;
  using RefLayout = SrcLayout;
};
// A STORE moves the same bits the other way: its source is the LOAD's destination.
template <class Load>
struct store_layouts {
  using ThrID = typename Load::ThrID;
  using ValID = typename Load::ValID;
  using SrcLayout = typename Load::DstLayout;
  using DstLayout = typename Load::SrcLayout;
  using RefLayout = typename Load::RefLayout;
};

// Register layouts, N repetitions (.num).
template <int N>
using regs_32dp32b = Layout<tuple<_32, C<32 * N>>, tuple<C<32 * N>, _1>>;
template <int N>
using regs_16dp32b = Layout<tuple<tuple<_16, _2>, C<32 * N>>, tuple<tuple<C<64 * N>, C<32 * N>>, _1>>;
template <int N>
using regs_16dp64b = std::conditional_t<N == 1, Layout<tuple<tuple<_2, _2, _8>, _32>, tuple<tuple<_512, _32, _64>, _1>>,
                                        Layout<tuple<tuple<_2, _2, _8>, tuple<_32, C<N>>>,
                                               tuple<tuple<C<512 * N>, _32, C<64 * N>>, tuple<_1, _64>>>>;
template <int N>
using regs_16dp128b =
    std::conditional_t<N == 1, Layout<tuple<tuple<_4, _8>, tuple<_32, _2>>, tuple<tuple<_32, _128>, tuple<_1, _1024>>>,
                       Layout<tuple<tuple<_4, _8>, tuple<_32, _2, C<N>>>,
                              tuple<tuple<_32, C<128 * N>>, tuple<_1, C<1024 * N>, _128>>>>;
template <int N>
using regs_16dp256b =
    std::conditional_t<N == 1, Layout<tuple<tuple<_4, _8>, tuple<_64, _2>>, tuple<tuple<_64, _256>, tuple<_1, _2048>>>,
                       Layout<tuple<tuple<_4, _8>, tuple<_64, _2, C<N>>>,
                              tuple<tuple<_64, C<256 * N>>, tuple<_1, C<2048 * N>, _256>>>>;

template <int N, bool P> using ld_32dp32b = load_layouts<32, 32 * N, P, regs_32dp32b<N>>;
template <int N, bool P> using ld_16dp32b = load_layouts<16, 64 * N, P, regs_16dp32b<N>>;
template <int N, bool P> using ld_16dp64b = load_layouts<16, 64 * N, P, regs_16dp64b<N>>;
template <int N, bool P> using ld_16dp128b = load_layouts<16, 128 * N, P, regs_16dp128b<N>>;
template <int N, bool P> using ld_16dp256b = load_layouts<16, 256 * N, P, regs_16dp256b<N>>;
}  // namespace TMEM

#define TESSERA_TMEM_COPY_TRAITS(OP, ...)         \
  template <>                                    \
  struct Copy_Traits<OP> : __VA_ARGS__ {         \
    static constexpr const char* name = #OP;     \
  };

TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_32dp32b1x, TMEM::ld_32dp32b<1, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_32dp32b1x, TMEM::store_layouts<TMEM::ld_32dp32b<1, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_32dp32b1x_16b, TMEM::ld_32dp32b<1, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_32dp32b1x_16b, TMEM::store_layouts<TMEM::ld_32dp32b<1, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_32dp32b2x, TMEM::ld_32dp32b<2, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_32dp32b2x, TMEM::store_layouts<TMEM::ld_32dp32b<2, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_32dp32b2x_16b, TMEM::ld_32dp32b<2, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_32dp32b2x_16b, TMEM::store_layouts<TMEM::ld_32dp32b<2, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_32dp32b4x, TMEM::ld_32dp32b<4, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_32dp32b4x, TMEM::store_layouts<TMEM::ld_32dp32b<4, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_32dp32b4x_16b, TMEM::ld_32dp32b<4, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_32dp32b4x_16b, TMEM::store_layouts<TMEM::ld_32dp32b<4, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_32dp32b8x, TMEM::ld_32dp32b<8, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_32dp32b8x, TMEM::store_layouts<TMEM::ld_32dp32b<8, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_32dp32b8x_16b, TMEM::ld_32dp32b<8, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_32dp32b8x_16b, TMEM::store_layouts<TMEM::ld_32dp32b<8, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_32dp32b16x, TMEM::ld_32dp32b<16, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_32dp32b16x, TMEM::store_layouts<TMEM::ld_32dp32b<16, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_32dp32b16x_16b, TMEM::ld_32dp32b<16, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_32dp32b16x_16b, TMEM::store_layouts<TMEM::ld_32dp32b<16, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_32dp32b32x, TMEM::ld_32dp32b<32, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_32dp32b32x, TMEM::store_layouts<TMEM::ld_32dp32b<32, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_32dp32b32x_16b, TMEM::ld_32dp32b<32, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_32dp32b32x_16b, TMEM::store_layouts<TMEM::ld_32dp32b<32, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_32dp32b64x, TMEM::ld_32dp32b<64, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_32dp32b64x, TMEM::store_layouts<TMEM::ld_32dp32b<64, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_32dp32b64x_16b, TMEM::ld_32dp32b<64, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_32dp32b64x_16b, TMEM::store_layouts<TMEM::ld_32dp32b<64, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_32dp32b128x, TMEM::ld_32dp32b<128, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_32dp32b128x, TMEM::store_layouts<TMEM::ld_32dp32b<128, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_32dp32b128x_16b, TMEM::ld_32dp32b<128, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_32dp32b128x_16b, TMEM::store_layouts<TMEM::ld_32dp32b<128, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp64b1x, TMEM::ld_16dp64b<1, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp64b1x, TMEM::store_layouts<TMEM::ld_16dp64b<1, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp64b1x_16b, TMEM::ld_16dp64b<1, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp64b1x_16b, TMEM::store_layouts<TMEM::ld_16dp64b<1, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp64b2x, TMEM::ld_16dp64b<2, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp64b2x, TMEM::store_layouts<TMEM::ld_16dp64b<2, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp64b2x_16b, TMEM::ld_16dp64b<2, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp64b2x_16b, TMEM::store_layouts<TMEM::ld_16dp64b<2, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp64b4x, TMEM::ld_16dp64b<4, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp64b4x, TMEM::store_layouts<TMEM::ld_16dp64b<4, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp64b4x_16b, TMEM::ld_16dp64b<4, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp64b4x_16b, TMEM::store_layouts<TMEM::ld_16dp64b<4, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp64b8x, TMEM::ld_16dp64b<8, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp64b8x, TMEM::store_layouts<TMEM::ld_16dp64b<8, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp64b8x_16b, TMEM::ld_16dp64b<8, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp64b8x_16b, TMEM::store_layouts<TMEM::ld_16dp64b<8, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp64b16x, TMEM::ld_16dp64b<16, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp64b16x, TMEM::store_layouts<TMEM::ld_16dp64b<16, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp64b16x_16b, TMEM::ld_16dp64b<16, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp64b16x_16b, TMEM::store_layouts<TMEM::ld_16dp64b<16, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp64b32x, TMEM::ld_16dp64b<32, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp64b32x, TMEM::store_layouts<TMEM::ld_16dp64b<32, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp64b32x_16b, TMEM::ld_16dp64b<32, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp64b32x_16b, TMEM::store_layouts<TMEM::ld_16dp64b<32, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp64b64x, TMEM::ld_16dp64b<64, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp64b64x, TMEM::store_layouts<TMEM::ld_16dp64b<64, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp64b64x_16b, TMEM::ld_16dp64b<64, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp64b64x_16b, TMEM::store_layouts<TMEM::ld_16dp64b<64, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp64b128x, TMEM::ld_16dp64b<128, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp64b128x, TMEM::store_layouts<TMEM::ld_16dp64b<128, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp64b128x_16b, TMEM::ld_16dp64b<128, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp64b128x_16b, TMEM::store_layouts<TMEM::ld_16dp64b<128, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp128b1x, TMEM::ld_16dp128b<1, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp128b1x, TMEM::store_layouts<TMEM::ld_16dp128b<1, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp128b1x_16b, TMEM::ld_16dp128b<1, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp128b1x_16b, TMEM::store_layouts<TMEM::ld_16dp128b<1, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp128b2x, TMEM::ld_16dp128b<2, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp128b2x, TMEM::store_layouts<TMEM::ld_16dp128b<2, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp128b2x_16b, TMEM::ld_16dp128b<2, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp128b2x_16b, TMEM::store_layouts<TMEM::ld_16dp128b<2, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp128b4x, TMEM::ld_16dp128b<4, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp128b4x, TMEM::store_layouts<TMEM::ld_16dp128b<4, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp128b4x_16b, TMEM::ld_16dp128b<4, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp128b4x_16b, TMEM::store_layouts<TMEM::ld_16dp128b<4, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp128b8x, TMEM::ld_16dp128b<8, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp128b8x, TMEM::store_layouts<TMEM::ld_16dp128b<8, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp128b8x_16b, TMEM::ld_16dp128b<8, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp128b8x_16b, TMEM::store_layouts<TMEM::ld_16dp128b<8, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp128b16x, TMEM::ld_16dp128b<16, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp128b16x, TMEM::store_layouts<TMEM::ld_16dp128b<16, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp128b16x_16b, TMEM::ld_16dp128b<16, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp128b16x_16b, TMEM::store_layouts<TMEM::ld_16dp128b<16, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp128b32x, TMEM::ld_16dp128b<32, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp128b32x, TMEM::store_layouts<TMEM::ld_16dp128b<32, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp128b32x_16b, TMEM::ld_16dp128b<32, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp128b32x_16b, TMEM::store_layouts<TMEM::ld_16dp128b<32, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp128b64x, TMEM::ld_16dp128b<64, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp128b64x, TMEM::store_layouts<TMEM::ld_16dp128b<64, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp128b64x_16b, TMEM::ld_16dp128b<64, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp128b64x_16b, TMEM::store_layouts<TMEM::ld_16dp128b<64, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp256b1x, TMEM::ld_16dp256b<1, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp256b1x, TMEM::store_layouts<TMEM::ld_16dp256b<1, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp256b1x_16b, TMEM::ld_16dp256b<1, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp256b1x_16b, TMEM::store_layouts<TMEM::ld_16dp256b<1, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp256b2x, TMEM::ld_16dp256b<2, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp256b2x, TMEM::store_layouts<TMEM::ld_16dp256b<2, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp256b2x_16b, TMEM::ld_16dp256b<2, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp256b2x_16b, TMEM::store_layouts<TMEM::ld_16dp256b<2, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp256b4x, TMEM::ld_16dp256b<4, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp256b4x, TMEM::store_layouts<TMEM::ld_16dp256b<4, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp256b4x_16b, TMEM::ld_16dp256b<4, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp256b4x_16b, TMEM::store_layouts<TMEM::ld_16dp256b<4, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp256b8x, TMEM::ld_16dp256b<8, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp256b8x, TMEM::store_layouts<TMEM::ld_16dp256b<8, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp256b8x_16b, TMEM::ld_16dp256b<8, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp256b8x_16b, TMEM::store_layouts<TMEM::ld_16dp256b<8, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp256b16x, TMEM::ld_16dp256b<16, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp256b16x, TMEM::store_layouts<TMEM::ld_16dp256b<16, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp256b16x_16b, TMEM::ld_16dp256b<16, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp256b16x_16b, TMEM::store_layouts<TMEM::ld_16dp256b<16, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp256b32x, TMEM::ld_16dp256b<32, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp256b32x, TMEM::store_layouts<TMEM::ld_16dp256b<32, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp256b32x_16b, TMEM::ld_16dp256b<32, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp256b32x_16b, TMEM::store_layouts<TMEM::ld_16dp256b<32, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp32b1x, TMEM::ld_16dp32b<1, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp32b1x, TMEM::store_layouts<TMEM::ld_16dp32b<1, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp32b1x_16b, TMEM::ld_16dp32b<1, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp32b1x_16b, TMEM::store_layouts<TMEM::ld_16dp32b<1, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp32b2x, TMEM::ld_16dp32b<2, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp32b2x, TMEM::store_layouts<TMEM::ld_16dp32b<2, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp32b2x_16b, TMEM::ld_16dp32b<2, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp32b2x_16b, TMEM::store_layouts<TMEM::ld_16dp32b<2, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp32b4x, TMEM::ld_16dp32b<4, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp32b4x, TMEM::store_layouts<TMEM::ld_16dp32b<4, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp32b4x_16b, TMEM::ld_16dp32b<4, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp32b4x_16b, TMEM::store_layouts<TMEM::ld_16dp32b<4, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp32b8x, TMEM::ld_16dp32b<8, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp32b8x, TMEM::store_layouts<TMEM::ld_16dp32b<8, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp32b8x_16b, TMEM::ld_16dp32b<8, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp32b8x_16b, TMEM::store_layouts<TMEM::ld_16dp32b<8, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp32b16x, TMEM::ld_16dp32b<16, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp32b16x, TMEM::store_layouts<TMEM::ld_16dp32b<16, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp32b16x_16b, TMEM::ld_16dp32b<16, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp32b16x_16b, TMEM::store_layouts<TMEM::ld_16dp32b<16, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp32b32x, TMEM::ld_16dp32b<32, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp32b32x, TMEM::store_layouts<TMEM::ld_16dp32b<32, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp32b32x_16b, TMEM::ld_16dp32b<32, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp32b32x_16b, TMEM::store_layouts<TMEM::ld_16dp32b<32, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp32b64x, TMEM::ld_16dp32b<64, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp32b64x, TMEM::store_layouts<TMEM::ld_16dp32b<64, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp32b64x_16b, TMEM::ld_16dp32b<64, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp32b64x_16b, TMEM::store_layouts<TMEM::ld_16dp32b<64, true>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp32b128x, TMEM::ld_16dp32b<128, false>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp32b128x, TMEM::store_layouts<TMEM::ld_16dp32b<128, false>>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_LOAD_16dp32b128x_16b, TMEM::ld_16dp32b<128, true>)
TESSERA_TMEM_COPY_TRAITS(SM100_TMEM_STORE_16dp32b128x_16b, TMEM::store_layouts<TMEM::ld_16dp32b<128, true>>)

#undef TESSERA_TMEM_COPY_TRAITS

}  // namespace tessera
