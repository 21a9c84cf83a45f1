# ctest's consumer_check: install pinget into a temporary prefix, then build and
# run test/consumer against it with find_package, and compile it once more with
# the flags pkg-config gives for pinget.pc.
file(REMOVE_RECURSE ${WORK_DIR})
set(PREFIX ${WORK_DIR}/prefix)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "consumer check: '${cmd}' failed (${rc})")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install ${PINGET_BINARY_DIR} --prefix ${PREFIX})
run(${CMAKE_COMMAND} -S ${PINGET_CONSUMER_SOURCE} -B ${WORK_DIR}/build
    -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${PREFIX})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer ${WORK_DIR}/db)

find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  file(GLOB pc_dirs ${PREFIX}/lib*/pkgconfig ${PREFIX}/lib/*/pkgconfig)
  set(ENV{PKG_CONFIG_PATH} "${pc_dirs}")
  execute_process(COMMAND ${PKG_CONFIG} --cflags --libs pinget
                  OUTPUT_VARIABLE flags RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "consumer check: pkg-config does not know pinget")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run(c++ -std=c++17 ${PINGET_CONSUMER_SOURCE}/main.cc ${flags}
      -o ${WORK_DIR}/consumer_pc)
  file(REMOVE_RECURSE ${WORK_DIR}/db)
  run(${WORK_DIR}/consumer_pc ${WORK_DIR}/db)
else()
  message(STATUS "consumer check: pkg-config not installed, pinget.pc unchecked")
endif()
