#!/bin/sh
# tessera gmem: outputs (text goldens, drawings), known answers, and every error path
# (exit status 1, message on stderr starting error:, caret where the input is located, no
# output file left behind).
# Usage: gmem_cli_test.sh TESSERA DATA_DIR HAS_CAIRO
T="$1"; DATA="$2"; CAIRO="$3"
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
# expect_ok NAME CMD...: exit 0
expect_ok() { name=$1; shift; "$@" >"$W/out" 2>"$W/err" || bad "$name: exit $? ($(cat "$W/err"))"; }
# expect_err NAME PATTERN CMD...: exit 1, stderr starts with error: and contains PATTERN
expect_err() {
  name=$1; pat=$2; shift 2
  "$@" >"$W/out" 2>"$W/err"; rc=$?
  [ $rc -eq 1 ] || bad "$name: exit $rc, want 1"
  head -n1 "$W/err" | grep -q '^error: ' || bad "$name: stderr does not start with error: ($(cat "$W/err"))"
  grep -qF -- "$pat" "$W/err" || bad "$name: stderr lacks '$pat' ($(cat "$W/err"))"
}
has_caret() { grep -q '^ *\^$' "$W/err" || bad "$1: no caret ($(cat "$W/err"))"; }
# summary_is NAME FIELDS: the summary line's "sectors S (min M" and "lines L (min K"
summary_has() { grep '^summary: ' "$W/out" | grep -qF -- "$2" || bad "$1: summary lacks '$2' ($(grep '^summary' "$W/out"))"; }

# --- goldens: every line of the text output
expect_ok golden-base16 "$T" gmem '(4,32):(32,1)' --tv '(32,4):(4,1)' --bits 32 --base 16
cmp -s "$W/out" "$DATA/gmem_rows_base16.txt" || bad "gmem rows --base 16 differs from golden ($(diff "$W/out" "$DATA/gmem_rows_base16.txt" | head -5))"
expect_ok golden-txt "$T" gmem '(4,32):(32,1)' --tv '(32,4):(4,1)' --bits 32 --base 16 -f txt -o "$W/d.txt"
cmp -s "$W/d.txt" "$DATA/gmem_rows_base16_diagram.txt" || bad "gmem diagram txt differs from golden"
expect_ok golden-copy "$T" gmem '(32,64):(64,1)' --access UniversalCopy_128 --threads '(16,8):(8,1)' --values '(1,8)'
cmp -s "$W/out" "$DATA/gmem_copy128_rows.txt" || bad "gmem UniversalCopy_128 rows differs from golden"

# --- known answers
# Row-major 128-bit loads along rows: the minimum (16 sectors = 4 lines per warp).
summary_has rows128 'instructions 8, sectors 128 (min 128, excess 0, 16.00 per instruction, efficiency 100.0%), lines 32 (min 32'
grep -q '(coalesced)$' "$W/out" || bad "rows128: not reported coalesced"
# A warp down a column of a row-major fp32 matrix: 32 sectors for 128 bytes.
expect_ok column "$T" gmem '(32,32):(32,1)' --tv '(32,32):(1,32)' --bits 32 --summary
summary_has column 'instructions 32, sectors 1024 (min 128, excess 896, 32.00 per instruction, efficiency 12.5%), lines 1024 (min 32'
[ "$(wc -l <"$W/out")" -eq 3 ] || bad "--summary prints 3 lines"
# cp.async 16-byte loads of a column-major fp16 tile, 8 threads a column: coalesced.
expect_ok cp-async "$T" gmem '(64,32):(1,64)' --access SM80_CP_ASYNC_CACHEALWAYS_16 --threads '(8,16):(1,8)' --values '(8,1)' --summary
summary_has cp-async 'sectors 128 (min 128, excess 0'
# Padded rows (a 144-byte pitch) straddle sectors: 36 sectors for 32.
expect_ok padded "$T" gmem '(8,32):(36,1)' --tv '(32,8):(8,1)' --bits 32 --summary
summary_has padded 'sectors 36 (min 32, excess 4, 4.50 per instruction'
# Stride 0: every thread reads element 0.
expect_ok broadcast "$T" gmem '(32,1):(0,0)' --tv '(32,1):(1,0)' --bits 64 --summary
summary_has broadcast 'sectors 1 (min 1, excess 0'
# Negative strides: offsets 0, -1, ..., -31 of fp32 are bytes -124..3, sectors -4..0.
expect_ok negative "$T" gmem '32:-1' --tv '(32,1):(1,0)' --bits 32
grep -qx '  sectors -4..0' "$W/out" || bad "negative: sector list ($(cat "$W/out"))"
# A swizzled gmem layout reads like any other.
expect_ok swizzled "$T" gmem 'Sw<3,2,3> o (32,32):(32,1)' --tv '(32,(4,8)):(1,(32,128))' --vec 4 --bits 32 --summary
summary_has swizzled 'instructions 8, sectors 256 (min 128'
# The A operand of SM80's 16x8x16 MMA loaded with 32-bit copies from a row-major fp16 tile:
# each instruction reads 8 rows x 16 bytes at a 32-byte pitch, 8 half-used sectors for 4.
expect_ok for-mma "$T" gmem '(32,16):(16,1)' --access UniversalCopy_32 --for-mma SM80_16x8x16_F32F16F16F32_TN --operand A --summary
summary_has for-mma 'instructions 8, sectors 64 (min 32, excess 32, 8.00 per instruction'
expect_err for-mma-wide "a narrower copy atom" "$T" gmem '(16,16):(16,1)' --access UniversalCopy_128 --for-mma SM80_16x8x16_F32F16F16F32_TN --operand A
# --side dst: a universal copy's store side.
expect_ok store "$T" gmem '(32,64):(64,1)' --access UniversalCopy_128 --side dst --threads '(16,8):(8,1)' --values '(1,8)' --summary
grep -q '^access UniversalCopy<uint128_t> destination' "$W/out" || bad "--side dst: not the destination"

