// expect: an owning tensor needs a compact layout
#include <tessera/tensor_fragment.hpp>
using namespace tessera;
auto f = make_tensor<float>(make_layout(make_shape(_4{}, _2{}), make_stride(_2{}, _16{})));
