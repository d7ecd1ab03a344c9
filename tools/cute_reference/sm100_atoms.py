#!/usr/bin/env python3
"""The Blackwell (SM100) atoms tessera lists, in its registry's order, and the C++ program that
prints CuTe's traits of each (tests/data/cute_sm100_traits.jsonl).

  python3 tools/cute_reference/sm100_atoms.py names            # one atom name per line
  python3 tools/cute_reference/sm100_atoms.py program > ref.cu # prints CuTe's answers as JSON lines
  nvcc -std=c++17 -I CUTLASS/include ref.cu -o ref && ./ref > tests/data/cute_sm100_traits.jsonl

The program is compiled against a CUTLASS checkout outside the repository (host code only);
only its printed answers are committed.
"""
import sys

# (name tag, CuTe op stem, cta_group, TS, kind, [(D, A, B) as tessera tags])
MMA_KINDS = [
    ("F16BF16", 16, [("F16", "F16", "F16"), ("F32", "F16", "F16"), ("F32", "BF16", "BF16")]),
    ("TF32", 32, [("F32", "TF32", "TF32")]),
    ("S8", 8, [("S32", "S8", "S8"), ("S32", "U8", "U8")]),
]
CUTE_TYPE = {"F16": "half_t", "BF16": "bfloat16_t", "TF32": "tfloat32_t", "F32": "float", "S8": "int8_t",
             "U8": "uint8_t", "S32": "int32_t"}


def n_values(cta_group, m, i8, ts):
    """N of tcgen05.mma (PTX ISA, tcgen05 Matrix Shape), narrowed for TS as CuTe's atoms are."""
    if cta_group == 1:
        if i8:
            return [8] + list(range(16, 257, 16))
        step = 16 if ts and m == 128 else 8
        return list(range(step, 257, step))
    step = 32 if i8 or ts else 16
    return list(range(step, 257, step))


def mma_atoms():
    """(name, CuTe op, cta_group, M, N, K, D, A, B) in the registry's order."""
    out = []
    for kind, bits, types in MMA_KINDS:
        for cta_group in (1, 2):
            for form in ("SS", "TS"):
                op = "SM100_MMA_%s_%s%s" % (kind, "2x1SM_" if cta_group == 2 else "", form)
                for d, a, b in types:
                    for m in ((64, 128) if cta_group == 1 else (128, 256)):
                        for n in n_values(cta_group, m, kind == "S8", form == "TS"):
                            k = 256 // bits
                            name = "%s_%dx%dx%d_%s%s%s" % (op, m, n, k, d, a, b)
                            out.append((name, op, cta_group, m, n, k, d, a, b))
    return out


COPY_SHAPES = [("32dp32b", 128), ("16dp64b", 128), ("16dp128b", 64), ("16dp256b", 32), ("16dp32b", 128)]


def copy_atoms():
    out = []
    for direction in ("LOAD", "STORE"):
        for shape, most in COPY_SHAPES:
            n = 1
            while n <= most:
                for pack in ("", "_16b"):
                    out.append("SM100_TMEM_%s_%s%dx%s" % (direction, shape, n, pack))
                n *= 2
    return out


def program():
    p = ['#include <cute/tensor.hpp>', '#include <cute/atom/mma_traits_sm100.hpp>',
         '#include <cute/atom/copy_traits_sm100.hpp>', '#include <cstdio>', '#include <sstream>',
         '#include <string>', 'using namespace cute;',
         'template <class L> std::string str(L const& l) {',
         '  std::ostringstream o; o << l; std::string s; for (char c : o.str()) if (c != \'_\') s += c; return s; }',
         'template <class T> void mma(const char* name) {',
         '  uint64_t idesc = UMMA::make_runtime_instr_desc<>(T{}.idesc_) >> 32;',
         '  printf("{\\"atom\\": \\"%s\\", \\"ThrID\\": \\"%s\\", \\"ALayout\\": \\"%s\\", \\"BLayout\\": \\"%s\\", '
         '\\"CLayout\\": \\"%s\\", \\"idesc\\": %llu}\\n", name, str(typename T::ThrID{}).c_str(), '
         'str(typename T::ALayout{}).c_str(), str(typename T::BLayout{}).c_str(), str(typename T::CLayout{}).c_str(), '
         '(unsigned long long)idesc); }',
         'template <class T> void cpy(const char* name) {',
         '  printf("{\\"atom\\": \\"%s\\", \\"ThrID\\": \\"%s\\", \\"ValID\\": \\"%s\\", \\"SrcLayout\\": \\"%s\\", '
         '\\"DstLayout\\": \\"%s\\", \\"RefLayout\\": \\"%s\\"}\\n", name, str(typename T::ThrID{}).c_str(), '
         'str(typename T::ValID{}).c_str(), str(typename T::SrcLayout{}).c_str(), str(typename T::DstLayout{}).c_str(), '
         'str(typename T::RefLayout{}).c_str()); }',
         'int main() {']
    for name, op, cta, m, n, k, d, a, b in mma_atoms():
        p.append('  mma<MMA_Traits<%s<%s, %s, %s, %d, %d, UMMA::Major::K, UMMA::Major::K>>>("%s");'
                 % (op, CUTE_TYPE[a], CUTE_TYPE[b], CUTE_TYPE[d], m, n, name))
    for name in copy_atoms():
        p.append('  cpy<Copy_Traits<%s>>("%s");' % (name, name))
    p.append('}')
    return "\n".join(p) + "\n"


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "names"
    if what == "names":
        print("\n".join([a[0] for a in mma_atoms()] + copy_atoms()))
    elif what == "program":
        sys.stdout.write(program())
    else:
        sys.exit("usage: sm100_atoms.py names|program")
