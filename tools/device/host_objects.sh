# Sourced by the device scripts. host_objects compiles the kernels library's host C++ (gemm_tune, the tuning
# cache and the dispatch's tables of tuned configurations, which kernels/device/sm90_instances.cu
# calls) and gemm_tune's lead-in kernel (lead_in.cu, for sm_90) into DIR, in the background, and appends the objects to the array host_objs and the
# PIDs to the array pids (the caller waits for them).
#   source tools/device/host_objects.sh; host_objects "$B" "${F[@]}"    (F: the nvcc flags)
host_objects() {
  local dir=$1 ver src o
  shift
  ver=$(sed -n 's/^project(tessera VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
  for src in kernels/device/gemm_tune.cpp kernels/device/tuned_configs_device.cpp kernels/device/tuned_configs.cpp \
             kernels/device/tuning_cache.cpp; do
    o="$dir/h_$(basename "$src" .cpp).o"
    nvcc "$@" -DTESSERA_VERSION="\"${ver:-0}\"" -c "$src" -o "$o" &
    pids+=($!)
    host_objs+=("$o")
  done
  if [ -f kernels/device/lead_in.cu ]; then  # (trees from before it: run_bench_ab.sh)
    o="$dir/h_lead_in.o"
    nvcc "$@" -gencode=arch=compute_90,code=sm_90 -c kernels/device/lead_in.cu -o "$o" &
    pids+=($!)
    host_objs+=("$o")
  fi
}

# dispatch_objects DIR FLAGS...: the library's GEMM dispatch, in the background: gemm.cu,
# gemm_variants.cu and the mma.sync / SIMT instances for sm_90, the SM90 dispatch and its kernel
# units (kernels/device/sm90_instances*.cu) for sm_90a, each object with its ptxas report (o.ptxas,
# where its errors go too) and its compile time (o.time) beside it. Appends the objects to the
# arrays sm80_objs and sm90_objs and the PIDs to pids (the caller waits for them). One list of the
# units for every script that links the dispatch, so a new unit reaches them all.
#   source tools/device/host_objects.sh; dispatch_objects "$B" "${F[@]}"
dispatch_objects() {
  local dir=$1 src o
  shift
  for src in kernels/device/gemm.cu kernels/device/gemm_variants.cu kernels/device/instances/{tensorop_bf16,tensorop_f16,simt}.cu; do
    o="$dir/k_$(basename "$src" .cu).o"
    # (not --split-compile: it stops nvcc inlining across the kernels' helpers, and the
    # accumulators go to the stack: 1.5 KiB frames, 100x slower)
    ( s=$(date +%s); nvcc "$@" -gencode=arch=compute_90,code=sm_90 -Xptxas -v -c "$src" -o "$o" 2>"$o.ptxas"; r=$?
      echo "$src: rc=$r $(( $(date +%s) - s )) s" >"$o.time"; exit $r ) &
    pids+=($!)
    sm80_objs+=("$o")
  done
  for src in kernels/device/sm90_instances*.cu; do
    o="$dir/k_$(basename "$src" .cu).o"
    ( s=$(date +%s); nvcc "$@" -gencode=arch=compute_90a,code=sm_90a --split-compile=0 -Xptxas -v -c "$src" -o "$o" 2>"$o.ptxas"; r=$?
      echo "$src: rc=$r $(( $(date +%s) - s )) s" >"$o.time"; exit $r ) &
    pids+=($!)
    sm90_objs+=("$o")
  done
}
