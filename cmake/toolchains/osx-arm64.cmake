# The JAR's osx-arm64 library: see pinget-desktop-target.cmake.
set(PINGET_TARGET osx-arm64)
include(${CMAKE_CURRENT_LIST_DIR}/pinget-desktop-target.cmake)
