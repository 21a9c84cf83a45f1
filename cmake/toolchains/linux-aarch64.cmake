# The JAR's linux-aarch64 library: see pinget-target.cmake.
set(PINGET_TARGET linux-aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/pinget-target.cmake)