# --- drawings
expect_ok svg "$T" gmem '(8,32):(36,1)' --tv '(32,8):(8,1)' --bits 32 -o "$W/g.svg"
grep -q 'partly used sectors' "$W/g.svg" || bad "svg lacks the excess note"
grep -q '32-byte sector' "$W/g.svg" || bad "svg legend lacks the sector colouring"
expect_ok html "$T" gmem '(8,32):(36,1)' --tv '(32,8):(8,1)' --bits 32 -o "$W/g.html"
expect_ok tex "$T" gmem '(8,32):(36,1)' --tv '(32,8):(8,1)' --bits 32 -o "$W/g.tex"
expect_ok color-thread "$T" gmem '(8,32):(36,1)' --tv '(32,8):(8,1)' --bits 32 --color-by thread -o "$W/t.svg"
grep -q 'colour: thread' "$W/t.svg" || bad "--color-by thread: legend"
if [ "$CAIRO" = "ON" ] || [ "$CAIRO" = "1" ]; then
  expect_ok png "$T" gmem '(8,32):(36,1)' --tv '(32,8):(8,1)' --bits 32 -o "$W/g.png"
  [ -s "$W/g.png" ] || bad "png not written"
fi

# --- errors
expect_err parse "GMEM" "$T" gmem '(4,4):(1,' --tv '(32,1):(1,0)'
has_caret parse
expect_err rank3 "rank 3" "$T" gmem '(2,2,2):(1,2,4)' --tv '(8,1):(1,0)'
has_caret rank3
expect_err not-layout "GMEM must be a layout" "$T" gmem '(4,4)' --tv '(16,1):(1,0)'
expect_err tv-parse "--tv" "$T" gmem '(4,4):(4,1)' --tv '(16,1:(1,0)'
has_caret tv-parse
expect_err tv-rank "two modes" "$T" gmem '(4,4):(4,1)' --tv '16:1'
has_caret tv-rank
expect_err no-access "give the access" "$T" gmem '(4,4):(4,1)'
expect_err both "not both" "$T" gmem '(4,4):(4,1)' --tv '(16,1):(1,0)' --access UniversalCopy_32
expect_err bits "--bits must be" "$T" gmem '(4,4):(4,1)' --tv '(16,1):(1,0)' --bits 12
expect_err bits-big "--bits must be" "$T" gmem '(4,4):(4,1)' --tv '(16,1):(1,0)' --bits 256
expect_err width "6 bytes" "$T" gmem '(4,6):(6,1)' --tv '(8,3):(1,8)' --vec 3 --bits 16
expect_err vec0 "--vec must be" "$T" gmem '(4,4):(4,1)' --tv '(16,1):(1,0)' --vec 0
expect_err contiguous "not consecutive elements" "$T" gmem '(4,8):(8,1)' --tv '(8,4):(4,1)' --vec 4 --bits 32
expect_err misaligned "multiple of the access width" "$T" gmem '(4,32):(32,1)' --tv '(4,4):(1,4)' --vec 4 --bits 32 --base 8
expect_err outside "outside its tile" "$T" gmem '(4,4):(4,1)' --tv '(32,1):(1,0)'
expect_err overflow "overflow" "$T" gmem '(2,1):(4611686018427387904,0)' --tv '(2,1):(1,0)' --bits 32
expect_err base-overflow "overflow" "$T" gmem '(4,4):(4,1)' --tv '(16,1):(1,0)' --base 9223372036854775807
expect_err ldmatrix "no global-memory side" "$T" gmem '(32,8):(8,1)' --access SM75_U32x4_LDSM_N --threads '(32,1):(1,0)' --values '(1,8)'
has_caret ldmatrix
expect_err cp-dst "source" "$T" gmem '(32,64):(64,1)' --access SM80_CP_ASYNC_CACHEALWAYS_16 --side dst --threads '(16,8):(8,1)' --values '(1,8)'
expect_err side "--side must be src or dst" "$T" gmem '(32,64):(64,1)' --access UniversalCopy_128 --side up --threads '(16,8):(8,1)' --values '(1,8)'
expect_err vec-access "--vec goes with --tv" "$T" gmem '(32,64):(64,1)' --access UniversalCopy_128 --vec 2 --threads '(16,8):(8,1)' --values '(1,8)'
expect_err unknown-atom "unknown copy atom" "$T" gmem '(32,64):(64,1)' --access NoSuchCopy --threads '(16,8):(8,1)' --values '(1,8)'
expect_err tile "not a whole number" "$T" gmem '(24,64):(64,1)' --access UniversalCopy_128 --threads '(16,8):(8,1)' --values '(1,8)'
expect_err option "unknown option '--nope'" "$T" gmem '(4,4):(4,1)' --tv '(16,1):(1,0)' --nope
expect_err format "cannot tell the format" "$T" gmem '(4,4):(4,1)' --tv '(16,1):(1,0)' -o "$W/x.unknown"
[ -e "$W/x.unknown" ] && bad "an output file was left behind"
expect_err too-big "more than tessera analyses" "$T" gmem '(4096,4096):(4096,1)' --tv '(32,1):(1,0)'
expect_err color "unknown --color-by" "$T" gmem '(4,4):(4,1)' --tv '(16,1):(1,0)' --color-by nope -o "$W/c.svg"
[ -e "$W/c.svg" ] && bad "--color-by error left a file"

