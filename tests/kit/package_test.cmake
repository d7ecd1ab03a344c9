# The package test: install the build into a fresh prefix and check what a user of the package
# gets, then use tessera from source through add_subdirectory and FetchContent.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... -DCXX=...
#         [-DMAKE_PROGRAM=...] [-DCOMPONENTS=runtime|viz|...] [-DCLI=<the build's tessera>] -P package_test.cmake
# COMPONENTS: the libraries the build exports ('|'-separated); CLI: the build tree's CLI, when
# it was built.  The examples are built and run by the build itself (label `examples`); here
# each exported component is used by one small program compiled against the installed package.
cmake_minimum_required(VERSION 3.25)  # policies for -P (IN_LIST, ...)
foreach(v BUILD_DIR SOURCE_DIR WORK_DIR GENERATOR CXX)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "package_test.cmake: -D${v}=... is required")
  endif()
endforeach()
string(REPLACE "|" ";" components "${COMPONENTS}")

function(step name)
  message(STATUS "package test: ${name}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package test: ${name} failed (${rc}):\n${out}")
  endif()
endfunction()
function(fail message)
  message(FATAL_ERROR "package test: ${message}")
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
set(common -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
if(DEFINED MAKE_PROGRAM)
  list(APPEND common -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()

# 1. cmake --install into a fresh prefix.
step("install into ${prefix}" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
set(required lib/cmake/tessera/tesseraConfig.cmake include/tessera/layout.hpp include/tessera/rt/layout.hpp
    include/tessera/testing/kit.hpp)
if("kernels" IN_LIST components)
  list(APPEND required include/tessera/kernels/gemm.hpp include/tessera/kernels/gemm_arguments.hpp)
endif()
foreach(f IN LISTS required)
  if(NOT EXISTS ${prefix}/${f})
    fail("${f} was not installed")
  endif()
endforeach()

# 2. The headers.  One include root: <prefix>/include holds tessera/ and nothing else (no
# generic names such as runtime/, atom/ or viz/ that would collide with other packages) ...
file(GLOB _include_entries RELATIVE ${prefix}/include ${prefix}/include/*)
if(NOT _include_entries STREQUAL "tessera")
  fail("${prefix}/include must hold only tessera/, it holds: ${_include_entries}")
endif()
# ... every public header of the source tree, and only those ...
file(GLOB_RECURSE source_headers RELATIVE ${SOURCE_DIR}/include ${SOURCE_DIR}/include/*)
file(GLOB_RECURSE installed_headers RELATIVE ${prefix}/include ${prefix}/include/*)
list(SORT source_headers)
list(SORT installed_headers)
if(NOT source_headers STREQUAL installed_headers)
  set(missing ${source_headers})
  list(REMOVE_ITEM missing ${installed_headers})
  set(extra ${installed_headers})
  list(REMOVE_ITEM extra ${source_headers})
  fail("the installed headers are not include/'s: missing [${missing}], extra [${extra}]")
endif()
# ... and self-sufficient: each tessera header an installed header includes ("x.hpp" beside
# it or under the include root, <tessera/...>) is installed, so nothing reaches back into the
# source or build tree.  The consumers below then compile against <prefix>/include alone.
foreach(h IN LISTS installed_headers)
  get_filename_component(dir ${prefix}/include/${h} DIRECTORY)
  file(STRINGS ${prefix}/include/${h} includes REGEX "^[ \t]*#[ \t]*include[ \t]*(\"|<tessera/)")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]+)[\">].*" "\\1" name "${line}")
    if(line MATCHES "\"" AND EXISTS ${dir}/${name})
      continue()
    endif()
    if(NOT EXISTS ${prefix}/include/${name})
      fail("include/${h} includes ${name}, which is not installed")
    endif()
  endforeach()
endforeach()

# 3. The CLI, where the build has it: installed as bin/tessera, and it answers as the build's.
if(CLI)
  if(NOT EXISTS ${prefix}/bin/tessera)
    fail("the build has the tessera CLI, and bin/tessera was not installed")
  endif()
  set(expr "logical_divide(16:1, 4:1)")
  execute_process(COMMAND ${prefix}/bin/tessera eval ${expr} RESULT_VARIABLE rc OUTPUT_VARIABLE installed ERROR_VARIABLE err)
  execute_process(COMMAND ${CLI} eval ${expr} RESULT_VARIABLE build_rc OUTPUT_VARIABLE built ERROR_VARIABLE build_err)
  if(NOT rc EQUAL 0 OR NOT build_rc EQUAL 0 OR NOT installed STREQUAL built OR installed STREQUAL "")
    fail("tessera eval \"${expr}\": installed (${rc}) '${installed}${err}', build tree (${build_rc}) '${built}${build_err}'")
  endif()
endif()

# 4. examples/ standalone (find_package(tessera COMPONENTS runtime), as its CMakeLists says):
# it configures against the package and defines every host example that the build defines
# (so the package exports each target they use), and example 4b where tessera::kernels is.
function(example_tests dir labels_excluded out)
  execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${dir} --show-only=json-v1 ${labels_excluded}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE json ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    fail("ctest --show-only in ${dir} failed (${rc}): ${err}")
  endif()
  string(JSON n LENGTH "${json}" tests)
  set(names "")
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON name GET "${json}" tests ${i} name)
      list(APPEND names ${name})
    endforeach()
  endif()
  list(SORT names)
  set(${out} "${names}" PARENT_SCOPE)
endfunction()
step("configure examples/ with find_package(tessera)"
     ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples -B ${WORK_DIR}/examples ${common} -DCMAKE_PREFIX_PATH=${prefix})
example_tests(${BUILD_DIR}/examples "-LE;gpu" in_build)
example_tests(${WORK_DIR}/examples "-LE;gpu" standalone)
if(in_build STREQUAL "" OR NOT in_build STREQUAL standalone)
  fail("host examples: the build defines [${in_build}], examples/ against the package [${standalone}]")
endif()
if("kernels" IN_LIST components)
  example_tests(${WORK_DIR}/examples "" standalone_all)
  if(NOT "example_gemm_run" IN_LIST standalone_all)
    fail("tessera::kernels was built, yet examples/ against the package has no example 4b (example_gemm_run)")
  endif()
endif()

# 5. The components: find_package(tessera COMPONENTS <every one the build exports>), each used
# by its own program (tests/kit/consumer), built against the installed package and run.
set(consumer ${WORK_DIR}/consumer-find_package)
step("configure the consumers with find_package(tessera COMPONENTS ${components})"
     ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/consumer -B ${consumer} ${common} -DCMAKE_PREFIX_PATH=${prefix}
     -DUSE=find_package -DCOMPONENTS=${COMPONENTS} -DEXAMPLES_DIR=${SOURCE_DIR}/examples)
step("build the consumers (find_package)" ${CMAKE_COMMAND} --build ${consumer} -j2)
step("run the consumers (find_package)" ${CMAKE_CTEST_COMMAND} --test-dir ${consumer} --output-on-failure --no-tests=error)

# 6. tessera as a subproject: add_subdirectory, then FetchContent from the same sources.
foreach(mode add_subdirectory FetchContent)
  step("configure a consumer through ${mode}"
       ${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/consumer -B ${WORK_DIR}/consumer-${mode} ${common}
       -DTESSERA_SOURCE_DIR=${SOURCE_DIR} -DUSE=${mode})
  step("build the consumer (${mode})" ${CMAKE_COMMAND} --build ${WORK_DIR}/consumer-${mode} -j2)
  step("run the consumer (${mode})" ${CMAKE_CTEST_COMMAND} --test-dir ${WORK_DIR}/consumer-${mode} --output-on-failure --no-tests=error)
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
