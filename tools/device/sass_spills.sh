#!/usr/bin/env bash
# sass_spills.sh OBJ OUTDIR [MMA]: for every tensor-core kernel in OBJ, the local-memory spills
# (STL/LDL) inside its k-loop (between its first and last MMA instruction: HMMA, or for the SM90
# kernels the wgmma opcodes, an awk regex: HGMMA for 16-bit and tf32, QGMMA for FP8, IGMMA for
# int8; run_check.sh passes all three) and in all, plus its SASS. A kernel without a match
# is not listed, so a pattern that misses an opcode leaves its kernels out of the count.
obj=$1; out=$2; mma=${3:-HMMA}
cuobjdump -sass "$obj" > "$out/sass_all.txt" 2>&1 || { echo "cuobjdump failed"; exit 0; }
awk '/Function : /{name=$3} {print name "\t" $0}' "$out/sass_all.txt" | awk -F'\t' -v mma="$mma" '
  { f=$1; line[f, ++n[f]]=$2 }
  END { for (f in n) { first=0; last=0; for (i=1;i<=n[f];i++) if (line[f,i] ~ mma) { if (!first) first=i; last=i }
        if (!first) continue; inl=0; tot=0; ins=0
        for (i=1;i<=n[f];i++) { if (line[f,i] ~ /(STL|LDL)/) { tot++; if (i>first && i<last) inl++ } if (i>=first && i<=last && line[f,i] ~ /\/\*[0-9a-f]+\*\//) ins++ }
        printf "sass: loop_spill_ldst=%d all_spill_ldst=%d loop_instructions=%d %s\n", inl, tot, ins, f } }' | c++filt | sed 's/tessera::kernels:://g'
gzip -f "$out/sass_all.txt"
