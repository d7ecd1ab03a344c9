// tile_to_shape: repeat a block until it has the target shape: CuTe's blocked_product(block,
// copies), uncoalesced, the copies walked column-major or in the order given.
#include "tessera/rt/algebra.hpp"

#include "algebra_detail.hpp"
#include "tessera/rt/checked.hpp"
#include "tessera/rt/error.hpp"

namespace tessera::rt {

using namespace detail;

Layout tile_to_shape(const Layout& block, const IntTuple& target_shape, const IntTuple& order) {
  TraceScope scope("tile_to_shape");
  if (scope) {
    scope.expr(call_text("tile_to_shape", to_string(block),
                         to_string(target_shape) + (order.rank() == 0 ? "" : "," + to_string(order))));
    scope.note("rule", "blocked_product(A, copies: target / block mode by mode, walked in the order given)");
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
  // CuTe's product_each makes the product shape a tuple even for an integer target:
  // tile_to_shape(16:1, 16) is ((16,(1))):((1,(0))).
  IntTuple product_shape = IntTuple::of_values(ps);
  if (scope) scope.note("copies per mode (target / block)", to_string(product_shape), true);
  Layout copies = Layout::column_major(product_shape);
  if (order.rank() != 0) {
    // CuTe's make_ordered_layout (compact_order): mode k's stride is the product of the modes
    // of smaller order (equal orders start at the same stride); a size-1 mode gets 0.
    const std::vector<std::int64_t> o = leaves(order);
    if (o.size() != R || depth(order) > 1)
      throw Error("tile_to_shape: the order " + to_string(order) + " needs one integer per mode of the target shape " +
                  to_string(target_shape));
    Ints d;
    for (std::size_t k = 0; k < R; ++k) {
      std::int64_t st = 1;
      for (std::size_t j = 0; j < R; ++j)
        if (o[j] < o[k]) st = checked_mul(st, ps[j], "compact stride");
      d.push_back(ps[k] == 1 ? 0 : st);
    }
    copies = Layout(product_shape, IntTuple::of_values(d));
  }
  return traced(scope, blocked_product(padded, copies));
}

}  // namespace tessera::rt
