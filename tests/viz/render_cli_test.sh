#!/bin/sh
# `tessera render` end to end: outputs, every error path (exit status 1, an
# "error:" message, a caret for input errors), and no output file left behind.
# Usage: render_cli_test.sh TESSERA DATA_DIR HAS_CAIRO(ON/OFF)
tessera="$1"; data="$2"; cairo="$3"
. "$(dirname "$0")/../cli_helpers.sh"  # W, fails, bad, expect_ok, expect_err, has_caret..., finish
dir=$W

# ok NAME ARGS...: exit 0.
ok() {
  name="$1"; shift
  "$tessera" render "$@" >"$dir/out" 2>"$dir/err" || { bad "$name: exit $? ($(cat "$dir/err"))"; return 1; }
  [ -s "$dir/err" ] && bad "$name: unexpected stderr: $(cat "$dir/err")"
  return 0
}
# expect_render_err NAME EXPECTED-MESSAGE-PART ARGS...: exit 1, "error:" + message on stderr, nothing on stdout,
# and the scratch folder holds no new file (no output, no temporary).
expect_render_err() {
  name="$1"; want="$2"; shift 2
  before=$(ls -A "$dir/o" | sort | tr '\n' ' ')
  "$tessera" render "$@" >"$dir/out" 2>"$dir/err"
  rc=$?
  [ $rc -eq 1 ] || bad "$name: exit $rc, want 1"
  grep -q "^error: " "$dir/err" || bad "$name: no 'error:' line: $(cat "$dir/err")"
  grep -qF -- "$want" "$dir/err" || bad "$name: message lacks '$want': $(cat "$dir/err")"
  [ -s "$dir/out" ] && bad "$name: wrote to stdout"
  after=$(ls -A "$dir/o" | sort | tr '\n' ' ')
  [ "$before" = "$after" ] || bad "$name: files changed: '$before' -> '$after'"
}
# caret LINE-NUMBER COLUMN: the caret line of the last error has its ^ under column COLUMN of the input line.
caret() {
  name="$1"; col="$2"
  input_line=$(sed -n 2p "$dir/err"); caret_line=$(sed -n 3p "$dir/err")
  prefix=${input_line%%[!\ ]*}  # indentation of the echoed input
  want="${prefix}$(printf "%$((col - 1))s" "")^"
  [ "$caret_line" = "$want" ] || bad "$name: caret '$caret_line', want '$want'"
}
mkdir -p "$dir/o"

# --- outputs -------------------------------------------------------------------------
ok text '(8,(2,4)):(2,(1,16))' && { cmp -s "$dir/out" "$data/hier_8x8.txt" || bad "text differs from hier_8x8.txt"; }
ok text-via-call 'composition((8,(2,4)):(2,(1,16)), (8,8):(8,1))' &&
  { cmp -s "$dir/out" "$data/hier_8x8.txt" && bad "composition result printed as its argument?"; head -1 "$dir/out" | grep -q ':' || bad "composition: no layout line"; }
ok tv --tv '(16,8)' '((4,8),(2,2)):((32,1),(16,8))' && { cmp -s "$dir/out" "$data/tv_sm80_c.txt" || bad "tv text differs from tv_sm80_c.txt"; }
ok default && { cmp -s "$dir/out" "$data/tv_sm80_c.txt" || bad "default diagram is not the SM80 C fragment"; }
ok svg-stdout -f svg '8:1' && { head -1 "$dir/out" | grep -q '^<?xml' || bad "svg-stdout: not SVG"; }
ok svg-file '(4,2):(1,4)' -o "$dir/o/a.svg" && { grep -q '<title>' "$dir/o/a.svg" || bad "svg-file: no tooltip"; }
ok tex-file 'Sw<2,0,2> o (4,4):(4,1)' -o "$dir/o/a.tex" && { grep -q 'documentclass' "$dir/o/a.tex" || bad "tex-file"; }
ok txt-file -f txt '(4,2):(1,4)' -o "$dir/o/a.out" && { head -1 "$dir/o/a.out" | grep -qxF '(4,2):(1,4)' || bad "txt-file"; }
ok dash-stdout -f svg -o - '8:1' && { head -1 "$dir/out" | grep -q '^<?xml' || bad "-o -: not SVG on stdout"; }
ok title --title 'my title' '(2,2):(1,2)' && { head -1 "$dir/out" | grep -qx 'my title' || bad "title line"; }
ok force --force '(300,300):(1,300)' -f txt -o "$dir/o/big.txt"
ok overwrite '(2,2):(1,2)' -o "$dir/o/a.svg"
if [ "$cairo" = ON ]; then
  ok png '(4,2):(1,4)' -o "$dir/o/a.png" && { head -c 8 "$dir/o/a.png" | od -c | grep -q 'P   N   G' || bad "png magic"; }
  ok pdf --tv '(2,4)' '(4,2):(1,1)' -o "$dir/o/a.pdf" && { head -c 5 "$dir/o/a.pdf" | grep -q '%PDF-' || bad "pdf magic"; }
  # PNG and PDF go to standard output when it is not a terminal (here a file), as -o /dev/stdout.
  ok png-stdout -f png '(4,2):(1,4)' && { head -c 8 "$dir/out" | od -c | grep -q 'P   N   G' || bad "png-stdout: not PNG"; }
  ok pdf-dash-output -f pdf -o - '(4,2):(1,4)' && { head -c 5 "$dir/out" | grep -q '%PDF-' || bad "pdf -o -: not PDF"; }
  "$tessera" render -f png -o - '(4,2):(1,4)' | head -c 8 | od -c | grep -q 'P   N   G' || bad "png into a pipe"
  # ... and are refused onto a terminal (script(1) gives the command one), with a caret.
  if command -v script >/dev/null 2>&1; then
    script -qec "'$tessera' render -f png -o - '(4,2):(1,4)'" /dev/null >"$dir/tty" 2>&1
    grep -q 'error: png output is binary and standard output is a terminal' "$dir/tty" || bad "png onto a terminal: $(cat "$dir/tty")"
  fi
