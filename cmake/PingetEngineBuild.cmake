# Builds the bundled engine into ${_engine_dir}/install at configure time, so
# that every build tree on the machine (release, sanitizers, Maven's, a second
# clone) reuses one copy. Included by PingetEngine.cmake, whose variables
# (_deps, _<dep>_*, _common_args, _engine_dir, _stamp, _recipe) it reads.

include(FetchContent)
if(POLICY CMP0135)
  cmake_policy(SET CMP0135 NEW)  # extracted files get the extraction time
endif()
if(POLICY CMP0169)
  cmake_policy(SET CMP0169 OLD)  # FetchContent_Populate: sources only
endif()

# Makes ${dep}'s sources available in _pinget_src_<dep>, checked to be the
# pinned release.
function(_pinget_fetch dep work)
  string(TOUPPER "${dep}" DEP)
  if(PINGET_THIRD_PARTY_DIR)
    set(_from URL "${PINGET_THIRD_PARTY_DIR}/${dep}-${_${dep}_version}.tar.xz"
              URL_HASH SHA256=${_${dep}_sha256})
    set(_where "${PINGET_THIRD_PARTY_DIR}")
  else()
    set(_from GIT_REPOSITORY ${_${dep}_git} GIT_TAG ${_${dep}_commit})
    set(_where "${_${dep}_git} at ${_${dep}_commit} (network; if it fails: "
               "-DPINGET_THIRD_PARTY_DIR=<folder with the release archives>)")
  endif()
  if(FETCHCONTENT_SOURCE_DIR_${DEP})
    set(_where "FETCHCONTENT_SOURCE_DIR_${DEP}=${FETCHCONTENT_SOURCE_DIR_${DEP}}")
  endif()
  message(STATUS "pinget: ${dep} ${_${dep}_version} from ${_where}")
  FetchContent_Declare(${dep} ${_from}
    SOURCE_DIR "${work}/src/${dep}"
    SUBBUILD_DIR "${work}/fetch/${dep}"
    BINARY_DIR "${work}/unused/${dep}")
  FetchContent_GetProperties(${dep})
  if(NOT ${dep}_POPULATED)
    FetchContent_Populate(${dep})
  endif()
  set(_src "${${dep}_SOURCE_DIR}")
  _pinget_check_release(${dep} "${_src}")
  set(_pinget_src_${dep} "${_src}" PARENT_SCOPE)
endfunction()

# Runs a command of the engine build with its output on the console (the
# progress of a long build); stops the configure if it fails.
function(_pinget_run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pinget: ${what} failed (${rc}); see the output above. "
                        "Nothing was added to ${PINGET_ENGINE_CACHE}.")
  endif()
endfunction()

# Configures, builds and installs one CMake project into the engine prefix.
function(_pinget_build_project dep source_dir)
  set(build "${_work}/build/${dep}")
  if(_engine_toolchain)
    set(_compilers -DCMAKE_TOOLCHAIN_FILE=${_engine_toolchain})
  else()
    set(_compilers -DCMAKE_C_COMPILER=${PINGET_ENGINE_C_COMPILER}
                   -DCMAKE_CXX_COMPILER=${PINGET_ENGINE_CXX_COMPILER})
  endif()
  set(launcher "")
  find_program(PINGET_CCACHE ccache)
  if(PINGET_CCACHE)
    set(launcher -DCMAKE_C_COMPILER_LAUNCHER=${PINGET_CCACHE}
                 -DCMAKE_CXX_COMPILER_LAUNCHER=${PINGET_CCACHE})
  endif()
  _pinget_run("configuring ${dep}"
    ${CMAKE_COMMAND} -S "${source_dir}" -B "${build}" -G "${CMAKE_GENERATOR}"
    -DCMAKE_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}
    ${_compilers}
    -DCMAKE_INSTALL_PREFIX=${_prefix} -DCMAKE_PREFIX_PATH=${_prefix}
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
    ${launcher} ${_common_args} ${_${dep}_args} ${ARGN})
  # CCACHE_BASEDIR: ccache sees paths relative to the work folder, so a recipe
  # change that leaves a file's flags alone still hits.
  _pinget_run("building ${dep}"
    ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${_work}
    ${CMAKE_COMMAND} --build "${build}" --config Release --parallel ${_jobs}
    ${_${dep}_target})
  if(NOT _${dep}_target)
    _pinget_run("installing ${dep}"
      ${CMAKE_COMMAND} --install "${build}" --config Release)
  endif()
