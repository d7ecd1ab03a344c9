#!/usr/bin/env python3
"""The Blackwell (SM100) atoms tessera lists, in its registry's order, and the C++ program that
prints CuTe's traits of each (tests/data/cute_sm100_traits.jsonl).

  python3 tools/cute_reference/sm100_atoms.py names            # one atom name per line
  python3 tools/cute_reference/sm100_atoms.py program > ref.cu # prints CuTe's answers as JSON lines
  nvcc -std=c++17 -I CUTLASS/include ref.cu -o ref && ./ref > tests/data/cute_sm100_traits.jsonl
  python3 tools/cute_reference/sm100_atoms.py narrow > narrow.cu   # the f8f6f4 and block-scaled kinds
  nvcc -std=c++17 -I CUTLASS/include narrow.cu -o narrow && ./narrow > tests/data/cute_sm100_narrow_traits.jsonl
  python3 tools/cute_reference/sm100_atoms.py pair-sf > pair_sf.cu  # CTA-pair scale factors in TMEM
  nvcc -std=c++17 -I CUTLASS/include pair_sf.cu -o pair_sf && ./pair_sf > tests/data/cute_sm100_pair_sf.jsonl

The narrow kinds (f8f6f4, mxf8f6f4, mxf4, mxf4nvf4: 9,392 atoms) are written compactly: a line
per shape with the layouts ({"shape": op_MxNxK, ...}; the program checks that every atom of the
shape, whatever its types, has them) and a line per atom with its instruction descriptor; then
the scale factors' layouts (CUTLASS's Sm1xxBlockScaledConfig block, CuTe's tmem_sf_frg).

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


# The narrow kinds, in the registry's order: (op, cta_group, TS, kind).
NARROW_OPS = [("SM100_MMA_F8F6F4_SS", 1, False, "f8f6f4"), ("SM100_MMA_F8F6F4_TS", 1, True, "f8f6f4"),
              ("SM100_MMA_F8F6F4_2x1SM_SS", 2, False, "f8f6f4"), ("SM100_MMA_F8F6F4_2x1SM_TS", 2, True, "f8f6f4"),
              ("SM100_MMA_MXF8F6F4_SS", 1, False, "mxf8f6f4"), ("SM100_MMA_MXF8F6F4_2x1SM_SS", 2, False, "mxf8f6f4")]
MXF4_OPS = [("SM100_MMA_MXF4_SS", 1), ("SM100_MMA_MXF4_2x1SM_SS", 2)]
F8F6F4 = ["E4M3", "E5M2", "E2M3", "E3M2", "E2M1"]
# CuTe's types of the f8f6f4 kinds: 6- and 4-bit elements one a byte in shared memory.
CUTE_F8F6F4 = {"E4M3": "cutlass::float_e4m3_t", "E5M2": "cutlass::float_e5m2_t",
               "E2M3": "cutlass::detail::float_e2m3_unpacksmem_t", "E3M2": "cutlass::detail::float_e3m2_unpacksmem_t",
               "E2M1": "cutlass::detail::float_e2m1_unpacksmem_t"}
CUTE_SF = {"UE8M0": "cutlass::float_ue8m0_t", "UE4M3": "cutlass::float_ue4m3_t"}


def narrow_n(cta_group, m, ts, block_scaled, mxf8f6f4):
    """N of the narrow kinds: f8f6f4 as f16 (tcgen05 Matrix Shape); the block-scaled kinds as CuTe's atoms take."""
    if not block_scaled:
        return n_values(cta_group, m, False, ts)
    if cta_group == 1:
        return list(range(8, 257, 8)) if m == 128 else []
    if m == 128 and mxf8f6f4:
        return []
    return list(range(16, 257, 16))


