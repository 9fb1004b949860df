#ifndef PERFKIT_VALGRIND_SHIM_H
#define PERFKIT_VALGRIND_SHIM_H
// Preloaded (LD_PRELOAD) into a test bundle that runs under valgrind; see PerfKitValgrindShim.c.
#include <signal.h>
int sigsuspend(const sigset_t *mask);
#endif
