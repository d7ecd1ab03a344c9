#!/usr/bin/env python3
"""Writes include/tessera/atom/detail/mma_ops.hpp: the instruction side of tessera's MMA
atoms (register types and the inline PTX that issues each mma.sync / wgmma).  The PTX is
regular enough that writing 60 wgmma variants by hand would only invite typos.
Run: python3 src/atom/gen_mma_ops.py > include/tessera/atom/detail/mma_ops.hpp"""

CT = {'u32': ('uint32_t', 'r'), 'f32': ('float', 'f'), 'f64': ('double', 'd'), 's32': ('int32_t', 'r')}

def regs(prefix, n, first):
    return ', '.join('%%%d' % (first + i) for i in range(n)), first + n

def mma_sync(name, arch, ptx, d, a, b, c, doc):
    """d, a, b, c: (ctype key, count)"""
    out = []
    out.append(f'// {doc}')
    out.append(f'struct {name} {{')
    for role, (t, n) in zip('DABC', (d, a, b, c)):
        out.append(f'  using {role}Registers = {CT[t][0]}[{n}];')
    out.append('  TESSERA_DEVICE static void fma(DRegisters& d, ARegisters const& a, BRegisters const& b,')
    out.append('                                 CRegisters const& c) {')
    out.append(f'#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= {arch}')
    k = 0
    ds, k = regs('d', d[1], k)
    as_, k = regs('a', a[1], k)
    bs, k = regs('b', b[1], k)
    cs, k = regs('c', c[1], k)
    out.append(f'    asm volatile("{ptx} {{{ds}}}, {{{as_}}}, {{{bs}}}, {{{cs}}};\\n"')
    def ops(arr, n, t, mode):
        return ', '.join(f'"{mode}{CT[t][1]}"({arr}[{i}])' for i in range(n))
    out.append(f'                 : {ops("d", d[1], d[0], "=")}')
    out.append(f'                 : {ops("a", a[1], a[0], "")},')
    out.append(f'                   {ops("b", b[1], b[0], "")},')
    out.append(f'                   {ops("c", c[1], c[0], "")});')
    out.append('#else')
    out.append(f'    detail::mma_unsupported("{name} needs sm_{arch // 10}");')
    out.append('    (void)d; (void)a; (void)b; (void)c;')
    out.append('#endif')
    out.append('  }')
    out.append('};')
    return '\n'.join(out) + '\n'

def wgmma(name, ptx_types, dtype, ss):
    """template over N; dtype 'f32' (N/2 float regs) or 'f16' (N/4 u32 regs)."""
    out = []
    per = 2 if dtype == 'f32' else 4
    ct, cl = ('float', 'f') if dtype == 'f32' else ('uint32_t', 'r')
    src = 'SS' if ss else 'RS'
    out.append(f'// wgmma.mma_async m64nNk16 .{ptx_types}, A from {"shared memory (descriptor)" if ss else "registers"}, B from shared memory.')
    out.append(f'template <int N, GMMA::Major MajorA = GMMA::Major::K, GMMA::Major MajorB = GMMA::Major::K,')
    out.append(f'          GMMA::ScaleIn ScaleA = GMMA::ScaleIn::One, GMMA::ScaleIn ScaleB = GMMA::ScaleIn::One>')
    out.append(f'struct {name} {{')
    out.append('  static_assert(N % 8 == 0 && N >= 8 && N <= 256, "wgmma m64nNk16: N must be a multiple of 8 in [8, 256]");')
    if not ss:
        out.append('  static_assert(MajorA == GMMA::Major::K, "wgmma with A from registers needs K-major A");')
    out.append(f'  using DRegisters = {ct}[N / {per}];')
    out.append('  using ARegisters = ' + ('uint64_t[1];  // smem matrix descriptor' if ss else 'uint32_t[4];'))
    out.append('  using BRegisters = uint64_t[1];  // smem matrix descriptor')
    out.append(f'  using CRegisters = {ct}[N / {per}];')
    out.append('  TESSERA_DEVICE static void fma(DRegisters& d, ARegisters const& a, BRegisters const& b,')
    out.append('                                 GMMA::ScaleOut scale_d = GMMA::ScaleOut::One) {')
    out.append('#if defined(__CUDA_ARCH_FEAT_SM90_ALL)')
    out.append('    detail::' + name.replace('SM90_64xNx16_', 'wgmma_') + '<N, int(ScaleA), int(ScaleB), int(MajorA), int(MajorB)>(d, a, b, int(scale_d));')
    out.append('#else')
    out.append(f'    detail::mma_unsupported("{name} needs sm_90a");')
    out.append('    (void)d; (void)a; (void)b; (void)scale_d;')
    out.append('#endif')
    out.append('  }')
    out.append('};')
    return '\n'.join(out) + '\n'

