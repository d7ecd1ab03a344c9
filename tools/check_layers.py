#!/usr/bin/env python3
"""Checks every #include in the tree against tessera's layer table.

    tools/check_layers.py [ROOT]        (default: the repository this script is in)

Each source file belongs to one part (PARTS, first matching path prefix wins); an include
that resolves to a file of the tree is an edge between two parts, and only the edges USES
lists may exist. Exits 1 and lists every other edge (file:line, the include, the rule);
exits 0 and prints a one-line summary when the tree obeys the table.

USES is the architecture (docs/architecture.md): the library's layers form a chain, each
using only those before it; every other part names what it may use. Public headers live
under include/tessera/ and never include a private file.
"""
import os
import re
import sys

# (part, path prefixes): a file belongs to the first part one of whose prefixes it starts with.
PARTS = [
    # The static tier: integers, tuples, layouts, the algebra, swizzles, composed layouts, tensors.
    ("tiled", ["include/tessera/tiled_mma.hpp", "include/tessera/tiled_copy.hpp",
               "include/tessera/tensor_fragment.hpp", "include/tessera/algorithm.hpp",
               "include/tessera/algorithm/", "include/tessera/pipeline/"]),
    ("atom", ["include/tessera/atom/"]),
    ("rt", ["include/tessera/rt/", "src/rt/"]),
    ("analysis", ["include/tessera/analysis/", "src/analysis/"]),
    ("testing", ["include/tessera/testing/"]),
    ("viz", ["include/tessera/viz/", "src/viz/"]),
    ("verify", ["include/tessera/verify/", "src/verify/"]),
    # The kernels' public host API (installed) and their bodies (private).
    ("kernels_api", ["include/tessera/kernels/"]),
    ("kernels", ["kernels/"]),
    ("static", ["include/tessera/"]),
    ("cli", ["src/cli/"]),
    # The epilogue trees' host check, run by the command and the Python module.
    ("epilogue_check", ["src/epilogue_check/"]),
    ("gemm_trace", ["src/gemm_trace/"]),
    ("python", ["python/"]),
    # The GPU harness: checked CUDA calls, random inputs, a GEMM problem with its FP64
    # reference; shared by the GPU tests, the benchmarks and the device probes.
    ("harness", ["tools/harness/"]),
    ("tests", ["tests/"]),
    ("examples", ["examples/"]),
    ("bench", ["bench/"]),
    ("tools", ["tools/"]),
]

# What each part may include besides itself. Spelled out per part, so no part's permissions
# depend on another's or on the order of this table.
LIBRARY = ["static", "atom", "tiled", "rt", "analysis", "testing", "viz", "verify"]
KERNELS = ["kernels_api", "kernels"]
USES = {
    # The library: a chain, each layer uses only those before it.
    "static": [],
    "atom": ["static"],
    "tiled": ["static", "atom"],
    "rt": ["static", "atom", "tiled"],
    "analysis": ["static", "atom", "tiled", "rt"],
    "testing": ["static", "atom", "tiled", "rt", "analysis"],
    "viz": ["static", "atom", "tiled", "rt", "analysis", "testing"],
    "verify": ["static", "atom", "tiled", "rt", "analysis", "testing", "viz"],
    # The command, and the epilogue trees' host check (epilogue_check).
    "cli": LIBRARY + ["epilogue_check"],
    # The epilogue trees' host check: trees read by the runtime tier, evaluated through the
    # kernels' own host ops (kernels_api): the nodes' semantics, not a copy. A part of its own
    # so that both the command and the Python module run it.
    "epilogue_check": ["static", "atom", "tiled", "rt", "kernels_api"],
    # Kernels use the static tier only (algebra, atoms, tiled objects), never the runtime tier.
    "kernels_api": ["static", "atom", "tiled"],
    "kernels": ["static", "atom", "tiled", "kernels_api"],
    # The trace tool instantiates the kernels with its recorder and checks them with verify.
    "gemm_trace": ["static", "atom", "tiled", "rt", "verify"] + KERNELS,
    # Thin bindings: the runtime tier, analyses, the testing kit's claims (framework-free; the
    # Catch2 matchers and rapidcheck generators stay unused), drawings, the verifier, the
    # kernels' host API.
    "python": ["static", "atom", "tiled", "rt", "analysis", "testing", "viz", "verify", "kernels_api", "epilogue_check"],
    "harness": ["static", "atom", "tiled", "kernels_api"],
    # Consumers. Tests check everything but the consumers below; examples are what a user
    # writes (the installed library only); bench and tools time and probe the kernels,
    # never through the tests.
    "tests": LIBRARY + ["cli", "epilogue_check", "gemm_trace", "harness"] + KERNELS,
    "examples": LIBRARY + ["kernels_api"],
    "bench": LIBRARY + KERNELS + ["harness"],
    "tools": LIBRARY + KERNELS + ["harness", "bench"],
}
ALLOWED = {part: set(uses) | {part} for part, uses in USES.items()}
assert set(ALLOWED) == {part for part, _ in PARTS}, "every part of PARTS needs its row in USES"

