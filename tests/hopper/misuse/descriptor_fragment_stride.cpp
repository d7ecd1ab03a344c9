// expect: make_descriptor_fragment: every mode's stride must be a whole number of 16-byte units
#include <tessera/atom/gmma_descriptor_iterator.hpp>
using namespace tessera;
// a K-major 128B tile whose k-blocks lie 4 bf16 elements (8 bytes) apart: a descriptor's start
// address moves in 16-byte steps, so no descriptor reaches the second k-block
const auto sA = make_tensor(reinterpret_cast<bfloat16_t*>(1024),
                            make_composed_layout(Swizzle<3, 3, 3>{}, _0{},
                                                 make_layout(make_shape(make_shape(_64{}, _16{}), _2{}),
                                                             make_stride(make_stride(_64{}, _1{}), _4{}))));
const auto f = GMMA::make_descriptor_fragment<GMMA::Major::K>(sA);
