// The attention kernel's traced build on a GPU (attention_trace_gpu.hpp): the device adapter's
// run_traced with AttentionRecorder, the kernel's own TMA loads, wgmmas and P retile, on the
// trace's coordinate-encoding inputs. sm_90a only (wgmma, setmaxnreg).
#include "attention_trace_gpu.hpp"

#include <cuda_runtime.h>

#include "device/sm90_attention.cuh"

namespace tessera::kernels::sm90::attention {
namespace {

// Device buffers freed on every path out.
struct DeviceBuffers {
  std::vector<void*> held;
  ~DeviceBuffers() {
    for (void* p : held) cudaFree(p);
  }
  template <class T>
  cudaError_t alloc(T*& p, std::size_t n) {
    void* raw = nullptr;
    const cudaError_t e = cudaMalloc(&raw, n * sizeof(T));
    if (e == cudaSuccess) held.push_back(raw);
    p = static_cast<T*>(raw);
    return e;
  }
};

std::string cuda_failed(char const* what, cudaError_t e) { return std::string(what) + ": " + cudaGetErrorString(e); }

template <class Cfg>
std::string trace_on_device(std::vector<int>& out) {
  using T = typename Cfg::Element;
  constexpr int D = Cfg::head_dim;
  constexpr int capacity = TraceProblem<Cfg>::capacity;
  std::vector<T> q, k, v;
  trace_inputs<Cfg>(q, k, v);
  DeviceBuffers b;
  T *dq, *dk, *dv, *dout;
  float* dlse;
  int *dcount, *drecords;
  const std::size_t n = q.size(), nk = k.size();
  for (cudaError_t e : {b.alloc(dq, n), b.alloc(dk, nk), b.alloc(dv, nk), b.alloc(dout, n), b.alloc(dlse, std::size_t(Cfg::bM)),
                        b.alloc(dcount, 1), b.alloc(drecords, std::size_t(5 * capacity))})
    if (e != cudaSuccess) return cuda_failed("cudaMalloc", e);
  for (cudaError_t e : {cudaMemcpy(dq, q.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaMemcpy(dk, k.data(), nk * sizeof(T), cudaMemcpyHostToDevice),
                        cudaMemcpy(dv, v.data(), nk * sizeof(T), cudaMemcpyHostToDevice)})
    if (e != cudaSuccess) return cuda_failed("cudaMemcpy", e);
  AttentionArguments a;
  a.element = std::is_same_v<T, bfloat16_t> ? AttentionElement::BF16 : AttentionElement::F16;
  a.head_dim = D, a.seqlen_q = TraceProblem<Cfg>::rows, a.seqlen_k = TraceProblem<Cfg>::keys;
  a.q = dq, a.k = dk, a.v = dv, a.o = dout, a.lse = dlse;
  for (TraceRun run : {TraceRun::scores, TraceRun::output}) {
    if (cudaError_t e = cudaMemset(dcount, 0, sizeof(int)); e != cudaSuccess) return cuda_failed("cudaMemset", e);
    const AttentionRecorder<Cfg> rec{{dcount, capacity, drecords}, run};
    if (auto r = Sm90Attention<Cfg>::run_traced(a, rec, nullptr); !r) return "run_traced: " + r.message;
    if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) return cuda_failed("the traced kernel", e);
    int count = 0;
    if (cudaError_t e = cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost); e != cudaSuccess) return cuda_failed("cudaMemcpy", e);
    if (count > capacity) return "the trace overflowed: " + std::to_string(count) + " records for " + std::to_string(capacity) + " places";
    const std::size_t at = out.size();
    out.resize(at + std::size_t(5 * count));
    if (cudaError_t e = cudaMemcpy(out.data() + at, drecords, std::size_t(5 * count) * sizeof(int), cudaMemcpyDeviceToHost); e != cudaSuccess)
      return cuda_failed("cudaMemcpy", e);
  }
  return {};
}

}  // namespace

std::string run_attention_trace(bool bf16, int head_dim, std::vector<int>& records) {
  if (head_dim == 64) return bf16 ? trace_on_device<DefaultConfig<bfloat16_t, 64>>(records) : trace_on_device<DefaultConfig<half_t, 64>>(records);
  if (head_dim == 128) return bf16 ? trace_on_device<DefaultConfig<bfloat16_t, 128>>(records) : trace_on_device<DefaultConfig<half_t, 128>>(records);
  // (D 256 in bf16 only: a traced D 256 kernel costs CI some 15 s of nvcc; the f16 one differs
  // in the wgmma's type alone, and its consumers' steps trace on the host in
  // hopper_sm90_attention_trace_test)
  if (head_dim == 256) return bf16 ? trace_on_device<DefaultConfig<bfloat16_t, 256>>(records) : "head_dim 256 traces in bf16 only";
  return "head_dim must be 64, 128 or 256 (got " + std::to_string(head_dim) + ")";
}

}  // namespace tessera::kernels::sm90::attention
