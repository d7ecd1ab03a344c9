// tessera::kernels_args from the installed package (header-only host code, no CUDA): the GEMM
// host API's argument checks accept a well-formed problem and refuse overlapping rows; the
// kernels' partitions compile (the tensor-core kernel's default one, with its own static
// checks: the tiled MMA covers the CTA tile, one ldmatrix per atom and k16 step).
#include <cstdio>
#include <vector>

#include <tessera/atom/numeric.hpp>
#include <tessera/kernels/gemm_arguments.hpp>
#include <tessera/kernels/partitions.hpp>

namespace tk = tessera::kernels;

static_assert(tk::DefaultTensorOpPartition<false>::BM == tk::DefaultTensorOpTile::BM &&
              tk::DefaultTensorOpPartition<false>::BN == tk::DefaultTensorOpTile::BN);

int main() {
  const int M = 64, N = 64, K = 32;
  std::vector<tessera::half_t> a(M * K), b(K * N), d(M * N);
  tk::GemmArguments args;
  args.m = M, args.n = N, args.k = K;
  args.element = tk::Element::F16;
  args.a = {a.data(), tk::Major::Row, K, 0};
  args.b = {b.data(), tk::Major::Col, K, 0};
  args.c = {nullptr, tk::Major::Row, N, 0};
  args.d = d.data();
  args.ldd = N;
  const tk::GemmResult good = tk::check_arguments(args);
  args.a.ld = K - 1;  // rows of A overlap
  const tk::GemmResult bad = tk::check_arguments(args);
  std::printf("well-formed: %s; ld %d: %s\n", tk::to_string(good.status), K - 1, bad.message.c_str());
  return good && !bad ? 0 : 1;
}
