# The JAR's linux-x86_64 library: see pinget-target.cmake.
set(PINGET_TARGET linux-x86_64)
include(${CMAKE_CURRENT_LIST_DIR}/pinget-target.cmake)
