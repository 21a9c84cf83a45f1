// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Put first on the include path by the glibc targets' toolchain
// (cmake/toolchains/pinget-target.cmake): GCC 12's libstdc++ configuration,
// less what it found in the glibc (2.36) it was built for and 2.17 lacks.
// Without these, <mutex>, <shared_mutex> and <condition_variable> call
// pthread_*_clock* functions (glibc 2.30) inline; undefined, libstdc++ falls
// back to the timed variants against CLOCK_REALTIME, as on older glibc.

#include_next <bits/c++config.h>

#undef _GLIBCXX_USE_PTHREAD_COND_CLOCKWAIT
#undef _GLIBCXX_USE_PTHREAD_MUTEX_CLOCKLOCK
#undef _GLIBCXX_USE_PTHREAD_RWLOCK_CLOCKLOCK
