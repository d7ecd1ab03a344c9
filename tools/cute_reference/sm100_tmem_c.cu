// Prints CuTe's tensor-memory layout of a tcgen05.mma accumulator (UMMA::tmem_frg_1sm/2sm<float>)
// for one MMA of several shapes, as JSON lines: tests/data/cute_sm100_tmem_c.jsonl. Built against a
// CUTLASS checkout outside the repository, host code only:
//   nvcc -std=c++17 -I CUTLASS/include sm100_tmem_c.cu -o tmem_c && ./tmem_c > tests/data/cute_sm100_tmem_c.jsonl
#include <cute/tensor.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cstdio>
#include <sstream>
using namespace cute;
template <class L> std::string str(L const& l) { std::ostringstream o; o << l; std::string s; for (char c : o.str()) if (c != '_') s += c; return s; }
template <int NSM, int MCTA, int N>
void one() {
  using F = std::conditional_t<NSM == 1, UMMA::tmem_frg_1sm<float>, UMMA::tmem_frg_2sm<float>>;
  auto t = F::make(make_shape(make_shape(Int<MCTA>{}, Int<N>{}), _1{}, _1{}));
  printf("{\"cta_group\": %d, \"m\": %d, \"n\": %d, \"layout\": \"%s\"}\n", NSM, MCTA * NSM, N, str(layout(t)).c_str());
}
int main() {
  one<1, 64, 8>(); one<1, 64, 64>(); one<1, 64, 256>(); one<1, 128, 16>(); one<1, 128, 256>();
  one<2, 64, 32>(); one<2, 64, 256>(); one<2, 128, 16>(); one<2, 128, 256>();
}
