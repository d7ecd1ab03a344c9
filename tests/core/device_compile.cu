// Device compile check: every public operation of the static tier used in a
// kernel (compile only; CI has no GPU). Built for sm_80 and sm_90.
#include <tessera/tessera.hpp>

using namespace tessera;

__global__ void tessera_device_compile(float* out, int n) {
  int t = threadIdx.x;
  // int tuples
  auto s = make_shape(make_shape(_4{}, _2{}), make_shape(n, _2{}));
  auto d = compact_col_major(s);
  int64_t acc = crd2idx(idx2crd(t, s), s, d) + size(s) + rank(s) + depth(s);
  acc += inner_product(flatten(s), flatten(d)) + product(shape_div(make_shape(_8{}, _4{}), _2{}));
  acc += size(ceil_div(make_shape(n, _6{}), _4{})) + get<1>(crd2crd(make_coord(1, 2), make_shape(_4{}, _4{}), make_shape(_2{}, _8{})));
  acc += bool(compatible(_8{}, make_shape(_2{}, _4{}))) + bool(weakly_congruent(make_shape(1, 2), s));
  acc += size(select<1>(append(prepend(make_shape(1, 2), 3), 4))) + size(replace<0>(make_shape(1, 2), 5));
  acc += product(transform(make_shape(1, 2), [](auto x) { return x + C<1>{}; }));
  acc += fold(make_shape(1, 2, 3), C<0>{}, [](auto a, auto b) { return a + b; });
  acc += product(elem_scale(make_shape(2, 3), make_shape(4, 5))) + product(compact_row_major(make_shape(2, 3)));
  acc += bool(congruent(s, s)) + bool(equal(s, s)) + get<1, 0>(s) + product(prefix_product(make_shape(2, 3)));
  acc += product(unflatten(flatten(s), s)) + size(take<0, 1>(s)) + size(zip(make_shape(1, 2), make_shape(3, 4)));
  acc += size(repeat<2>(n)) + size(append<3>(make_shape(1, 2), 1)) + size(prepend<3>(make_shape(1, 2), 1)) + sum(make_shape(1, 2));
  // layouts
  auto L = make_layout(s);
  auto R = make_layout(make_shape(_4{}, _8{}), LayoutRight{});
  auto B0 = make_layout(_4{}, _8{});
  acc += L(t) + L(1, 2) + R(make_coord(1, 2)) + size(L(_, 1)) + get<1>(slice_and_offset(make_coord(_, 1), L));
  acc += cosize(R) + size(make_ordered_layout(make_shape(_2{}, _3{}), make_step(_1{}, _0{}))) + size(make_layout(L, R));
  acc += size(group<0, 2>(make_layout(make_shape(2, 3, 4)))) + size(flatten(L)) + size(get<0>(L)) + size(select<1>(R));
  acc += size(append(R)) + size(prepend(R)) + bool(R == R) + shape<0>(R) + stride<1>(R);
  acc += size(make_layout(s, LayoutLeft{})) + rank(L) + depth(L) + size(shape(L)) + size(take<0, 1>(R)) + size(replace<0>(R, B0));
  acc += size(dice(make_coord(_, 1), R)) + size(zip(make_layout(make_shape(make_shape(2, 3), make_shape(4, 5)))));
  acc += get<0, 0>(L.get_hier_coord(t)) + get<0>(L.get_flat_coord(t)) + product(L.get_1d_coord(t));
  // algebra
  auto A = make_layout(make_shape(_4{}, _6{}), make_stride(_6{}, _1{}));
  auto B = make_layout(_4{}, _2{});
  acc += size(filter_zeros(make_layout(make_shape(4, _2{}), make_stride(1, _0{})))) + size(filter(A, make_shape(_1{}, _1{})));
  acc += composition(A, make_tile(make_layout(_2{}, _2{}), make_layout(_3{}, _2{})))(t) + composition(A, make_shape(n, _3{}))(t);
  acc += logical_divide(A, make_shape(_2{}, _3{}))(t) + logical_product(A, make_tile(_2{}, _2{}))(t);
  acc += size(coalesce(L)) + size(coalesce(A, make_shape(_1{}, _1{}))) + size(filter(make_layout(make_shape(4, _2{}), make_stride(1, _0{}))));
  acc += composition(A, B)(t) + composition(A, make_tile(_2{}, _3{}))(t) + composition(L, make_layout(n, 2))(t);
  acc += complement(B, _24{})(t) + size(complement(make_layout(4, 2))) + right_inverse(A)(t) + left_inverse(A)(t);
  acc += logical_divide(A, B)(t) + zipped_divide(A, make_shape(_2{}, _3{}))(t) + tiled_divide(A, make_shape(_2{}, _3{}))(t);
  acc += flat_divide(A, make_tile(make_layout(_2{}), make_layout(_3{})))(t);
  acc += logical_product(B, make_layout(_2{}))(t) + zipped_product(B, make_shape(_2{}))(t) + tiled_product(A, make_shape(_2{}))(t);
  acc += flat_product(A, make_shape(_2{}, _2{}))(t) + blocked_product(A, R)(t) + raked_product(A, R)(t);
  acc += tile_to_shape(make_layout(make_shape(_2{}, _2{})), make_shape(_8{}, _6{}))(t);
  acc += max_common_vector(A, A) + size(max_common_layout(A, R)) + upcast<2>(R)(t) + downcast<2>(R)(t);
  // swizzle and composed layouts
  auto sw = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), LayoutRight{}));
  acc += sw(t) + sw(1, 2) + size(sw) + cosize(sw) + Swizzle<2, 0, -2>{}(t) + make_composed_layout(Swizzle<1, 0, 1>{}, _4{}, B)(t);
  acc += zipped_divide(sw, make_shape(_8{}, _8{}))(t) + logical_divide(sw, make_shape(_8{}, _8{}))(t) + tiled_divide(sw, make_shape(_8{}, _8{}))(t);
  acc += size(coalesce(sw)) + rank(sw) + depth(sw) + size(shape(sw)) + composition(sw, make_layout(_8{}, _2{}))(t) + sw(_, 1)(t);
  // tensors
  auto g = make_tensor(out, make_layout(make_shape(n, _64{}), LayoutRight{}));
  auto tile = local_tile(g, make_shape(_8{}, _16{}), make_coord(blockIdx.x, 0));
  auto mine = local_partition(tile, make_layout(make_shape(_4{}, _8{})), t);
  auto id = make_identity_tensor(make_shape(n, _64{}));
  auto idp = local_partition(local_tile(id, make_shape(_8{}, _16{}), make_coord(0, _)), make_layout(make_shape(_4{}, _8{})), t);
  acc += get<0>(idp(0)) + size(mine) + size(g(_, 1)) + size(inner_partition(g, make_shape(_8{}, _16{}), make_coord(0, 0)));
  acc += size(outer_partition(g, make_shape(_8{}, _16{}), make_coord(0, 0))) + size(zipped_divide(g, make_shape(_8{}, _16{})));
  acc += size(logical_divide(g, make_shape(_8{}, _16{}))) + rank(g) + size(shape(g)) + size(layout(g)) + int64_t(g[t]);
  auto sg = make_tensor(out, sw);  // a swizzled tensor, sliced
  acc += int64_t(sg(t)) + int64_t(sg(_, 1)(t));
  // checks
  static_assert(is_bijective(decltype(A){}));
  acc += is_injective(B) + is_surjective(R, _32{}) + is_compact(R) + is_bijective(make_layout(n, 1));
  acc += is_surjective(R) + is_functionally_equal(A, A) + is_admissible_composition(A, B);
  static_assert(is_admissible_composition(decltype(A){}, decltype(B){}));
  for (int i = 0; i < size(mine); ++i) mine(i) = float(acc + i);
}
