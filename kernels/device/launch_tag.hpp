// The 64-bit tag of a kernel launch, which the Stream-K fix-up writes in a flag slot to say
// "this launch's partial is here" (stream_k_fixup.cuh, stream_k_scheduler.hpp: "Workspace").
//
// Why a tag instead of a flag of 1: a flag of 1 means "published" only if every slot started at
// 0, which took a memset before every launch (a caller's workspace, or one a pool hands back,
// holds anything). A slot that must equal this launch's tag needs no clearing: a value left by
// an earlier launch is another launch's tag (or 0), and arbitrary bytes equal it with
// probability 2^-64 per slot. Graph replays repeat the captured tag; the owners put the slots
// they consumed back to 0, so each replay starts from slots without its tag.
//
// The tags of one process are distinct: launch n gets mix(nonce + n * odd), a bijection of n (an
// odd multiple, an addition and splitmix64's finalizer are each invertible mod 2^64), so two
// launches share a tag only after 2^64 launches. The nonce is drawn at random once per process
// (and per copy of this inline function's statics: a shared library that has its own copy draws
// its own nonce), so tags from another process's launches that a recycled allocation still
// holds are equally unlikely to match. 0 is never a tag (it is the cleared slot).
//
// Host-only C++ (no CUDA headers): the GPU-free tests draw tags too.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>

namespace tessera::kernels::device {

// splitmix64's finalizer: invertible, and every input bit reaches every output bit.
constexpr std::uint64_t mix_launch_tag(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}

// The tag of launch n for a process's nonce (0 for exactly one n in 2^64: next_launch_tag skips it).
constexpr std::uint64_t launch_tag_of(std::uint64_t nonce, std::uint64_t n) {
  return mix_launch_tag(nonce + n * 0x9E3779B97F4A7C15ull);
}

// A random 64-bit nonce: std::random_device (the OS's entropy on Linux), with the clock mixed in
// where it is unavailable or constant.
inline std::uint64_t launch_tag_nonce() {
  std::uint64_t r = 0;
  try {
    std::random_device dev;
    r = (std::uint64_t(dev()) << 32) ^ std::uint64_t(dev());
  } catch (...) {
    r = 0;
  }
  const auto now = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
  const auto wall = std::uint64_t(std::chrono::system_clock::now().time_since_epoch().count());
  return r ^ mix_launch_tag(now ^ (wall << 1) ^ std::uint64_t(reinterpret_cast<std::uintptr_t>(&r)));
}

// The next launch's tag: distinct from every other of this process's tags, never 0; safe to call
// from any thread (the counter is atomic).
inline std::uint64_t next_launch_tag() {
  static const std::uint64_t nonce = launch_tag_nonce();
  static std::atomic<std::uint64_t> launches{0};
  for (;;) {
    const std::uint64_t tag = launch_tag_of(nonce, launches.fetch_add(1, std::memory_order_relaxed));
    if (tag != 0) return tag;
  }
}

}  // namespace tessera::kernels::device
