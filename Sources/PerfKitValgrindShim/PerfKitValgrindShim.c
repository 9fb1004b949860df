// Preloaded (LD_PRELOAD) into a test bundle that a counting run starts under valgrind's callgrind.
//
// 1. A sigsuspend that copies its mask before the system call. libdispatch's main-thread wait
//    passes a mask kept in read-only memory (a static const sigset_t); valgrind's rt_sigsuspend
//    wrapper edits the mask in place (it removes its own kill signal), which faults and kills every
//    Swift Testing run under valgrind ("VALGRIND INTERNAL ERROR ... SIGSEGV"). This definition
//    takes the call and hands valgrind a writable copy. Not fixed upstream as of valgrind 3.28.
//
// 2. A pthread_create that carries a counted region into the threads it starts. Callgrind's
//    collection state is per thread: a counted body turns it on for its own thread only, so a
//    thread the body starts would run uncounted. While the calling thread is in a counted region
//    (PerfKit calls perfkit_shim_set_collecting), a new thread starts with collection on and turns
//    it off when its routine returns; threads of the harness, which the body did not start, stay
//    uncounted, so a single-threaded body counts the same to the instruction run after run.
//    Work handed to threads that already exist (a dispatch queue's, the Swift concurrency pool's)
//    is not counted.
#define _GNU_SOURCE
#include "PerfKitValgrindShim.h"
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define PERFKIT_SHIM_HAS_VALGRIND 1
#endif
#endif
#ifndef PERFKIT_SHIM_HAS_VALGRIND
#define CALLGRIND_TOGGLE_COLLECT
#endif

int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}

static __thread int collecting;
static atomic_int started;

void perfkit_shim_set_collecting(int on) { collecting = on; }

int perfkit_shim_threads_started(void) { return atomic_load(&started); }

struct perfkit_start {
    void *(*routine)(void *);
    void *argument;
};

static void *perfkit_counted_start(void *raw) {
    struct perfkit_start start = *(struct perfkit_start *)raw;
    free(raw);
    collecting = 1;
    CALLGRIND_TOGGLE_COLLECT;
    void *result = start.routine(start.argument);
    CALLGRIND_TOGGLE_COLLECT;
    collecting = 0;
    return result;
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*routine)(void *), void *argument) {
    static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
    if (!real) real = (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))dlsym(RTLD_NEXT, "pthread_create");
    if (!collecting) return real(thread, attributes, routine, argument);
    struct perfkit_start *start = malloc(sizeof *start);
    if (!start) return real(thread, attributes, routine, argument);
    start->routine = routine;
    start->argument = argument;
    atomic_fetch_add(&started, 1);
    int status = real(thread, attributes, perfkit_counted_start, start);
    if (status != 0) {
        atomic_fetch_sub(&started, 1);
        free(start);
    }
    return status;
}
