# The toolchains of the JAR's native libraries, one per target; included by
# cmake/toolchains/<target>.cmake, which sets PINGET_TARGET. Pass that file as
# CMAKE_TOOLCHAIN_FILE to build pinget (and its engine, cached per target) for
# the target; docs/design.md ("Toolchains") says why each is what it is.
#
#   linux-x86_64, linux-aarch64: Debian's GCC 12 (g++-12, g++-12-aarch64-linux-
#     gnu) against a glibc 2.17 sysroot; libstdc++ linked statically, so the
#     objects keep libstdc++'s ABI (RocksJavaReader shares C++ objects with
#     rocksdbjni's GCC build) and the libraries need nothing newer than
#     glibc 2.17. What the static libstdc++ needs from a newer glibc comes from
#     glibc-2.17/compat.c; glibc-2.17/include overrides three settings of GCC
#     12's libstdc++ headers.
#   linux-x86_64-musl, linux-aarch64-musl: zig 0.17's clang with musl and a
#     static libc++ (no GCC for musl is packaged in Debian or on PyPI).
#
# Sysroots and zig are installed by tools/toolchain (pinned, from npm and
# PyPI) into ~/.cache/pinget/toolchains on first use. CMAKE_CROSSCOMPILING_
# EMULATOR runs the target's programs under the target's own loader: glibc
# 2.17's ld.so, qemu-aarch64-static, musl's ld-musl.

if(NOT PINGET_TARGET MATCHES "^linux-(x86_64|aarch64)(-musl)?$")
  message(FATAL_ERROR "pinget: unknown target '${PINGET_TARGET}'")
