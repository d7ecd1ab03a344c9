# The package test: install the build into a fresh prefix, build examples/ against it with
# find_package(tessera), run its host examples; then use tessera from source through
# add_subdirectory and FetchContent (static tier only, so it stays cheap).
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... -DCXX=... [-DEXPECT_KERNELS=ON] -P package_test.cmake
foreach(v BUILD_DIR SOURCE_DIR WORK_DIR GENERATOR CXX)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "package_test.cmake: -D${v}=... is required")
  endif()
endforeach()

function(step name)
  message(STATUS "package test: ${name}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package test: ${name} failed (${rc}):\n${out}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
set(common -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
if(DEFINED MAKE_PROGRAM)
  list(APPEND common -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()

# 1. cmake --install, then the examples against the installed package.
step("install into ${prefix}" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f lib/cmake/tessera/tesseraConfig.cmake include/tessera/layout.hpp include/tessera/rt/layout.hpp
          include/tessera/testing/kit.hpp)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "package test: ${f} was not installed")
  endif()
endforeach()
# One include root: <prefix>/include holds tessera/ and nothing else (no generic names such as
# runtime/, atom/ or viz/ that would collide with other packages).
file(GLOB _include_entries RELATIVE ${prefix}/include ${prefix}/include/*)
if(NOT _include_entries STREQUAL "tessera")
  message(FATAL_ERROR "package test: ${prefix}/include must hold only tessera/, it holds: ${_include_entries}")
endif()
if(EXISTS ${prefix}/bin/tessera)
  step("run the installed CLI" ${prefix}/bin/tessera eval "logical_divide(16:1, 4:1)")
endif()
step("configure examples with find_package(tessera)"
     ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples -B ${WORK_DIR}/examples ${common} -DCMAKE_PREFIX_PATH=${prefix})
step("build examples" ${CMAKE_COMMAND} --build ${WORK_DIR}/examples -j2)
step("run the host examples" ${CMAKE_CTEST_COMMAND} --test-dir ${WORK_DIR}/examples --output-on-failure --no-tests=error -LE gpu)
# Built with CUDA: tessera::kernels is exported, so example 4b (GEMM) must have been built
# against it; it runs a GEMM where there is a GPU and exits 77 (skipped) where there is none.
if(EXPECT_KERNELS)
  foreach(f include/tessera/kernels/gemm.hpp include/tessera/kernels/gemm_arguments.hpp)
    if(NOT EXISTS ${prefix}/${f})
      message(FATAL_ERROR "package test: ${f} was not installed")
    endif()
  endforeach()
  if(NOT EXISTS ${WORK_DIR}/examples/example_gemm_run)
    message(FATAL_ERROR "package test: tessera::kernels was built, yet example 4b (example_gemm_run) "
                        "was not built against the installed package")
  endif()
  message(STATUS "package test: run example 4b against the installed tessera::kernels")
  execute_process(COMMAND ${WORK_DIR}/examples/example_gemm_run RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT (rc EQUAL 0 OR rc EQUAL 77))
    message(FATAL_ERROR "package test: example_gemm_run failed (${rc}):\n${out}")
  endif()
  message(STATUS "package test: example_gemm_run: ${out}")
endif()

# 2. tessera as a subproject: add_subdirectory, then FetchContent from the same sources.
foreach(mode add_subdirectory FetchContent)
  step("configure a consumer through ${mode}"
       ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/consumer -B ${WORK_DIR}/consumer-${mode} ${common}
       -DTESSERA_SOURCE_DIR=${SOURCE_DIR} -DUSE=${mode})
  step("build the consumer (${mode})" ${CMAKE_COMMAND} --build ${WORK_DIR}/consumer-${mode} -j2)
  step("run the consumer (${mode})" ${WORK_DIR}/consumer-${mode}/consumer)
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
