// Example 4a: the thread partition of tessera's tensor-core GEMM, checked on the host.
//
// The tensor-core kernel (tessera/kernels/partitions.hpp) builds its tiled MMA from the
// SM80 m16n8k16 atom: 2 x 4 warps over a 128 x 256 CTA tile, each warp one 64 x 64 block.
// The same tiled MMA is written out below with the static tier (include/tessera), and a
// static_assert checks it is the very type the kernel uses (its partitions header links as
// tessera::kernels_args, host code, no CUDA), so this example cannot drift from the kernel.
// Every index the kernel uses comes from this object's TV maps, so checking the maps here,
// with no GPU, checks which thread computes which output element on the GPU.
#include <cstdio>
#include <string>
#include <type_traits>

#include <tessera/kernels/partitions.hpp>  // the kernels' own partition types (tessera::kernels_args)
#include <tessera/tiled_mma.hpp>
#include <tessera/testing/claims.hpp>

using namespace tessera;
using namespace tessera::testing;

constexpr int BM = 128, BN = 256;     // CTA tile
constexpr int WM = 2, WN = 4;         // warps along M and N (warp w sits at (w % 2, w / 2))
constexpr int WarpM = BM / WM, WarpN = BN / WN, MT = WarpM / 16, NT = WarpN / 8;

// Warps: (WM, WN, 1) column-major. Permutations: rows a + 16*w + 32*i of the tile go to
// a + WarpM*w + 16*i, so each warp owns one contiguous WarpM x WarpN block.
using PermM = Layout<tuple<_16, C<WM>, C<MT>>, tuple<_1, C<WarpM>, _16>>;
using PermN = Layout<tuple<_8, C<WN>, C<NT>>, tuple<_1, C<WarpN>, _8>>;
using TiledMma = decltype(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{},
                                         Layout<tuple<C<WM>, C<WN>, _1>, tuple<_1, C<WM>, _0>>{},
                                         make_tuple(PermM{}, PermN{}, Underscore{})));

// The kernel's default f16 configuration (the one tessera::kernels::gemm launches): A and B
// K-major (the majors pick the copies and smem swizzles, not the tiled MMA).
using KernelPartition = kernels::DefaultTensorOpPartition</*bf16*/ false, /*A K-major*/ true, /*B K-major*/ true>;
static_assert(std::is_same_v<TiledMma, KernelPartition::TiledMma>,
              "example 4a's tiled MMA must be the one the tensor-core kernel builds");

// Prints "yes" or the claim's first counterexample; returns whether the claim holds.
bool report(const char* what, const LayoutClaim& claim, LayoutArg const& l) {
  const std::string why = claim.verify(l);
  std::printf("%-52s %s\n", what, why.empty() ? "yes" : why.c_str());
  return why.empty();
}

int main() {
  const TiledMma mma{};
  static_assert(TiledMma::template tile_size_mnk<0>() == BM && TiledMma::template tile_size_mnk<1>() == BN);
  const auto c_tv = mma.get_layoutC_TV();  // (thread, value) -> m + BM*n
  const auto a_tv = mma.get_layoutA_TV();  // (thread, value) -> m + BM*k, one k16 step
  std::printf("C TV map: %s\n", rt::to_string(rt::to_runtime(c_tv)).c_str());

  bool ok = true;
  // Each output element is accumulated by exactly one thread: no races, no gaps.
  ok &= report("C: every (m,n) of the 128x256 tile written once?", CoversTileOnceClaim(make_shape(C<BM>{}, C<BN>{})),
               c_tv);
  // A is read by every warp of a row of warps: onto the 128x16 slice, not once.
  ok &= report("A: every (m,k) of the 128x16 slice read?", IsSurjectiveOntoClaim(BM * 16), a_tv);

  // Each warp's outputs stay inside its own 64x64 block (what the permutation is for).
  int outside = 0;
  for (int t = 0; t < int(size(mma)); ++t) {
    const int warp = t / 32, wm = warp % WM, wn = warp / WM;
    for (int v = 0; v < int(size<1>(c_tv)); ++v) {
      const int idx = int(c_tv(t, v)), m = idx % BM, n = idx / BM;
      outside += m / WarpM != wm || n / WarpN != wn;
    }
  }
  std::printf("%-52s %s\n", "C: each warp stays in its 64x64 block?", outside == 0 ? "yes" : "NO");
  ok &= outside == 0;
  return ok ? 0 : 1;
}
