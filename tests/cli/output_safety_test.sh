#!/bin/sh
# Output targets never destroyed (include/tessera/viz/output.hpp states the policy): new and
# replaced files, kept modes and owners, read-only files, symbolic links (chains, relative,
# dangling), FIFOs, character devices, sockets, /dev/stdout, -o '', signals during a write,
# and standard output that cannot be written (/dev/full).
# Every target is created under a temporary folder; the only system files used are
# /dev/full (standard output that fails) and, when the kernel lets us create device nodes
# there, copies of the null and full devices made inside that folder.
# Usage: output_safety_test.sh TESSERA HAS_CAIRO
T="$1"; CAIRO="$2"
. "$(dirname "$0")/../cli_helpers.sh"  # W, fails, bad, expect_ok, expect_err, has_caret..., finish
umask 022
: >"$W/empty"
note() { echo "note: $*"; }
L='(4,2):(1,4)'

# run NAME WANT-STATUS ARGS...: runs tessera, output in $W/out and $W/err
run() {
  name=$1; want=$2; shift 2
  "$T" "$@" <"$W/empty" >"$W/out" 2>"$W/err"; rc=$?
  [ "$rc" -eq "$want" ] || bad "$name: exit $rc, want $want ($(head -c 300 "$W/err"))"
}
mode_of() { stat -c %a "$1"; }
# no_temporaries NAME DIR: nothing named .*.tmp-* is left in DIR
no_temporaries() {
  left=$(find "$2" -name '.*.tmp-*' | head -n 3)
  [ -z "$left" ] || bad "$1: temporary file left behind: $left"
}
is_svg() { head -c 5 "$1" | grep -q '<?xml' || bad "$2: $1 is not the SVG"; }

D="$W/d"; mkdir "$D"

# --- a new file: the umask applies, as to any new file
run new 0 render "$L" -o "$D/new.svg"
[ -f "$D/new.svg" ] && [ ! -L "$D/new.svg" ] || bad "new: no regular file"
[ "$(mode_of "$D/new.svg")" = 644 ] || bad "new: mode $(mode_of "$D/new.svg"), want 644 (0666 & ~022)"
is_svg "$D/new.svg" new

# --- an existing file keeps its permission bits (and owner, where the process may set it)
for m in 600 640 604 755; do
  echo old >"$D/m$m.svg"; chmod "$m" "$D/m$m.svg"
  run "mode-$m" 0 render "$L" -o "$D/m$m.svg"
  [ "$(mode_of "$D/m$m.svg")" = "$m" ] || bad "mode-$m: became $(mode_of "$D/m$m.svg")"
  is_svg "$D/m$m.svg" "mode-$m"
done
if [ "$(id -u)" -eq 0 ]; then
  echo old >"$D/owned.svg"; chown 12345:23456 "$D/owned.svg"; chmod 664 "$D/owned.svg"
  run owner 0 render "$L" -o "$D/owned.svg"
  [ "$(stat -c %u:%g:%a "$D/owned.svg")" = "12345:23456:664" ] ||
    bad "owner: became $(stat -c %u:%g:%a "$D/owned.svg"), want 12345:23456:664"
  is_svg "$D/owned.svg" owner
else
  note "not root: the owner case is not checked"
fi

# --- a read-only file (no w bit) is refused, root included, and left as it was
echo keep >"$D/ro.svg"; chmod 444 "$D/ro.svg"
run read-only 1 render "$L" -o "$D/ro.svg"
err_has read-only "read-only"
err_has read-only "0444"
[ "$(cat "$D/ro.svg")" = keep ] || bad "read-only: contents changed"
[ "$(mode_of "$D/ro.svg")" = 444 ] || bad "read-only: mode became $(mode_of "$D/ro.svg")"
# Reached through a link: the same.
ln -s ro.svg "$D/ro-link.svg"
run read-only-link 1 render "$L" -o "$D/ro-link.svg"
err_has read-only-link "read-only"
[ "$(cat "$D/ro.svg")" = keep ] || bad "read-only-link: contents changed"

