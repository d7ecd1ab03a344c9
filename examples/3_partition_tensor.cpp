// Example 3: split a tile across threads with a thread-value (TV) layout, and check that
// every element is owned by exactly one (thread, value) pair.
//
// Everything here is the static tier (include/tessera: constexpr, host and device), the
// same code a kernel runs. The check is the testing kit's CoversTileOnce claim, used here
// without a test framework: verify() returns "" or names the first bad cell. (In a Catch2
// test: REQUIRE_THAT(tv, CoversTileOnce(tile)).)
#include <array>
#include <cstdio>
#include <numeric>
#include <string>

#include <tessera/tensor.hpp>
#include <tessera/tiled_copy.hpp>
#include <tessera/testing/claims.hpp>

using namespace tessera;
using tessera::testing::CoversTileOnceClaim;

// Prints the verdict, or the claim's counterexample; returns whether the claim holds.
template <class TV, class Tile>
bool check(const char* what, TV const& tv, Tile const& tile) {
  const std::string why = CoversTileOnceClaim(tile).verify(tv);
  std::printf("%-44s %s\n", what, why.empty() ? "covers the tile once" : why.c_str());
  return why.empty();
}

int main() {
  // An 8x8 tile of floats, column-major: element (m,n) sits at m + 8n and holds that index.
  std::array<float, 64> storage{};
  std::iota(storage.begin(), storage.end(), 0.0f);
  auto tile = make_tensor(storage.data(), make_layout(make_shape(_8{}, _8{})));

  // 8 threads arranged 4 x 2 over the tile; thread t sits at (t % 4, t / 4).
  auto threads = make_layout(make_shape(_4{}, _2{}));

  // 1. local_partition: thread t takes the element at its position in every 4x2 block.
  std::printf("thread: elements it owns (m + 8n)\n");
  for (int t = 0; t < 8; ++t) {
    auto mine = local_partition(tile, threads, t);  // a (2,4) tensor: the blocks
    std::printf("  T%d:", t);
    for (int v = 0; v < int(size(mine.layout())); ++v) std::printf(" %2.0f", double(mine(v)));
    std::printf("\n");
  }

  // 2. The same partition as one layout: zipped_divide cuts the tile into 4x2 blocks,
  //    ((position in the block), (which block)) = ((thread), (value)) -> element index.
  auto tv = zipped_divide(tile.layout(), make_shape(_4{}, _2{}));
  bool ok = true;
  for (int t = 0; t < 8; ++t) {
    auto mine = local_partition(tile, threads, t);
    for (int v = 0; v < 8; ++v) ok &= &mine(v) - storage.data() == tv(t, v);
  }
  std::printf("local_partition agrees with the TV layout %s: %s\n",
              rt::to_string(rt::to_runtime(tv)).c_str(), ok ? "yes" : "NO");
  ok &= check("zipped_divide(tile, (4,2)) as a TV map:", tv, make_shape(_8{}, _8{}));

  // 3. A TiledCopy: 32 threads (4 x 8), each moving 2 consecutive floats per copy (64 bits).
  auto copy = make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, float>{},
                              make_layout(make_shape(_4{}, _8{})),   // thread layout
                              make_layout(make_shape(_2{}, _1{})));  // values per thread
  static_assert(decltype(size(copy))::value == 32, "32 threads");
  ok &= check("TiledCopy source map (get_layoutS_TV):", copy.get_layoutS_TV(), make_shape(_8{}, _8{}));

  // 4. A wrong map is caught with the first cell that goes wrong: here the column stride
  //    4 instead of 8 makes columns overlap.
  auto wrong = make_layout(make_shape(_8{}, _8{}), make_stride(_1{}, _4{}));
  const bool caught = !check("a broken map (8,8):(1,4):", wrong, make_shape(_8{}, _8{}));

  return ok && caught ? 0 : 1;
}
