#!/bin/sh
# The cooperative kernel's per-tile timeline patch (tools/device/sm90_tile_timeline_patch.py)
# applies to the tree's kernel headers: every anchor found exactly once (--check), the copies
# instrumented (each file calls the hooks, every hook name it uses declared in
# sm90_tile_timeline_hooks.cuh); a second pass, a missing anchor and a doubled one are refused
# loudly, naming the anchor's file, with nothing written; and the group for the epilogue under
# the next tile is required exactly where kernels/kernel/sm90_epilogue_order.hpp exists.
#   tile_timeline_patch_test.sh SOURCE_DIR
set -u
src=$1
patch="$src/tools/device/sm90_tile_timeline_patch.py"
hooks="$src/tools/device/sm90_tile_timeline_hooks.cuh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
order=kernels/kernel/sm90_epilogue_order.hpp
files="kernels/kernel/sm90_shared_storage.hpp kernels/collective/sm90_mainloop_tma_wgmma.cuh kernels/kernel/sm90_gemm_tma_warpspecialized.cuh
kernels/collective/sm90_epilogue_tma.cuh"
[ -f "$src/$order" ] && files="$files $order"
fresh() {
  rm -rf "$tmp/tree" && mkdir -p "$tmp/tree"
  (cd "$src" && tar -cf - $files) | tar -xf - -C "$tmp/tree" || fail "copying the headers"
}

# every hook the patch calls is declared
for name in $(grep -o 'tl::[A-Za-z_][A-Za-z_0-9]*' "$patch" | sort -u | sed 's/tl:://'); do
  grep -Eq "(^| )$name( =|\(|;|,)" "$hooks" || fail "the patch uses tl::$name, which the hooks header does not declare"
done

fresh
python3 "$patch" "$tmp/tree" --check >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "an anchor is not found once in the current headers"; }
for f in $files; do cmp -s "$src/$f" "$tmp/tree/$f" || fail "--check changed $f"; done
if [ -f "$src/$order" ]; then
  grep -q "under the next tile" "$tmp/out" || fail "the tree has $order but the patch did not check the group for it"
else
  grep -q "group 'under the next tile' skipped" "$tmp/out" || { cat "$tmp/out"; fail "the group for the epilogue under the next tile was not skipped"; }
fi
python3 "$patch" "$tmp/tree" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the patch did not apply"; }
grep -q "unsigned long long\* tl\[4\];" "$tmp/tree/kernels/kernel/sm90_shared_storage.hpp" || fail "no record pointers in the shared storage"
for f in kernels/collective/sm90_mainloop_tma_wgmma.cuh kernels/kernel/sm90_gemm_tma_warpspecialized.cuh kernels/collective/sm90_epilogue_tma.cuh; do
  grep -q "tessera_tl::" "$tmp/tree/$f" || fail "$f not instrumented"
done
grep -q "tessera_tl::part(H, 4)" "$tmp/tree/kernels/collective/sm90_epilogue_tma.cuh" || fail "the epilogue's TMA store is not stamped"
grep -q "tessera_tl::end(s.tl\[wg\])" "$tmp/tree/kernels/kernel/sm90_gemm_tma_warpspecialized.cuh" || fail "the epilogue's end is not stamped"
if [ -f "$src/$order" ]; then
  grep -q "tessera_tl::C_PackEnd" "$tmp/tree/kernels/kernel/sm90_gemm_tma_warpspecialized.cuh" || fail "the packed epilogue is not stamped"
fi
# applied twice: refused, naming why
python3 "$patch" "$tmp/tree" >"$tmp/out" 2>&1 && fail "a second pass over an instrumented copy succeeded"
grep -q "already instrumented" "$tmp/out" || { cat "$tmp/out"; fail "the second pass's refusal does not say why"; }

# an anchor removed: exit non-zero, naming the file, leaving every file as it was
fresh
sed -i "s|^          c_prefetched = !Scheduler::Splits|          c_prefetched=!Scheduler::Splits|" "$tmp/tree/kernels/kernel/sm90_gemm_tma_warpspecialized.cuh"
cmp -s "$src/kernels/kernel/sm90_gemm_tma_warpspecialized.cuh" "$tmp/tree/kernels/kernel/sm90_gemm_tma_warpspecialized.cuh" &&
  fail "the test's edit of the kernel did not apply (update the test)"
cp -r "$tmp/tree" "$tmp/before"
python3 "$patch" "$tmp/tree" >"$tmp/out" 2>&1 && fail "a missing anchor was accepted"
grep -q "found 0 times.*sm90_gemm_tma_warpspecialized.cuh" "$tmp/out" || { cat "$tmp/out"; fail "the missing anchor is not named"; }
grep -q "c_prefetched = " "$tmp/out" || { cat "$tmp/out"; fail "the missing anchor's text is not printed"; }
for f in $files; do cmp -s "$tmp/before/$f" "$tmp/tree/$f" || fail "$f written although an anchor was missing"; done

# an anchor doubled
fresh
printf '%s\n' '// (a second copy)' '    staging_barrier(bar);' '    if (ctx.load_c) {' >>"$tmp/tree/kernels/collective/sm90_epilogue_tma.cuh"
python3 "$patch" "$tmp/tree" >"$tmp/out" 2>&1 && fail "a doubled anchor was accepted"
grep -q "found 2 times.*sm90_epilogue_tma.cuh" "$tmp/out" || { cat "$tmp/out"; fail "the doubled anchor is not named"; }

# the epilogue order's header present without the code it declares: the group is required
if [ ! -f "$src/$order" ]; then
  fresh
  : >"$tmp/tree/$order"
  python3 "$patch" "$tmp/tree" >"$tmp/out" 2>&1 && fail "the group for the epilogue under the next tile was not required with $order present"
  grep -q "group 'under the next tile'" "$tmp/out" || { cat "$tmp/out"; fail "the missing group's anchors are not named"; }
fi
echo "tile timeline patch: applies to the tree, refuses a second pass, missing and doubled anchors"
