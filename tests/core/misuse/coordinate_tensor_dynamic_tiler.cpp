// expect: coordinate tensor: strides stay static
#include <tessera/coordinate_tensor.hpp>
using namespace tessera;
int64_t tm = 4;
auto r = local_tile(make_coordinate_tensor(make_shape(int64_t(64), int64_t(8))), make_shape(tm, _8{}), make_coord(0, 0))(0, 0);