# --- --json (docs/json.md): valid against docs/json.schema.json, the same numbers as the
# text, nothing on standard output on error
SRC=$(cd "$DATA/../../.." && pwd)
if command -v python3 >/dev/null 2>&1; then
  expect_ok json "$T" gmem '(4,32):(32,1)' --tv '(32,4):(4,1)' --bits 32 --base 16 --json
  [ "$(wc -l <"$W/out")" -eq 1 ] || bad "--json: not one line"
  expect_ok json-text "$T" gmem '(4,32):(32,1)' --tv '(32,4):(4,1)' --bits 32 --base 16
  cp "$W/out" "$W/text"
  "$T" gmem '(4,32):(32,1)' --tv '(32,4):(4,1)' --bits 32 --base 16 --json >"$W/out"
  python3 - "$W/out" "$W/text" "$SRC" <<'PY' || bad "--json: schema or values ($(head -c 400 "$W/out"))"
import json, re, sys
sys.path.insert(0, sys.argv[3] + "/tests/cli")
from json_schema_check import Validator, loads, plain
doc = loads(open(sys.argv[1]).read())
errs = Validator(json.load(open(sys.argv[3] + "/docs/json.schema.json"))).errors(doc)
assert not errs, errs[:3]
d = plain(doc)
assert [k for k, _ in doc] == ["command", "schema_version", "gmem", "bits", "base", "access", "instructions", "summary"]
assert d["command"] == "gmem" and d["schema_version"] == 1
assert d["gmem"] == {"layout": {"text": "(4,32):(32,1)", "shape": [4, 32], "stride": [32, 1]}, "rows": 4, "cols": 32}
assert (d["bits"], d["base"]) == (32, 16)
assert d["access"] == {"text": "(32,4):(4,1)", "tile": [4, 32], "threads": 32, "vec": 1, "bytes": 4}
ins = d["instructions"]
i0 = ins[0]
assert i0["sectors"] == [0, 1, 2, 3, 4] and i0["sector_bytes"] == [16, 32, 32, 32, 16], i0
assert i0["lines"] == [0, 1] and i0["min_sectors"] == 4 and i0["excess_sectors"] == 1 and i0["excess_lines"] == 1
assert i0["excess_threads"] == [0, 1, 2, 3, 28, 29, 30, 31] and (i0["first_thread"], i0["last_thread"]) == (0, 31)
# against the text: one instruction line (and its sector and thread lines) per entry
text = open(sys.argv[2]).read()
lines = re.findall(r"^instr (\d+) tile (\d+) step (\d+) threads (\d+)-(\d+): sectors (\d+) min (\d+) excess (\d+), "
                   r"lines (\d+) min (\d+) excess (\d+), (\d+) bytes$", text, re.M)