endif()
set(CMAKE_SYSTEM_NAME Linux)
string(REGEX MATCH "x86_64|aarch64" CMAKE_SYSTEM_PROCESSOR "${PINGET_TARGET}")
get_filename_component(_pinget_repo "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)

# Installs (once) and returns the folder of one part of tools/toolchain.
function(_pinget_toolchain_part part out)
  execute_process(COMMAND "${_pinget_repo}/tools/toolchain" ${part}
                  OUTPUT_VARIABLE dir RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(REGEX REPLACE ".*\n" "" dir "${dir}")
  if(NOT rc EQUAL 0 OR NOT IS_DIRECTORY "${dir}")
    message(FATAL_ERROR "pinget: tools/toolchain ${part} failed (${rc})")
  endif()
  set(${out} "${dir}" PARENT_SCOPE)
endfunction()

set(_pinget_programs /usr/bin /usr/local/bin)
if(PINGET_TARGET MATCHES "musl$")
  _pinget_toolchain_part(zig _zig)
  set(_triple ${CMAKE_SYSTEM_PROCESSOR}-linux-musl)
  set(CMAKE_C_COMPILER "${_zig}/zig-cc-${_triple}")
  set(CMAKE_CXX_COMPILER "${_zig}/zig-c++-${_triple}")
  set(CMAKE_AR "${_zig}/zig-ar" CACHE FILEPATH "" FORCE)
  set(CMAKE_RANLIB "${_zig}/zig-ranlib" CACHE FILEPATH "" FORCE)
  # zig links programs statically against musl unless told otherwise: these
  # use musl's dynamic loader, as on Alpine.
  set(CMAKE_EXE_LINKER_FLAGS_INIT "-dynamic")
  if(CMAKE_SYSTEM_PROCESSOR STREQUAL "x86_64")
    # Debian's musl package (tools/install-deps).
    set(CMAKE_CROSSCOMPILING_EMULATOR /lib/ld-musl-x86_64.so.1)
  else()
    _pinget_toolchain_part(musl-aarch64 _musl)
    set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L "${_musl}")
  endif()
  set(PINGET_TARGET_RUNTIME "musl, libc++ (static)")
else()
  _pinget_toolchain_part(sysroot-${CMAKE_SYSTEM_PROCESSOR} _sysroot)
  set(CMAKE_SYSROOT "${_sysroot}")
  if(CMAKE_SYSTEM_PROCESSOR STREQUAL "x86_64")
    set(_gcc x86_64-linux-gnu-gcc-12)
    set(_gxx x86_64-linux-gnu-g++-12)
    set(_libdir lib64)
    set(CMAKE_CROSSCOMPILING_EMULATOR
        "${_sysroot}/lib64/ld-linux-x86-64.so.2" --library-path
        "${_sysroot}/lib64")
  else()
    set(_gcc aarch64-linux-gnu-gcc-12)
    set(_gxx aarch64-linux-gnu-g++-12)
    set(_libdir lib)
    set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L "${_sysroot}")
  endif()
  find_program(CMAKE_C_COMPILER ${_gcc} PATHS ${_pinget_programs} NO_DEFAULT_PATH)
  find_program(CMAKE_CXX_COMPILER ${_gxx} PATHS ${_pinget_programs} NO_DEFAULT_PATH)
  if(NOT CMAKE_C_COMPILER OR NOT CMAKE_CXX_COMPILER)
    message(FATAL_ERROR "pinget: ${PINGET_TARGET} needs ${_gxx} (Debian: "
                        "tools/install-deps)")
  endif()
  # The sysroot's crt files and libraries before the compiler's own folders,
  # which hold the build machine's glibc (Debian's GCC searches them first).
  set(_first "-B${_sysroot}/usr/${_libdir}")
  set(_libs "-L${_sysroot}/usr/${_libdir} -L${_sysroot}/${_libdir}")
  set(_overlay "-isystem ${CMAKE_CURRENT_LIST_DIR}/glibc-2.17/include")
  set(CMAKE_C_FLAGS_INIT "${_first}")
  set(CMAKE_CXX_FLAGS_INIT "${_first} ${_overlay}")
  if(CMAKE_SYSTEM_PROCESSOR STREQUAL "aarch64")
    # Debian's cross GCC also searches its own target folder
    # (/usr/aarch64-linux-gnu/include: glibc 2.36's headers) before the
    # sysroot's. Keep the compiler's folders but that one: GCC's and
    # libstdc++'s headers, then the sysroot's (glibc 2.17).
    execute_process(
      COMMAND "${CMAKE_CXX_COMPILER}" --sysroot=${_sysroot} -xc++ -E -v -
      INPUT_FILE /dev/null OUTPUT_QUIET ERROR_VARIABLE _search)
    string(REGEX REPLACE ".*<...> search starts here:\n(.*)End of search list.*"
           "\\1" _search "${_search}")
    string(REPLACE "\n" ";" _search "${_search}")
    set(_c_dirs "")
    set(_cxx_dirs "")
    foreach(_dir IN LISTS _search)
      string(STRIP "${_dir}" _dir)
      if(_dir STREQUAL "")
        continue()
      endif()
      get_filename_component(_dir "${_dir}" ABSOLUTE)
      if(_dir MATCHES "/c\\+\\+/")
        string(APPEND _cxx_dirs " -isystem ${_dir}")
      elseif(_dir MATCHES "^${_sysroot}/" OR _dir MATCHES "/gcc-cross/")
        string(APPEND _c_dirs " -isystem ${_dir}")
      endif()
    endforeach()
    set(CMAKE_C_FLAGS_INIT "${_first} -nostdinc${_c_dirs}")
    set(CMAKE_CXX_FLAGS_INIT "${_first} -nostdinc ${_overlay}${_cxx_dirs}${_c_dirs}")
  endif()
  # The compat object is compiled once per sysroot, compiler and source.
  file(SHA256 "${CMAKE_CURRENT_LIST_DIR}/glibc-2.17/compat.c" _hash)
  string(SUBSTRING "${_hash}" 0 12 _hash)
  set(_compat "${_sysroot}.compat/compat-${_gcc}-${_hash}.o")
  if(NOT EXISTS "${_compat}")
    get_filename_component(_compat_dir "${_compat}" DIRECTORY)
    file(MAKE_DIRECTORY "${_compat_dir}")
    execute_process(
      COMMAND "${CMAKE_C_COMPILER}" --sysroot=${_sysroot} ${_first} -O2 -fPIC
              -Wall -Wextra -Werror -c
              "${CMAKE_CURRENT_LIST_DIR}/glibc-2.17/compat.c" -o "${_compat}.tmp"
      RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "pinget: compiling glibc-2.17/compat.c failed")
    endif()
    file(RENAME "${_compat}.tmp" "${_compat}")
  endif()
  # Static libstdc++; the compat object last on every C++ link line. Shared
  # libraries are never unloaded (-z nodelete): compat.c's thread_local
  # destructors may point into them until every thread has exited.
  # (-pthread: libpthread after libstdc++.a on the link line.)
  set(CMAKE_CXX_STANDARD_LIBRARIES_INIT "${_compat} -ldl")
  set(_link "${_libs} -pthread -static-libstdc++")
  set(CMAKE_EXE_LINKER_FLAGS_INIT "${_link}")
  set(CMAKE_SHARED_LINKER_FLAGS_INIT "${_link} -Wl,-z,nodelete")
  set(CMAKE_MODULE_LINKER_FLAGS_INIT "${_link} -Wl,-z,nodelete")
  set(PINGET_TARGET_RUNTIME "glibc 2.17, libstdc++ (GCC 12, static)")
endif()

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# The JDK's headers (jni.h) are the build machine's; libraries and packages
# are looked for in the sysroot first, then on the build machine.
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