endfunction()

function(_pinget_build_engine)
  set(_work "${_engine_dir}.work")
  set(_prefix "${_engine_dir}.work/install")
  file(REMOVE_RECURSE "${_work}")
  cmake_host_system_information(RESULT _jobs QUERY NUMBER_OF_LOGICAL_CORES)
  string(TIMESTAMP _start "%s")
  message(STATUS "pinget: building RocksDB ${PINGET_ROCKSDB_VERSION} and its "
    "codecs into ${_engine_dir} (once per machine: about 13 minutes on 2 cores "
    "without ccache; every later configure reuses it)")

  foreach(dep IN LISTS _deps)
    _pinget_fetch(${dep} "${_work}")
  endforeach()

  # zlib's install step also wants its shared library: build the static one
  # alone and copy it with its headers.
  set(_zlib_target --target zlibstatic)
  _pinget_build_project(zlib "${_pinget_src_zlib}")
  # Named libz.a on Unix, libzlibstatic.a on Windows; Release/ if multi-config.
  file(GLOB_RECURSE _libz "${_work}/build/zlib/libz.a"
                          "${_work}/build/zlib/libzlibstatic.a")
  list(LENGTH _libz _count)
  if(NOT _count EQUAL 1)
    message(FATAL_ERROR "pinget: zlib's build made ${_count} static libraries")
  endif()
  configure_file(${_libz} "${_prefix}/lib/libz.a" COPYONLY)
  file(COPY "${_pinget_src_zlib}/zlib.h" "${_work}/build/zlib/zconf.h"
       DESTINATION "${_prefix}/include")
  set(_zlib_target "")
  _pinget_build_project(bzip2 "${_pinget_cmake_dir}/bzip2"
                        -DBZIP2_SOURCE_DIR=${_pinget_src_bzip2})
  _pinget_build_project(lz4 "${_pinget_src_lz4}/build/cmake")
  _pinget_build_project(zstd "${_pinget_src_zstd}/build/cmake")
  _pinget_build_project(snappy "${_pinget_src_snappy}")
  _pinget_build_project(rocksdb "${_pinget_src_rocksdb}")

  foreach(lib IN LISTS PINGET_ENGINE_ARCHIVE_NAMES)
    if(NOT EXISTS "${_prefix}/lib/${lib}")
      message(FATAL_ERROR "pinget: the engine build made no ${lib}")
    endif()
  endforeach()
  # Licenses travel with every binary that embeds the engine.
  foreach(dep IN LISTS _deps)
    file(GLOB _licenses "${_pinget_src_${dep}}/LICENSE*"
                        "${_pinget_src_${dep}}/COPYING*")
    file(COPY ${_licenses} DESTINATION "${_prefix}/share/licenses/${dep}")
  endforeach()

  # Publish atomically: a half-built engine is never seen as complete.
  file(REMOVE_RECURSE "${_engine_dir}")
  file(MAKE_DIRECTORY "${_engine_dir}")
  file(RENAME "${_prefix}" "${PINGET_ENGINE_PREFIX}")
  file(WRITE "${_stamp}" "${_recipe}")
  file(REMOVE_RECURSE "${_work}")
  string(TIMESTAMP _end "%s")
  math(EXPR _minutes "(${_end} - ${_start} + 30) / 60")
  message(STATUS "pinget: engine built in ${_minutes} min")
endfunction()
