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
//
// 3. dispatch_async, dispatch_barrier_async and dispatch_group_async, which carry a counted region
//    into the block they queue (what Swift's DispatchQueue.async calls): a block queued while its
//    thread is in a counted region runs with collection on, on whichever Dispatch thread takes it,
//    and turns it off when it returns. So work a body hands to a queue and waits for is counted with
//    it; a block that runs after the region has closed is not (instrumentation is off by then).
//    The region waits, uncounted, for carried blocks to return before it closes
//    (perfkit_shim_settle_blocks): a block's tail after it resumes the body (its closure's return,
//    the thunk's release) would otherwise be counted or not as valgrind's scheduler ordered the two
//    threads (27,213 against 27,320 instructions for one hand-off). The Swift concurrency pool's threads need no
//    carrying: a counted async body's jobs run on PerfKit's own thread. Blocks queued by dispatch_after and dispatch
//    sources are not carried.
//
// 4. A block queued from a job of a counted async body (perfkit_shim_set_in_job) is held, uncounted, until the
//    thread async bodies run on sleeps with nothing queued (perfkit_shim_set_idle, from its doorbell), up to 100 ms.
//    A block that resumed the body at once would otherwise resume it before or after it suspended, and while its
//    thread was awake or asleep, as the two threads happened to run: paths of different lengths in the runtime's
//    continuation and in the wake-up (up to 1.5% of a hand-off). Held, it always finds the body suspended and its
//    thread asleep. A block the body did not wait for is let go when the region starts waiting for its blocks.
//    When that thread wakes it waits, uncounted, for every carried block that is running to return
//    (perfkit_shim_await_blocks, up to 100 ms): a block's tail after it resumed the body (its return, its release)
//    and the body's next instructions never run at once, whatever order valgrind's scheduler picks.
#define _GNU_SOURCE
#include "PerfKitValgrindShim.h"
// Linux only: a counting run (valgrind, LD_PRELOAD) exists nowhere else.
#ifdef __linux__
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
// Set while this thread runs a job of a counted async body: blocks it queues are held (4. above).
static __thread int in_job;
// Set while the thread async bodies run on sleeps with nothing queued.
static atomic_int executor_idle;
// Set while a dispatch call of this shim runs: a thread libdispatch starts then is its worker, not
// a thread of the body's, and is not carried (its whole life would be counted).
static __thread int in_dispatch;
static atomic_int started;

void perfkit_shim_set_collecting(int on) { collecting = on; }

void perfkit_shim_set_in_job(int on) { in_job = on; }

void perfkit_shim_set_idle(int idle) { atomic_store(&executor_idle, idle); }

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
    if (!collecting || in_dispatch) return real(thread, attributes, routine, argument);
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

// A block as the Blocks ABI lays it out: what is needed to call it from C without -fblocks.
struct perfkit_block {
    void *isa;
    int flags;
    int reserved;
    void (*invoke)(void *);
};

struct perfkit_carried {
    struct perfkit_block *block;
    int hold;  // queued from a job of a counted async body: run once its thread sleeps
};

static void *(*perfkit_block_copy)(const void *);
static void (*perfkit_block_release)(const void *);

static int perfkit_find_blocks(void) {
    if (!perfkit_block_copy) {
        perfkit_block_copy = (void *(*)(const void *))dlsym(RTLD_DEFAULT, "_Block_copy");
        perfkit_block_release = (void (*)(const void *))dlsym(RTLD_DEFAULT, "_Block_release");
    }
    return perfkit_block_copy && perfkit_block_release;
}

static atomic_int in_flight;
// The settle policy of carried blocks (SettlePolicy.carriedBlocks in Swift, handed over as PERFKIT_SETTLE_STEP_US and
// PERFKIT_SETTLE_STEPS): every wait of this shim sleeps `settle_step` µs at a time, at most `settle_steps` times.
static useconds_t settle_step = 50;
static int settle_steps = 2000;
// Set while a region waits for its blocks: a held block then runs at once (the body has returned; a block it queued
// and did not wait for would otherwise wait out its hold while the region waits out its settle).
static atomic_int settling;

int perfkit_shim_settle_blocks(void) {
    atomic_store(&settling, 1);
    // Up to 100 ms, in 50 µs sleeps: a block still running then is left running, and said so.
    for (int i = 0; i < settle_steps && atomic_load(&in_flight) > 0; i++) usleep(settle_step);
    int left = atomic_load(&in_flight);
    atomic_store(&settling, 0);
    return left;
}

// Carried blocks past their hold, until their last instruction (the block's release included): the thread async
// bodies run on waits, uncounted, for none to be running when it wakes (perfkit_shim_await_blocks).
static atomic_int running;

