// expect: inadmissible divide
// docs/notation.md (logical divide): (tile, rest) = ((5,2):(1,12), 2:5) runs past size(A) = 6.
// CuTe's ((5,2),2):((17,12),85) reads A's last mode 1:6 as continuing at the tile's offset 12
// (12 = A_ext(12)) but 6:17 as continuing at the rest's offset 5 (85 = 5 * 17): at ((1,0),1),
// 17 + 85 = 102 while A continued along either mode gives 6 or 102 -- never both readings.
#include <tessera/tessera.hpp>
using namespace tessera;
auto r = logical_divide(make_layout(make_shape(_6{}, _1{}), make_stride(C<17>{}, _6{})),
                        make_layout(make_shape(_5{}, _2{}), make_stride(_1{}, C<12>{})));
