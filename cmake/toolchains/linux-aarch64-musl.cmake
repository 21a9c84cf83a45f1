# The JAR's linux-aarch64-musl library: see pinget-target.cmake.
set(PINGET_TARGET linux-aarch64-musl)
include(${CMAKE_CURRENT_LIST_DIR}/pinget-target.cmake)
