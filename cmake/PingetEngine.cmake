# The RocksDB that pinget links, as the target pinget::rocksdb.
#
#   PINGET_ROCKSDB=bundled (default)  RocksDB 11.8.1 and its five codecs, built
#       from pinned sources as static, position-independent, portable Release
#       archives, once per machine, into PINGET_ENGINE_CACHE. The JNI library
#       needs this mode: it embeds the engine and depends on libc/libstdc++ only.
#   PINGET_ROCKSDB=system  find_package(RocksDB) of an installed RocksDB >= 7.8
#       (Debian's librocksdb-dev: its shared library).
#
# Sources of the bundled engine, first match wins, per dependency:
#   1. FETCHCONTENT_SOURCE_DIR_<NAME> (ROCKSDB, ZSTD, SNAPPY, ZLIB, LZ4, BZIP2):
#      a source folder; its version is checked, and its commit if it is a Git
#      checkout.
#   2. PINGET_THIRD_PARTY_DIR (or the environment variable of that name): a
#      folder with the release archives named below; each archive's SHA-256 is
#      checked against the pin here before anything is built.
#   3. The project's Git repository at the pinned commit (network).
#
# Only what differs between RocksDB versions may depend on the mode; that lives
# in native/src/rocksdb_compat.h.

set(PINGET_ROCKSDB bundled CACHE STRING
    "RocksDB to build against: bundled (11.8.1, built from source) or system")
set_property(CACHE PINGET_ROCKSDB PROPERTY STRINGS bundled system)
if(NOT PINGET_ROCKSDB MATCHES "^(bundled|system)$")
  message(FATAL_ERROR
    "PINGET_ROCKSDB is '${PINGET_ROCKSDB}'; pass bundled or system")
endif()

if(PINGET_ROCKSDB STREQUAL "system")
  # RocksDB's version file accepts only the same major version; pinget takes
  # any release from 7.8 on.
  find_package(RocksDB CONFIG)
  if(NOT RocksDB_FOUND)
    message(FATAL_ERROR "PINGET_ROCKSDB=system: no installed RocksDB found "
      "(Debian: apt install librocksdb-dev; or pass -DRocksDB_DIR=<prefix>/lib/"
      "cmake/rocksdb), or use -DPINGET_ROCKSDB=bundled")
  endif()
  if(RocksDB_VERSION VERSION_LESS 7.8)
    message(FATAL_ERROR "PINGET_ROCKSDB=system: RocksDB ${RocksDB_VERSION} at "
      "${RocksDB_DIR} is older than 7.8, the oldest pinget supports")
  endif()
  # Debian's static archive is not position-independent: link the shared one.
  if(TARGET RocksDB::rocksdb-shared)
    set(PINGET_SYSTEM_ROCKSDB_TARGET RocksDB::rocksdb-shared)
  else()
    set(PINGET_SYSTEM_ROCKSDB_TARGET RocksDB::rocksdb)
  endif()
  add_library(pinget_engine INTERFACE)
  target_link_libraries(pinget_engine INTERFACE ${PINGET_SYSTEM_ROCKSDB_TARGET})
  # Whether RocksDB's PerfContext counts (the bundled engine leaves it out).
  set(PINGET_ENGINE_PERF_CONTEXT ON)
  set(PINGET_ROCKSDB_VERSION ${RocksDB_VERSION})
  message(STATUS "pinget: RocksDB ${RocksDB_VERSION} from ${RocksDB_DIR}")
  return()
endif()

# --- bundled -----------------------------------------------------------------

set(PINGET_ROCKSDB_VERSION 11.8.1)
# Bump when the recipe below changes in a way the cache key cannot see.
set(_recipe_revision 1)

if(DEFINED ENV{XDG_CACHE_HOME} AND NOT "$ENV{XDG_CACHE_HOME}" STREQUAL "")
  set(_cache_default "$ENV{XDG_CACHE_HOME}/pinget")
else()
  set(_cache_default "$ENV{HOME}/.cache/pinget")
endif()
set(PINGET_ENGINE_CACHE "${_cache_default}" CACHE PATH
    "Where built engines are kept, one folder per version and recipe")
