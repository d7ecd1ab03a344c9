#!/usr/bin/env python3
"""Ada's FP8 mma.sync atoms (SM89) and SM120's mma.sync atoms (f8f6f4, mxf8f6f4, mxf4nvf4) that
tessera lists, in its registry's order, and the C++ program that prints CuTe's traits of each
(tests/data/cute_sm89_sm120_traits.jsonl).

  python3 tools/cute_reference/sm89_sm120_atoms.py names            # one atom name per line
  python3 tools/cute_reference/sm89_sm120_atoms.py program > ref.cu # prints CuTe's answers as JSON lines
  nvcc -std=c++20 -I CUTLASS/include ref.cu -o ref && ./ref > tests/data/cute_sm89_sm120_traits.jsonl

The program is compiled against a CUTLASS checkout outside the repository (host code only);
only its printed answers are committed. Each line: atom, ThrID, ALayout, BLayout, CLayout and,
for the block-scaled atoms, SFALayout, SFBLayout and SFVecSize.
"""
import sys

SM89 = ["SM89_16x8x32_%s%s%s%s_TN" % (acc, a, b, acc) for acc in ("F32", "F16")
        for a, b in (("E4M3", "E4M3"), ("E4M3", "E5M2"), ("E5M2", "E4M3"), ("E5M2", "E5M2"))]
NARROW = ["E4M3", "E5M2", "E3M2", "E2M3", "E2M1"]
CUTE_TYPE = {"E4M3": "float_e4m3_t", "E5M2": "float_e5m2_t", "E3M2": "float_e3m2_t", "E2M3": "float_e2m3_t",
             "E2M1": "float_e2m1_t", "F32": "float", "F16": "half_t", "UE8M0": "float_ue8m0_t", "UE4M3": "float_ue4m3_t"}


def sm120_atoms():
    """(tessera name, CuTe type) in the registry's order."""
    out = []
    for a in NARROW:
        for acc in ("F32", "F16"):
            for b in NARROW:
                out.append(("SM120_16x8x32_TN_%s%s%s" % (a, b, acc),
                            "SM120_16x8x32_TN<%s, %s, %s>" % (CUTE_TYPE[a], CUTE_TYPE[b], CUTE_TYPE[acc])))
        for b in NARROW:
            out.append(("SM120_16x8x32_TN_VS_%s%sF32_UE8M0x32" % (a, b),
                        "SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<%s, %s, float, float_ue8m0_t, 32>"
                        % (CUTE_TYPE[a], CUTE_TYPE[b])))
    for sf, vs in (("UE8M0", 32), ("UE8M0", 16), ("UE4M3", 16)):
        out.append(("SM120_16x8x64_TN_VS_E2M1E2M1F32_%sx%d" % (sf, vs),
                    "SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t, float_e2m1_t, float, %s, %d>"
                    % (CUTE_TYPE[sf], vs)))
    return out


def program():
    p = ['#include <cute/tensor.hpp>', '#include <cute/atom/mma_traits_sm89.hpp>',
         '#include <cute/atom/mma_traits_sm120.hpp>', '#include <cstdio>', '#include <sstream>',
         '#include <string>', 'using namespace cute;',
         'template <class L> std::string str(L const& l) {',
         '  std::ostringstream o; o << l; std::string s; for (char c : o.str()) if (c != \'_\') s += c; return s; }',
         'template <class T> void mma(const char* name) {',
         '  printf("{\\"atom\\": \\"%s\\", \\"ThrID\\": \\"%s\\", \\"ALayout\\": \\"%s\\", \\"BLayout\\": \\"%s\\", '
         '\\"CLayout\\": \\"%s\\"", name, str(typename T::ThrID{}).c_str(), str(typename T::ALayout{}).c_str(), '
         'str(typename T::BLayout{}).c_str(), str(typename T::CLayout{}).c_str());',
         '  if constexpr (requires { T::SFVecSize; })',
         '    printf(", \\"SFALayout\\": \\"%s\\", \\"SFBLayout\\": \\"%s\\", \\"SFVecSize\\": %d", '
         'str(typename T::SFALayout{}).c_str(), str(typename T::SFBLayout{}).c_str(), int(T::SFVecSize));',
         '  printf("}\\n"); }',
         'int main() {']
    for name in SM89:
        p.append('  mma<MMA_Traits<%s>>("%s");' % (name, name))
    for name, cute in sm120_atoms():
        p.append('  mma<MMA_Traits<%s>>("%s");' % (cute, name))
    p.append('}')
    return "\n".join(p) + "\n"


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "names"
    if what == "names":
        print("\n".join(SM89 + [a[0] for a in sm120_atoms()]))
    elif what == "program":
        sys.stdout.write(program())
    else:
        sys.exit("usage: sm89_sm120_atoms.py names|program")