fi
"$tessera" render --help >"$dir/out" 2>&1 || bad "--help exit status"
for w in Examples --tv --force --title -o -f "print_layout" "default" "Without EXPR"; do
  grep -qF -- "$w" "$dir/out" || bad "--help lacks '$w'"
done

# --- errors --------------------------------------------------------------------------
cp "$dir/o/a.svg" "$dir/keep.svg"
expect_render_err parse "expected" '(4,2:(2,1)' -o "$dir/o/a.svg"
caret parse 11
cmp -s "$dir/o/a.svg" "$dir/keep.svg" || bad "a failed render touched the existing output file"
expect_render_err parse-stdout "error:" '(4,2):(2,1' ; caret parse-stdout 11
expect_render_err expect_render_err-char "" '(4,2):(2,x)'
expect_render_err unknown-function "" 'nosuch((4,2):(1,4))' -o "$dir/o/n.svg"
expect_render_err rank3 "group the modes" '(2,2,2):(1,2,4)' -o "$dir/o/r.svg"
expect_render_err shape-not-layout "not a layout" '(16,16)'
expect_render_err integer-not-layout "not a layout" '7'
expect_render_err tiler-not-layout "not a layout" '(4:1,2:2)'
expect_render_err inadmissible "" 'composition((2,2):(1,6), (2,2):(1,1))' -o "$dir/o/c.svg"
expect_render_err too-large "pass --force" '(300,300):(1,300)' -o "$dir/o/big.svg"
expect_render_err too-large-forced "even with --force" --force '(4096,4097):(1,4096)' -o "$dir/o/huge.svg"
expect_render_err too-large-tv "pass --force" --tv '(512,512)' '(256,1024):(1,256)'
expect_render_err unknown-format "unknown format 'bmp'" -f bmp '(4,2):(1,4)'
expect_render_err unknown-extension "cannot tell the format" '(4,2):(1,4)' -o "$dir/o/x.bmp"
expect_render_err format-mismatch "does not match" -f svg '(4,2):(1,4)' -o "$dir/o/x.png"
expect_render_err missing-dir "does not exist" '(4,2):(1,4)' -o "$dir/o/nodir/x.svg"
expect_render_err output-is-dir "is a directory" -f svg '(4,2):(1,4)' -o "$dir/o"
expect_render_err tv-outside-tile "not in the tile" --tv '(2,2)' '(4,2):(1,4)' -o "$dir/o/t.svg"
expect_render_err tv-rank1 "two modes" --tv '(4,2)' '8:1'
expect_render_err tv-tile-rank3 "one or two modes" --tv '(2,2,2)' '(4,2):(1,4)'
expect_render_err tv-tile-not-injective "not injective" --tv '(2,2):(1,0)' '(2,2):(1,2)'
expect_render_err tv-tile-zero "extents must be positive" --tv '(0,8)' '(4,2):(1,4)'
expect_render_err tv-tile-overflow "more than tessera draws" --tv '(4294967296,4294967296)' '(4,2):(1,4)'
expect_render_err tv-tile-parse "error:" --tv '(2,' '(4,2):(1,4)'
expect_render_err tv-swizzled "TV layout" --tv '(4,4)' 'Sw<1,0,1> o (4,4):(1,4)'
expect_render_err tv-without-expr "--tv needs EXPR" --tv '(16,8)'
expect_render_err overflow "overflow" '(4611686018427387904,4):(1,1)'
expect_render_err empty-expr "EXPR is empty" ''
expect_render_err blank-expr "EXPR is empty" '   '
expect_render_err unknown-option "unknown option '--bogus'" --bogus '(2,2):(1,2)'
expect_render_err two-exprs "unexpected argument '(4,4):(1,4)'" '(2,2):(1,2)' '(4,4):(1,4)'
expect_render_err huge-swizzled "even with --force" --force 'Sw<3,4,3> o (8192,8192):(8192,1)'
if [ -w /dev/full ]; then
  "$tessera" render '(2,2):(1,2)' >/dev/full 2>"$dir/err"; rc=$?
  [ $rc -eq 1 ] && grep -q "cannot write to standard output" "$dir/err" || bad "stdout full: exit $rc $(cat "$dir/err")"
fi
if [ "$cairo" = ON ]; then
  expect_render_err png-too-wide "too large for PNG" '(1,16384):(0,1)' --labels -o "$dir/o/w.png"
  # Cairo is opened when a PNG or PDF is drawn: where it cannot be, that drawing is an error
  # naming the library, and every other output still works.
  export TESSERA_CAIRO_LIBRARY=libtessera-no-such-cairo.so
  expect_render_err no-cairo-png "cannot load Cairo (libtessera-no-such-cairo.so) for PNG/PDF output" \
    '(4,2):(1,4)' -o "$dir/o/n.png"
  expect_render_err no-cairo-pdf "cannot load Cairo (libtessera-no-such-cairo.so)" -f pdf -o - '(4,2):(1,4)'
  ok no-cairo-svg '(4,2):(1,4)' -o "$dir/o/n.svg"
  unset TESSERA_CAIRO_LIBRARY
fi

[ -z "$(ls -A "$dir/o" | grep '\.tmp-')" ] || bad "temporary files left behind"
finish "render CLI"
