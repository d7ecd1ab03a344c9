// The attention kernel's traced build on a GPU (attention_trace_gpu.cu, compiled for sm_90a):
// one CTA tile, both trace runs (kernels/collective/sm90_attention_trace.hpp).
#pragma once

#include <string>
#include <vector>

namespace tessera::kernels::sm90::attention {

// Launches the traced kernel of (bf16 or f16 at head_dim 64 or 128, bf16 at 256) on the trace's inputs, twice
// (the scores run, then the output run), and appends the records (5 ints each) to `records`.
// Returns "" on success, else what went wrong (a refused argument, a CUDA error, an overflow).
std::string run_attention_trace(bool bf16, int head_dim, std::vector<int>& records);

}  // namespace tessera::kernels::sm90::attention
