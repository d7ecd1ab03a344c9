#!/usr/bin/env python3
"""Generate C++ test sources that evaluate CuTe's conformance vectors with the
static tier: every integer becomes a static C<N>, the printed result must equal
the vector's `result`, and the result type must be static.

usage: gen_static_conformance.py OUT_DIR CHUNKS FILE.jsonl...
Writes OUT_DIR/conformance_<k>.cpp for k in [0, CHUNKS) (always all of them, so
the build knows the file names at configure time).

Composed layouts: `Sw<B,M,S> o off o L` becomes composition(Swizzle<B,M,S>{}, C<off>{}, L),
a bare `Sw<B,M,S>` Swizzle<B,M,S>{}, `L o off o Sw<...>` make_composed_layout(L, C<off>{}, Sw).
Every vector runs in the static tier, the composed ones included (`slice` takes the
coordinate first in tessera, as in CuTe: slice(L, c) in a vector becomes tessera::slice(c, L)).
"""
import json
import re
import sys

TOKEN = re.compile(r"\s*(?:(?P<sw>Sw<\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*>)|(?P<o>o(?=\s))|"
                   r"(?P<name>[A-Za-z][A-Za-z0-9_]*)\s*\(|(?P<int>-?_?\d+)|(?P<us>_)|(?P<p>[(),:]))")

class ParseError(Exception):
    pass


def tokenize(text):
    pos, out = 0, []
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        m = TOKEN.match(text, pos)
        if not m:
            raise ParseError(f"unexpected character at {pos}: {text[pos:]!r}")
        if m.group("sw"):
            out.append(("sw", (int(m.group(2)), int(m.group(3)), int(m.group(4)))))
        elif m.group("o"):
            out.append(("o", None))
        elif m.group("us"):
            out.append(("us", None))
        elif m.group("name"):
            out.append(("call", m.group("name")))
        elif m.group("int"):
            out.append(("int", int(m.group("int").replace("_", ""))))
        else:
            out.append(("p", m.group("p")))
        pos = m.end()
    return out


class Parser:
    def __init__(self, text):
        self.toks = tokenize(text)
        self.i = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def take(self, kind, val=None):
        t = self.peek()
        if t[0] != kind or (val is not None and t[1] != val):
            raise ParseError(f"expected {val or kind}, got {t}")
        self.i += 1
        return t

    def offset_then_o(self):
        off = 0
        if self.peek()[0] == "int" and self.i + 1 < len(self.toks) and self.toks[self.i + 1][0] == "o":
            off = self.peek()[1]
            self.i += 2
        return off

    def expr(self):
        t = self.peek()
        if t[0] == "sw":
            self.i += 1
            if self.peek()[0] != "o":
                return ("swizzle", t[1])
            self.i += 1
            off = self.offset_then_o()
            return ("swizzled", t[1], off, self.expr())
        if t[0] == "call":
            self.i += 1
            args = [self.expr()]
            while self.peek() == ("p", ","):
                self.i += 1
                args.append(self.expr())
            self.take("p", ")")
            return ("call", t[1], args)
        term = self.term()
        if self.peek() == ("p", ":"):
            self.i += 1
            lay = ("layout", term, self.term())
            if self.peek()[0] == "o":  # L o off o Sw
                self.i += 1
                off = self.offset_then_o()
                return ("after", lay, off, self.take("sw")[1])
            return lay
        return term

    def term(self):
        t = self.peek()
        if t[0] == "int":
            self.i += 1
            return ("int", t[1])
        if t[0] == "us":
            self.i += 1
            return ("us",)
        self.take("p", "(")
        items = [self.expr()]
        while self.peek() == ("p", ","):
            self.i += 1
            items.append(self.expr())
        self.take("p", ")")
        return ("tuple", items)

    def parse(self):
        e = self.expr()
        if self.i != len(self.toks):
            raise ParseError("trailing input")
        return e


def sw_cpp(bms):
    return f"Swizzle<{bms[0]},{bms[1]},{bms[2]}>{{}}"


def cpp(node):
    kind = node[0]
    if kind == "int":
        return f"C<{node[1]}>{{}}"
    if kind == "us":
        return "_"
    if kind == "swizzle":
        return sw_cpp(node[1])
    if kind == "swizzled":
        return f"composition({sw_cpp(node[1])},C<{node[2]}>{{}},{cpp(node[3])})"
    if kind == "after":
        return f"make_composed_layout({cpp(node[1])},C<{node[2]}>{{}},{sw_cpp(node[3])})"
    if kind == "call" and node[1] in ("upcast", "downcast"):
        return f"tessera::{node[1]}<{node[2][1][1]}>({cpp(node[2][0])})"
    if kind == "call" and node[1] == "slice":
        return f"tessera::slice({cpp(node[2][1])},{cpp(node[2][0])})"
    if kind == "call" and node[1] == "get":
        return f"tessera::get<{node[2][1][1]}>({cpp(node[2][0])})"
    if kind == "tuple":
        return "make_tuple(" + ",".join(cpp(x) for x in node[1]) + ")"
    if kind == "layout":
        return f"make_layout({cpp(node[1])},{cpp(node[2])})"
    return f"tessera::{node[1]}(" + ",".join(cpp(x) for x in node[2]) + ")"


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    out_dir, chunks, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    cases = []
    for f in files:
        with open(f) as fh:
            for lineno, line in enumerate(fh, 1):
                line = line.strip()
                if not line:
                    continue
                d = json.loads(line)
                ast = Parser(d["expr"]).parse()
                cases.append((f"{f.rsplit('/', 1)[-1]}:{lineno}", d["expr"], d["result"], ast))
    for k in range(chunks):
        part = cases[k::chunks]
        body = []
        for where, expr, result, ast in part:
            body.append(f"  {{ auto r = {cpp(ast)};\n"
                        f"    check({c_string(where)}, {c_string(expr)}, to_string(r), {c_string(result)}, is_static_v<decltype(r)>); }}")
        src = (f"// Generated by tools/gen_static_conformance.py from {len(files)} file(s): do not edit.\n"
               f"// Every vector of those files is checked here ({len(cases)} in all, composed layouts included).\n"
               "#include \"conformance_check.hpp\"\n"
               "using namespace tessera;\n"
               f"TEST_CASE(\"static tier reproduces CuTe's answers, part {k}\", \"[core][conformance]\") {{\n"
               f"  int checked = 0, failed = 0;\n"
               f"  auto check = [&](char const* where, char const* expr, std::string const& got, char const* want, bool is_static) {{\n"
               f"    ++checked;\n"
               f"    if (got != want || !is_static) {{ ++failed; FAIL_CHECK(where << \": \" << expr << \" gave \" << got << (is_static ? \"\" : \" (not static)\") << \", CuTe gives \" << want); }}\n"
               f"  }};\n"
               + "\n".join(body) +
               f"\n  REQUIRE(checked == {len(part)});\n  CHECK(failed == 0);\n}}\n")
        path = f"{out_dir}/conformance_{k}.cpp"
        with open(path, "w") as fh:
            fh.write(src)


if __name__ == "__main__":
    main()
