// Prints CuTe's tcgen05.mma shared-memory descriptors (UMMA::make_umma_desc) for the first K block of
// tiles of every GMMA layout atom, start address cleared (CuTe computes it from a device pointer),
// as JSON lines: tests/data/cute_sm100_umma_desc.jsonl. Built against a CUTLASS checkout outside
// the repository, host code only:
//   nvcc -std=c++17 -I CUTLASS/include sm100_umma_desc.cu -o desc && ./desc 2>/dev/null > tests/data/cute_sm100_umma_desc.jsonl
#include <cute/tensor.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cstdio>
using namespace cute;
template <class T, UMMA::Major MJ, int SW, int MN>
void one() {
  constexpr int K = 256 / sizeof_bits_v<T>;
  using Atom = std::conditional_t<MJ == UMMA::Major::K,
      std::conditional_t<SW == 16, UMMA::Layout_K_INTER_Atom<T>, std::conditional_t<SW == 32, UMMA::Layout_K_SW32_Atom<T>,
      std::conditional_t<SW == 64, UMMA::Layout_K_SW64_Atom<T>, UMMA::Layout_K_SW128_Atom<T>>>>,
      std::conditional_t<SW == 16, UMMA::Layout_MN_INTER_Atom<T>, std::conditional_t<SW == 32, UMMA::Layout_MN_SW32_Atom<T>,
      std::conditional_t<SW == 64, UMMA::Layout_MN_SW64_Atom<T>, UMMA::Layout_MN_SW128_Atom<T>>>>>;
  auto layout = tile_to_shape(Atom{}, make_shape(Int<MN>{}, Int<4 * K>{}));
  alignas(1024) static T buf[65536];
  auto t = make_tensor(make_smem_ptr(buf), layout);
  auto blk = local_tile(t, make_shape(Int<MN>{}, Int<K>{}), make_coord(0, 0));
  UMMA::SmemDescriptor d = UMMA::make_umma_desc<MJ>(blk);
  printf("{\"bits\": %d, \"major\": \"%s\", \"swizzle\": %d, \"mn\": %d, \"desc\": %llu}\n", int(sizeof_bits_v<T>),
         MJ == UMMA::Major::K ? "K" : "MN", SW, MN, (unsigned long long)(d.desc_ & ~0x3FFFull));
}
template <class T, UMMA::Major MJ, int MN> void sw() { one<T, MJ, 16, MN>(); one<T, MJ, 32, MN>(); one<T, MJ, 64, MN>(); one<T, MJ, 128, MN>(); }
int main() {
  sw<half_t, UMMA::Major::K, 128>(); sw<half_t, UMMA::Major::MN, 128>();
  sw<half_t, UMMA::Major::K, 256>(); sw<half_t, UMMA::Major::MN, 256>();
  sw<tfloat32_t, UMMA::Major::K, 128>(); sw<tfloat32_t, UMMA::Major::MN, 128>();
  sw<int8_t, UMMA::Major::K, 128>(); sw<int8_t, UMMA::Major::MN, 128>();
}