# Not root: a file the user may not write is refused too (renaming over it would succeed in
# a folder the user may write), and left as it was.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  chmod 755 "$W"; mkdir "$W/shared"; chmod 1777 "$W/shared"
  echo keep >"$W/shared/root.svg"; chmod 644 "$W/shared/root.svg"
  setpriv --reuid=65534 --regid=65534 --clear-groups "$T" render "$L" -o "$W/shared/root.svg" <"$W/empty" >"$W/out" 2>"$W/err"
  rc=$?
  [ $rc -eq 1 ] || bad "other-user: exit $rc, want 1 ($(cat "$W/err"))"
  err_has other-user "read-only for this user (mode 0644, owner uid 0)"
  [ "$(cat "$W/shared/root.svg")" = keep ] || bad "other-user: contents changed"
  [ "$(stat -c %u "$W/shared/root.svg")" = 0 ] || bad "other-user: the file changed hands"
  # ... while a file of its own is replaced, keeping its mode.
  setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "umask 077; echo old >'$W/shared/own.svg'; chmod 640 '$W/shared/own.svg'"
  setpriv --reuid=65534 --regid=65534 --clear-groups "$T" render "$L" -o "$W/shared/own.svg" <"$W/empty" >"$W/out" 2>"$W/err" ||
    bad "other-user-own: exit $? ($(cat "$W/err"))"
  [ "$(stat -c %u:%a "$W/shared/own.svg")" = "65534:640" ] || bad "other-user-own: became $(stat -c %u:%a "$W/shared/own.svg")"
  is_svg "$W/shared/own.svg" other-user-own
  no_temporaries other-user "$W/shared"
else
  note "not root or no setpriv: the other-user case is not checked"
fi

# --- symbolic links are followed; the link stays a link
echo old >"$D/real.svg"; chmod 600 "$D/real.svg"
ln -s real.svg "$D/link.svg"
run link 0 render "$L" -o "$D/link.svg"
[ -L "$D/link.svg" ] || bad "link: the link was replaced"
[ "$(readlink "$D/link.svg")" = real.svg ] || bad "link: the link now points to $(readlink "$D/link.svg")"
is_svg "$D/real.svg" link
[ "$(mode_of "$D/real.svg")" = 600 ] || bad "link: the target's mode became $(mode_of "$D/real.svg")"
# A chain of links, relative to the folder of each link, and an absolute one.
mkdir "$D/sub"
ln -s ../link.svg "$D/sub/chain.svg"
ln -s "$D/sub/chain.svg" "$D/abs.svg"
echo old >"$D/real.svg"
run chain 0 render "$L" -o "$D/abs.svg" -f svg
[ -L "$D/abs.svg" ] && [ -L "$D/sub/chain.svg" ] && [ -L "$D/link.svg" ] || bad "chain: a link was replaced"
is_svg "$D/real.svg" chain
# A link to a file in another folder: the temporary goes beside the file, not the link.
mkdir "$D/far"; echo old >"$D/far/t.svg"
ln -s far/t.svg "$D/near.svg"
run far 0 render "$L" -o "$D/near.svg"
is_svg "$D/far/t.svg" far
[ -L "$D/near.svg" ] || bad "far: the link was replaced"
# A dangling link is refused (as cp refuses to write through one); nothing is created.
ln -s nothere.svg "$D/dangling.svg"
run dangling 1 render "$L" -o "$D/dangling.svg"
err_has dangling "does not exist"
[ -e "$D/nothere.svg" ] && bad "dangling: created the link's target"
[ -L "$D/dangling.svg" ] || bad "dangling: the link was replaced"
# A loop of links.
ln -s loop2.svg "$D/loop1.svg"; ln -s loop1.svg "$D/loop2.svg"
run loop 1 render "$L" -o "$D/loop1.svg"
err_has loop "too many levels of symbolic links"
[ -L "$D/loop1.svg" ] && [ -L "$D/loop2.svg" ] || bad "loop: a link was replaced"

