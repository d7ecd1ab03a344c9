# Compile one misuse snippet and check that it is rejected by the static_assert
# that names the broken rule. The snippet's first line reads
#   // expect: <text the diagnostic must contain>
# and "// expect: OK" marks a control that must compile.
# Invoked by ctest: cmake -DCXX=... -DFLAGS=... -DINCLUDES=a|b [-DSYSTEM_INCLUDES=c|d] -DSNIPPET=... -P check_misuse.cmake
file(STRINGS "${SNIPPET}" first LIMIT_COUNT 1)
if(NOT first MATCHES "^// expect: (.+)$")
  message(FATAL_ERROR "${SNIPPET}: first line must be '// expect: <message>'")
endif()
set(expected "${CMAKE_MATCH_1}")

separate_arguments(flags UNIX_COMMAND "${FLAGS}")
set(args ${flags} -std=c++20 -fsyntax-only)
string(REPLACE "|" ";" includes "${INCLUDES}")
foreach(dir IN LISTS includes)
  list(APPEND args "-I${dir}")
endforeach()
string(REPLACE "|" ";" system_includes "${SYSTEM_INCLUDES}")
foreach(dir IN LISTS system_includes)
  list(APPEND args -isystem "${dir}")
endforeach()

execute_process(COMMAND "${CXX}" ${args} "${SNIPPET}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)

if(expected STREQUAL "OK")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "control snippet ${SNIPPET} should compile but failed:\n${out}")
  endif()
  message(STATUS "compiles, as it should")
  return()
endif()
if(rc EQUAL 0)
  message(FATAL_ERROR "${SNIPPET} compiled, but this misuse must be rejected with '${expected}'")
endif()
string(FIND "${out}" "${expected}" at)
if(at EQUAL -1 OR NOT out MATCHES "static[_ ]assert")
  message(FATAL_ERROR "${SNIPPET} failed without the static_assert message '${expected}':\n${out}")
endif()
message(STATUS "rejected with: ${expected}")
