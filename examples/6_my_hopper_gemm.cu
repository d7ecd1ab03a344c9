// 6. Your own Hopper GEMM with tessera (the tile's pieces are in 6_my_hopper_gemm.hpp): a
// persistent, warp-specialized kernel in clusters of two CTAs (a TMA producer warpgroup that
// multicasts its half of B, two wgmma consumer warpgroups, a 4-stage mbarrier ring, the
// epilogue through shared memory and TMA stores),
// its launch, a check against cuBLAS on all of D and against a double-precision reference on
// sampled elements, and its time against cuBLAS (CUDA events, alternating launches, median).
//
//   6_my_hopper_gemm [M N K] [reps] [group]   (defaults 8192 8192 8192, 50, 8)
//   6_my_hopper_gemm --trace FILE             one cluster in trace mode (6_my_hopper_gemm_trace.hpp):
//                                             FILE for `tessera verify FILE`
//   Any M >= 1, N and K >= 8 multiples of 8 (TMA's 16-byte rows). Exit 77 where there is no sm_90 GPU.
#include <algorithm>
#include <cstdio>
#include <string>

#include <tessera/atom/tma_encode.hpp>

#include "6_my_hopper_gemm_trace.hpp"
#include "example_host.hpp"

using namespace my_hopper_gemm;

struct Params {
  CUtensorMap map_a, map_b;  // (64-byte aligned: the kernel takes Params as a __grid_constant__)
  CUtensorMap map_d;         // (the loads' boxes: BoxesA, BoxesB)
  TmaD tma_d;  // a warp's part of the epilogue
  int M, N, K, group;
};
struct Shared {
  alignas(1024) T a[Stages * stage_a_elements];  // the rings start on the swizzle's 1 KiB repeat
  alignas(1024) T b[Stages * stage_b_elements];
  alignas(1024) T d[staging_elements];  // the epilogue's buffers (staging_view)
  pipeline::TmaPipeline<Stages, pipeline::DeviceMbarrier> pipe;
};
static_assert(sizeof(Shared) <= 227 * 1024, "an SM90 CTA has 227 KiB of shared memory");