# --- a FIFO is written through (with a reader), never replaced
mkfifo "$D/fifo"
cat "$D/fifo" >"$W/fifo-got" &
reader=$!
run fifo 0 render "$L" -f svg -o "$D/fifo"
wait $reader
[ -p "$D/fifo" ] || bad "fifo: no longer a FIFO"
is_svg "$W/fifo-got" fifo
if [ "$CAIRO" = "1" ] || [ "$CAIRO" = "ON" ] || [ "$CAIRO" = "TRUE" ]; then
  cat "$D/fifo" >"$W/fifo-png" &
  reader=$!
  run fifo-png 0 render "$L" -f png -o "$D/fifo"
  wait $reader
  head -c 8 "$W/fifo-png" | od -c | grep -q 'P   N   G' || bad "fifo-png: not a PNG"
  [ -p "$D/fifo" ] || bad "fifo-png: no longer a FIFO"
fi

# --- character devices: written through (null), or the device's error (full); never replaced
if mknod "$D/null" c 1 3 2>/dev/null && mknod "$D/full" c 1 7 2>/dev/null && echo x 2>/dev/null >"$D/null"; then
  run chardev-null 0 render "$L" -f svg -o "$D/null"
  [ -c "$D/null" ] || bad "chardev-null: no longer a character device"
  run chardev-full 1 render "$L" -f svg -o "$D/full"
  err_has chardev-full "No space left on device"
  [ -c "$D/full" ] || bad "chardev-full: no longer a character device"
  ln -s null "$D/null-link"
  run chardev-link 0 mma SM80_16x8x16_F32F16F16F32_TN -f svg -o "$D/null-link"
  [ -c "$D/null" ] && [ -L "$D/null-link" ] || bad "chardev-link: replaced"
else
  note "cannot create device nodes under $D: the character device cases are not checked"
fi

# --- a socket is refused, and left
if python3 -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$D/sock" 2>/dev/null; then
  run socket 1 render "$L" -f svg -o "$D/sock"
  err_has socket "socket"
  [ -S "$D/sock" ] || bad "socket: no longer a socket"
else
  note "no python3 to make a socket: the socket case is not checked"
fi

# --- a directory is refused
run directory 1 render "$L" -f svg -o "$D/sub"
err_has directory "directory"

# --- /dev/stdout and - are standard output (a pipe, a file, after what was printed before)
run dash 0 render "$L" -f svg -o -
is_svg "$W/out" dash
run dev-stdout 0 render "$L" -f svg -o /dev/stdout
is_svg "$W/out" dev-stdout
"$T" render "$L" -f svg -o /dev/stdout | cat >"$W/piped" || bad "dev-stdout-pipe: exit status"
is_svg "$W/piped" dev-stdout-pipe
ln -s /dev/stdout "$D/to-stdout"
run link-to-stdout 0 render "$L" -f svg -o "$D/to-stdout"
is_svg "$W/out" link-to-stdout
[ -L "$D/to-stdout" ] || bad "link-to-stdout: the link was replaced"
# banks prints its report, then the diagram: in that order on standard output.
run banks-stdout 0 banks '(8,64):(64,1)' --tv '((8,4),(8,2)):((1,64),(8,256))' --vec 8 -f txt -o /dev/stdout
head -n1 "$W/out" | grep -q '^smem ' || bad "banks-stdout: the report is not first ($(head -n1 "$W/out"))"
grep -q '^summary: ' "$W/out" || bad "banks-stdout: no summary"
[ "$(wc -l <"$W/out")" -gt 12 ] || bad "banks-stdout: no diagram after the report"

# --- -o '' is an error, for every command that writes files
run empty-render 1 render "$L" -o ''
err_has empty-render "output file name is empty"
[ -s "$W/out" ] && bad "empty-render: wrote to standard output"
run empty-mma 1 mma SM80_16x8x16_F32F16F16F32_TN -o ''
err_has empty-mma "output file name is empty"
run empty-copy 1 copy UniversalCopy_128 --threads '(4,8):(8,1)' --values '(1,8)' -o ''
err_has empty-copy "output file name is empty"
run empty-banks 1 banks '(8,64):(64,1)' --tv '((8,4),(8,2)):((1,64),(8,256))' --vec 8 -o ''
err_has empty-banks "output file name is empty"
run empty-verify 2 verify - -o ''
err_has empty-verify "output file name is empty"

# --- failures leave nothing behind
no_temporaries "after all of the above" "$D"

