// expect: an owning tensor needs a static layout
#include <tessera/tensor_fragment.hpp>
using namespace tessera;
auto f = make_tensor<float>(make_layout(make_shape(4, _2{})));
