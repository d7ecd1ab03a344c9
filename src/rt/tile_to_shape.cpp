// tile_to_shape: repeat a block (column-major order of the tiles) until it has the target shape.
#include "tessera/rt/algebra.hpp"

#include "algebra_detail.hpp"
#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

using namespace detail;

Layout tile_to_shape(const Layout& block, const IntTuple& target_shape) {
  TraceScope scope("tile_to_shape");
  if (scope) {
    scope.expr(call_text("tile_to_shape", to_string(block), to_string(target_shape)));
    scope.note("rule", "blocked_product(A, column-major copies: target / block, mode by mode), coalesced per mode");
  }
  const std::size_t R = target_shape.rank();
  if (block.rank() > R)
    throw Error("tile_to_shape: the layout " + to_string(block) + " has more modes than the target shape " +
                to_string(target_shape));
  const Layout padded = pad_to_rank(block, R);
  Ints ps;
  for (std::size_t i = 0; i < R; ++i) {
    const std::int64_t b = product(padded.shape[i]), t = product(target_shape[i]);
    if (t % b != 0)
      throw Error("tile_to_shape: the block shape " + to_string(padded.shape) + " does not divide the target shape " +
                  to_string(target_shape) + " (mode " + str(i) + ": " + str(b) + " does not divide " + str(t) + ")");
    ps.push_back(t / b);
  }
  // CuTe's product_each makes the product shape a tuple even for an integer target, so the
  // final coalesce goes mode by mode: tile_to_shape(16:1, 16) is (16):(1).
  IntTuple product_shape = IntTuple::of_values(ps);
  if (scope) scope.note("copies per mode (target / block)", to_string(product_shape), true);
  const Layout r = blocked_product(padded, Layout::column_major(product_shape));
  return traced(scope, coalesce(r, product_shape));
}

}  // namespace tessera::rt
