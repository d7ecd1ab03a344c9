#!/bin/sh
# The decode kernel's timeline patch (tools/device/sm90_decode_timeline_patch.py) applies to the
# tree's kernel headers: every anchor found exactly once (--check), the copies instrumented
# (each file calls the hooks); and it refuses loudly a copy where an anchor is gone or doubled.
#   decode_timeline_patch_test.sh SOURCE_DIR
set -u
src=$1
patch="$src/tools/device/sm90_decode_timeline_patch.py"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
files="kernels/kernel/sm90_shared_storage.hpp kernels/collective/sm90_mainloop_tma_wgmma.cuh kernels/kernel/sm90_gemm_tma_warpspecialized.cuh
kernels/kernel/stream_k_fixup.cuh"
fresh() {
  rm -rf "$tmp/tree" && mkdir -p "$tmp/tree"
  (cd "$src" && tar -cf - $files) | tar -xf - -C "$tmp/tree" || fail "copying the headers"
}

fresh
python3 "$patch" "$tmp/tree" --check >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "an anchor is not found once in the current headers"; }
for f in $files; do cmp -s "$src/$f" "$tmp/tree/$f" || fail "--check changed $f"; done
python3 "$patch" "$tmp/tree" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the patch did not apply"; }
grep -q "unsigned long long\* tl\[4\];" "$tmp/tree/kernels/kernel/sm90_shared_storage.hpp" || fail "no record pointers in the mainloop storage"
for f in kernels/collective/sm90_mainloop_tma_wgmma.cuh kernels/kernel/sm90_gemm_tma_warpspecialized.cuh kernels/kernel/stream_k_fixup.cuh; do
  grep -q "tessera_dtl::" "$tmp/tree/$f" || fail "$f not instrumented"
done
grep -q "tessera_dtl::C_AwaitEnd" "$tmp/tree/kernels/kernel/sm90_gemm_tma_warpspecialized.cuh" || fail "the owner's wait is not stamped"
# applied twice: the anchors that the first pass rewrote are gone, so the second refuses
python3 "$patch" "$tmp/tree" >"$tmp/out" 2>&1 && fail "a second pass over an instrumented copy succeeded"

# an anchor removed: exit non-zero, naming the file, leaving every file as it was
fresh
sed -i 's|    cluster_sync();  // barriers initialised in every CTA before any copy or remote arrival|    cluster_sync();|' \
  "$tmp/tree/kernels/kernel/sm90_gemm_tma_warpspecialized.cuh"
cp -r "$tmp/tree" "$tmp/before"
python3 "$patch" "$tmp/tree" >"$tmp/out" 2>&1 && fail "a missing anchor was accepted"
grep -q "found 0 times.*sm90_gemm_tma_warpspecialized.cuh" "$tmp/out" || { cat "$tmp/out"; fail "the missing anchor is not named"; }
for f in $files; do cmp -s "$tmp/before/$f" "$tmp/tree/$f" || fail "$f written although an anchor was missing"; done

# an anchor doubled
fresh
printf '%s\n' '// (a second copy)' '    s.pipe.init(ConsumerArrivals, uint32_t(stage_a_bytes + stage_b_bytes + stage_scale_bytes));' \
  >>"$tmp/tree/kernels/collective/sm90_mainloop_tma_wgmma.cuh"
python3 "$patch" "$tmp/tree" >"$tmp/out" 2>&1 && fail "a doubled anchor was accepted"
grep -q "found 2 times.*sm90_mainloop_tma_wgmma.cuh" "$tmp/out" || { cat "$tmp/out"; fail "the doubled anchor is not named"; }
echo "decode timeline patch: applies to the tree, refuses missing and doubled anchors"