# Where quoted includes are looked for, after the including file's own folder.
SEARCH = {
    "kernels": ["include", "kernels"],
    "gemm_trace": ["include", "kernels"],
    "tests": ["include", "kernels", "src/gemm_trace"],
    "bench": ["include", "kernels"],
    "tools": ["include", "kernels"],
}
SOURCE_EXT = (".hpp", ".h", ".cpp", ".cu", ".cuh")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def part_of(path):
    for part, prefixes in PARTS:
        if any(path == p or (p.endswith("/") and path.startswith(p)) for p in prefixes):
            return part
    return None


def source_files(root):
    skip = {".git", "build", "node_modules"}
    for top, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in skip and not d.startswith(("build", "."))]
        for f in files:
            if f.endswith(SOURCE_EXT):
                yield os.path.relpath(os.path.join(top, f), root).replace(os.sep, "/")


def resolve(root, src, part, spelled, quoted):
    folders = ([os.path.dirname(src)] if quoted else []) + SEARCH.get(part, ["include"])
    for folder in folders:
        cand = os.path.normpath(os.path.join(folder, spelled)).replace(os.sep, "/")
        if os.path.isfile(os.path.join(root, cand)):
            return cand
    return None


def check(root):
    errors, edges = [], 0
    for src in sorted(source_files(root)):
        part = part_of(src)
        if part is None:
            continue
        with open(os.path.join(root, src), encoding="utf-8", errors="replace") as fh:
            lines = fh.readlines()
        for lineno, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            quoted, spelled = m.group(1) == '"', m.group(2)
            target = resolve(root, src, part, spelled, quoted)
            where = f"{src}:{lineno}: #include {line.strip()[len('#include'):].strip()}"
            if target is None:
                if quoted or spelled.startswith("tessera/"):
                    errors.append(f"{where}: resolves to no file of the tree")
                continue  # a system or third-party header
            edges += 1
            tpart = part_of(target)
            if src.startswith("include/") and not target.startswith("include/"):
                errors.append(f"{where}: a public header includes the private file {target}")
            elif tpart is None:
                errors.append(f"{where}: {target} belongs to no part of the layer table")
            elif tpart not in ALLOWED[part]:
                errors.append(f"{where}: {part} may not use {tpart} ({target}); "
                              f"{part} may use: {', '.join(sorted(ALLOWED[part]))}")
    return errors, edges


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    errors, edges = check(root)
    for e in errors:
        print("error: " + e, file=sys.stderr)
    if errors:
        print(f"check_layers: {len(errors)} include(s) break the layer table (tools/check_layers.py)", file=sys.stderr)
        return 1
    print(f"check_layers: {edges} includes between parts of the tree, all allowed by the layer table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
