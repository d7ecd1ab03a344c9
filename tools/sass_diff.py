#!/usr/bin/env python3
"""Is the machine code of two builds of a CUDA TU the same?

  tools/sass_diff.py OLD.o NEW.o [--math ffma|hmma|hgmma]

OLD and NEW: host objects as nvcc -c writes them (the build's own compile command), or
cubins. Every cubin embedded in an object (an ELF of machine EM_CUDA inside the fatbinary)
is taken out and paired with the other side's cubin of the same architecture.

1. With cuobjdump on PATH: `cuobjdump -sass` of both, normalised (symbol names, which carry
   the TU's path for internal-linkage entities, replaced by their order of appearance; line
   and file comments dropped; addresses kept), compared line by line.
2. Always: per cubin, every section but the debug ones (line tables, symbol and string
   tables, which change with source lines and names) compared byte for byte, per kernel
   through tools/cubin_compare.py (instruction counts, local memory, --math: the k-loop).
   Equal .text, .nv.info, .nv.constant and .nv.shared sections are equal SASS, registers,
   shared memory and constant banks.

Exit status 0 when everything compared is identical, 1 otherwise.
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cubin_compare  # noqa: E402

EM_CUDA = 190


FATBIN_MAGIC = b"\x50\xed\x55\xba"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def decompressed_cubins(data):
    """The cubins of the fatbinaries in data whose entries nvcc compressed (zstd, as nvcc 13
    compresses large device code by default), decompressed with the zstd command."""
    out = []
    for m in re.finditer(re.escape(FATBIN_MAGIC), data):
        start = m.start()
        _magic, _version, header, size = struct.unpack_from("<IHHQ", data, start)
        p, end = start + header, start + header + size
        while p + 16 <= end:
            kind, _v, entry_header, payload = struct.unpack_from("<HHIQ", data, p)
            if entry_header == 0:
                break
            body = data[p + entry_header:p + entry_header + payload]
            if kind == 2 and body.startswith(ZSTD_MAGIC):
                if not shutil.which("zstd"):
                    raise SystemExit("a compressed cubin and no zstd command: install zstd or cuobjdump")
                out.append(subprocess.run(["zstd", "-dcq"], input=body.rstrip(b"\0"), check=True,
                                          capture_output=True).stdout)
            p += entry_header + payload
    return out


def cubins(path):
    """{architecture: cubin bytes} of the ELF images of machine EM_CUDA in the file (also
    those inside compressed fatbinary entries)."""
    data = open(path, "rb").read()
    data = b"".join([data] + decompressed_cubins(data))
    out = {}
    for m in re.finditer(b"\x7fELF", data):
        start = m.start()
        if data[start + 4] != 2:  # 64-bit ELF only
            continue
        (machine,) = struct.unpack_from("<H", data, start + 0x12)
        if machine != EM_CUDA:
            continue
        (shoff,) = struct.unpack_from("<Q", data, start + 0x28)
        (flags,) = struct.unpack_from("<I", data, start + 0x30)
        shentsize, shnum = struct.unpack_from("<HH", data, start + 0x3A)
        end = start + shoff + shentsize * shnum
        # the end of the furthest section, if past the section headers
        for i in range(shnum):
            _n, kind, _f, _a, off, size, *_ = struct.unpack_from("<IIQQQQIIQQ", data, start + shoff + i * shentsize)
            if kind != 8:
                end = max(end, start + off + size)
        # The SM: bits 8..15 of e_flags in the ABI nvcc 12.8+ writes (OS/ABI 0x41, version >= 8),
        # the low byte before.
        sm = (flags >> 8) & 0xFF if data[start + 7] == 0x41 and data[start + 8] >= 8 else flags & 0xFF
        arch = f"sm_{sm}"
        key = arch
        n = 2
        while key in out:
            key = f"{arch}#{n}"
            n += 1
        out[key] = data[start:end]
    return out


def normalised_sass(path):
    text = subprocess.run(["cuobjdump", "-sass", path], check=True, capture_output=True, text=True).stdout
    names = {}

    def name(m):
        return names.setdefault(m.group(0), f"SYM{len(names)}")

    out = []
    for line in text.splitlines():
        if re.match(r"\s*(//##|\.file|\.loc|Fatbin|code for|host =|arch =|compile_size|identifier =)", line):
            continue
        line = re.sub(r"_Z[A-Za-z0-9_$.]+|_INTERNAL_[A-Za-z0-9_$.]+", name, line)
        out.append(line.rstrip())
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--math", choices=sorted(cubin_compare.MATH))
    args = ap.parse_args()
    same = True
    if shutil.which("cuobjdump"):
        a, b = normalised_sass(args.old), normalised_sass(args.new)
        if a == b:
            print(f"cuobjdump -sass: {len(a)} lines, identical after normalising names and line info")
        else:
            same = False
            import difflib
            diff = list(difflib.unified_diff(a, b, "old", "new", n=1, lineterm=""))
            print(f"cuobjdump -sass: {len(a)} -> {len(b)} lines, {sum(1 for l in diff if l[:1] in '+-')} differ")
            print("\n".join(diff[:60]))
    else:
        print("(no cuobjdump on PATH: comparing the cubins' sections)")
    ca, cb = cubins(args.old), cubins(args.new)
    if not ca:
        print(f"{args.old}: no cubin found")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        for arch in sorted(set(ca) | set(cb)):
            if arch not in ca or arch not in cb:
                print(f"{arch}: only in {'old' if arch in ca else 'new'}")
                same = False
                continue
            sa, sb = cubin_compare.sections_of(ca[arch]), cubin_compare.sections_of(cb[arch])
            differ = [n for n in sorted(set(sa) | set(sb)) if n and not cubin_compare.DEBUG.match(n) and sa.get(n) != sb.get(n)]
            texts = sorted(n for n in sa if n.startswith(".text."))
            print(f"{arch}: {len(texts)} kernels, {len(differ)} non-debug sections differ"
                  + ("" if differ else " (machine code identical)"))
            if differ:
                same = False
                for n in differ[:20]:
                    print(f"  differs: {n[:120]}")
                pa, pb = os.path.join(tmp, "a.cubin"), os.path.join(tmp, "b.cubin")
                open(pa, "wb").write(ca[arch])
                open(pb, "wb").write(cb[arch])
                cmd = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "cubin_compare.py"), pa, pb]
                if args.math:
                    cmd += ["--math", args.math]
                subprocess.run(cmd, check=False)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
