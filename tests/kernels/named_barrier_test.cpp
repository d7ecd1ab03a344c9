// The kernels' named barriers (kernels/arch/named_barrier.cuh): the ids in use are disjoint,
// none is __syncthreads's 0 and all are below the CTA's 16 (the header's static_assert holds
// the shipped table to it); the rule refuses tables that break any of that.
#include <catch2/catch.hpp>

#include "arch/named_barrier.cuh"

using namespace tessera::kernels::arch;

TEST_CASE("named barriers: the ids in use are disjoint, 1 .. 15", "[kernels]") {
  STATIC_REQUIRE(named_barriers_disjoint(named_barrier_ids));
  // Every id the kernels may use, one role each.
  int roles[named_barrier_count] = {};
  for (const auto& r : named_barrier_ids)
    for (uint32_t i = 0; i < r.count; ++i) ++roles[uint32_t(r.first) + i];
  CHECK(roles[0] == 0);
  for (uint32_t id = 1; id < named_barrier_count; ++id) CHECK(roles[id] <= 1);
  // The epilogue's range holds a barrier per staging buffer of the shipped kernels (two
  // consumer warpgroups, or ping-pong's two slots of one) and stops below the consumers' id.
  CHECK(epilogue_staging_barriers == 2);
  CHECK(uint32_t(NamedBarrier::EpilogueStaging) + epilogue_staging_barriers <= uint32_t(NamedBarrier::Consumers));
}

TEST_CASE("named barriers: the rule refuses colliding, reserved and out-of-range ids", "[kernels]") {
  // a third staging buffer would take the consumers' id
  constexpr NamedBarrierIds overlapping[] = {{NamedBarrier::EpilogueStaging, 3}, {NamedBarrier::Consumers, 1}};
  STATIC_REQUIRE_FALSE(named_barriers_disjoint(overlapping));
  constexpr NamedBarrierIds twice[] = {{NamedBarrier::Consumers, 1}, {NamedBarrier::Consumers, 1}};
  STATIC_REQUIRE_FALSE(named_barriers_disjoint(twice));
  constexpr NamedBarrierIds syncthreads[] = {{NamedBarrier(0), 1}};
  STATIC_REQUIRE_FALSE(named_barriers_disjoint(syncthreads));
  constexpr NamedBarrierIds past_the_last[] = {{NamedBarrier::Consumers, 14}};
  STATIC_REQUIRE_FALSE(named_barriers_disjoint(past_the_last));
  constexpr NamedBarrierIds last[] = {{NamedBarrier::Consumers, 13}};
  STATIC_REQUIRE(named_barriers_disjoint(last));
  constexpr NamedBarrierIds empty_range[] = {{NamedBarrier::Consumers, 0}};
  STATIC_REQUIRE_FALSE(named_barriers_disjoint(empty_range));
}