assert len(lines) == len(ins) == 4
for i, l in zip(ins, lines):
    assert [int(x) for x in l] == [i["index"], i["tile"], i["step"], i["first_thread"], i["last_thread"],
                                   len(i["sectors"]), i["min_sectors"], i["excess_sectors"], len(i["lines"]),
                                   i["min_lines"], i["excess_lines"], i["requested_bytes"]], (i, l)
    assert i["min_sectors"] == (i["requested_bytes"] + 31) // 32 and sum(i["sector_bytes"]) == i["requested_bytes"]
s = d["summary"]
m = re.search(r"^summary: instructions (\d+), sectors (\d+) \(min (\d+), excess (\d+), ([\d.]+) per instruction, "
              r"efficiency ([\d.]+)%\), lines (\d+) \(min (\d+), excess (\d+), efficiency ([\d.]+)%\), (\d+) bytes "
              r"requested \((\d+) of \d+ instructions over the minimum\)$", text, re.M)
assert m, text
g = m.groups()
assert [int(g[i]) for i in (0, 1, 2, 3, 6, 7, 8, 10, 11)] == [s["instructions"], s["sectors"], s["min_sectors"],
        s["excess_sectors"], s["lines"], s["min_lines"], s["excess_lines"], s["requested_bytes"], s["excess_instructions"]]
assert "%.2f" % s["sectors_per_instruction"] == g[4] and "%.1f" % (100 * s["sector_efficiency"]) == g[5]
assert "%.1f" % (100 * s["line_efficiency"]) == g[9] and s["coalesced"] is False
PY
  expect_ok json-summary "$T" gmem 'Sw<3,2,3> o (32,32):(32,1)' --tv '(32,(4,8)):(1,(32,128))' --vec 4 --bits 32 --summary --json
  python3 - "$W/out" "$SRC" <<'PY' || bad "--json --summary ($(head -c 400 "$W/out"))"
import json, sys
sys.path.insert(0, sys.argv[2] + "/tests/cli")
from json_schema_check import Validator, loads, plain
doc = loads(open(sys.argv[1]).read())
errs = Validator(json.load(open(sys.argv[2] + "/docs/json.schema.json"))).errors(doc)
assert not errs, errs[:3]
d = plain(doc)
assert "instructions" not in d
assert d["gmem"]["layout"]["swizzle"] == {"B": 3, "M": 2, "S": 3} and d["gmem"]["layout"]["offset"] == 0
assert d["summary"]["sectors"] == 256 and d["summary"]["coalesced"] is False
PY
  expect_ok json-copy "$T" gmem '(32,64):(64,1)' --access UniversalCopy_128 --threads '(16,8):(8,1)' --values '(1,8)' --json
  python3 - "$W/out" "$SRC" <<'PY' || bad "--json --access ($(head -c 400 "$W/out"))"
import json, sys
sys.path.insert(0, sys.argv[2] + "/tests/cli")
from json_schema_check import Validator, loads, plain
doc = loads(open(sys.argv[1]).read())
errs = Validator(json.load(open(sys.argv[2] + "/docs/json.schema.json"))).errors(doc)
assert not errs, errs[:3]
d = plain(doc)
assert d["access"] == {"text": "UniversalCopy<uint128_t> source", "tile": [16, 64], "threads": 128, "vec": 8, "bytes": 16}
assert len(d["instructions"]) == 8 and d["summary"]["coalesced"] is True and d["summary"]["sector_efficiency"] == 1.0
PY
fi
expect_err json-o "cannot be combined with --output" "$T" gmem '(4,4):(4,1)' --tv '(16,1):(1,0)' --json -o "$W/j.svg"
[ -e "$W/j.svg" ] && bad "--json -o left a file"
[ -s "$W/out" ] && bad "--json -o: something on standard output"
expect_err json-color "cannot be combined with --color-by" "$T" gmem '(4,4):(4,1)' --tv '(16,1):(1,0)' --json --color-by thread
expect_err json-error "outside its tile" "$T" gmem '(4,4):(4,1)' --tv '(32,1):(1,0)' --json
[ -s "$W/out" ] && bad "--json error: something on standard output"

# --- help
"$T" gmem --help >"$W/help" 2>&1 || bad "gmem --help exit $?"
grep -q 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld' "$W/help" || bad "--help does not name ncu's counter"
grep -q 'ceil(requested / 32)' "$W/help" || bad "--help does not define the minimum"
"$T" --help 2>&1 | grep -q '^  gmem ' || bad "tessera --help does not list gmem"
grep -q -- '--json' "$W/help" || bad "gmem --help does not show --json"

[ $fails -eq 0 ] && echo "gmem CLI: all checks passed"
exit $((fails > 0))