# --- SIGINT, SIGTERM, SIGHUP during a write: the temporary is removed, and tessera dies of
# the signal. The temporary exists from before the render starts (output.hpp), so waiting
# for it to appear catches tessera mid-write. env --default-signal undoes the SIGINT that an
# asynchronous command of a non-interactive shell ignores.
if [ "$CAIRO" = "1" ] || [ "$CAIRO" = "ON" ] || [ "$CAIRO" = "TRUE" ]; then big=big.png; else big=big.svg; fi
S="$W/sig"; mkdir "$S"
for sig in INT:2 TERM:15 HUP:1; do
  signo=${sig#*:}; sig=${sig%:*}
  caught=0
  for attempt in 1 2 3; do
    rm -f "$S/$big"
    env --default-signal=INT,TERM,HUP "$T" render '(256,256):(256,1)' --force -o "$S/$big" 2>"$W/sig-err" &
    pid=$!
    seen=0
    for _ in $(seq 1 2000); do
      if [ -n "$(find "$S" -name ".$big.tmp-*" | head -n 1)" ]; then seen=1; break; fi
      kill -0 $pid 2>/dev/null || break
      sleep 0.005
    done
    [ $seen -eq 1 ] && kill -s $sig $pid 2>/dev/null
    wait $pid 2>/dev/null; rc=$?
    if [ $seen -eq 1 ] && [ $rc -ne 0 ]; then caught=1; break; fi
  done
  if [ $caught -eq 0 ]; then bad "signal-$sig: never caught tessera mid-write (last exit $rc)"; continue; fi
  want=$((128 + signo))
  [ $rc -eq $want ] || bad "signal-$sig: exit $rc, want $want (killed by SIG$sig)"
  no_temporaries "signal-$sig" "$S"
  [ -e "$S/$big" ] && bad "signal-$sig: a (partial) $big was left"
done
# An existing file under the same interruption keeps its old contents.
echo old >"$S/$big"
env --default-signal=TERM "$T" render '(256,256):(256,1)' --force -o "$S/$big" 2>/dev/null &
pid=$!
for _ in $(seq 1 2000); do
  [ -n "$(find "$S" -name ".$big.tmp-*" | head -n 1)" ] && break
  sleep 0.005
done
kill -s TERM $pid 2>/dev/null; wait $pid 2>/dev/null
[ "$(cat "$S/$big")" = old ] || note "signal-keep: the render finished before SIGTERM (not a failure)"
no_temporaries "signal-keep" "$S"

# --- standard output that cannot be written: error, exit 1, for every command
full_fails() {
  name=$1; shift
  "$T" "$@" >/dev/full 2>"$W/err"; rc=$?
  [ $rc -eq 1 ] || bad "$name > /dev/full: exit $rc, want 1"
  grep -qx 'error: cannot write to standard output: No space left on device' "$W/err" ||
    bad "$name > /dev/full: stderr is '$(cat "$W/err")'"
  [ "$(grep -c 'cannot write to standard output' "$W/err")" -eq 1 ] || bad "$name > /dev/full: reported more than once"
}
if [ -c /dev/full ]; then
  full_fails eval eval '8:1'
  printf '8:1\n4:2\n' >"$W/in"
  full_fails eval-stdin eval <"$W/in"
  full_fails info info "$L"
  full_fails render render "$L"
  full_fails render-dev-stdout render "$L" -f svg -o /dev/stdout
  full_fails mma-layouts mma SM80_16x8x16_F32F16F16F32_TN --print-layouts
  full_fails mma mma SM80_16x8x16_F32F16F16F32_TN
  full_fails copy copy UniversalCopy_128 --threads '(4,8):(8,1)' --values '(1,8)' --print-layouts
  full_fails banks banks '(8,64):(64,1)' --tv '((8,4),(8,2)):((1,64),(8,256))' --vec 8
  full_fails list list atoms
  full_fails help --help
  full_fails render-help render --help
  full_fails version --version
  # A failed expression and a failed write: still exit 1, both reported.
  "$T" eval '8:1' '(4,2' >/dev/full 2>"$W/err"; rc=$?
  [ $rc -eq 1 ] && grep -q 'cannot write to standard output' "$W/err" || bad "eval error + full: exit $rc ($(cat "$W/err"))"
else
  note "no /dev/full: the standard output cases are not checked"
fi

finish "output safety"