set(PINGET_THIRD_PARTY_DIR "$ENV{PINGET_THIRD_PARTY_DIR}" CACHE PATH
    "Folder with the pinned source archives (offline build); empty: fetch")
set(PINGET_ENGINE_C_COMPILER "${CMAKE_C_COMPILER}" CACHE FILEPATH
    "C compiler for the bundled engine")
set(PINGET_ENGINE_CXX_COMPILER "${CMAKE_CXX_COMPILER}" CACHE FILEPATH
    "C++ compiler for the bundled engine (e.g. g++ under a clang build)")
# A target of the JAR (cmake/toolchains/<target>.cmake) builds the engine with
# that target's toolchain instead of the compilers above; a build for the
# target (CMAKE_TOOLCHAIN_FILE) does so by default. A build for the machine
# itself may name linux-x86_64 to share that engine (./test/run does): its
# archives, compiled against glibc 2.17, link into programs for any newer one.
set(PINGET_ENGINE_TARGET "${PINGET_TARGET}" CACHE STRING
    "Build the engine with cmake/toolchains/<target>.cmake; empty: the compilers above")
if(PINGET_TARGET AND NOT PINGET_ENGINE_TARGET STREQUAL PINGET_TARGET)
  message(FATAL_ERROR "pinget: a build for ${PINGET_TARGET} needs its own "
    "engine; PINGET_ENGINE_TARGET is '${PINGET_ENGINE_TARGET}'")
endif()
set(_engine_toolchain "")
if(PINGET_ENGINE_TARGET)
  set(_engine_toolchain
      "${CMAKE_CURRENT_LIST_DIR}/toolchains/${PINGET_ENGINE_TARGET}.cmake")
  if(NOT EXISTS "${_engine_toolchain}")
    message(FATAL_ERROR "pinget: no toolchain for PINGET_ENGINE_TARGET="
      "'${PINGET_ENGINE_TARGET}' (cmake/toolchains/ has linux-x86_64, "
      "linux-aarch64, linux-x86_64-musl, linux-aarch64-musl, osx-arm64, "
      "osx-x86_64, win-x86_64)")
  endif()
endif()

