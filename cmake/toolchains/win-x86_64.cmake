# The JAR's win-x86_64 library: see pinget-desktop-target.cmake.
set(PINGET_TARGET win-x86_64)
include(${CMAKE_CURRENT_LIST_DIR}/pinget-desktop-target.cmake)
