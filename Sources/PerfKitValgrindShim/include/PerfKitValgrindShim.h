#ifndef PERFKIT_VALGRIND_SHIM_H
#define PERFKIT_VALGRIND_SHIM_H
// Preloaded (LD_PRELOAD) into a test bundle that runs under valgrind; see PerfKitValgrindShim.c.
#include <pthread.h>
#include <signal.h>
int sigsuspend(const sigset_t *mask);
int pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*routine)(void *), void *argument);
/// Marks the calling thread as inside a counted region (1) or not (0): threads it starts are counted.
void perfkit_shim_set_collecting(int on);
/// Threads started from inside counted regions so far.
int perfkit_shim_threads_started(void);
/// Waits up to 100 ms for blocks queued from counted regions to return; the number still running.
int perfkit_shim_settle_blocks(void);
void perfkit_shim_set_in_job(int on);
void perfkit_shim_set_idle(int idle);
/// Waits, uncounted, up to 100 ms for carried blocks that are running to return (the thread async bodies run on).
void perfkit_shim_await_blocks(void);
#endif