def wgmma_detail(fname, ptx_types, dtype, ss):
    """One overload per N selected by if constexpr; each issues its own asm string."""
    per = 2 if dtype == 'f32' else 4
    cl = 'f' if dtype == 'f32' else 'r'
    out = [f'template <int N, int SA, int SB, int TA, int TB, class D, class A, class B>']
    out.append(f'TESSERA_DEVICE void {fname}(D& d, A const& a, B const& b, int scale_d) {{')
    first = True
    for n in range(8, 257, 8):
        nd = n // per
        out.append(f'  {"if" if first else "else if"} constexpr (N == {n}) {{')
        first = False
        k = 0
        ds, k = regs('d', nd, 0)
        if ss:
            a_s = f'%{nd}'
            b_s = f'%{nd + 1}'
            p = nd + 2
            imm = f'%{p + 1}, %{p + 2}, %{p + 3}, %{p + 4}'
        else:
            a_s = '{' + ', '.join(f'%{nd + i}' for i in range(4)) + '}'
            b_s = f'%{nd + 4}'
            p = nd + 5
            imm = f'%{p + 1}, %{p + 2}, %{p + 3}'
        out.append('    asm volatile(')
        out.append('        "{\\n.reg .pred p;\\nsetp.ne.b32 p, %' + str(p) + ', 0;\\n"')
        out.append(f'        "wgmma.mma_async.sync.aligned.m64n{n}k16.{ptx_types} "')
        out.append(f'        "{{{ds}}}, "')
        out.append(f'        "{a_s}, {b_s}, p, {imm};\\n}}\\n"')
        out.append('        : ' + ', '.join(f'"+{cl}"(d[{i}])' for i in range(nd)))
        if ss:
            ins = '"l"(a[0]), "l"(b[0])'
        else:
            ins = ', '.join(f'"r"(a[{i}])' for i in range(4)) + ', "l"(b[0])'
        imms = '"n"(SA), "n"(SB), "n"(TA), "n"(TB)' if ss else '"n"(SA), "n"(SB), "n"(TB)'
        out.append(f'        : {ins}, "r"(scale_d), {imms});')
        out.append('  }')
    out.append('}')
    return '\n'.join(out) + '\n'

HEAD = '''// GENERATED by src/atom/gen_mma_ops.py -- do not edit by hand.
// The instruction side of tessera's MMA atoms: register types and the inline PTX of each
// mma.sync / wgmma.  Layout traits (which thread holds which element) live in
// tessera/atom/mma_sm*.hpp.  Each fma() issues its instruction only where the target
// architecture has it; elsewhere it traps (device) or aborts (host), never computes garbage.
#pragma once

#include <cstdint>

#include "tessera/atom/detail/arch.hpp"

namespace tessera {
'''