# Per dependency: release, SHA-256 of its archive, repository, commit, and a
# file of the source tree with the text that names the release.
set(_deps rocksdb zstd snappy zlib lz4 bzip2)
set(_rocksdb_version 11.8.1)
set(_rocksdb_sha256 53ea106d059260c7507b0464abfcd87b72768491efe37af88834ad082db58328)
set(_rocksdb_git https://github.com/facebook/rocksdb.git)
set(_rocksdb_commit abeebd9630f11bd08c28b7bd43c7bdfc62050654)
set(_rocksdb_probe include/rocksdb/version.h
    "MAJOR 11\n#define ROCKSDB_MINOR 8\n#define ROCKSDB_PATCH 1\n")
set(_zstd_version 1.5.6)
set(_zstd_sha256 1175c0a272c9d9604891ee9b13948ff1cbac88d3ce060c9b8fd8138a99ac36e2)
set(_zstd_git https://github.com/facebook/zstd.git)
set(_zstd_commit 794ea1b0afca0f020f4e57b6732332231fb23c70)
set(_zstd_probe lib/zstd.h "MINOR    5\n#define ZSTD_VERSION_RELEASE  6\n")
set(_snappy_version 1.2.2)
set(_snappy_sha256 f269145be499c7f9c24ef3b775f61694eef571f5054b109772bf8dfe58448262)
set(_snappy_git https://github.com/google/snappy.git)
set(_snappy_commit 6af9287fbdb913f0794d0148c6aa43b58e63c8e3)
set(_snappy_probe CMakeLists.txt "VERSION 1.2.2")
set(_zlib_version 1.3.1)
set(_zlib_sha256 fb095f2706a42d6322298a49711e6a673bcda3b4828615fa10558dac47e92b21)
set(_zlib_git https://github.com/madler/zlib.git)
set(_zlib_commit 51b7f2abdade71cd9bb0e7a373ef2610ec6f9daf)
set(_zlib_probe zlib.h "ZLIB_VERSION \"1.3.1\"")
set(_lz4_version 1.10.0)
set(_lz4_sha256 c9f40e567fa1d9040cc4b88c989c4c7b35d54400faa3cee9b47149717867c93d)
set(_lz4_git https://github.com/lz4/lz4.git)
set(_lz4_commit ebb370ca83af193212df4dcbadcc5d87bc0de2f0)
set(_lz4_probe lib/lz4.h "LZ4_VERSION_MINOR   10 ")
set(_bzip2_version 1.0.8)
set(_bzip2_sha256 8b1ad87b3a8b48ff6accec0a346f4a99853ff397057faefe9665ea9965dab17e)
set(_bzip2_git https://github.com/libarchive/bzip2.git)
set(_bzip2_commit 6a8690fc8d26c815e798c588f796eabe9d684cf0)
set(_bzip2_probe bzlib_private.h "BZ_VERSION  \"1.0.8")

string(CONCAT _how_to_pass
  "Pass -DPINGET_THIRD_PARTY_DIR=<folder with the release archives> "
  "(rocksdb-11.8.1.tar.xz, zstd-1.5.6.tar.xz, snappy-1.2.2.tar.xz, "
  "zlib-1.3.1.tar.xz, lz4-1.10.0.tar.xz, bzip2-1.0.8.tar.xz), "
  "-DFETCHCONTENT_SOURCE_DIR_<NAME>=<source folder> for one dependency, or "
  "neither to fetch the pinned commits from GitHub; or build against an "
  "installed RocksDB with -DPINGET_ROCKSDB=system (no JNI library then).")

# Stops unless folder holds ${dep}'s pinned release (and, for a Git checkout,
# its pinned commit).
function(_pinget_check_release dep folder)
  list(GET _${dep}_probe 0 _file)
  list(GET _${dep}_probe 1 _expect)
  set(_text "")
  if(EXISTS "${folder}/${_file}")
    file(READ "${folder}/${_file}" _text)
  endif()
  string(FIND "${_text}" "${_expect}" _at)
  if(_at EQUAL -1)
    message(FATAL_ERROR "pinget: ${folder} is not ${dep} ${_${dep}_version} "
      "(${_file} is missing or names another release). ${_how_to_pass}")
  endif()
  if(EXISTS "${folder}/.git")
    execute_process(COMMAND git -C "${folder}" rev-parse HEAD
                    OUTPUT_VARIABLE _head OUTPUT_STRIP_TRAILING_WHITESPACE
                    ERROR_QUIET)
    if(_head AND NOT _head STREQUAL _${dep}_commit)
      message(FATAL_ERROR "pinget: ${folder} is at commit ${_head}; pinget "
        "pins ${dep} ${_${dep}_version} at ${_${dep}_commit}. ${_how_to_pass}")
    endif()
  endif()
endfunction()

# Every offline archive given is checked, cached engine or not: a bad source
# fails the same way on every machine.
if(PINGET_THIRD_PARTY_DIR)
  foreach(dep IN LISTS _deps)
    set(_archive "${PINGET_THIRD_PARTY_DIR}/${dep}-${_${dep}_version}.tar.xz")
    if(NOT EXISTS "${_archive}")
      message(FATAL_ERROR "pinget: ${_archive} is missing. ${_how_to_pass}")
    endif()
    file(SHA256 "${_archive}" _sha)
    if(NOT _sha STREQUAL _${dep}_sha256)
      message(FATAL_ERROR "pinget: ${_archive} has SHA-256 ${_sha}; pinget "
        "pins ${_${dep}_sha256} (${dep} ${_${dep}_version}, commit "
        "${_${dep}_commit}). ${_how_to_pass}")
    endif()
  endforeach()
endif()

# Every source folder given is checked for its release, cached engine or not.
foreach(dep IN LISTS _deps)
  string(TOUPPER "${dep}" DEP)
  if(FETCHCONTENT_SOURCE_DIR_${DEP})
    _pinget_check_release(${dep} "${FETCHCONTENT_SOURCE_DIR_${DEP}}")
  endif()
endforeach()

# The cache key: everything that changes the built archives.
# A compiler is named by the file it resolves to and its version line without
# the program name, so that c++, g++ and /usr/bin/g++ share one engine.
function(_pinget_compiler_id compiler out)
  # A fresh cache entry per compiler (find_program caches its result).
  string(MAKE_C_IDENTIFIER "PINGET_ENGINE_PATH_${compiler}" _var)
  find_program(${_var} "${compiler}")
  set(_path "${${_var}}")
  if(NOT _path)
    message(FATAL_ERROR "pinget: engine compiler ${compiler} not found")
  endif()
  get_filename_component(_path "${_path}" REALPATH)
  execute_process(COMMAND "${_path}" --version OUTPUT_VARIABLE v
                  RESULT_VARIABLE rc ERROR_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pinget: cannot run the engine compiler ${_path}")
  endif()
  string(REGEX REPLACE "\n.*" "" v "${v}")
  string(REGEX REPLACE "^[^ ]+ " "" v "${v}")
  set(${out} "${_path} ${v}" PARENT_SCOPE)
endfunction()
if(PINGET_ENGINE_TARGET)
  # The target's toolchain: the files of its family (which pin the sysroot and
  # zig) and, for the glibc targets, the version of Debian's GCC they name.
  set(_c_id "target ${PINGET_ENGINE_TARGET}")
  set(_dir "${CMAKE_CURRENT_LIST_DIR}/toolchains")
  if(PINGET_ENGINE_TARGET MATCHES "^linux-")
    file(GLOB_RECURSE _toolchain_files "${_dir}/linux-*" "${_dir}/glibc-2.17/*"
                                       "${_dir}/pinget-target.cmake")
  else()
    set(_toolchain_files "${_dir}/${PINGET_ENGINE_TARGET}.cmake"
                         "${_dir}/pinget-desktop-target.cmake")
  endif()
  list(SORT _toolchain_files)
  foreach(_file IN LISTS _toolchain_files
                ITEMS "${CMAKE_CURRENT_LIST_DIR}/../tools/toolchain")
    file(SHA256 "${_file}" _sha)
    get_filename_component(_name "${_file}" NAME)
    string(APPEND _c_id " ${_name}=${_sha}")
  endforeach()
  set(_cxx_id "zig (pinned by tools/toolchain)")
  if(PINGET_ENGINE_TARGET MATCHES "^linux-(x86_64|aarch64)$")
    string(REGEX MATCH "x86_64|aarch64" _arch "${PINGET_ENGINE_TARGET}")
    _pinget_compiler_id("${_arch}-linux-gnu-g++-12" _cxx_id)
  endif()
else()
  _pinget_compiler_id("${PINGET_ENGINE_C_COMPILER}" _c_id)
  _pinget_compiler_id("${PINGET_ENGINE_CXX_COMPILER}" _cxx_id)
endif()

# -O2, as RocksDB's own Java build (rocksdbjni) compiles the engine and codecs.
set(_common_args
  -DCMAKE_BUILD_TYPE=Release
  "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG"
  "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG"
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON
  -DBUILD_SHARED_LIBS=OFF
  -DCMAKE_INSTALL_LIBDIR=lib)
set(_zlib_args -DZLIB_BUILD_EXAMPLES=OFF)
set(_lz4_args -DLZ4_BUILD_CLI=OFF -DBUILD_STATIC_LIBS=ON)
set(_zstd_args -DZSTD_BUILD_PROGRAMS=OFF -DZSTD_BUILD_SHARED=OFF
               -DZSTD_BUILD_STATIC=ON -DZSTD_BUILD_TESTS=OFF)
# snappy forces -fno-rtti; RocksDB below is built with RTTI and then needs
# snappy's typeinfo. CMAKE_CXX_FLAGS_RELEASE comes last on the command line.
set(_snappy_args -DSNAPPY_BUILD_TESTS=OFF -DSNAPPY_BUILD_BENCHMARKS=OFF
                 "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG -frtti")
set(_rocksdb_args
  -DROCKSDB_BUILD_SHARED=OFF -DWITH_TESTS=OFF -DWITH_ALL_TESTS=OFF
  -DWITH_TOOLS=OFF -DWITH_CORE_TOOLS=OFF -DWITH_BENCHMARK_TOOLS=OFF
  -DWITH_TRACE_TOOLS=OFF -DWITH_EXAMPLES=OFF -DWITH_BENCHMARK=OFF
  -DWITH_GFLAGS=OFF -DWITH_LIBURING=OFF -DWITH_JEMALLOC=OFF -DWITH_NUMA=OFF
  -DWITH_JNI=OFF -DPORTABLE=1 -DUSE_RTTI=ON -DFAIL_ON_WARNINGS=OFF
  -DWITH_SNAPPY=ON -DWITH_LZ4=ON -DWITH_ZSTD=ON -DWITH_ZLIB=ON -DWITH_BZ2=ON
  "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG -DNPERF_CONTEXT -DNIOSTATS_CONTEXT -fno-semantic-interposition")
# Without RocksDB's PerfContext and IOStatsContext (NPERF_CONTEXT and
# NIOSTATS_CONTEXT, what its WITH_PERF_CONTEXT=OFF and WITH_IOSTATS_CONTEXT=OFF
# define; the counters live in its C++ sources). Both are per-thread counters
# (thread_local, counting by default), which nothing in pinget reads and no
# JAR user can reach. A get touches them a few dozen times, each time through
# __tls_get_addr, since the engine sits in a shared library: leaving them out
# takes 14% to 18% off a 128 B get's CPU time inside the JVM.
# -fno-semantic-interposition lets GCC inline RocksDB's functions into their
# callers although the code is position-independent (nothing can interpose
# them: the JNI library exports none; clang assumes it anyway): 1% to 1.5%
# more. docs/benchmarks.md, "The engine without RocksDB's perf counters", has
# the figures. A C++ program that reads the counters links a system RocksDB
# (PINGET_ROCKSDB=system).
set(PINGET_ENGINE_PERF_CONTEXT OFF)
if(PINGET_ENGINE_TARGET MATCHES "^osx-")
  # lz4 and zstd mark their API visible, which -fvisibility=hidden (the macOS
  # toolchain's, as zig's Mach-O linker takes no export list) does not
  # override: defined empty, the dylib does not export them.
  set(_hide "-DLZ4LIB_VISIBILITY= -DLZ4FLIB_VISIBILITY= -DZSTDLIB_VISIBLE="
            "-DZSTDERRORLIB_VISIBLE= -DZDICTLIB_VISIBLE=")
  string(JOIN " " _hide ${_hide})
  list(APPEND _lz4_args "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG ${_hide}")
  list(APPEND _zstd_args "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG ${_hide}")
endif()
if(PINGET_ENGINE_TARGET STREQUAL "win-x86_64")
  # File names cross as UTF-8 (what Java hands over), not the ANSI code page;
  # RocksDB installs nothing on Windows unless asked.
  list(APPEND _rocksdb_args -DWITH_WINDOWS_UTF8_FILENAMES=ON
                            -DROCKSDB_INSTALL_ON_WINDOWS=ON)
endif()

set(_recipe "revision ${_recipe_revision}\nc: ${_c_id}\ncxx: ${_cxx_id}\n")
# What the sub-builds also pick up from the environment and the toolchain
# (named only when set, so that the common key stays the same).
foreach(var CFLAGS CXXFLAGS LDFLAGS CPPFLAGS)
  if(NOT "$ENV{${var}}" STREQUAL "")
    string(APPEND _recipe "${var}=$ENV{${var}}\n")
  endif()
endforeach()
if(CMAKE_TOOLCHAIN_FILE AND NOT PINGET_ENGINE_TARGET)
  string(APPEND _recipe "toolchain=${CMAKE_TOOLCHAIN_FILE}\n")
endif()
foreach(dep IN LISTS _deps)
  string(APPEND _recipe "${dep} ${_${dep}_version} ${_${dep}_commit} "
                        "${_common_args} ${_${dep}_args}\n")
  # A source folder given instead of the pinned release: its path, and for a
  # Git checkout its commit and uncommitted changes, so that an edited tree
  # never takes the pinned release's place in the cache.
  string(TOUPPER "${dep}" DEP)
  if(FETCHCONTENT_SOURCE_DIR_${DEP})
    set(_tree "${FETCHCONTENT_SOURCE_DIR_${DEP}}")
    set(_head "")
    set(_changes "")
    if(EXISTS "${_tree}/.git")
      execute_process(COMMAND git -C "${_tree}" rev-parse HEAD
                      OUTPUT_VARIABLE _head ERROR_QUIET)
      execute_process(COMMAND git -C "${_tree}" status --porcelain
                      OUTPUT_VARIABLE _changes ERROR_QUIET)
    endif()
    string(SHA256 _changes "${_changes}")
    string(APPEND _recipe "${dep} from ${_tree} ${_head} ${_changes}\n")
  endif()
endforeach()
string(SHA256 _key "${_recipe}")
string(SUBSTRING "${_key}" 0 12 _key)
if(PINGET_ENGINE_TARGET)
  set(_key "${PINGET_ENGINE_TARGET}-${_key}")
endif()
set(_engine_dir "${PINGET_ENGINE_CACHE}/rocksdb-${PINGET_ROCKSDB_VERSION}-${_key}")
set(PINGET_ENGINE_PREFIX "${_engine_dir}/install")
set(_stamp "${_engine_dir}/complete")

set(PINGET_ENGINE_ARCHIVE_NAMES
  librocksdb.a libsnappy.a liblz4.a libzstd.a libz.a libbz2.a)
set(_pinget_cmake_dir "${CMAKE_CURRENT_LIST_DIR}")
include(${CMAKE_CURRENT_LIST_DIR}/PingetEngineBuild.cmake)

option(PINGET_ENGINE_BUILD
       "Build the engine when it is not cached; OFF: stop the configure" ON)
if(NOT EXISTS "${_stamp}" AND NOT PINGET_ENGINE_BUILD)
  message(FATAL_ERROR "pinget: no engine in ${_engine_dir} and "
                      "PINGET_ENGINE_BUILD is OFF")
endif()
if(NOT EXISTS "${_stamp}")
  file(MAKE_DIRECTORY "${PINGET_ENGINE_CACHE}")
  # One build per key at a time, across processes (parallel configures wait).
  file(LOCK "${_engine_dir}.lock" GUARD FILE TIMEOUT 7200 RESULT_VARIABLE _lock)
  if(NOT _lock STREQUAL "0")
    message(FATAL_ERROR "pinget: cannot lock ${_engine_dir}.lock: ${_lock}")
  endif()
  if(NOT EXISTS "${_stamp}")
    _pinget_build_engine()
  endif()
  file(LOCK "${_engine_dir}.lock" RELEASE)
endif()
message(STATUS "pinget: RocksDB ${PINGET_ROCKSDB_VERSION} (bundled) from "
               "${PINGET_ENGINE_PREFIX}")

# The engine for this build tree: RocksDB, then the codecs it calls (static
# archives: the order matters). An installed pinget recreates it from the
# copies that install() puts beside it (pingetConfig.cmake).
list(TRANSFORM PINGET_ENGINE_ARCHIVE_NAMES PREPEND "${PINGET_ENGINE_PREFIX}/lib/"
     OUTPUT_VARIABLE _archives)
find_package(Threads REQUIRED)
add_library(pinget_engine INTERFACE)
target_include_directories(pinget_engine SYSTEM INTERFACE
                           ${PINGET_ENGINE_PREFIX}/include)
# What the engine needs from the system beside the C and C++ runtimes: on
# Windows, RocksDB's port calls rpcrt4 (UUIDs) and shlwapi (path tests).
set(PINGET_ENGINE_SYSTEM_LIBS ${CMAKE_DL_LIBS})
if(WIN32)
  list(APPEND PINGET_ENGINE_SYSTEM_LIBS shlwapi rpcrt4)
endif()
target_link_libraries(pinget_engine INTERFACE
                      ${_archives} Threads::Threads ${PINGET_ENGINE_SYSTEM_LIBS})
