#!/usr/bin/env python3
"""Compares the machine code of two cubins where no disassembler is installed (nvcc's package
here has neither cuobjdump nor nvdisasm).

  tools/cubin_compare.py OLD.cubin NEW.cubin [--math ffma|hmma|hgmma]

Make the cubins with the build's own compile command (ninja -C build -t commands
tessera_kernels), `-c ... -o X.o` replaced by `-cubin ... -o X.cubin` (device code only).

1. Every section but the debug ones (line tables follow source lines) byte for byte: equal
   sections mean equal SASS, register counts, shared memory and constant banks.
2. Per kernel (.text section; one instruction per 16-byte word, the opcode field in its low
   12 bits): instructions before and after; LDL/STL (local memory); with --math, the k-loop
   (the backward branch whose range holds the most math instructions, the smallest such), its
   length, math instructions, local-memory accesses, and the changes of its opcode sequence
   (a renumbered register is no change there).
Opcodes and the branch-offset fields were identified with one-instruction probe kernels
(nvcc 13.0): FFMA 0x223, HMMA 0x23c (sm_80), HGMMA 0x9f0 (sm_90a), LDL 0x983, STL 0x387,
BRA 0x947 (offset: sm_80 bits 32..79 in bytes; sm_90a bits 16..23 and 34..81 in 4-byte units).
"""
import argparse
import difflib
import re
import struct

MATH = {"ffma": 0x223, "hmma": 0x23C, "hgmma": 0x9F0}
LDL, STL, BRA = 0x983, 0x387, 0x947
DEBUG = re.compile(r"^(\.debug|\.nv_debug|\.rela?\.debug|\.rela?\.nv_debug|\.shstrtab|\.strtab|\.symtab|\.note)")


def sections(path):
    return sections_of(open(path, "rb").read())


def sections_of(data):
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    entsize, count, names = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * entsize) for i in range(count)]
    strings = headers[names][4]
    out = {}
    for name_off, kind, _flags, _addr, off, size, *_ in headers:
        name = data[strings + name_off:data.index(b"\0", strings + name_off)].decode()
        out[name] = data[off:off + size] if kind != 8 else size  # NOBITS: its size
    return out


def words(text):
    return [int.from_bytes(text[i:i + 16], "little") for i in range(0, len(text), 16)]


def branch_offset(word, sm90):
    if sm90:
        off = ((word >> 16) & 0xFF) | (((word >> 34) & ((1 << 48) - 1)) << 8)
        return (off - (1 << 56) if off >> 55 else off) * 4
    off = (word >> 32) & ((1 << 48) - 1)
    return off - (1 << 48) if off >> 47 else off


def k_loop(ws, math):
    best = None
    for k, w in enumerate(ws):
        if w & 0xFFF != BRA:
            continue
        off = branch_offset(w, math == MATH["hgmma"])
        if off >= 0:
            continue
        first = k + 1 + off // 16
        n = sum(1 for x in ws[first:k + 1] if x & 0xFFF == math)
        if n and (best is None or n > best[0] or (n == best[0] and k - first < best[2] - best[1])):
            best = (n, first, k)
    return best


def local(ws):
    return f"{sum(1 for w in ws if w & 0xFFF == LDL)}/{sum(1 for w in ws if w & 0xFFF == STL)}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--math", choices=sorted(MATH))
    args = ap.parse_args()
    a, b = sections(args.old), sections(args.new)
    differ = [n for n in sorted(set(a) | set(b)) if n and not DEBUG.match(n) and a.get(n) != b.get(n)]
    same = len([n for n in set(a) & set(b) if n and not DEBUG.match(n)]) - len([n for n in differ if n in a and n in b])
    print(f"{same} sections identical, {len(differ)} differ")
    for i, name in enumerate(sorted(n for n in a if n.startswith(".text."))):
        if name not in b:
            print(f"kernel {i}: only in {args.old}")
            continue
        wa, wb = words(a[name]), words(b[name])
        line = f"kernel {i}: {len(wa)} -> {len(wb)} instructions, LDL/STL {local(wa)} -> {local(wb)}"
        if a[name] == b[name]:
            line += ", identical"
        elif args.math:
            la, lb = k_loop(wa, MATH[args.math]), k_loop(wb, MATH[args.math])
            if la and lb:
                ra, rb = wa[la[1]:la[2] + 1], wb[lb[1]:lb[2] + 1]
                ops = difflib.SequenceMatcher(None, [w & 0xFFF for w in ra], [w & 0xFFF for w in rb], autojunk=False)
                changes = sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in ops.get_opcodes() if tag != "equal")
                line += (f"; k-loop {len(ra)} -> {len(rb)} instructions, {args.math} {la[0]} -> {lb[0]}, "
                         f"LDL/STL {local(ra)} -> {local(rb)}, opcode-sequence changes {changes}")
        print(line)


if __name__ == "__main__":
    main()
