#ifndef PERFKIT_VALGRIND_SHIM_H
#define PERFKIT_VALGRIND_SHIM_H
// Preloaded (LD_PRELOAD) into a test bundle that runs under valgrind; see PerfKitValgrindShim.c.
#include <pthread.h>
#include <signal.h>
int sigsuspend(const sigset_t *mask);
int pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*routine)(void *), void *argument);
// The shim's own entry points, named once for it and for the modules that look them up.
#include "PerfKitShimEntryPoints.h"
#endif
