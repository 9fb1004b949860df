#ifndef PERFKIT_SHIM_ENTRY_POINTS_H
#define PERFKIT_SHIM_ENTRY_POINTS_H
// The preloaded shim's entry points (PerfKitValgrindShim), named once. The shim defines them; CValgrind and
// CMeasuredThread look each up at run time by the same name, since only a counting run preloads the shim.
#include <dlfcn.h>

// X(return type, name, parameters), one line per entry point.
#define PERFKIT_SHIM_ENTRY_POINTS(X)                                                                                 \
    /* Marks the calling thread as inside a counted region (1) or not (0): threads it starts are counted. */          \
    X(void, perfkit_shim_set_collecting, (int on))                                                                    \
    /* Threads started from inside counted regions so far. */                                                         \
    X(int, perfkit_shim_threads_started, (void))                                                                      \
    /* Waits up to 100 ms for blocks queued from counted regions to return; the number still running. */              \
    X(int, perfkit_shim_settle_blocks, (void))                                                                        \
    /* Marks the calling thread as running a job of a counted async body (blocks it queues are held). */              \
    X(void, perfkit_shim_set_in_job, (int on))                                                                        \
    /* Says the thread async bodies run on sleeps with nothing queued (1) or is awake (0). */                         \
    X(void, perfkit_shim_set_idle, (int idle))                                                                        \
    /* Waits, uncounted, up to 100 ms for carried blocks that are running to return. */                               \
    X(void, perfkit_shim_await_blocks, (void))

#define PERFKIT_SHIM_DECLARE(type, name, parameters) type name parameters;
PERFKIT_SHIM_ENTRY_POINTS(PERFKIT_SHIM_DECLARE)
#undef PERFKIT_SHIM_DECLARE

// The entry point `name` of the preloaded shim, typed as declared above; NULL in a process without the shim.
#define PERFKIT_SHIM_LOOKUP(name) ((__typeof__(&name))dlsym(RTLD_DEFAULT, #name))
#endif
