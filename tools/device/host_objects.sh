# Sourced by the device scripts: compiles the kernels library's host C++ (gemm_tune, the tuning
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