template <class Trace>
__global__ void __launch_bounds__(Threads, 1) my_hopper_gemm_kernel(const __grid_constant__ Params p, Trace trace) {
  extern __shared__ __align__(1024) unsigned char raw[];
  Shared& s = *reinterpret_cast<Shared*>(raw);
  const int rank = pipeline::cluster_rank();
  if (threadIdx.x == 0) {  // (a stage's bytes: A, and both CTAs' halves of B)
    s.pipe.init(consumer_warps * ClusterM, uint32_t(sizeof(T)) * (stage_a_elements + stage_b_elements));
    pipeline::fence_barrier_init();
  }
  pipeline::cluster_sync();  // both CTAs' barriers ready before any multicast or remote arrival
  const int rows = cluster_rows(p.M), n_tiles = ceil_div(p.N, int(bN)), k_tiles = ceil_div(p.K, int(bK));
  const int units = tile_units(p.M, p.N, p.group), first = int(blockIdx.x) / ClusterM, step = int(gridDim.x) / ClusterM;
  pipeline::PipelineState<Stages> st;  // producer and consumers walk the ring, each with its own
  if (threadIdx.x < GMMA::warpgroup_threads) {  // producer warpgroup: one thread issues the copies
    GMMA::warpgroup_reg_dealloc<40>();
    const uint32_t a0 = uint32_t(__cvta_generic_to_shared(s.a)), b0 = uint32_t(__cvta_generic_to_shared(s.b));
    for (int u = first; threadIdx.x == 0 && u < units; u += step) {
      const auto tile = tile_of(u, rows, n_tiles, p.group);
      if (get<0>(tile) < 0) continue;
      for (int k = 0; k < k_tiles; ++k, ++st) {
        while (!s.pipe.producer_try_acquire(st)) {}
        s.pipe.producer_commit(st);  // the stage's bytes expected; the copies complete them
        const uint32_t full = s.pipe.full_barrier(st).address();
        copy_static<BoxesA>(SM90_TMA_LOAD{}, &p.map_a, full, a_origin(get<0>(tile) * ClusterM + rank, k),
                            a0 + st.index * stage_a_elements * 2);
        copy_static<BoxesB>(SM90_TMA_LOAD_MULTICAST{}, &p.map_b, full, b_origin(get<1>(tile), rank, k),
                            b0 + (st.index * stage_b_elements + rank * part_b_elements) * 2, cluster_mask);
      }
    }
    pipeline::cluster_sync();  // no CTA leaves while its partner may still write into it
    return;
  }
  GMMA::warpgroup_reg_alloc<232>();  // consumers: 128 accumulators each
  const int thread = int(threadIdx.x) - GMMA::warpgroup_threads;
  const bool lane0 = threadIdx.x % 32 == 0;
  const int warp = thread / 32;
  const uint32_t d0 = uint32_t(__cvta_generic_to_shared(s.d));
  auto acc = partition_fragment_C(TiledMma{}, make_shape(bM, bN));  // ((2,2,32),1,1) f32
  for (int u = first; u < units; u += step) {
    const auto tile = tile_of(u, rows, n_tiles, p.group);
    if (get<0>(tile) < 0) continue;
    const int m_tile = get<0>(tile) * ClusterM + rank;
    auto prev = st;
    for (int k = 0; k < k_tiles; ++k) {
      while (!s.pipe.consumer_try_wait(st)) {}
      if constexpr (Trace::enabled)
        if (k == 0 && rank == 0) trace.stage(thread, s.a, s.b);
      GMMA::warpgroup_fence_operand(acc);
      GMMA::warpgroup_arrive();
      mma_k_tile(thread, s.a, s.b, st.index, acc, k == 0 ? GMMA::ScaleOut::Zero : GMMA::ScaleOut::One);
      GMMA::warpgroup_commit_batch();
      GMMA::warpgroup_wait<1>();  // the previous k-tile's wgmmas retired: its stage is free
      GMMA::warpgroup_fence_operand(acc);
      if (k > 0 && lane0) s.pipe.consumer_release_cluster(prev, ClusterM);
      prev = st;
      ++st;
    }
    GMMA::warpgroup_wait<0>();
    GMMA::warpgroup_fence_operand(acc);
    if (lane0) s.pipe.consumer_release_cluster(prev, ClusterM);
    if constexpr (Trace::enabled)
      if (rank == 0) trace.accumulators_of(thread, acc);
    // Epilogue, part by part: each warp stages its part (once the store from that buffer, two
    // parts ago, has read it), and its lane 0 stores it; the warp's writes reach the TMA (the
    // async proxy) through the proxy fence and the warp barrier.
    auto store_part = [&]<int64_t P>(C<P>) {
      if (lane0) tma_store_wait<Buffers - 1>();
      __syncwarp();
      stage_part<P>(thread, acc, s.d);
      fence_proxy_async();
      __syncwarp();
      if (lane0) {
        copy(p.tma_d.with(&p.map_d), d0 + uint32_t(sizeof(T)) * d_offset(warp, P), d_origin(m_tile, get<1>(tile), warp, P));
        tma_store_commit();
      }
    };
    [&]<int... P>(std::integer_sequence<int, P...>) { (store_part(C<P>{}), ...); }(std::make_integer_sequence<int, Parts>{});
  }
  if (lane0) tma_store_wait<0>();  // the last stores have read shared memory before the CTA leaves
  pipeline::cluster_sync();
}

// The kernel's parameters for one problem: each operand's TMA arguments derived from its
// gmem layout and the stage tile, its tensor map encoded.
Params make_params(T const* A, T const* B, T* D, int M, int N, int K, int group) {
  Params p{};
  tma::Arguments args_a, args_b, args_d;
  const TmaA tma_a = make_tma_copy<SM90_TMA_LOAD, 1, 16>(
      args_a, make_layout(make_shape(int64_t(M), int64_t(K)), make_stride(int64_t(K), _1{})), StageA{});
  const TmaB tma_b = make_tma_copy<SM90_TMA_LOAD_MULTICAST, 1, 16>(
      args_b, make_layout(make_shape(int64_t(N), int64_t(K)), make_stride(int64_t(K), _1{})), PartB{});
  p.tma_d = make_tma_copy<SM90_TMA_STORE, 1, 16>(args_d, make_layout(make_shape(int64_t(M), int64_t(N)), make_stride(int64_t(N), _1{})),
                                                 StageD{});
  for (auto* a : {&args_a, &args_b, &args_d})
    if (a->rule != tma::Rule::ok) {
      std::fprintf(stderr, "error: TMA: %s\n", tma::to_string(a->rule));
      std::exit(1);
    }
  if (!same_boxes(tma_a.boxes, BoxesA::value) || !same_boxes(tma_b.boxes, BoxesB::value)) {
    std::fprintf(stderr, "error: this problem's TMA boxes are not the kernel's compile-time ones\n");
    std::exit(1);
  }
  if (!p.tma_d.boxes.ok() ||
      tma::encode_tensor_map(&p.map_a, args_a, A, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16) ||
      tma::encode_tensor_map(&p.map_b, args_b, B, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16) ||
      tma::encode_tensor_map(&p.map_d, args_d, D, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16)) {
    std::fprintf(stderr, "error: cannot encode the tensor maps\n");
    std::exit(1);
  }
  p.M = M, p.N = N, p.K = K, p.group = group;
  return p;
}

