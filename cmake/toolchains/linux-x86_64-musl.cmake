# The JAR's linux-x86_64-musl library: see pinget-target.cmake.
set(PINGET_TARGET linux-x86_64-musl)
include(${CMAKE_CURRENT_LIST_DIR}/pinget-target.cmake)