def main():
    s = [HEAD]
    f16acc = [('TN', 'row.col'), ('NT', 'col.row'), ('NN', 'col.col'), ('TT', 'row.row')]
    for tag, lay in f16acc:
        s.append(mma_sync(f'SM70_8x8x4_F16F16F16F16_{tag}', 700, f'mma.sync.aligned.m8n8k4.{lay}.f16.f16.f16.f16',
                          ('u32', 4), ('u32', 2), ('u32', 2), ('u32', 4), f'mma.sync.m8n8k4.{lay} f16 x f16 + f16 (quad-pair MMA, Volta)'))
        s.append(mma_sync(f'SM70_8x8x4_F32F16F16F32_{tag}', 700, f'mma.sync.aligned.m8n8k4.{lay}.f32.f16.f16.f32',
                          ('f32', 8), ('u32', 2), ('u32', 2), ('f32', 8), f'mma.sync.m8n8k4.{lay} f16 x f16 + f32 (quad-pair MMA, Volta)'))
    s.append(mma_sync('SM75_16x8x8_F32F16F16F32_TN', 750, 'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32',
                      ('f32', 4), ('u32', 2), ('u32', 1), ('f32', 4), 'mma.sync.m16n8k8 f16 x f16 + f32 (Turing)'))
    s.append(mma_sync('SM80_16x8x8_F16F16F16F16_TN', 800, 'mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16',
                      ('u32', 2), ('u32', 2), ('u32', 1), ('u32', 2), 'mma.sync.m16n8k8 f16 x f16 + f16'))
    s.append(mma_sync('SM80_16x8x8_F32F16F16F32_TN', 800, 'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32',
                      ('f32', 4), ('u32', 2), ('u32', 1), ('f32', 4), 'mma.sync.m16n8k8 f16 x f16 + f32'))
    s.append(mma_sync('SM80_16x8x8_F32BF16BF16F32_TN', 800, 'mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32',
                      ('f32', 4), ('u32', 2), ('u32', 1), ('f32', 4), 'mma.sync.m16n8k8 bf16 x bf16 + f32'))
    s.append(mma_sync('SM80_16x8x16_F16F16F16F16_TN', 800, 'mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16',
                      ('u32', 2), ('u32', 4), ('u32', 2), ('u32', 2), 'mma.sync.m16n8k16 f16 x f16 + f16'))
    s.append(mma_sync('SM80_16x8x16_F32F16F16F32_TN', 800, 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32',
                      ('f32', 4), ('u32', 4), ('u32', 2), ('f32', 4), 'mma.sync.m16n8k16 f16 x f16 + f32'))
    s.append(mma_sync('SM80_16x8x16_F32BF16BF16F32_TN', 800, 'mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32',
                      ('f32', 4), ('u32', 4), ('u32', 2), ('f32', 4), 'mma.sync.m16n8k16 bf16 x bf16 + f32'))
    s.append(mma_sync('SM80_16x8x8_F32TF32TF32F32_TN', 800, 'mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32',
                      ('f32', 4), ('u32', 4), ('u32', 2), ('f32', 4), 'mma.sync.m16n8k8 tf32 x tf32 + f32'))
    s.append(mma_sync('SM80_8x8x4_F64F64F64F64_TN', 800, 'mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64',
                      ('f64', 2), ('f64', 1), ('f64', 1), ('f64', 2), 'mma.sync.m8n8k4 f64 x f64 + f64'))
    s.append(mma_sync('SM80_16x8x32_S32S8S8S32_TN', 800, 'mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32',
                      ('s32', 4), ('u32', 4), ('u32', 2), ('s32', 4), 'mma.sync.m16n8k32 s8 x s8 + s32 (wrapping)'))
    s.append('''
// ---------------------------------------------------------------- SM90 wgmma
namespace GMMA {
enum class Major : int { K = 0, MN = 1 };          // operand's contiguous mode in smem
enum class ScaleOut : int { Zero = 0, One = 1 };   // D = A*B (Zero) or A*B + D (One)
enum class ScaleIn : int { Neg = -1, One = 1 };    // negate an input operand

// Ordering around wgmma: fence register/smem operands before the first wgmma, commit the
// issued wgmmas as a group, wait until at most N groups are in flight.
TESSERA_DEVICE void warpgroup_arrive() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\\n" ::: "memory");
#endif
}
TESSERA_DEVICE void warpgroup_commit_batch() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.commit_group.sync.aligned;\\n" ::: "memory");
#endif
}
template <int N>
TESSERA_DEVICE void warpgroup_wait() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.wait_group.sync.aligned %0;\\n" ::"n"(N) : "memory");
#endif
}
}  // namespace GMMA

namespace detail {
''')
    variants = [('F16F16F16', 'f16.f16.f16', 'f16'), ('F32F16F16', 'f32.f16.f16', 'f32'), ('F32BF16BF16', 'f32.bf16.bf16', 'f32')]
    for tag, types, dt in variants:
        for ss in (True, False):
            s.append(wgmma_detail(f'wgmma_{tag}_{"SS" if ss else "RS"}', types, dt, ss))
    s.append('}  // namespace detail\n')
    for tag, types, dt in variants:
        for ss in (True, False):
            s.append(wgmma(f'SM90_64xNx16_{tag}_{"SS" if ss else "RS"}', types, dt, ss))
    s.append('}  // namespace tessera\n')
    print('\n'.join(s), end='')

main()
