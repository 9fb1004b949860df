#define _GNU_SOURCE
#include "CValgrind.h"
#include <dlfcn.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The doorbell the thread async bodies run on sleeps on. Its wait and ring take the same instructions
   whether or not the sleeper was already asleep when rung: a ring always makes the wake system call,
   and a wait rung before its futex call returns from that call at once (EAGAIN) and takes the ring
   on its next pass, as a sleeper woken does. (A DispatchSemaphore takes a shorter path when the ring
   comes first.) While the thread that reports idleness sleeps with nothing queued, the preloaded
   shim lets the Dispatch blocks its jobs queued run (perfkit_shim_set_idle). */
struct perfkit_doorbell {
    atomic_int rings;
    int reports_idle;
};

static void (*perfkit_shim_idle)(int) = 0;
static void (*perfkit_shim_in_job)(int) = 0;
static void (*perfkit_shim_await)(void) = 0;
static void perfkit_find_shim(void);

void *perfkit_doorbell_make(int reports_idle) {
    struct perfkit_doorbell *bell = calloc(1, sizeof *bell);
    if (bell) bell->reports_idle = reports_idle;
    perfkit_find_shim();
    return bell;
}

void perfkit_doorbell_wait(void *raw) {
    struct perfkit_doorbell *bell = raw;
    for (;;) {
        int rings = atomic_load(&bell->rings);
        if (rings > 0) {
            if (atomic_compare_exchange_weak(&bell->rings, &rings, rings - 1)) return;
            continue;
        }
        if (bell->reports_idle && perfkit_shim_idle) perfkit_shim_idle(1);
        syscall(SYS_futex, &bell->rings, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
        if (bell->reports_idle && perfkit_shim_idle) {
            perfkit_shim_idle(0);
            perfkit_shim_await();
        }
    }
}

void perfkit_doorbell_ring(void *raw) {
    struct perfkit_doorbell *bell = raw;
    atomic_fetch_add(&bell->rings, 1);
    syscall(SYS_futex, &bell->rings, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void perfkit_job_begin(void) {
    if (perfkit_shim_in_job) perfkit_shim_in_job(1);
}

void perfkit_job_end(void) {
    if (perfkit_shim_in_job) perfkit_shim_in_job(0);
}

#if defined(__has_include)
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
static void (*perfkit_set_collecting)(int) = 0;
static int (*perfkit_shim_started)(void) = 0;
static int (*perfkit_shim_settle)(void) = 0;
static int perfkit_shim_looked_up = 0;

static void perfkit_find_shim(void) {
    if (perfkit_shim_looked_up) return;
    perfkit_set_collecting = (void (*)(int))dlsym(RTLD_DEFAULT, "perfkit_shim_set_collecting");
    perfkit_shim_started = (int (*)(void))dlsym(RTLD_DEFAULT, "perfkit_shim_threads_started");
    perfkit_shim_settle = (int (*)(void))dlsym(RTLD_DEFAULT, "perfkit_shim_settle_blocks");
    perfkit_shim_idle = (void (*)(int))dlsym(RTLD_DEFAULT, "perfkit_shim_set_idle");
    perfkit_shim_in_job = (void (*)(int))dlsym(RTLD_DEFAULT, "perfkit_shim_set_in_job");
    perfkit_shim_await = (void (*)(void))dlsym(RTLD_DEFAULT, "perfkit_shim_await_blocks");
    if (!perfkit_shim_await) perfkit_shim_idle = 0; /* an older shim: neither is used */
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
int perfkit_running_on_valgrind(void) { return 0; }
int perfkit_valgrind_headers_present(void) { return 0; }
void perfkit_count_begin(void) {}
void perfkit_count_end(const char *label) { (void)label; }
int perfkit_threads_started(void) { return 0; }
static void perfkit_find_shim(void) {}
#endif