def narrow_atoms():
    """(name, shape key, C++ traits type) in the registry's order."""
    out = []
    for op, cta, ts, kind in NARROW_OPS:
        bs = kind == "mxf8f6f4"
        shapes = [(m, n) for m in ((64, 128) if cta == 1 else (128, 256)) for n in narrow_n(cta, m, ts, bs, bs)]
        for d in (["F32"] if bs else ["F16", "F32"]):
            for a in F8F6F4:
                for b in F8F6F4:
                    for m, n in shapes:
                        name = "%s_%dx%dx32_%s%s%s%s" % (op, m, n, d, a, b, "_UE8M0x32" if bs else "")
                        ct = "float" if d == "F32" else "half_t"
                        if bs:
                            t = "%s<%s, %s, float, %s, %d, %d, UMMA::Major::K, UMMA::Major::K>" % (
                                op, CUTE_F8F6F4[a], CUTE_F8F6F4[b], CUTE_SF["UE8M0"], m, n)
                        else:
                            t = "%s<%s, %s, %s, %d, %d, UMMA::Major::K, UMMA::Major::K>" % (
                                op, CUTE_F8F6F4[a], CUTE_F8F6F4[b], ct, m, n)
                        out.append((name, "%s_%dx%dx32" % (op, m, n), t, bs))
    for op, cta in MXF4_OPS:
        for sf, vs in (("UE8M0", 32), ("UE8M0", 16), ("UE4M3", 16)):
            for m in ((64, 128) if cta == 1 else (128, 256)):
                for n in narrow_n(cta, m, False, True, False):
                    name = "%s_%dx%dx64_F32E2M1E2M1_%sx%d" % (op, m, n, sf, vs)
                    t = "%s<cutlass::float_e2m1_t, cutlass::float_e2m1_t, float, %s, %d, %d, %d, UMMA::Major::K, " \
                        "UMMA::Major::K>" % (op, CUTE_SF[sf], m, n, vs)
                    out.append((name, "%s_%dx%dx64" % (op, m, n), t, True))
    return out


def narrow_program():
    p = ['#include <cute/tensor.hpp>', '#include <cute/atom/mma_traits_sm100.hpp>',
         '#include <cutlass/detail/sm100_blockscaled_layout.hpp>', '#include <cstdio>', '#include <cstdlib>',
         '#include <map>', '#include <sstream>', '#include <string>', 'using namespace cute;',
         'template <class L> std::string str(L const& l) {',
         '  std::ostringstream o; o << l; std::string s; for (char c : o.str()) if (c != \'_\') s += c; return s; }',
         'std::map<std::string, std::string> shapes;',
         'template <class T, bool BS> void mma(const char* name, const char* shape) {',
         '  using Tr = MMA_Traits<T>;',
         '  std::string l = "\\"ThrID\\": \\"" + str(typename Tr::ThrID{}) + "\\", \\"ALayout\\": \\"" + '
         'str(typename Tr::ALayout{}) + "\\", \\"BLayout\\": \\"" + str(typename Tr::BLayout{}) + '
         '"\\", \\"CLayout\\": \\"" + str(typename Tr::CLayout{}) + "\\", \\"K\\": " + '
         'std::to_string(int(size<2>(typename Tr::Shape_MNK{})));',
         '  auto it = shapes.find(shape);',
         '  if (it == shapes.end()) { shapes[shape] = l; printf("{\\"shape\\": \\"%s\\", %s}\\n", shape, l.c_str()); }',
         '  else if (it->second != l) { fprintf(stderr, "%s: layouts differ within %s\\n", name, shape); std::exit(1); }',
         '  uint64_t idesc;',
         '  if constexpr (BS) idesc = UMMA::make_runtime_instr_desc_block_scaled<>(Tr{}.idesc_, 0u, 0u) >> 32;',
         '  else idesc = UMMA::make_runtime_instr_desc<>(Tr{}.idesc_) >> 32;',
         '  printf("{\\"atom\\": \\"%s\\", \\"shape\\": \\"%s\\", \\"idesc\\": %llu}\\n", name, shape, '
         '(unsigned long long)idesc); }',
         'template <class SF, int VS, int MN, int NSF, bool IsSFA> void tmem_sf() {',
         '  auto t = UMMA::tmem_sf_frg<SF, VS, 1, IsSFA>::make(make_shape(make_shape(Int<MN>{}, '
         'make_shape(Int<VS>{}, Int<NSF>{})), _1{}, _1{}));',
         '  printf("{\\"tmem_sf\\": \\"%s\\", \\"mn\\": %d, \\"vs\\": %d, \\"nsf\\": %d, \\"dp\\": %d, '
         '\\"layout\\": \\"%s\\"}\\n", IsSFA ? "A" : "B", MN, VS, NSF, int(TMEM::DP<SF>::value), '
         'str(layout(t)).c_str()); }',
         'int main() {']
    for name, shape, t, bs in narrow_atoms():
        p.append('  mma<%s, %s>("%s", "%s");' % (t, "true" if bs else "false", name, shape))
    for vs in (16, 32):
        for major in ("K", "MN"):
            p.append('  printf("{\\"sf_atom\\": \\"%s\\", \\"vs\\": %d, \\"layout\\": \\"%%s\\"}\\n", '
                     'str(typename cutlass::detail::Sm1xxBlockScaledBasicChunk<%d, UMMA::Major::%s>::SfAtom{}).c_str());'
                     % (major, vs, vs, major))
    for sf, vs, nsf in (("UE8M0", 32, 1), ("UE8M0", 32, 2), ("UE4M3", 16, 4)):
        for mn, is_a in ((128, "true"), (128, "false"), (256, "false")):
            p.append('  tmem_sf<%s, %d, %d, %d, %s>();' % (CUTE_SF[sf], vs, mn, nsf, is_a))
    p.append('}')
    return "\n".join(p) + "\n"


