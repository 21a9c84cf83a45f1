# ctest's consumer checks: install pinget into a temporary prefix, then build
# and run test/consumer (C++ and C) against it with find_package, and compile
# both once more with the flags pkg-config gives for pinget.pc.
#   -DPINGET_BINARY_DIR=DIR   install that (static) build tree
#   -DPINGET_SOURCE_DIR=DIR   or configure and build a shared pinget from DIR
#                             first (BUILD_SHARED_LIBS), and check that it
#                             exports pinget's API and nothing of RocksDB
#   -DTOOLCHAIN_FILE=FILE     build the consumer with that toolchain (one of
#                             the JAR's targets) and run it under the
#                             toolchain's CMAKE_CROSSCOMPILING_EMULATOR; the
#                             pkg-config part, which compiles with the build
#                             machine's cc and c++, is skipped
file(REMOVE_RECURSE ${WORK_DIR})
set(PREFIX ${WORK_DIR}/prefix)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "consumer check: '${cmd}' failed (${rc})")
  endif()
endfunction()

if(PINGET_SOURCE_DIR)
  set(PINGET_BINARY_DIR ${WORK_DIR}/pinget)
  run(${CMAKE_COMMAND} -S ${PINGET_SOURCE_DIR} -B ${PINGET_BINARY_DIR}
      -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON
      -DPINGET_BUILD_TESTS=OFF -DPINGET_BUILD_BENCHMARKS=OFF
      -DPINGET_INSTALL=ON -DPINGET_ROCKSDB=${PINGET_ROCKSDB}
      -DPINGET_ENGINE_C_COMPILER=${PINGET_ENGINE_C_COMPILER}
      -DPINGET_ENGINE_CXX_COMPILER=${PINGET_ENGINE_CXX_COMPILER}
      -DPINGET_ENGINE_TARGET=${PINGET_ENGINE_TARGET})
  run(${CMAKE_COMMAND} --build ${PINGET_BINARY_DIR})
endif()

run(${CMAKE_COMMAND} --install ${PINGET_BINARY_DIR} --prefix ${PREFIX})

if(PINGET_SOURCE_DIR)
  file(GLOB libs ${PREFIX}/lib*/libpinget.so)
  if(NOT libs)
    message(FATAL_ERROR "consumer check: no libpinget.so in ${PREFIX}")
  endif()
  execute_process(COMMAND nm -D -C --defined-only ${libs}
                  OUTPUT_VARIABLE exported RESULT_VARIABLE rc)
  string(FIND "${exported}" "pinget::Store::Open" store_open)
  # A defined symbol whose name is RocksDB's ("<address> T rocksdb::...").
  string(REGEX MATCH "[0-9a-f]+ [A-Za-z] rocksdb::[^\n]*" rocksdb "${exported}")
  if(NOT rc EQUAL 0 OR store_open EQUAL -1)
    message(FATAL_ERROR "consumer check: libpinget.so does not export "
                        "pinget::Store::Open")
  endif()
  if(PINGET_ROCKSDB STREQUAL "bundled" AND rocksdb)
    message(FATAL_ERROR "consumer check: libpinget.so exports RocksDB's "
                        "symbols: ${rocksdb}")
  endif()
endif()

set(toolchain "")
set(emulator "")
set(exe "")
if(TOOLCHAIN_FILE)
  # The installed prefix is outside the target's sysroot: search it as is.
  # Not position-independent: glibc 2.17's ld.so, run as a command (the
  # emulator), runs a PIE program's constructors twice, which it does not
  # when the kernel starts the program.
  # Release, as the library is: zig (the musl targets' compiler) links its
  # UBSan runtime into a program compiled without optimization, and that
  # runtime calls statx, which musl has only from 1.2.5.
  include(${TOOLCHAIN_FILE})
  set(toolchain -DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN_FILE}
                -DCMAKE_BUILD_TYPE=Release
                -DCMAKE_FIND_ROOT_PATH=${PREFIX})
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    list(APPEND toolchain -DCMAKE_POSITION_INDEPENDENT_CODE=OFF
         "-DCMAKE_EXE_LINKER_FLAGS=${CMAKE_EXE_LINKER_FLAGS_INIT} -no-pie")
  endif()
  set(emulator ${CMAKE_CROSSCOMPILING_EMULATOR})
  if(CMAKE_SYSTEM_NAME STREQUAL "Windows")
    set(exe .exe)
  endif()
endif()
run(${CMAKE_COMMAND} -S ${PINGET_CONSUMER_SOURCE} -B ${WORK_DIR}/build
    -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${PREFIX} ${toolchain})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${emulator} ${WORK_DIR}/build/consumer${exe} ${WORK_DIR}/db)
run(${emulator} ${WORK_DIR}/build/consumer_c${exe} ${WORK_DIR}/db_c)
if(TOOLCHAIN_FILE)
  message(STATUS "consumer check: ${PINGET_TARGET} under ${emulator}; "
                 "pkg-config is checked by the build machine's own suite")
  return()
endif()

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
  set(rpath "")
  if(PINGET_SOURCE_DIR)
    file(GLOB libdirs LIST_DIRECTORIES true ${PREFIX}/lib*)
    list(GET libdirs 0 libdir)
    set(rpath -Wl,-rpath,${libdir})
  endif()
  run(c++ -std=c++17 ${PINGET_CONSUMER_SOURCE}/main.cc ${flags} ${rpath}
      -o ${WORK_DIR}/consumer_pc)
  file(REMOVE_RECURSE ${WORK_DIR}/db)
  run(${WORK_DIR}/consumer_pc ${WORK_DIR}/db)
  # C: cc links no C++ runtime of its own, so the static libraries' private
  # ones (Libs.private: -lstdc++) are asked for too.
  execute_process(COMMAND ${PKG_CONFIG} --cflags --libs --static pinget
                  OUTPUT_VARIABLE static_flags RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  separate_arguments(static_flags UNIX_COMMAND "${static_flags}")
  run(cc -std=c11 -Wall -Wextra -Werror ${PINGET_CONSUMER_SOURCE}/main.c
      ${static_flags} ${rpath} -o ${WORK_DIR}/consumer_c_pc)
  file(REMOVE_RECURSE ${WORK_DIR}/db_c)
  run(${WORK_DIR}/consumer_c_pc ${WORK_DIR}/db_c)
else()
  message(STATUS "consumer check: pkg-config not installed, pinget.pc unchecked")
endif()
