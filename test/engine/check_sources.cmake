# ctest's engine_sources: a wrong offline source stops the configure with a
# message that says what to pass, before anything is built. Each case
# configures the project in a scratch folder and expects failure.
#   -DSOURCE=<pinget's source folder> -DWORK=<scratch folder>
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/empty" "${WORK}/bad" "${WORK}/notzlib")
file(WRITE "${WORK}/bad/rocksdb-11.8.1.tar.xz" "not the release archive")
file(WRITE "${WORK}/notzlib/zlib.h" "#define ZLIB_VERSION \"1.2.13\"\n")

function(expect_failure name expect)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S "${SOURCE}" -B "${WORK}/build-${name}"
            -DPINGET_BUILD_TESTS=OFF -DPINGET_BUILD_BENCHMARKS=OFF
            -DPINGET_INSTALL=OFF ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${name}: the configure passed")
  endif()
  string(REGEX REPLACE "[ \n]+" " " err "${err}")  # CMake wraps messages
  foreach(text IN LISTS expect)
    string(FIND "${err}" "${text}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${name}: no '${text}' in:\n${err}")
    endif()
  endforeach()
  message(STATUS "${name}: refused as expected")
endfunction()

expect_failure(missing-archive "rocksdb-11.8.1.tar.xz is missing;PINGET_THIRD_PARTY_DIR"
               -DPINGET_THIRD_PARTY_DIR=${WORK}/empty)
expect_failure(bad-archive "has SHA-256;53ea106d059260c7;FETCHCONTENT_SOURCE_DIR_"
               -DPINGET_THIRD_PARTY_DIR=${WORK}/bad)
expect_failure(wrong-folder "is not zlib 1.3.1;PINGET_THIRD_PARTY_DIR"
               -DFETCHCONTENT_SOURCE_DIR_ZLIB=${WORK}/notzlib)
expect_failure(unknown-mode "PINGET_ROCKSDB is 'nope'" -DPINGET_ROCKSDB=nope)
file(REMOVE_RECURSE "${WORK}")
