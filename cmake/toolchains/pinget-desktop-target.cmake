# The toolchains of the JAR's libraries for developers' machines, one per
# target; included by cmake/toolchains/<target>.cmake, which sets
# PINGET_TARGET. All three are zig 0.17's clang with a static libc++
# (tools/toolchain zig), as for the musl targets:
#
#   osx-arm64, osx-x86_64: macOS 11.0 and later (zig's oldest SDK stubs), zig's
#     bundled macOS headers and libSystem stubs; links libSystem only. arm64
#     dylibs carry the ad-hoc signature zig's linker writes: nothing may strip
#     or edit them after the link.
#   win-x86_64: Windows 10 and later, x86_64-windows-gnu (mingw-w64's C
#     runtime, UCRT); links Windows' own DLLs only. Its programs run under
#     wine64 (CMAKE_CROSSCOMPILING_EMULATOR).
#
# Neither can share C++ objects with rocksdbjni's libraries (Apple clang's
# libc++ build, MSVC): RocksJavaReader refuses there (docs/design.md).

if(NOT PINGET_TARGET MATCHES "^(osx-(arm64|x86_64)|win-x86_64)$")
  message(FATAL_ERROR "pinget: unknown target '${PINGET_TARGET}'")
endif()
get_filename_component(_pinget_repo "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
execute_process(COMMAND "${_pinget_repo}/tools/toolchain" zig
                OUTPUT_VARIABLE _zig RESULT_VARIABLE _rc
                OUTPUT_STRIP_TRAILING_WHITESPACE)
string(REGEX REPLACE ".*\n" "" _zig "${_zig}")
if(NOT _rc EQUAL 0 OR NOT IS_DIRECTORY "${_zig}")
  message(FATAL_ERROR "pinget: tools/toolchain zig failed (${_rc})")
endif()

if(PINGET_TARGET MATCHES "^osx-")
  set(CMAKE_SYSTEM_NAME Darwin)
  if(PINGET_TARGET STREQUAL "osx-arm64")
    set(CMAKE_SYSTEM_PROCESSOR arm64)
    set(_triple aarch64-macos.11.0)
  else()
    set(CMAKE_SYSTEM_PROCESSOR x86_64)
    set(_triple x86_64-macos.11.0)
  endif()
  set(CMAKE_OSX_DEPLOYMENT_TARGET 11.0)
  # CMake must not add -arch or -isysroot: the triple says both.
  set(CMAKE_OSX_ARCHITECTURES "" CACHE STRING "" FORCE)
  set(CMAKE_OSX_SYSROOT "" CACHE PATH "" FORCE)
  # Hidden symbols everywhere, engine included: zig's Mach-O linker takes no
  # list of exports, so the dylib exports only what the code marks.
  set(CMAKE_C_FLAGS_INIT "-fvisibility=hidden")
  set(CMAKE_CXX_FLAGS_INIT "-fvisibility=hidden -fvisibility-inlines-hidden")
  set(PINGET_TARGET_RUNTIME "macOS 11.0, libSystem, libc++ (static)")
else()
  set(CMAKE_SYSTEM_NAME Windows)
  set(CMAKE_SYSTEM_PROCESSOR x86_64)
  set(_triple x86_64-windows-gnu)
  find_program(_pinget_wine wine64 PATHS /usr/lib/wine /usr/bin)
  if(_pinget_wine)
    set(CMAKE_CROSSCOMPILING_EMULATOR "${_pinget_wine}")
  endif()
  # CMake's Windows platform wants a resource compiler (zlib lists one .rc
  # file); Debian's LLVM has windres's interface.
  find_program(CMAKE_RC_COMPILER llvm-windres-14 PATHS /usr/bin NO_DEFAULT_PATH)
  if(NOT CMAKE_RC_COMPILER)
    message(FATAL_ERROR "pinget: win-x86_64 needs llvm-windres-14 (Debian: "
                        "tools/install-deps)")
  endif()
  set(PINGET_TARGET_RUNTIME "Windows 10 (UCRT), libc++ (static)")
endif()

# One program per tool, as CMake wants: wrappers beside zig (tools/toolchain
# writes the musl ones; these are written here, rewritten when they differ).
# zig reads -march as a CPU name: RocksDB's arm64 build asks for the ARMv8
# CRC and crypto extensions with -march=armv8-a+crc+crypto, which zig
# refuses, so the wrapper drops it; every Apple CPU has both, and zig's
# default CPU for the triple (apple_m1) enables them.
foreach(_tool cc c++)
  set(_wrapper "${_zig}/zig-${_tool}-${_triple}")
  string(CONCAT _script "#!/bin/sh\n"
    "for a do\n"
    "  shift\n"
    "  case $a in -march=armv8-a+crc+crypto) ;; *) set -- \"$@\" \"$a\" ;; esac\n"
    "done\n"
    "ZIG_GLOBAL_CACHE_DIR=\"${_zig}/cache\" ZIG_LOCAL_CACHE_DIR=\"${_zig}/cache\" \\\n"
    "  exec \"${_zig}/zig\" ${_tool} -target ${_triple} \"$@\"\n")
  set(_old "")
  if(EXISTS "${_wrapper}")
    file(READ "${_wrapper}" _old)
  endif()
  if(NOT _old STREQUAL _script)
    file(WRITE "${_wrapper}.tmp" "${_script}")
    file(CHMOD "${_wrapper}.tmp" PERMISSIONS OWNER_READ OWNER_WRITE
         OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
    file(RENAME "${_wrapper}.tmp" "${_wrapper}")
  endif()
endforeach()
set(CMAKE_C_COMPILER "${_zig}/zig-cc-${_triple}")
set(CMAKE_CXX_COMPILER "${_zig}/zig-c++-${_triple}")
set(CMAKE_AR "${_zig}/zig-ar" CACHE FILEPATH "" FORCE)
set(CMAKE_RANLIB "${_zig}/zig-ranlib" CACHE FILEPATH "" FORCE)

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