void perfkit_shim_await_blocks(void) {
    // The same instructions are counted whether it waits or not: collection is off for the whole check.
    int was = collecting;
    if (was) CALLGRIND_TOGGLE_COLLECT;
    for (int i = 0; i < settle_steps && atomic_load(&running) > 0; i++) usleep(settle_step);
    if (was) CALLGRIND_TOGGLE_COLLECT;
}

static void perfkit_carried_run(void *raw) {
    struct perfkit_carried carried = *(struct perfkit_carried *)raw;
    free(raw);
    // Uncounted (collection is not on yet on this thread), up to 100 ms in 50 µs sleeps. The block counts itself
    // running before it looks at the sleeper, and the sleeper says it is awake before it looks at the blocks running
    // (both sequentially consistent): a block never starts while the body's thread runs after waking.
    atomic_fetch_add(&running, 1);
    for (int i = 0; carried.hold && i < settle_steps && !atomic_load(&executor_idle) && !atomic_load(&settling); i++) {
        atomic_fetch_sub(&running, 1);
        usleep(settle_step);
        atomic_fetch_add(&running, 1);
    }
    int was = collecting;
    if (!was) {
        collecting = 1;
        CALLGRIND_TOGGLE_COLLECT;
    }
    carried.block->invoke(carried.block);
    if (!was) {
        CALLGRIND_TOGGLE_COLLECT;
        collecting = 0;
    }
    perfkit_block_release(carried.block);
    atomic_fetch_sub(&running, 1);
    atomic_fetch_sub(&in_flight, 1);
}

// The context that carries `block`, or NULL when it is not carried (not in a counted region, or
// no Blocks runtime): the caller then queues the block as it was given.
static struct perfkit_carried *perfkit_carry(void *block) {
    if (!collecting || !block || !perfkit_find_blocks()) return 0;
    struct perfkit_carried *carried = malloc(sizeof *carried);
    if (!carried) return 0;
    carried->block = (struct perfkit_block *)perfkit_block_copy(block);
    carried->hold = in_job;
    atomic_fetch_add(&in_flight, 1);
    return carried;
}

typedef void (*perfkit_async)(void *, void *);
typedef void (*perfkit_async_f)(void *, void *, void (*)(void *));
typedef void (*perfkit_group_async)(void *, void *, void *);
typedef void (*perfkit_group_async_f)(void *, void *, void *, void (*)(void *));

// The queueing functions wrapped, each with its block form and its function form (what a carried
// block is queued with).
enum perfkit_queueing { perfkit_plain, perfkit_barrier, perfkit_group, perfkit_queueings };
static const char *const perfkit_names[perfkit_queueings][2] = {
    {"dispatch_async", "dispatch_async_f"},
    {"dispatch_barrier_async", "dispatch_barrier_async_f"},
    {"dispatch_group_async", "dispatch_group_async_f"},
};
static void *perfkit_real[perfkit_queueings][2];

// Every symbol the wrappers forward to, looked up when the shim is loaded: looked up at a first
// call, the dynamic linker's search (about 9,400 instructions) fell in the first counted sample.
__attribute__((constructor)) static void perfkit_shim_resolve(void) {
    const char *step = getenv("PERFKIT_SETTLE_STEP_US"), *steps = getenv("PERFKIT_SETTLE_STEPS");
    if (step && atoi(step) > 0) settle_step = (useconds_t)atoi(step);
    if (steps && atoi(steps) > 0) settle_steps = atoi(steps);
    for (int kind = 0; kind < perfkit_queueings; kind++)
        for (int form = 0; form < 2; form++) perfkit_real[kind][form] = dlsym(RTLD_NEXT, perfkit_names[kind][form]);
    perfkit_find_blocks();
}

// Queues `block` on `queue` (in `group` for dispatch_group_async) through libdispatch: as it is, or
// carried into a counted region.
static void perfkit_queue(enum perfkit_queueing kind, void *group, void *queue, void *block) {
    if (!perfkit_real[kind][0]) perfkit_shim_resolve();
    struct perfkit_carried *carried = perfkit_carry(block);
    in_dispatch = 1;
    if (kind == perfkit_group) {
        if (carried) ((perfkit_group_async_f)perfkit_real[kind][1])(group, queue, carried, perfkit_carried_run);
        else ((perfkit_group_async)perfkit_real[kind][0])(group, queue, block);
    } else {
        if (carried) ((perfkit_async_f)perfkit_real[kind][1])(queue, carried, perfkit_carried_run);
        else ((perfkit_async)perfkit_real[kind][0])(queue, block);
    }
    in_dispatch = 0;
}

void dispatch_async(void *queue, void *block) { perfkit_queue(perfkit_plain, NULL, queue, block); }

void dispatch_barrier_async(void *queue, void *block) { perfkit_queue(perfkit_barrier, NULL, queue, block); }

void dispatch_group_async(void *group, void *queue, void *block) {
    perfkit_queue(perfkit_group, group, queue, block);
}
#endif
