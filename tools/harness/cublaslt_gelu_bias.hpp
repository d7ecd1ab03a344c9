// cuBLASLt's fused GEMM + GELU + bias, bf16 TN: D (M x N, column-major) = GELU_tanh(A B + bias[m])
// with A stored K x M and B K x N (both K-major, the kernels' TN), f32 accumulation, through
// CUBLASLT_EPILOGUE_GELU_BIAS and the heuristic's first algorithm with a 32 MiB workspace: the
// anchor that fused epilogues are timed against (bench/sm90_gemm_bench.cu --fused, the epilogue
// tree GPU test's --time). cuBLASLt's bias runs along D's rows (M elements). Link cuBLASLt.
#pragma once

#include <cublasLt.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace sm90_check {

class LtGeluBias {
 public:
  // a, b, d, bias: device pointers (bf16; bias of M elements); the handle outlives this.
  LtGeluBias(cublasLtHandle_t lt, int64_t m, int64_t n, int64_t k, const void* a, const void* b, void* d, const void* bias)
      : lt_(lt), a_(a), b_(b), d_(d) {
    const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    const cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_GELU_BIAS;
    if (!step(cublasLtMatmulDescCreate(&op_, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate") ||
        !step(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta), "TRANSA") ||
        !step(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb), "TRANSB") ||
        !step(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi), "EPILOGUE") ||
        !step(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias), "BIAS_POINTER") ||
        !step(cublasLtMatrixLayoutCreate(&la_, CUDA_R_16BF, uint64_t(k), uint64_t(m), k), "layout A") ||
        !step(cublasLtMatrixLayoutCreate(&lb_, CUDA_R_16BF, uint64_t(k), uint64_t(n), k), "layout B") ||
        !step(cublasLtMatrixLayoutCreate(&ld_, CUDA_R_16BF, uint64_t(m), uint64_t(n), m), "layout D") ||
        !step(cublasLtMatmulPreferenceCreate(&pref_), "cublasLtMatmulPreferenceCreate"))
      return;
    if (cudaMalloc(&ws_, ws_bytes_) != cudaSuccess) {
      error_ = "cuBLASLt workspace: cudaMalloc failed";
      ws_ = nullptr;
      return;
    }
    if (!step(cublasLtMatmulPreferenceSetAttribute(pref_, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes_, sizeof ws_bytes_),
              "MAX_WORKSPACE_BYTES"))
      return;
    int found = 0;
    if (!step(cublasLtMatmulAlgoGetHeuristic(lt_, op_, la_, lb_, ld_, ld_, pref_, 1, &heur_, &found), "cublasLtMatmulAlgoGetHeuristic"))
      return;
    if (found == 0) error_ = "cuBLASLt: no algorithm for GELU_BIAS";
  }
  ~LtGeluBias() {
    if (pref_) cublasLtMatmulPreferenceDestroy(pref_);
    if (la_) cublasLtMatrixLayoutDestroy(la_);
    if (lb_) cublasLtMatrixLayoutDestroy(lb_);
    if (ld_) cublasLtMatrixLayoutDestroy(ld_);
    if (op_) cublasLtMatmulDescDestroy(op_);
    if (ws_) cudaFree(ws_);
  }
  LtGeluBias(LtGeluBias const&) = delete;
  LtGeluBias& operator=(LtGeluBias const&) = delete;

  // Empty when set up; else what failed.
  std::string const& error() const { return error_; }
  cublasStatus_t run(cudaStream_t stream = nullptr) const {
    const float one = 1.0f, zero = 0.0f;
    return cublasLtMatmul(lt_, op_, &one, a_, la_, b_, lb_, &zero, d_, ld_, d_, ld_, &heur_.algo, ws_, ws_bytes_, stream);
  }

 private:
  bool step(cublasStatus_t s, const char* what) {
    if (s == CUBLAS_STATUS_SUCCESS) return true;
    error_ = std::string("cuBLASLt: ") + what + ": status " + std::to_string(int(s));
    return false;
  }
  cublasLtHandle_t lt_;
  const void *a_, *b_;
  void* d_;
  cublasLtMatmulDesc_t op_ = nullptr;
  cublasLtMatrixLayout_t la_ = nullptr, lb_ = nullptr, ld_ = nullptr;
  cublasLtMatmulPreference_t pref_ = nullptr;
  cublasLtMatmulHeuristicResult_t heur_{};
  std::size_t ws_bytes_ = std::size_t(32) << 20;
  void* ws_ = nullptr;
  std::string error_;
};

}  // namespace sm90_check