# CTA-pair block-scaled shapes whose scale factors' tensor-memory layouts are checked: M = 256 (the
# 4x1 data path) for every kind, M = 128 (the 2x2 data path) for the mxf4 kinds, the only ones
# with it; N = 192 and 16 round up to the next 128 for B.
PAIR_SF_N = (16, 64, 128, 192, 256)


def pair_sf_program():
    """CuTe's SFA / SFB tensor-memory fragments of the 2x1SM block-scaled atoms: the traits'
    FrgTypeSFA / FrgTypeSFB made from the per-CTA shape CUTLASS's block-scaled collective gives
    them (Sm1xxBlockScaledConfig::deduce_smem_layoutSFA / SFB): M/2 rows of A per CTA (the tile's M
    over the pair), N rounded up to 128 columns of B."""
    p = ['#include <cute/tensor.hpp>', '#include <cute/atom/mma_traits_sm100.hpp>', '#include <cstdio>',
         '#include <sstream>', '#include <string>', 'using namespace cute;',
         'template <class L> std::string str(L const& l) {',
         '  std::ostringstream o; o << l; std::string s; for (char c : o.str()) if (c != \'_\') s += c; return s; }',
         'template <class Op, class SF, int M, int N, int VS> void pair_sf(const char* kind) {',
         '  using Tr = MMA_Traits<Op>;',
         '  constexpr int NSF = int(size<2>(typename Tr::Shape_MNK{})) / VS, MA = M / 2, NB = (N + 127) / 128 * 128;',
         '  auto a = make_tensor<typename Tr::FrgTypeSFA>(make_shape(make_shape(Int<MA>{}, '
         'make_shape(Int<VS>{}, Int<NSF>{})), _1{}, _1{}));',
         '  auto b = make_tensor<typename Tr::FrgTypeSFB>(make_shape(make_shape(Int<NB>{}, '
         'make_shape(Int<VS>{}, Int<NSF>{})), _1{}, _1{}));',
         '  printf("{\\"pair_sf\\": \\"A\\", \\"kind\\": \\"%s\\", \\"m\\": %d, \\"n\\": %d, \\"vs\\": %d, \\"mn\\": %d, '
         '\\"dp\\": %d, \\"layout\\": \\"%s\\"}\\n", kind, M, N, VS, MA, int(TMEM::DP<SF>::value), str(layout(a)).c_str());',
         '  printf("{\\"pair_sf\\": \\"B\\", \\"kind\\": \\"%s\\", \\"m\\": %d, \\"n\\": %d, \\"vs\\": %d, \\"mn\\": %d, '
         '\\"dp\\": %d, \\"layout\\": \\"%s\\"}\\n", kind, M, N, VS, NB, int(TMEM::DP<SF>::value), str(layout(b)).c_str()); }',
         'int main() {']
    for n in PAIR_SF_N:
        p.append('  pair_sf<SM100_MMA_MXF8F6F4_2x1SM_SS<%s, %s, float, %s, 256, %d, UMMA::Major::K, UMMA::Major::K>, '
                 '%s, 256, %d, 32>("mxf8f6f4");' % (CUTE_F8F6F4["E4M3"], CUTE_F8F6F4["E4M3"], CUTE_SF["UE8M0"], n,
                                                    CUTE_SF["UE8M0"], n))
    for sf, vs in (("UE8M0", 32), ("UE4M3", 16)):
        for m in (128, 256):
            for n in PAIR_SF_N:
                p.append('  pair_sf<SM100_MMA_MXF4_2x1SM_SS<cutlass::float_e2m1_t, cutlass::float_e2m1_t, float, %s, %d, '
                         '%d, %d, UMMA::Major::K, UMMA::Major::K>, %s, %d, %d, %d>("%s");'
                         % (CUTE_SF[sf], m, n, vs, CUTE_SF[sf], m, n, vs, "mxf4" if vs == 32 else "mxf4nvf4"))
    p.append('}')
    return "\n".join(p) + "\n"


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
    elif what == "narrow":
        sys.stdout.write(narrow_program())
    elif what == "pair-sf":
        sys.stdout.write(pair_sf_program())
    elif what == "narrow-names":
        print("\n".join(a[0] for a in narrow_atoms()))
    else:
        sys.exit("usage: sm100_atoms.py names|program|narrow|pair-sf|narrow-names")