// A launch in clusters of ClusterM CTAs along x; `clusters` of them (persistent: as many as
// fit at once, or fewer when there are fewer units).
template <class Trace>
cudaLaunchConfig_t launch_config(int clusters, cudaLaunchAttribute* attribute) {
  static const bool sized = [] {  // (once: nothing but the launch between a timing bracket's events)
    EXAMPLE_CUDA(cudaFuncSetAttribute(my_hopper_gemm_kernel<Trace>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(sizeof(Shared))));
    return true;
  }();
  (void)sized;
  attribute->id = cudaLaunchAttributeClusterDimension;
  attribute->val.clusterDim.x = ClusterM, attribute->val.clusterDim.y = 1, attribute->val.clusterDim.z = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(unsigned(clusters * ClusterM)), cfg.blockDim = dim3(Threads), cfg.dynamicSmemBytes = sizeof(Shared);
  cfg.attrs = attribute, cfg.numAttrs = 1;
  return cfg;
}
int resident_clusters() {
  cudaLaunchAttribute at;
  cudaLaunchConfig_t cfg = launch_config<NoTrace>(1, &at);
  int clusters = 0;
  EXAMPLE_CUDA(cudaOccupancyMaxActiveClusters(&clusters, my_hopper_gemm_kernel<NoTrace>, &cfg));
  return clusters;
}
template <class Trace>
void launch(Params const& p, Trace trace, int clusters) {
  cudaLaunchAttribute at;
  const cudaLaunchConfig_t cfg = launch_config<Trace>(clusters, &at);
  EXAMPLE_CUDA(cudaLaunchKernelEx(&cfg, my_hopper_gemm_kernel<Trace>, p, trace));
}

bool have_sm90() {
  int dev = 0, major = 0;
  return cudaGetDevice(&dev) == cudaSuccess && cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess &&
         major == 9;
}

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--trace") {
    if (argc != 3) {
      std::fprintf(stderr, "usage: %s --trace FILE\n", argv[0]);
      return 1;
    }
    if (!have_sm90()) {
      std::printf("no sm_90 GPU: skipped\n");
      return 77;
    }
    // One cluster on one tile, every consumer thread of its first CTA recording (both runs of
    // 6_my_hopper_gemm_trace.hpp).
    return examples::write_device_trace<T>(
        argv[2], stage_a_elements, stage_b_elements, std::size_t(int(bM) * int(bN)), 1 << 17, trace_inputs,
        [](bool accumulators, T* A, T* B, T* D, int* count, int capacity, int* records) {
          launch(make_params(A, B, D, int(bM), int(bN), int(bK), 1), Recorder{{count, capacity, records}, accumulators}, 1);
        },
        write_trace);
  }
  int M = 8192, N = 8192, K = 8192, reps = 50, group = 8;
  if (argc >= 4) M = std::atoi(argv[1]), N = std::atoi(argv[2]), K = std::atoi(argv[3]);
  if (argc >= 5) reps = std::atoi(argv[4]);
  if (argc >= 6) group = std::atoi(argv[5]);
  if (M < 1 || N < 8 || N % 8 || K < 8 || K % 8 || reps < 1 || group < 1) {
    std::fprintf(stderr, "error: need M >= 1, N and K >= 8 multiples of 8, reps >= 1, group >= 1 (got %d %d %d, %d, %d)\n", M, N, K,
                 reps, group);
    return 1;
  }
  if (!have_sm90()) {
    std::printf("no sm_90 GPU: skipped\n");
    return 77;
  }
  examples::TnProblem<T> problem(M, N, K);
  const Params p = make_params(problem.A, problem.B, problem.D, M, N, K, group);
  const int clusters = std::min(tile_units(M, N, group), resident_clusters()), ctas = clusters * ClusterM;
  auto ours = [&] { launch(p, NoTrace{}, clusters); };
  cublasHandle_t handle;
  cublasCreate(&handle);
  auto theirs = [&] { problem.cublas(handle); };
  ours();
  theirs();
  EXAMPLE_CUDA(cudaGetLastError());
  EXAMPLE_CUDA(cudaDeviceSynchronize());
  const bool ok = problem.check(4e-3, "bf16");  // bf16 output: relative rounding 2^-9
  examples::time_against_cublas("my_hopper_gemm", ours, theirs, reps, 2.0 * M * N * K,
                                std::to_string(ctas) + " CTAs, group " + std::to_string(group));
  cublasDestroy(handle);
  return ok ? 0 : 1;
}
