// Shared-memory bank-conflict model: a pure function of the byte addresses a warp's
// instruction touches.  No layout types: the CLI and tests feed it addresses computed
// from any layout (plain, swizzled, a tiled copy's partition).
//
// Model (NVIDIA smem since Volta): 32 banks of 4 bytes; bank(word) = word % 32 where
// word = byte / 4.  A warp's request is split into phases of 128 bytes' worth of threads:
// 1/2/4-byte accesses run 32 threads per phase, 8-byte 16, 16-byte 8 (ldmatrix: one 8x8
// matrix = 8 row addresses of 16 bytes per phase).  Inside a phase, threads reading the
// same 4-byte word share it (broadcast); a bank's degree is the number of DISTINCT words
// requested in it; the phase takes max degree wavefronts; the instruction takes the sum.
#pragma once

#include <cstdint>

#include "tessera/config.hpp"

namespace tessera::analysis {

inline constexpr int num_banks = 32;
inline constexpr int bank_bytes = 4;
inline constexpr int max_threads = 32;

enum class BankError : int {
  none = 0,
  bad_width,         // access width not one of 1, 2, 4, 8, 16 bytes
  too_many_threads,  // more than 32 addresses for one warp instruction
  misaligned,        // address not a multiple of the access width
  negative_address,  // address < 0
  bad_matrix_count,  // ldmatrix loads 1, 2 or 4 matrices
  // bank_analysis.hpp: a TV map over a shared-memory tile
  bad_vector,        // values per thread not a multiple of the access vector, or vec < 1
  not_contiguous,    // one access's values are not consecutive elements in shared memory
  outside_tile,      // the TV map sends a (thread,value) outside its tile
  tile_mismatch,     // the shared-memory tile is not a whole number of copy tiles
};

TESSERA_HOST_DEVICE constexpr const char* to_string(BankError e) {
  switch (e) {
    case BankError::none: return "ok";
    case BankError::bad_width: return "access width must be 1, 2, 4, 8 or 16 bytes";
    case BankError::too_many_threads: return "a warp instruction has at most 32 threads";
    case BankError::misaligned: return "address is not a multiple of the access width";
    case BankError::negative_address: return "address is negative";
    case BankError::bad_matrix_count: return "ldmatrix loads 1, 2 or 4 matrices";
    case BankError::bad_vector: return "the values per thread are not a whole number of accesses";
    case BankError::not_contiguous: return "the values of one access are not consecutive elements in shared memory";
    case BankError::outside_tile: return "the TV layout sends a (thread,value) outside its tile";
    case BankError::tile_mismatch: return "the shared-memory tile is not a whole number of copy tiles";
  }
  return "unknown";
}

struct PhaseReport {
  int first_thread = 0;   // threads [first_thread, first_thread + num_threads)
  int num_threads = 0;
  int active_threads = 0;
  int wavefronts = 0;     // max degree over banks; 0 when no thread of the phase is active
  int degree[num_banks] = {};  // distinct 4-byte words requested per bank
};

struct AccessReport {
  BankError error = BankError::none;
  int error_thread = -1;  // which thread's address is at fault (when error != none)
  int access_bytes = 0;
  int num_phases = 0;
  int wavefronts = 0;     // sum over phases
  int max_degree = 0;     // max over phases and banks
  PhaseReport phase[max_threads] = {};

  TESSERA_HOST_DEVICE constexpr bool ok() const { return error == BankError::none; }
  TESSERA_HOST_DEVICE constexpr bool conflict_free() const { return ok() && max_degree <= 1; }
  // The fewest wavefronts this many active threads of this width can take (no conflict).
  TESSERA_HOST_DEVICE constexpr int ideal_wavefronts() const {
    int n = 0;
    for (int p = 0; p < num_phases; ++p) n += phase[p].active_threads > 0 ? 1 : 0;
    return n;
  }
};

// Threads per phase for an access width in bytes (0 when the width is not supported).
TESSERA_HOST_DEVICE constexpr int threads_per_phase(int access_bytes) {
  switch (access_bytes) {
    case 1: case 2: case 4: return 32;
    case 8: return 16;
    case 16: return 8;
    default: return 0;
  }
}

// addr[t]: byte address of thread t (t < n); active (optional): which threads access.
TESSERA_HOST_DEVICE constexpr AccessReport analyze_access(const int64_t* addr, int n,
                                                          int access_bytes,
                                                          const bool* active = nullptr) {
  AccessReport r{};
  r.access_bytes = access_bytes;
  int per_phase = threads_per_phase(access_bytes);
  if (per_phase == 0) { r.error = BankError::bad_width; return r; }
  if (n < 0 || n > max_threads) { r.error = BankError::too_many_threads; return r; }
  for (int t = 0; t < n; ++t) {
    if (active && !active[t]) continue;
    if (addr[t] < 0) { r.error = BankError::negative_address; r.error_thread = t; return r; }
    if (addr[t] % access_bytes != 0) { r.error = BankError::misaligned; r.error_thread = t; return r; }
  }
  r.num_phases = (n + per_phase - 1) / per_phase;
  for (int p = 0; p < r.num_phases; ++p) {
    PhaseReport& ph = r.phase[p];
    ph.first_thread = p * per_phase;
    ph.num_threads = (n - ph.first_thread < per_phase) ? n - ph.first_thread : per_phase;
    // Distinct words of this phase: at most 32 threads x 4 words.
    int64_t words[max_threads * 4] = {};
    int nwords = 0;
    for (int t = ph.first_thread; t < ph.first_thread + ph.num_threads; ++t) {
      if (active && !active[t]) continue;
      ++ph.active_threads;
      int64_t first = addr[t] / bank_bytes;
      int64_t last = (addr[t] + access_bytes - 1) / bank_bytes;
      for (int64_t w = first; w <= last; ++w) {
        bool seen = false;
        for (int k = 0; k < nwords; ++k) seen = seen || words[k] == w;
        if (!seen) words[nwords++] = w;
      }
    }
    for (int k = 0; k < nwords; ++k) ++ph.degree[words[k] % num_banks];
    for (int b = 0; b < num_banks; ++b)
      ph.wavefronts = ph.degree[b] > ph.wavefronts ? ph.degree[b] : ph.wavefronts;
    r.wavefronts += ph.wavefronts;
    r.max_degree = ph.wavefronts > r.max_degree ? ph.wavefronts : r.max_degree;
  }
  return r;
}

// ldmatrix .x1/.x2/.x4: lanes 0..8*count-1 supply 16-byte row addresses, one matrix
// (8 rows) per phase; the other lanes' addresses are ignored.
TESSERA_HOST_DEVICE constexpr AccessReport analyze_ldmatrix(const int64_t* row_addr, int count) {
  if (count != 1 && count != 2 && count != 4) {
    AccessReport r{};
    r.error = BankError::bad_matrix_count;
    return r;
  }
  return analyze_access(row_addr, 8 * count, 16);
}

}  // namespace tessera::analysis
