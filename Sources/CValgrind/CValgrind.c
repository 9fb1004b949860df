#define _GNU_SOURCE
#include "CValgrind.h"
#include "PerfKitShimEntryPoints.h"

#if defined(__linux__) && !defined(PERFKIT_PORTABLE) && defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define PERFKIT_HAS_VALGRIND 1
#endif
#endif

#ifdef PERFKIT_HAS_VALGRIND
int perfkit_running_on_valgrind(void) { return (int)RUNNING_ON_VALGRIND; }
int perfkit_valgrind_headers_present(void) { return 1; }
/* Collection is per thread (callgrind keeps a collect state for each): the body's thread turns it
   on for itself. The preloaded shim (PerfKitValgrindShim) carries it into threads the body starts;
   it is found at run time, since only counting runs preload it. */
static __typeof__(&perfkit_shim_set_collecting) perfkit_set_collecting;
static __typeof__(&perfkit_shim_threads_started) perfkit_shim_started;
static __typeof__(&perfkit_shim_settle_blocks) perfkit_shim_settle;
static int perfkit_shim_looked_up = 0;

static void perfkit_find_shim(void) {
    if (perfkit_shim_looked_up) return;
    perfkit_set_collecting = PERFKIT_SHIM_LOOKUP(perfkit_shim_set_collecting);
    perfkit_shim_started = PERFKIT_SHIM_LOOKUP(perfkit_shim_threads_started);
    perfkit_shim_settle = PERFKIT_SHIM_LOOKUP(perfkit_shim_settle_blocks);
    perfkit_shim_looked_up = 1;
}

int perfkit_threads_started(void) {
    perfkit_find_shim();
    return perfkit_shim_started ? perfkit_shim_started() : 0;
}

/* The counting process starts uninstrumented (--instr-atstart=no: the harness, setup and warm-up
   run at valgrind's plain speed, several times faster) with collection off in every thread
   (--collect-atstart=no). A region turns instrumentation on, process-wide, and collection on for
   its own thread (and, through the shim, for threads it starts): other threads that run meanwhile
   are simulated but not counted. */
void perfkit_count_begin(void) {
    perfkit_find_shim();
    if (perfkit_set_collecting) perfkit_set_collecting(1);
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
}
void perfkit_count_end(const char *label) {
    CALLGRIND_TOGGLE_COLLECT;
    /* Blocks the body queued on Dispatch count to their end (the shim carries collection into them):
       wait for them, uncounted, while instrumentation is still on. */
    if (perfkit_shim_settle) perfkit_shim_settle();
    CALLGRIND_STOP_INSTRUMENTATION;
    if (perfkit_set_collecting) perfkit_set_collecting(0);
    CALLGRIND_DUMP_STATS_AT(label);
}
#else
/* Without valgrind's headers, on other systems than Linux, or with the Portable trait: never counting. */
int perfkit_running_on_valgrind(void) { return 0; }
int perfkit_valgrind_headers_present(void) { return 0; }
void perfkit_count_begin(void) {}
void perfkit_count_end(const char *label) { (void)label; }
int perfkit_threads_started(void) { return 0; }
#endif
